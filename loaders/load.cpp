// Load entry points: decode the bytes (byte_source), sniff the format from the
// first 128 decompressed bytes, dispatch to the format loader, and stamp the
// TraceInfo facts that only this layer knows (path, sizes, compression). A
// compressed file is decoded on a thread of its own (decode_stream.h) and,
// when it sniffs as Chrome JSON, parsed while it decodes.
//
// [SECTION] Sniffing: JSON, and XSpace vs Perfetto among protobufs
// [SECTION] Errors for content we do not load
// [SECTION] Dispatch and entry points
#include "loaders/load.h"

#include <malloc.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <new>

#include "loaders/byte_source.h"
#include "loaders/chrome_json/chrome_json_loader.h"
#include "loaders/chrome_json/json_lexical.h"
#include "loaders/decode_stream.h"
#include "loaders/memory_estimate.h"
#include "loaders/nsys/nsys_loader.h"
#include "sqlite/database.h"
#include "loaders/perfetto/perfetto_loader.h"
#include "loaders/rocprof/rocprof_loader.h"
#include "loaders/torch_snapshot/snapshot_loader.h"
#include "loaders/xspace/xspace_loader.h"

// STEPLINE_ASAN: built with AddressSanitizer (GCC defines the first, clang
// answers the second).
#if defined(__SANITIZE_ADDRESS__)
#define STEPLINE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define STEPLINE_ASAN 1
#endif
#endif
#ifndef STEPLINE_ASAN
#define STEPLINE_ASAN 0
#endif

