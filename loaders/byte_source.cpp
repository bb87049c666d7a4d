// ByteSource: the gzip/zstd decoders behind OpenInput()/DecodeBytes()
// (ByteBuffer, the padded buffer and the file mapping: byte_buffer.cpp). Never opens the input for
// writing, never throws, never prints: every failure is a LoadError value.
//
// [SECTION] Helpers
// [SECTION] Layer: one wrapper being decoded (growth, limit, progress, truncation)
// [SECTION] gzip: libdeflate per member, zlib streaming fallback
// [SECTION] zstd: streaming over frames, skippable frames skipped
// [SECTION] Entry points
//
// Call flow: OpenInput -> ByteBuffer::MapFile (byte_buffer.cpp) -> Unwrap -> DecodeGzip | DecodeZstd
// (repeated while the content is still wrapped) -> DecodedInput. DecodeStream (decode_stream.h)
// runs one layer through the same decoders on its thread: DecodeLayerStreaming -> InflateWithZlib
// (or DecodeGzip) | DecodeZstd, with a StreamSink taking the output as it is written.
#include "loaders/byte_source.h"
#include "loaders/decode_stream.h"
#include "loaders/memory_estimate.h"
#include "loaders/zstd_frames.h"

#define ZLIB_CONST  // const next_in: zlib never writes to our (read-only mapped) input
#include <fcntl.h>
#include <libdeflate.h>
#include <unistd.h>
#include <zlib.h>
// ZSTD_getFrameHeader (bounding the window a frame asks for) is in the
// experimental section; Debian's libzstd exports it.
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>
#include <zstd_errors.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <utility>

#include "model/sl_assert.h"

namespace stepline::loaders {
namespace {

// =============================================================================
// [SECTION] Helpers
// =============================================================================

constexpr uint64_t kMaxDecodedCeiling = uint64_t{64} << 30;
constexpr size_t kOutputWindow = size_t{64} << 20;  // decoded bytes between cancel checks
constexpr size_t kZlibInputChunk = size_t{1} << 30;  // avail_in is 32-bit
constexpr size_t kZstdInputChunk = size_t{4} << 10;  // see DecodeZstdFrame
// Deflate cannot expand data by more than ~1032:1, which bounds any presize
// taken from a (possibly lying or truncated) gzip trailer.
constexpr uint64_t kDeflateMaxRatio = 1032;
// Double-encoded downloads (gzip of a .json.gz) are seen in practice; three
// layers is plenty and keeps a pathological nesting bounded.
constexpr int kMaxLayers = 3;
constexpr uint32_t kZstdFrameMagic = 0xFD2FB528;
constexpr uint32_t kZstdSkippableMagic = 0x184D2A50;  // low 4 bits are free
constexpr uint32_t kZstdSkippableMask = 0xFFFFFFF0;

LoadError MakeError(LoadErrorCode code, const std::string& path, std::string message) {
  LoadError e;
  e.code = code;
  e.path = path;
  e.message = std::move(message);
  return e;
}

bool IsAllZero(std::string_view bytes) {
  return std::all_of(bytes.begin(), bytes.end(), [](char c) { return c == 0; });
}

std::string HumanBytes(uint64_t n) {
  if (n >= (uint64_t{1} << 30) && n % (uint64_t{1} << 30) == 0) return std::to_string(n >> 30) + " GiB";
  if (n >= (uint64_t{1} << 20) && n % (uint64_t{1} << 20) == 0) return std::to_string(n >> 20) + " MiB";
  return std::to_string(n) + " bytes";
}

}  // namespace

namespace {

// =============================================================================
// [SECTION] Layer: one wrapper being decoded
// =============================================================================

// Decoders append to `out`, growing it within `limit`, and record where the
// compressed stream broke instead of failing: a cut-off trace is still worth
// showing up to the cut.
struct Layer {
  Layer(std::string_view input, const std::string& source_name, LoadProgress* p, uint64_t max_bytes)
      : in(input), name(source_name), progress(p), limit(max_bytes) {}

