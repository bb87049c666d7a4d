// The libFuzzer target for one format loader, chosen at build time:
// STEPLINE_FUZZ_HEADER names its header and STEPLINE_FUZZ_ENTRY the function
// `Result<Trace, LoadError> F(const DecodedInput&, const std::string& path,
// const LoadOptions&, LoadProgress*)` (CMakeLists.txt here: one line per target).
// The bytes go to the loader as ByteSource hands them over (decompressed when
// they are gzip or zstd, padded), without the sniffing, so every input
// reaches the format's parser.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include STEPLINE_FUZZ_HEADER
#include "loaders/byte_source.h"
#include "tests/fuzz/fuzz_check.h"

namespace {
constexpr uint64_t kMaxDecodedBytes = uint64_t{64} << 20;  // keeps a fuzzed gzip bomb cheap
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace stepline::loaders;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto input = DecodeBytes(bytes, "fuzz-input", nullptr, kMaxDecodedBytes);
  if (!input.ok()) return 0;
  stepline::fuzz::LoadEveryWay(
      [&](const LoadOptions& options) { return STEPLINE_FUZZ_ENTRY(*input, "fuzz-input", options, nullptr); });
  return 0;
}