namespace stepline::loaders {
namespace {

// =============================================================================
// [SECTION] Sniffing
// =============================================================================

constexpr size_t kSniffBytes = 128;


// JSON text holds no raw control bytes besides whitespace (they must be
// escaped); protobuf nearly always does within a few bytes (tags 08/10/12,
// small lengths). This separates "\n{..." from a protobuf whose first length
// happens to be 0x7B.
bool HasNonSpaceControl(std::string_view s) {
  return std::any_of(s.begin(), s.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u < 0x20 && !IsJsonSpace(u);
  });
}

enum class ProtoVerdict : uint8_t { kUndecided, kXSpace, kPerfetto };

// Reads a base-128 varint. `padded` is set for a non-minimal encoding (a
// trailing 0x00 byte): Perfetto's protozero writes nested lengths as fixed
// 4-byte varints, libprotobuf (which writes XSpace) never does.
bool ReadVarint(std::string_view s, size_t* pos, uint64_t* value, bool* padded) {
  uint64_t v = 0;
  for (int i = 0; i < 10 && *pos < s.size(); ++i) {
    const auto b = static_cast<unsigned char>(s[(*pos)++]);
    v |= uint64_t{b & 0x7Fu} << (7 * i);
    if ((b & 0x80) == 0) {
      *value = v;
      *padded = i > 0 && b == 0;
      return true;
    }
  }
  return false;
}

// Walks the fields of the first embedded message (an XPlane or a TracePacket)
// as far as the head allows. See trace-formats.md 4.3: XPlane uses fields 1-6
// only (1 varint, 2-6 length-delimited); anything else is a TracePacket.
ProtoVerdict ProbeEmbedded(std::string_view body) {
  size_t p = 0;
  while (p < body.size()) {
    uint64_t tag = 0;
    uint64_t len = 0;
    bool padded = false;
    if (!ReadVarint(body, &p, &tag, &padded)) return ProtoVerdict::kUndecided;
    const uint64_t field = tag >> 3;
    const unsigned wire = tag & 7;
    if (field == 1 && wire == 0) return ProtoVerdict::kXSpace;  // XPlane.id
    if (field == 3 && wire == 2) return ProtoVerdict::kXSpace;  // XPlane.lines; TracePacket 3 is a varint
    if (field >= 2 && field <= 6 && wire == 2) {
      if (!ReadVarint(body, &p, &len, &padded)) return ProtoVerdict::kUndecided;
      if (padded) return ProtoVerdict::kPerfetto;
      if (field == 2) {  // XPlane.name is text; TracePacket.process_tree starts with a tag byte
        if (p >= body.size()) return ProtoVerdict::kUndecided;
        const auto c = static_cast<unsigned char>(body[p]);
        return len > 0 && c >= 0x20 && c < 0x7F ? ProtoVerdict::kXSpace : ProtoVerdict::kPerfetto;
      }
      // 4-6: XPlane metadata/stats, but also TracePacket fields: keep probing.
      if (len > body.size() - p) return ProtoVerdict::kUndecided;
      p += static_cast<size_t>(len);
      continue;
    }
    if (wire == 0 || wire == 1 || wire == 2 || wire == 5) return ProtoVerdict::kPerfetto;
    return ProtoVerdict::kUndecided;  // groups / invalid wire types: neither writer emits them
  }
  return ProtoVerdict::kUndecided;
}

// Both files are a repeated field 1; XSpace may follow its planes with fields
// 2-4 (errors, warnings, hostnames), a Perfetto Trace has nothing but field 1.
ProtoVerdict ProbeProtobuf(std::string_view head) {
  size_t pos = 0;
  bool first = true;
  while (pos < head.size()) {
    uint64_t tag = 0;
    uint64_t len = 0;
    bool padded = false;
    if (!ReadVarint(head, &pos, &tag, &padded)) return ProtoVerdict::kUndecided;
    if (!first && (tag == 0x12 || tag == 0x1A || tag == 0x22)) return ProtoVerdict::kXSpace;
    if (tag != 0x0A || !ReadVarint(head, &pos, &len, &padded)) return ProtoVerdict::kUndecided;
    if (padded) return ProtoVerdict::kPerfetto;
    const size_t avail = head.size() - pos;
    const ProtoVerdict v = ProbeEmbedded(head.substr(pos, std::min<uint64_t>(len, avail)));
    if (v != ProtoVerdict::kUndecided || len > avail) return v;
    pos += static_cast<size_t>(len);
    first = false;
  }
  return ProtoVerdict::kUndecided;
}

// rocprofv3 writes one object whose first key is "rocprofiler-sdk-tool".
bool IsRocprofHead(std::string_view after_brace) {
  size_t i = 0;
  while (i < after_brace.size() && IsJsonSpace(static_cast<unsigned char>(after_brace[i]))) ++i;
  return after_brace.substr(i).starts_with("\"rocprofiler-sdk-tool\"");
}

// =============================================================================
// [SECTION] Errors for content we do not load
// =============================================================================

// "3C 21 44 4F 43 ... (\"<!DOC...\")": enough to recognise a wrong file.
std::string DescribeHead(std::string_view bytes) {
  const std::string_view head = bytes.substr(0, 16);
  std::string hex;
  std::string text;
  for (char c : head) {
    char buf[4];
    std::snprintf(buf, sizeof buf, "%02X", static_cast<unsigned char>(c));
    hex += (hex.empty() ? "" : " ") + std::string(buf);
    text += (c >= 0x20 && c < 0x7F) ? c : '.';
  }
  return hex + " (\"" + text + "\")";
}

struct KnownHead {
  std::string_view magic;
  LoadErrorCode code;
  std::string_view what;
};

// Things people open by mistake, or recognised formats we do not read.
constexpr KnownHead kKnownHeads[] = {
    {"\x83\xAF\x70\xD1\x0D\x88\x4A\x3F", LoadErrorCode::kUnsupportedFormat,
     "a Riegeli file (<host>.xplane.riegeli) is not supported; save the profile as .xplane.pb"},
    {"PK\x03\x04", LoadErrorCode::kUnknownFormat, "a zip archive; extract the trace file from it first"},
    {"BZh", LoadErrorCode::kUnknownFormat, "bzip2-compressed; decompress it first (gzip and zstd are read directly)"},
    {"\xFD" "7zXZ", LoadErrorCode::kUnknownFormat, "xz-compressed; decompress it first (gzip and zstd are read directly)"},
    {"\x1F\x8B", LoadErrorCode::kUnknownFormat, "still gzip-compressed after three layers of decompression"},
    {"<", LoadErrorCode::kUnknownFormat, "looks like HTML or XML (a saved web page instead of the trace?)"},
};

LoadError NotLoadable(std::string_view content, const std::string& path) {
  LoadError e;
  e.path = path;
  e.byte_offset = 0;
  e.code = LoadErrorCode::kUnknownFormat;
  // An Nsight Systems report is a container only nsys itself reads; its
  // content has no documented magic, so the name is the only hint we have
  // for a helpful message (the format is still never chosen by name).
  if (path.ends_with(".nsys-rep") || path.ends_with(".qdrep")) {
    e.code = LoadErrorCode::kUnsupportedFormat;
    e.message = "this is an Nsight Systems report; export it with `nsys export --type sqlite " + path +
                "` and open the .sqlite";
    return e;
  }
  std::string reason = "unrecognised content";
  for (const KnownHead& known : kKnownHeads) {
    if (content.starts_with(known.magic)) {
      e.code = known.code;
      reason = std::string(known.what);
      break;
    }
  }
  e.message = reason + "; first bytes " + DescribeHead(content) +
              ". Expected Chrome trace JSON or rocprofv3 JSON (starting with '{' or '['), an XSpace or Perfetto protobuf "
              "(.xplane.pb, .pftrace; starting with 0A), an Nsight Systems SQLite export (\"SQLite format 3\"), "
              "or a PyTorch memory snapshot pickle (starting with 80 02..80 05), "
              "each optionally gzip (1F 8B) or zstd (28 B5 2F FD) compressed";
  return e;
}

// =============================================================================
// [SECTION] Dispatch and entry points
// =============================================================================

Result<Trace, LoadError> Dispatch(const DecodedInput& input, const std::string& path, const LoadOptions& options,
                                  LoadProgress* progress) {
  switch (SniffFormat(input.bytes.view().substr(0, kSniffBytes))) {
    case Format::kChromeJson: return LoadChromeJson(input, path, options, progress);
    case Format::kXSpace: return LoadXSpace(input, path, options, progress);
    case Format::kPerfetto: return LoadPerfetto(input, path, options, progress);
    case Format::kNsysSqlite: return LoadNsysSqlite(input, path, options, progress);
    case Format::kRocprofJson: return LoadRocprofJson(input, path, options, progress);
    case Format::kTorchMemorySnapshot: return LoadTorchSnapshot(input, path, options, progress);
    case Format::kUnknown: break;
  }
  return MakeUnexpected(NotLoadable(input.bytes.view(), path));
}

Result<Trace, LoadError> Stamp(Result<Trace, LoadError> loaded, const DecodedInput& input, const std::string& name,
                               const std::string& source_path);

// `name` labels errors; `source_path` goes into TraceInfo (empty in memory).
Result<Trace, LoadError> LoadDecoded(const DecodedInput& input, const std::string& name, const std::string& source_path,
                                     const LoadOptions& options, LoadProgress* progress) {
  if (input.bytes.size() == 0) {
    LoadError e;
    e.code = LoadErrorCode::kEmpty;
    e.path = name;
    e.message = input.compression.empty() ? "the file is empty"
                                          : "the " + input.compression + " content is empty (0 bytes after decompression)";
    return MakeUnexpected(std::move(e));
  }
  return Stamp(Dispatch(input, name, options, progress), input, name, source_path);
}

// A format loader's result, with the facts only this layer knows.
Result<Trace, LoadError> Stamp(Result<Trace, LoadError> loaded, const DecodedInput& input, const std::string& name,
                               const std::string& source_path) {
  ReleaseFreedMemory();
  if (!loaded) {
    LoadError e = loaded.error();
    if (e.path.empty()) e.path = name;
    // A parse error near the end of a cut-off download is explained by the cut.
    if (input.truncated) e.message += " (the compressed input is damaged: " + input.truncation_detail + ")";
    return MakeUnexpected(std::move(e));
  }
  Trace trace = std::move(loaded).value();
  TraceInfo& info = trace.mutable_info();
  info.source_path = source_path;
  info.input_bytes = input.bytes.size();
  info.file_bytes = input.file_bytes;
  info.compression = input.compression;
  info.compressed_cut = input.truncated;
  info.compressed_cut_at = input.truncated_at;
  if (input.truncated) {
    // Format loaders note where *their* parse stopped; the compressed cause
    // is recorded here once, unless a loader already quoted it.
    const auto& instances = trace.diagnostics().entry(DiagCode::kTruncated).instances;
    const bool quoted = std::any_of(instances.begin(), instances.end(), [&](const Diagnostics::Instance& i) {
      return i.detail.find(input.truncation_detail) != std::string::npos;
    });
    if (!quoted) trace.mutable_diagnostics().Record(DiagCode::kTruncated, input.bytes.size(), input.truncation_detail);
  }
  return trace;
}

}  // namespace

