// libFuzzer target for the Chrome JSON loader. With 2 threads the input is
// cut into 64-byte speculative chunks, so even a small input goes through the
// parallel chunker, its failure scan and the exact re-plan; with 1 thread it
// is parsed as one chunk. Both must agree (fuzz_check.h).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "loaders/byte_source.h"
#include "loaders/chrome_json/chrome_json_loader.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace stepline::loaders;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto input = DecodeBytes(bytes, "fuzz-input", nullptr, uint64_t{64} << 20);
  if (!input.ok()) return 0;
  stepline::fuzz::LoadEveryWay([&](const LoadOptions& options) {
    ChromeJsonTuning tuning;
    tuning.chunk_bytes = options.threads > 1 ? 64 : 0;
    return LoadChromeJson(*input, "fuzz-input", options, nullptr, tuning);
  });
  return 0;
}
