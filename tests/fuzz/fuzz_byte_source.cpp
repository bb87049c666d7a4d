// libFuzzer target for ByteSource (gzip members, zstd frames, skippable
// frames, nested layers, truncation) and then the whole load: sniffing and
// whichever format loader the decoded bytes pick. The streamed decoder
// (DecodeStream, with parallel zstd frames) must give what the whole one gives,
// and the streamed Chrome JSON load the same trace.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <string_view>

#include "loaders/byte_source.h"
#include "loaders/chrome_json/chrome_json_loader.h"
#include "loaders/decode_stream.h"
#include "loaders/load.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

constexpr uint64_t kMaxDecodedBytes = uint64_t{16} << 20;

[[noreturn]] void Finding(const char* what) {
  std::fprintf(stderr, "fuzz finding: %s\n", what);
  std::abort();
}

// The streamed decode of the first layer against DecodeBytes (one layer:
// compare only when the content is not wrapped again).
void CheckStreamed(std::string_view bytes, const stepline::loaders::DecodedInput* whole,
                   const stepline::loaders::LoadError* whole_error) {
  using namespace stepline::loaders;
  if (whole != nullptr && whole->compression.find('+') != std::string::npos) return;
  ByteBuffer copy = ByteBuffer::Allocate(bytes.size());
  if (copy.data() == nullptr) return;
  std::copy(bytes.begin(), bytes.end(), copy.mutable_data());
  StreamOptions options;
  options.max_decoded_bytes = kMaxDecodedBytes;
  options.ahead_bytes = 4096;
  options.zstd_threads = 2;
  auto stream = DecodeStream::Start(std::move(copy), "fuzz-input", nullptr, options);
  if (stream == nullptr) return;
  auto streamed = stream->TakeResult();
  if (whole_error != nullptr) {
    if (streamed.ok()) {
      if (IsCompressedHead(streamed->bytes.view())) return;  // a second layer failed in the whole decode
      Finding("the streamed decode succeeds where the whole decode fails");
    }
    if (streamed.error().code != whole_error->code || streamed.error().message != whole_error->message) {
      Finding("the streamed decode fails differently");
    }
    return;
  }
  if (!streamed.ok()) Finding("the streamed decode fails where the whole decode succeeds");
  if (streamed->bytes.view() != whole->bytes.view()) Finding("the streamed decode gives other bytes");
  if (streamed->truncated != whole->truncated || streamed->truncated_at != whole->truncated_at ||
      streamed->truncation_detail != whole->truncation_detail) {
    Finding("the streamed decode describes truncation differently");
  }
  if (SniffFormat(whole->bytes.view().substr(0, 128)) != Format::kChromeJson) return;
  // Parsing while decoding gives the trace of parsing afterwards.
  ByteBuffer again = ByteBuffer::Allocate(bytes.size());
  std::copy(bytes.begin(), bytes.end(), again.mutable_data());
  stream = DecodeStream::Start(std::move(again), "fuzz-input", nullptr, options);
  DecodedInput finished;
  LoadOptions load_options;
  load_options.threads = 2;
  auto a = LoadChromeJsonStreamed(stream.get(), &finished, "fuzz-input", load_options, nullptr, ChromeJsonTuning{256});
  auto b = LoadChromeJson(*whole, "fuzz-input", load_options, nullptr, ChromeJsonTuning{256});
  if (a.ok() != b.ok()) Finding("the streamed Chrome JSON load succeeds or fails differently");
  if (a.ok() && (a->slices().size() != b->slices().size() || a->instants().size() != b->instants().size() ||
                 a->counters().size() != b->counters().size() ||
                 a->diagnostics().NonEmpty().size() != b->diagnostics().NonEmpty().size())) {
    Finding("the streamed Chrome JSON load gives another trace");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace stepline::loaders;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto input = DecodeBytes(bytes, "fuzz-input", nullptr, kMaxDecodedBytes);
  if (!input.ok()) {
    if (input.error().message.empty()) Finding("a DecodeBytes error without a message");
    CheckStreamed(bytes, nullptr, &input.error());
    return 0;
  }
  const DecodedInput& in = *input;
  CheckStreamed(bytes, &in, nullptr);
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