std::string_view FormatName(Format f) {
  switch (f) {
    case Format::kChromeJson: return "chrome-json";
    case Format::kXSpace: return "xplane";
    case Format::kPerfetto: return "perfetto";
    case Format::kNsysSqlite: return "nsys-sqlite";
    case Format::kRocprofJson: return "rocprof-json";
    case Format::kTorchMemorySnapshot: return "torch-memory-snapshot";
    case Format::kUnknown: break;
  }
  return "unknown";
}

Format SniffFormat(std::string_view head) {
  head = head.substr(0, std::min(head.size(), kSniffBytes));
  if (head.starts_with(sqlite::kSqliteMagic)) return Format::kNsysSqlite;
  // No JSON or protobuf trace begins with 0x80: a pickle's PROTO opcode.
  if (IsPickleHead(head)) return Format::kTorchMemorySnapshot;
  size_t i = head.starts_with("\xEF\xBB\xBF") ? 3 : 0;  // UTF-8 BOM
  while (i < head.size() && IsJsonSpace(static_cast<unsigned char>(head[i]))) ++i;
  const bool json_start = i < head.size() && (head[i] == '{' || head[i] == '[');
  if (json_start && head[i] == '{' && IsRocprofHead(head.substr(i + 1))) return Format::kRocprofJson;
  // 0A is both a protobuf field-1 tag and a JSON newline.
  if (head.empty() || head[0] != '\x0A') return json_start ? Format::kChromeJson : Format::kUnknown;
  if (!HasNonSpaceControl(head)) return json_start ? Format::kChromeJson : Format::kUnknown;
  // Undecided heads go to the XSpace loader, whose error then names the
  // offending byte; a Perfetto verdict needs positive evidence.
  return ProbeProtobuf(head) == ProtoVerdict::kPerfetto ? Format::kPerfetto : Format::kXSpace;
}

