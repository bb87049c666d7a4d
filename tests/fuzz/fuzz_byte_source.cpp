// libFuzzer target for ByteSource (gzip members, zstd frames, skippable
// frames, nested layers, truncation) and then the whole load: sniffing and
// whichever format loader the decoded bytes pick.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "loaders/byte_source.h"
#include "loaders/load.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

constexpr uint64_t kMaxDecodedBytes = uint64_t{16} << 20;

[[noreturn]] void Finding(const char* what) {
  std::fprintf(stderr, "fuzz finding: %s\n", what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace stepline::loaders;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto input = DecodeBytes(bytes, "fuzz-input", nullptr, kMaxDecodedBytes);
  if (!input.ok()) {
    if (input.error().message.empty()) Finding("a DecodeBytes error without a message");
    return 0;
  }
  const DecodedInput& in = *input;
  if (in.bytes.size() > kMaxDecodedBytes) Finding("decoded more than the limit");
  if (in.file_bytes != size) Finding("file_bytes is not the input size");
  if (in.compression.empty() && in.bytes.view() != bytes) Finding("uncompressed bytes changed");
  if (in.truncated && in.truncation_detail.empty()) Finding("truncated without a detail");
  for (size_t i = 0; i < ByteBuffer::kPadding; ++i) {
    if (in.bytes.data()[in.bytes.size() + i] != 0) Finding("padding is not zero");
  }
  stepline::fuzz::LoadEveryWay(
      [&](const LoadOptions& options) { return LoadDecodedInput(in, "fuzz-input", options, nullptr); });
  return 0;
}