  std::string_view in;
  const std::string& name;
  LoadProgress* progress;
  uint64_t limit;
  ByteBuffer out = ByteBuffer::Allocate(0);
  StreamSink* sink = nullptr;        // set: a reader takes the output as it is written (decode_stream.h)
  size_t window = kOutputWindow;     // decoded bytes per step (zlib)
  bool truncated = false;
  uint64_t truncated_at = 0;
  std::string detail;
};

LoadError LayerError(const Layer& l, LoadErrorCode code, uint64_t in_offset, std::string message) {
  LoadError e = MakeError(code, l.name, std::move(message));
  e.byte_offset = l.out.size();
  e.compressed_offset = in_offset;
  return e;
}

LoadError TooLarge(const Layer& l, uint64_t in_offset) {
  return LayerError(l, LoadErrorCode::kTooLarge, in_offset,
                    "decompressed content exceeds the limit of " + HumanBytes(l.limit) +
                        " (min(64 GiB, physical RAM, available memory)); the file may be a decompression bomb");
}

bool Cancelled(const Layer& l) {
  return (l.progress != nullptr && l.progress->cancel.load(std::memory_order_relaxed)) ||
         (l.sink != nullptr && l.sink->Stopped());
}

LoadError CancelError(const Layer& l, uint64_t in_offset) {
  return LayerError(l, LoadErrorCode::kCancelled, in_offset, "cancelled while decompressing");
}

void ReportTotal(const Layer& l, uint64_t total) {
  if (l.sink != nullptr) return l.sink->Hint(total);  // the reader reports progress
  if (l.progress != nullptr) l.progress->bytes_total.store(total, std::memory_order_relaxed);
}

// `in_offset`: the compressed bytes consumed (the decoders never look back).
void ReportDone(const Layer& l, uint64_t in_offset) {
  if (l.sink != nullptr) return l.sink->Publish(l.out.size(), in_offset);
  if (l.progress == nullptr) return;
  const uint64_t done = l.out.size();
  l.progress->bytes_done.store(done, std::memory_order_relaxed);
  if (l.progress->bytes_total.load(std::memory_order_relaxed) < done) ReportTotal(l, done);
}

void MarkTruncated(Layer& l, uint64_t in_offset, std::string detail) {
  l.truncated = true;
  l.truncated_at = in_offset;
  l.detail = std::move(detail);
}

// Bytes after the last complete member/frame that do not start another one.
// Zero fill (tape or block padding) is ignored silently; anything else is
// reported, because it usually means a damaged or mis-concatenated file.
void NoteTrailing(Layer& l, size_t pos, const char* format, const char* unit) {
  const std::string_view rest = l.in.substr(pos);
  if (IsAllZero(rest)) return;
  MarkTruncated(l, pos,
                std::to_string(rest.size()) + " bytes after the last " + format + " " + unit +
                    " at compressed byte " + std::to_string(pos) + " are not " + format + " data; ignored");
}

// Presizes for an expected total; failure is fine (we grow later).
void Presize(Layer& l, uint64_t expected) {
  expected = std::min(expected, l.limit);
  if (expected > l.out.capacity()) l.out.Reserve(static_cast<size_t>(expected));
}

// Ensures at least one free byte after out.size(), doubling within the limit.
std::optional<LoadError> MakeRoom(Layer& l, uint64_t in_offset) {
  const uint64_t cap = l.out.capacity();
  if (l.out.size() < cap) return std::nullopt;
  if (cap >= l.limit) return TooLarge(l, in_offset);
  l.out.Reserve(static_cast<size_t>(std::min(l.limit, std::max(cap * 2, cap + ByteBuffer::kMinGrowth))));
  if (l.out.capacity() > cap) return std::nullopt;
  return LayerError(l, LoadErrorCode::kOutOfMemory, in_offset,
                    "cannot grow the decompression buffer beyond " + HumanBytes(cap) + ": " +
                        OutOfMemoryMessage("decompressing", EstimateLoadMemory(l.name)));
}

// =============================================================================
// [SECTION] gzip
// =============================================================================

bool IsGzipAt(std::string_view in, size_t pos) {
  return in.size() - pos >= 2 && static_cast<unsigned char>(in[pos]) == 0x1F &&
         static_cast<unsigned char>(in[pos + 1]) == 0x8B;
}

// ISIZE (the last 4 bytes) is the last member's length mod 2^32: exact for the
// usual single-member file, a floor for multi-member ones, garbage when cut.
uint64_t GzipSizeHint(std::string_view in) {
  if (in.size() < 18) return 0;
  return std::min<uint64_t>(ReadLe32(in.data() + in.size() - 4), in.size() * kDeflateMaxRatio);
}

// Streams from member start `pos` to the end with zlib. Slower than libdeflate
// but keeps every byte decoded before a cut or a corruption.
std::optional<LoadError> InflateWithZlib(Layer& l, size_t pos) {
  z_stream zs{};
  if (inflateInit2(&zs, 15 + 32) != Z_OK) {  // 15 + 32: max window, gzip or zlib header
    return LayerError(l, LoadErrorCode::kDecompressFailed, pos, "zlib initialisation failed");
  }
  std::optional<LoadError> err;
  for (;;) {
    if (Cancelled(l)) {
      err = CancelError(l, pos);
      break;
    }
    if ((err = MakeRoom(l, pos))) break;
    const size_t in_avail = std::min(l.in.size() - pos, kZlibInputChunk);
    const size_t out_avail = std::min(l.out.capacity() - l.out.size(), l.window);
    zs.next_in = reinterpret_cast<const Bytef*>(l.in.data() + pos);
    zs.avail_in = static_cast<uInt>(in_avail);
    if (l.sink != nullptr) l.sink->Prepare(l.out.size(), l.out.size() + out_avail, /*sequential=*/true);
    zs.next_out = reinterpret_cast<Bytef*>(l.out.mutable_data() + l.out.size());
    zs.avail_out = static_cast<uInt>(out_avail);
    const int ret = inflate(&zs, Z_NO_FLUSH);
    const size_t consumed = in_avail - zs.avail_in;
    const size_t produced = out_avail - zs.avail_out;
    pos += consumed;
    l.out.Resize(l.out.size() + produced);
    ReportDone(l, pos);
    if (ret == Z_STREAM_END) {
      if (IsGzipAt(l.in, pos)) {
        inflateReset(&zs);
        continue;
      }
      if (pos < l.in.size()) NoteTrailing(l, pos, "gzip", "member");
      break;
    }
    const bool stalled = consumed == 0 && produced == 0 && zs.avail_out > 0;
    if ((ret == Z_OK || ret == Z_BUF_ERROR) && pos == l.in.size() && zs.avail_out > 0) {
      MarkTruncated(l, pos, "gzip stream ends inside a member after " + std::to_string(pos) + " compressed bytes");
      break;
    }
    if ((ret == Z_OK || ret == Z_BUF_ERROR) && !stalled) continue;
    if (ret == Z_MEM_ERROR) {
      err = LayerError(l, LoadErrorCode::kOutOfMemory, pos,
                       "zlib: " + OutOfMemoryMessage("decompressing", EstimateLoadMemory(l.name)));
      break;
    }
    std::string why = zs.msg != nullptr ? std::string(" (") + zs.msg + ")" : std::string();
    MarkTruncated(l, pos, "gzip data corrupt at compressed byte " + std::to_string(pos) + why);
    break;
  }
  inflateEnd(&zs);
  return err;
}

// One whole member with libdeflate into the free space of `out`. Retries with
// more room when the ISIZE hint was short (multi-member files, members over
// 4 GiB). Returns false when the zlib path must take over from `*pos`.
bool DeflateMember(Layer& l, libdeflate_decompressor* d, size_t* pos) {
  for (int attempt = 0; attempt < 4; ++attempt) {
    size_t in_used = 0;
    size_t out_used = 0;
    const libdeflate_result r = libdeflate_gzip_decompress_ex(
        d, l.in.data() + *pos, l.in.size() - *pos, l.out.mutable_data() + l.out.size(),
        l.out.capacity() - l.out.size(), &in_used, &out_used);
    if (r == LIBDEFLATE_SUCCESS) {
      l.out.Resize(l.out.size() + out_used);
      *pos += in_used;
      return true;
    }
    const uint64_t cap = l.out.capacity();
    if (r != LIBDEFLATE_INSUFFICIENT_SPACE || cap >= l.limit) return false;
    l.out.Reserve(static_cast<size_t>(std::min(l.limit, std::max(cap * 2, cap + ByteBuffer::kMinGrowth))));
    if (l.out.capacity() <= cap) return false;
  }
  return false;
}

std::optional<LoadError> DecodeGzip(Layer& l) {
  const uint64_t hint = GzipSizeHint(l.in);
  Presize(l, hint);
  ReportTotal(l, hint);
  libdeflate_decompressor* d = libdeflate_alloc_decompressor();
  if (d == nullptr) return InflateWithZlib(l, 0);
  std::optional<LoadError> err;
  size_t pos = 0;
  while (pos < l.in.size()) {
    if (!IsGzipAt(l.in, pos)) {
      NoteTrailing(l, pos, "gzip", "member");
      break;
    }
    if (Cancelled(l)) {
      err = CancelError(l, pos);
      break;
    }
    if (!DeflateMember(l, d, &pos)) {
      err = InflateWithZlib(l, pos);
      break;
    }
    ReportDone(l, pos);
  }
  libdeflate_free_decompressor(d);
  return err;
}

// =============================================================================
// [SECTION] zstd
// =============================================================================

// Streams one frame starting at `*pos`. Input is offered in small slices
// because ZSTD_decompressStream does not report output written by a call that
// ends in an error: with 4 KiB a call completes at most a few blocks, so a
// corrupt block costs little more than itself. (Measured: same ~1.1 GB/s as
// offering the whole input.) Output goes in windows of kOutputWindow bytes.
std::optional<LoadError> DecodeZstdFrame(Layer& l, ZSTD_DCtx* d, size_t* pos) {
  // The decoder allocates the buffer the frame header asks for (its window,
  // or its content size when smaller) before it decodes a byte: 10 bytes
  // could ask for 2 GiB (a fuzz finding). A buffer larger than the
  // decoded-size limit allows is a bomb like any other.
  ZSTD_frameHeader header{};
  if (ZSTD_getFrameHeader(&header, l.in.data() + *pos, l.in.size() - *pos) == 0 &&
      header.frameType == ZSTD_frame) {
    uint64_t needed = header.windowSize;
    if (header.frameContentSize != ZSTD_CONTENTSIZE_UNKNOWN) needed = std::min<uint64_t>(needed, header.frameContentSize);
    if (needed > l.limit - l.out.size()) return TooLarge(l, *pos);
  }
  const unsigned long long content = ZSTD_getFrameContentSize(l.in.data() + *pos, l.in.size() - *pos);
  if (content != ZSTD_CONTENTSIZE_UNKNOWN && content != ZSTD_CONTENTSIZE_ERROR) {
    if (content > l.limit - l.out.size()) return TooLarge(l, *pos);
    Presize(l, l.out.size() + content);
    ReportTotal(l, l.out.size() + content);
  }
  ZSTD_DCtx_reset(d, ZSTD_reset_session_only);
  for (;;) {
    if (Cancelled(l)) return CancelError(l, *pos);
    if (auto err = MakeRoom(l, *pos)) return err;
    ZSTD_inBuffer in{l.in.data() + *pos, std::min(l.in.size() - *pos, kZstdInputChunk), 0};
    ZSTD_outBuffer out{l.out.mutable_data() + l.out.size(),
                       std::min(l.out.capacity() - l.out.size(), l.window), 0};
    if (l.sink != nullptr) l.sink->Prepare(l.out.size(), l.out.size() + out.size, /*sequential=*/true);
    const size_t ret = ZSTD_decompressStream(d, &out, &in);
    *pos += in.pos;
    l.out.Resize(l.out.size() + out.pos);
    ReportDone(l, *pos);
    if (ZSTD_isError(ret)) {
      // Given room for the whole declared content, zstd decodes a frame in
      // one call, and a frame holding more than it declares then fails with
      // "destination buffer too small": corrupt data, which the streamed
      // decoder (offered other room) reports as such. One message both ways.
      const ZSTD_ErrorCode code = ZSTD_getErrorCode(ret) == ZSTD_error_dstSize_tooSmall
                                      ? ZSTD_error_corruption_detected
                                      : ZSTD_getErrorCode(ret);
      MarkTruncated(l, *pos, "zstd data corrupt at compressed byte " + std::to_string(*pos) + " (" +
                                 ZSTD_getErrorString(code) + ")");
      return std::nullopt;
    }
    if (ret == 0) return std::nullopt;  // frame complete and flushed
    if (*pos == l.in.size() && out.pos < out.size) {
      MarkTruncated(l, *pos, "zstd stream ends inside a frame after " + std::to_string(*pos) + " compressed bytes");
      return std::nullopt;
    }
    if (in.pos == 0 && out.pos == 0) {  // cannot happen per the zstd API; never spin
      MarkTruncated(l, *pos, "zstd decoder stalled at compressed byte " + std::to_string(*pos));
      return std::nullopt;
    }
  }
}

// From compressed byte `start` (a frame boundary; 0 but for a resumed stream).
std::optional<LoadError> DecodeZstd(Layer& l, size_t start = 0) {
  ZSTD_DCtx* d = ZSTD_createDCtx();
  if (d == nullptr) return LayerError(l, LoadErrorCode::kDecompressFailed, 0, "zstd initialisation failed");
  // Accept frames written with --long=31 (windows up to 2 GiB); a window
  // larger than the decoded-size limit is refused per frame (DecodeZstdFrame).
  ZSTD_DCtx_setParameter(d, ZSTD_d_windowLogMax, 31);
  std::optional<LoadError> err;
  size_t pos = start;
  while (!err && !l.truncated && pos < l.in.size()) {
    const size_t rest = l.in.size() - pos;
    const uint32_t magic = rest >= 4 ? ReadLe32(l.in.data() + pos) : 0;
    if (rest >= 4 && (magic & kZstdSkippableMask) == kZstdSkippableMagic) {
      // Skippable frame: LE u32 payload size, then the payload (RFC 8878 3.1.2).
      const uint64_t payload = rest >= 8 ? ReadLe32(l.in.data() + pos + 4) : UINT64_MAX;
      if (payload > rest - std::min<size_t>(rest, 8)) {
        MarkTruncated(l, pos, "zstd skippable frame at compressed byte " + std::to_string(pos) +
                                  " extends past the end of the input");
        break;
      }
      pos += 8 + static_cast<size_t>(payload);
    } else if (rest >= 4 && magic == kZstdFrameMagic) {
      err = DecodeZstdFrame(l, d, &pos);
    } else {
      NoteTrailing(l, pos, "zstd", "frame");
      break;
    }
  }
  ZSTD_freeDCtx(d);
  return err;
}

// =============================================================================
// [SECTION] Entry points
// =============================================================================

enum class Wrapper : uint8_t { kNone, kGzip, kZstd };

// Streaming: the zlib output step. Small enough that the parser starts soon
// and follows closely, large enough that publishing costs nothing.
constexpr size_t kStreamWindow = size_t{1} << 20;

Wrapper DetectWrapper(std::string_view b) {
  if (IsGzipAt(b, 0)) return Wrapper::kGzip;
  if (b.size() >= 4) {
    const uint32_t magic = ReadLe32(b.data());
    if (magic == kZstdFrameMagic || (magic & kZstdSkippableMask) == kZstdSkippableMagic) return Wrapper::kZstd;
  }
  return Wrapper::kNone;
}

// Strips gzip/zstd layers from `raw`. `owned` holds `raw` when it is ours to
// hand on (a mapped file), or is empty when `raw` is caller memory (copied).
Result<DecodedInput, LoadError> Unwrap(std::string_view raw, ByteBuffer owned, const std::string& name,
                                       LoadProgress* progress, uint64_t limit) {
  if (limit == 0) limit = DefaultMaxDecodedBytes();
  DecodedInput result;
  result.file_bytes = raw.size();
  ByteBuffer current = std::move(owned);
  std::string_view content = raw;
  for (int depth = 0; depth < kMaxLayers; ++depth) {
    const Wrapper wrapper = DetectWrapper(content);
    if (wrapper == Wrapper::kNone) break;
    const char* format = wrapper == Wrapper::kGzip ? "gzip" : "zstd";
    Layer layer{content, name, progress, limit};
    auto err = wrapper == Wrapper::kGzip ? DecodeGzip(layer) : DecodeZstd(layer);
    if (err) return MakeUnexpected(std::move(*err));
    if (layer.out.size() == 0 && layer.truncated) {
      return MakeUnexpected(LayerError(layer, LoadErrorCode::kDecompressFailed, layer.truncated_at,
                                       "no data could be decompressed: " + layer.detail));
    }
    result.compression += (result.compression.empty() ? "" : "+") + std::string(format);
    if (layer.truncated && !result.truncated) {
      result.truncated = true;
      result.truncated_at = layer.truncated_at;  // in the outer layer's output when depth > 0
      result.truncation_detail = depth == 0 ? layer.detail : "inner " + std::string(format) + " layer: " + layer.detail;
    }
    current = std::move(layer.out);
    content = current.view();
  }
  if (progress != nullptr) {
    progress->bytes_total.store(content.size(), std::memory_order_relaxed);
    progress->bytes_done.store(result.compression.empty() ? 0 : content.size(), std::memory_order_relaxed);
  }
  if (current.data() != nullptr && current.data() == content.data()) {
    result.bytes = std::move(current);
    return result;
  }
  result.bytes = ByteBuffer::Allocate(content.size());
  if (result.bytes.data() == nullptr) {
    return MakeUnexpected(MakeError(LoadErrorCode::kOutOfMemory, name,
                                    "cannot copy " + HumanBytes(content.size()) + " of input: " +
                                        OutOfMemoryMessage("reading the input", EstimateLoadMemory(content.size(), content.substr(0, 128)))));
  }
  if (!content.empty()) std::memcpy(result.bytes.mutable_data(), content.data(), content.size());
  return result;
}

}  // namespace

namespace {
// MemAvailable from /proc/meminfo (what can be allocated without swapping
// others out), 0 when unknown.
uint64_t AvailableMemoryBytes() {
  const int fd = ::open("/proc/meminfo", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  char text[4096];
  const ssize_t n = ::read(fd, text, sizeof text - 1);
  ::close(fd);
  if (n <= 0) return 0;
  text[n] = '\0';
  const char* line = std::strstr(text, "MemAvailable:");
  if (line == nullptr) return 0;
  const unsigned long long kib = std::strtoull(line + std::strlen("MemAvailable:"), nullptr, 10);
  return static_cast<uint64_t>(kib) * 1024;
}
}  // namespace

uint64_t DefaultMaxDecodedBytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page_size = ::sysconf(_SC_PAGESIZE);
  uint64_t limit = kMaxDecodedCeiling;
  if (pages > 0 && page_size > 0) limit = std::min(limit, static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_size));
  // The decoded bytes and the model built from them must both fit: a bomb
  // stops at what the machine can hold now, not at its installed RAM.
  if (const uint64_t available = AvailableMemoryBytes(); available > 0) {
    limit = std::min(limit, std::max<uint64_t>(available, uint64_t{256} << 20));
  }
  return limit;
}