void ReleaseFreedMemory() {
#if defined(__GLIBC__) && !STEPLINE_ASAN
  // glibc keeps freed memory in its arenas; parsing on worker threads leaves
  // whole arenas of temporaries resident otherwise. Ranks load on several
  // threads and each trims after its load: one trim at a time.
  static std::mutex trimming;
  std::lock_guard lock(trimming);
  malloc_trim(0);
#endif
  // Under AddressSanitizer the allocator is ASan's, so glibc's arenas hold
  // nothing to trim, and malloc_trim() then initialises glibc's malloc on
  // first use, which is not thread-safe: two loads finishing together
  // crashed in it (the sanitizer run of the ranks screenshot test).
}

namespace {

// Running out of memory fails this load alone: every Load* entry point turns
// std::bad_alloc (from any thread of the load: WorkerThread carries it) into
// a LoadError that says what the trace needs. Whatever the load had built is
// freed by then, so what it reports as available is what the caller has.
LoadError OutOfMemory(const std::string& name, const MemoryEstimate& estimate) {
  ReleaseFreedMemory();
  return MakeLoadError(LoadErrorCode::kOutOfMemory, name, LoadError::kNoOffset,
                       OutOfMemoryMessage("loading", estimate));
}

}  // namespace

Result<Trace, LoadError> LoadDecodedInput(const DecodedInput& input, const std::string& name,
                                          const LoadOptions& options, LoadProgress* progress) {
  try {
    return LoadDecoded(input, name, std::string(), options, progress);
  } catch (const std::bad_alloc&) {
    return MakeUnexpected(OutOfMemory(name, EstimateLoadMemory(input.bytes.size(), input.bytes.view().substr(0, kSniffBytes))));
  }
}

