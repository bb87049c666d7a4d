// A whole file's bytes for a test to compare or damage.
#pragma once

#include <fstream>
#include <string>

namespace stepline::testing {

// "" when the file cannot be read. One read of the file's size: the
// istreambuf_iterator copies this replaced went a character at a time, which
// at the tests' -O0 under the sanitizers was 44% of a cache test's run time.
inline std::string ReadFileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return "";
  const std::streamoff size = in.tellg();
  if (size <= 0) return "";
  std::string bytes(static_cast<size_t>(size), '\0');
  in.seekg(0);
  in.read(bytes.data(), size);
  bytes.resize(static_cast<size_t>(in.gcount()));
  return bytes;
}

}  // namespace stepline::testing