Result<DecodedInput, LoadError> OpenInput(const std::string& path, LoadProgress* progress,
                                          uint64_t max_decoded_bytes) {
  auto mapped = ByteBuffer::MapFile(path, progress);
  if (!mapped) return MakeUnexpected(mapped.error());
  return DecodeFile(std::move(mapped).value(), path, progress, max_decoded_bytes);
}

Result<DecodedInput, LoadError> DecodeFile(ByteBuffer file, const std::string& path, LoadProgress* progress,
                                           uint64_t max_decoded_bytes) {
  const std::string_view raw = file.view();  // stays valid: moving a ByteBuffer keeps its storage
  return Unwrap(raw, std::move(file), path, progress, max_decoded_bytes);
}

Result<DecodedInput, LoadError> DecodeBytes(std::string_view bytes, const std::string& name, LoadProgress* progress,
                                            uint64_t max_decoded_bytes) {
  return Unwrap(bytes, ByteBuffer(), name, progress, max_decoded_bytes);
}

bool IsCompressedHead(std::string_view head) { return DetectWrapper(head) != Wrapper::kNone; }

LayerOutcome DecodeLayerStreaming(std::string_view in, const std::string& name, LoadProgress* progress, uint64_t limit,
                                  ByteBuffer* out, StreamSink* sink, bool gzip_zlib, uint64_t zstd_resume_at) {
  LayerOutcome outcome;
  const Wrapper wrapper = DetectWrapper(in);
  if (wrapper == Wrapper::kNone) return outcome;
  Layer layer{in, name, progress, limit};
  layer.out = std::move(*out);
  layer.sink = sink;
  layer.window = kStreamWindow;
  if (wrapper == Wrapper::kZstd) {
    outcome.format = "zstd";
    outcome.error = DecodeZstd(layer, static_cast<size_t>(zstd_resume_at));
  } else {
    outcome.format = "gzip";
    if (gzip_zlib) {
      ReportTotal(layer, GzipSizeHint(in));
      outcome.error = InflateWithZlib(layer, 0);
    } else {
      outcome.error = DecodeGzip(layer);
    }
  }
  if (!outcome.error && layer.out.size() == 0 && layer.truncated) {
    outcome.error = LayerError(layer, LoadErrorCode::kDecompressFailed, layer.truncated_at,
                               "no data could be decompressed: " + layer.detail);
  }
  outcome.truncated = layer.truncated;
  outcome.truncated_at = layer.truncated_at;
  outcome.detail = std::move(layer.detail);
  *out = std::move(layer.out);
  return outcome;
}

}  // namespace stepline::loaders