namespace {

// A decoded input this load alone reads: its decompressed pages may go
// behind the parser (ByteBuffer::MarkSingleReader).
Result<Trace, LoadError> LoadOwned(Result<DecodedInput, LoadError> input, const std::string& path,
                                   const LoadOptions& options, LoadProgress* progress) {
  if (!input) return MakeUnexpected(input.error());
  input->bytes.MarkSingleReader();
  return LoadDecoded(*input, path, path, options, progress);
}

// A compressed file whose content is Chrome JSON is parsed while it is being
// decompressed (decode_stream.h); any other content is decoded whole first,
// as OpenInput() does.
Result<Trace, LoadError> LoadStreamed(DecodeStream* stream, const std::string& path, const LoadOptions& options,
                                      LoadProgress* progress) {
  const std::string_view head = stream->WaitFor(kSniffBytes).substr(0, kSniffBytes);
  if (IsCompressedHead(head)) {  // another layer (a gzip of a .json.gz): rare, decoded whole from the start
    stream->Stop();
    return LoadOwned(OpenInput(path, progress), path, options, progress);
  }
  if (head.empty() || SniffFormat(head) != Format::kChromeJson) {
    return LoadOwned(stream->TakeResult(), path, options, progress);
  }
  DecodedInput finished;
  auto loaded = LoadChromeJsonStreamed(stream, &finished, path, options, progress);
  if (finished.compression.empty()) {  // the loader stopped before it needed the whole text
    if (!loaded && loaded.error().code == LoadErrorCode::kCancelled) {
      stream->Stop();
      return MakeUnexpected(loaded.error());
    }
    auto taken = stream->TakeResult();
    if (!taken) return MakeUnexpected(taken.error());
    finished = std::move(taken).value();
  }
  return Stamp(std::move(loaded), finished, path, path);
}

bool EnvSet(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' && *v != '0';
}

}  // namespace

namespace {

Result<Trace, LoadError> LoadFileUnguarded(const std::string& path, const LoadOptions& options, LoadProgress* progress) {
  auto mapped = ByteBuffer::MapFile(path, progress);
  if (!mapped) return MakeUnexpected(mapped.error());
  // STEPLINE_NO_STREAM=1 decodes compressed files whole before parsing
  // (the former path, kept for comparison); STEPLINE_GZIP_LIBDEFLATE=1
  // streams gzip per member with libdeflate instead of through zlib.
  if (IsCompressedHead(mapped->view()) && !EnvSet("STEPLINE_NO_STREAM")) {
    StreamOptions stream_options;
    stream_options.gzip_zlib = !EnvSet("STEPLINE_GZIP_LIBDEFLATE");
    if (auto stream = DecodeStream::Start(std::move(mapped).value(), path, progress, stream_options)) {
      return LoadStreamed(stream.get(), path, options, progress);
    }
    mapped = ByteBuffer::MapFile(path);  // no address space for the stream: map again, decode whole
    if (!mapped) return MakeUnexpected(mapped.error());
  }
  return LoadOwned(DecodeFile(std::move(mapped).value(), path, progress), path, options, progress);
}

}  // namespace

Result<Trace, LoadError> LoadFile(const std::string& path, const LoadOptions& options, LoadProgress* progress) {
  try {
    return LoadFileUnguarded(path, options, progress);
  } catch (const std::bad_alloc&) {
    return MakeUnexpected(OutOfMemory(path, EstimateLoadMemory(path)));
  }
}

Result<Trace, LoadError> LoadBytes(std::string_view bytes, const std::string& name, const LoadOptions& options,
                                   LoadProgress* progress) {
  try {
    auto input = DecodeBytes(bytes, name, progress);
    if (!input) return MakeUnexpected(input.error());
    input->bytes.MarkSingleReader();
    return LoadDecoded(*input, name, std::string(), options, progress);
  } catch (const std::bad_alloc&) {
    return MakeUnexpected(OutOfMemory(name, EstimateLoadMemory(bytes.size(), bytes.substr(0, kSniffBytes))));
  }
}

}  // namespace stepline::loaders
