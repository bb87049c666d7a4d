// Trace -> Chrome JSON text, streamed through an optional gzip/zstd encoder
// into a temporary file that is renamed into place; see chrome_json_writer.h.
//
// [SECTION] Sinks: plain file, gzip (zlib), zstd, in-memory string
// [SECTION] Serializer: metadata, per-track events, flows, footer
// [SECTION] Public entry points: temp file, no-clobber rename (file_publish.h)
#include "export/chrome_json_writer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

#include "export/file_publish.h"
#include "export/json_text.h"
#include "loaders/posix_io.h"
#include "loaders/trace_builder.h"

namespace stepline::exports {
namespace {

// ============================================================================
// [SECTION] Sinks
// ============================================================================

// Receives the JSON text in chunks of about kChunkBytes.
class ByteSink {
 public:
  virtual ~ByteSink() = default;
  virtual bool Write(std::string_view bytes) = 0;
  virtual bool Finish() = 0;  // flushes encoder state; false on error
  const std::string& error() const { return error_; }

 protected:
  std::string error_;
};

class StringSink final : public ByteSink {
 public:
  explicit StringSink(std::string* out) : out_(out) {}
  bool Write(std::string_view bytes) override {
    out_->append(bytes);
    return true;
  }
  bool Finish() override { return true; }

 private:
  std::string* out_;
};

class FileSink final : public ByteSink {
 public:
  explicit FileSink(int fd) : fd_(fd) {}
  ~FileSink() override {
    if (fd_ >= 0) ::close(fd_);
  }
  bool Write(std::string_view bytes) override {
    if (!loaders::WriteAll(fd_, bytes)) {
      error_ = std::string("write failed: ") + std::strerror(errno);
      return false;
    }
    written_ += bytes.size();
    return true;
  }
  bool Finish() override {
    int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) {
      error_ = std::string("close failed: ") + std::strerror(errno);
      return false;
    }
    return true;
  }
  uint64_t written() const { return written_; }

 private:
  int fd_;
  uint64_t written_ = 0;
};

// gzip through zlib's streaming deflate (libdeflate has no streaming API, and
// a 10 M-slice trace is gigabytes of text).
class GzipSink final : public ByteSink {
 public:
  GzipSink(FileSink* file, int level) : file_(file), out_(kOutBytes) {
    ok_ = deflateInit2(&z_, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK;
    if (!ok_) error_ = "zlib deflateInit2 failed";
  }
  ~GzipSink() override { deflateEnd(&z_); }
  bool Write(std::string_view bytes) override { return ok_ && Pump(bytes, Z_NO_FLUSH); }
  bool Finish() override { return ok_ && Pump({}, Z_FINISH); }

 private:
  static constexpr size_t kOutBytes = 1 << 20;
  bool Pump(std::string_view in, int flush) {
    z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    z_.avail_in = static_cast<uInt>(in.size());
    for (;;) {
      z_.next_out = reinterpret_cast<Bytef*>(out_.data());
      z_.avail_out = static_cast<uInt>(out_.size());
      int rc = deflate(&z_, flush);
      if (rc == Z_STREAM_ERROR) {
        error_ = "zlib deflate failed";
        return false;
      }
      size_t produced = out_.size() - z_.avail_out;
      if (produced && !file_->Write({out_.data(), produced})) {
        error_ = file_->error();
        return false;
      }
      if (flush == Z_FINISH ? rc == Z_STREAM_END : (z_.avail_in == 0 && z_.avail_out != 0)) return true;
    }
  }
  FileSink* file_;
  z_stream z_{};
  std::vector<char> out_;
  bool ok_ = false;
};

class ZstdSink final : public ByteSink {
 public:
  ZstdSink(FileSink* file, int level) : file_(file), cctx_(ZSTD_createCCtx()), out_(ZSTD_CStreamOutSize()) {
    if (!cctx_ || ZSTD_isError(ZSTD_CCtx_setParameter(cctx_, ZSTD_c_compressionLevel, level)) ||
        ZSTD_isError(ZSTD_CCtx_setParameter(cctx_, ZSTD_c_checksumFlag, 1))) {
      error_ = "zstd context setup failed";
    }
  }
  ~ZstdSink() override { ZSTD_freeCCtx(cctx_); }
  bool Write(std::string_view bytes) override { return error_.empty() && Pump(bytes, ZSTD_e_continue); }
  bool Finish() override { return error_.empty() && Pump({}, ZSTD_e_end); }

 private:
  bool Pump(std::string_view in, ZSTD_EndDirective mode) {
    ZSTD_inBuffer input{in.data(), in.size(), 0};
    for (;;) {
      ZSTD_outBuffer output{out_.data(), out_.size(), 0};
      size_t remaining = ZSTD_compressStream2(cctx_, &output, &input, mode);
      if (ZSTD_isError(remaining)) {
        error_ = std::string("zstd: ") + ZSTD_getErrorName(remaining);
        return false;
      }
      if (output.pos && !file_->Write({out_.data(), output.pos})) {
        error_ = file_->error();
        return false;
      }
      bool done = mode == ZSTD_e_end ? remaining == 0 : input.pos == input.size;
      if (done) return true;
    }
  }
  FileSink* file_;
  ZSTD_CCtx* cctx_;
  std::vector<char> out_;
};

// ============================================================================
// [SECTION] Serializer
// ============================================================================

class Serializer {
 public:
  Serializer(const Trace& trace, ByteSink* sink) : trace_(trace), sink_(sink), escaped_(trace.strings().size()) {
    buf_.reserve(kChunkBytes + 64 * 1024);
  }

  // False when the sink failed (its error() says why).
  bool Run(uint64_t* events, uint64_t* json_bytes) {
    buf_.append("{\"traceEvents\":[\n");
    WriteMetadata();
    for (size_t t = 0; t < trace_.tracks().size() && ok_; ++t) WriteTrack(TrackId::FromIndex(t));
    WriteFlows();
    buf_.append("\n],\"displayTimeUnit\":\"ns\"");
    WriteTraceMetadata();
    buf_.append("}\n");
    Flush();
    *events = events_;
    *json_bytes = bytes_;
    return ok_;
  }

 private:
  static constexpr size_t kChunkBytes = 1 << 20;

  // --- Low-level appenders -------------------------------------------------
  void BeginEvent(char ph) {
    if (events_++ != 0) buf_.append(",\n");
    buf_.append("{\"ph\":\"");
    buf_.push_back(ph);
    buf_.push_back('"');
  }
  void EndEvent() {
    buf_.push_back('}');
    if (buf_.size() >= kChunkBytes) Flush();
  }
  void Flush() {
    if (ok_ && !buf_.empty()) ok_ = sink_->Write(buf_);
    bytes_ += buf_.size();
    buf_.clear();
  }
  void Int(int64_t v) {
    char tmp[24];
    auto res = std::to_chars(tmp, tmp + sizeof tmp, v);
    buf_.append(tmp, res.ptr);
  }
  void Uint(uint64_t v) {
    char tmp[24];
    auto res = std::to_chars(tmp, tmp + sizeof tmp, v);
    buf_.append(tmp, res.ptr);
  }
  // Strings are escaped once per StringId (names repeat millions of times).
  void Str(StringId id) {
    std::string& e = escaped_[id.index()];
    if (e.empty()) AppendJsonString(&e, trace_.str(id));
    buf_.append(e);
  }
  void Key(std::string_view key_with_quotes_and_colon) { buf_.append(key_with_quotes_and_colon); }
  void PidTid(int64_t pid, int64_t tid) {
    Key(",\"pid\":");
    Int(pid);
    Key(",\"tid\":");
    Int(tid);
  }
  void Ts(TimeNs ts_ns) {
    Key(",\"ts\":");
    AppendJsonMicrosFromNs(&buf_, ts_ns);
  }
  void NameCat(StringId name, StringId cat) {
    Key(",\"name\":");
    Str(name);
    if (!cat.is_none()) {
      Key(",\"cat\":");
      Str(cat);
    }
  }
  void Args(ArgSetId set) {
    if (set.is_none()) return;
    const ArgTable& args = trace_.args();
    Key(",\"args\":{");
    for (uint32_t row = args.set_begin(set); row < args.set_end(set); ++row) {
      if (row != args.set_begin(set)) buf_.push_back(',');
      Str(args.key()[row]);
      buf_.push_back(':');
      ArgValue(args.value(row));
    }
    buf_.push_back('}');
  }
  void ArgValue(const stepline::ArgValue& v) {
    switch (v.type) {
      case ArgType::kInt: Int(v.as_int()); break;
      case ArgType::kUint: Uint(v.as_uint()); break;
      case ArgType::kDouble: AppendJsonDouble(&buf_, v.as_double()); break;
      case ArgType::kString: Str(v.as_string()); break;
      case ArgType::kDecimalString:
        buf_.push_back('"');
        Uint(v.as_uint());
        buf_.push_back('"');
        break;
      case ArgType::kBool: buf_.append(v.as_bool() ? "true" : "false"); break;
      case ArgType::kJson: {
        std::string_view json = trace_.str(v.as_string());
        buf_.append(json.empty() ? std::string_view("null") : json);
        break;
      }
    }
  }

  // --- Metadata --------------------------------------------------------------
  // One M event: `what` is process_name, thread_sort_index, ...; a name
  // (StringId) or a sort index goes in args under `key`.
  void Meta(std::string_view what, int64_t pid, const int64_t* tid, std::string_view key, StringId name,
            int32_t index) {
    BeginEvent('M');
    Key(",\"name\":\"");
    buf_.append(what);
    Key("\",\"pid\":");
    Int(pid);
    if (tid) {
      Key(",\"tid\":");
      Int(*tid);
    }
    Key(",\"args\":{\"");
    buf_.append(key);
    Key("\":");
    if (key == "name") {
      Str(name);
    } else {
      Int(index);
    }
    buf_.push_back('}');
    EndEvent();
  }
  void WriteMetadata() {
    const ProcessTable& procs = trace_.processes();
    for (size_t p = 0; p < procs.size(); ++p) {
      const ProcessId id = ProcessId::FromIndex(p);
      const int64_t pid = procs.pid(id);
      if (pid == loaders::kGlobalPid) continue;
      if (!procs.name(id).is_none()) Meta("process_name", pid, nullptr, "name", procs.name(id), 0);
      if (procs.sort_index(id) != 0) Meta("process_sort_index", pid, nullptr, "sort_index", {}, procs.sort_index(id));
    }
    const TrackTable& tracks = trace_.tracks();
    for (size_t t = 0; t < tracks.size(); ++t) {
      const TrackId id = TrackId::FromIndex(t);
      if (!IsThreadLike(tracks.kind(id))) continue;
      const int64_t pid = procs.pid(tracks.process(id)), tid = tracks.tid(id);
      if (!tracks.name(id).is_none()) Meta("thread_name", pid, &tid, "name", tracks.name(id), 0);
      if (tracks.sort_index(id) != 0) Meta("thread_sort_index", pid, &tid, "sort_index", {}, tracks.sort_index(id));
    }
  }
  static bool IsThreadLike(TrackKind k) {
    return k == TrackKind::kHostThread || k == TrackKind::kGpuStream || k == TrackKind::kGpuDerived;
  }

  // --- Tracks ------------------------------------------------------------------
  void WriteTrack(TrackId track) {
    const TrackTable& tracks = trace_.tracks();
    const TrackTable::Ranges& r = tracks.ranges(track);
    const int64_t pid = trace_.processes().pid(tracks.process(track));
    const int64_t tid = tracks.tid(track);
    switch (tracks.kind(track)) {
      case TrackKind::kHostThread:
      case TrackKind::kGpuStream:
      case TrackKind::kGpuDerived: WriteThreadTrack(r, pid, tid); break;
      case TrackKind::kAsync: WriteAsyncTrack(track, r, pid, tid); break;
      case TrackKind::kCounter: WriteCounterTrack(track, r, pid); break;
      case TrackKind::kMarkers: WriteMarkerTrack(r, pid); break;
    }
  }
  void WriteThreadTrack(const TrackTable::Ranges& r, int64_t pid, int64_t tid) {
    const SliceTable& s = trace_.slices();
    for (uint32_t i = r.slice_begin; i < r.slice_end && ok_; ++i) {
      BeginEvent('X');
      PidTid(pid, tid);
      Ts(s.start_ns()[i]);
      Key(",\"dur\":");
      AppendJsonMicrosFromNs(&buf_, s.dur_ns()[i]);
      NameCat(s.name()[i], s.category()[i]);
      Args(s.arg_set()[i]);
      EndEvent();
    }
    WriteInstants(r, pid, tid, 't');
  }
  void WriteInstants(const TrackTable::Ranges& r, int64_t pid, int64_t tid, char scope) {
    const InstantTable& in = trace_.instants();
    for (uint32_t i = r.instant_begin; i < r.instant_end && ok_; ++i) {
      BeginEvent('i');
      Key(",\"s\":\"");
      buf_.push_back(scope);
      buf_.push_back('"');
      PidTid(pid, tid);
      Ts(in.ts_ns()[i]);
      NameCat(in.name()[i], in.category()[i]);
      Args(in.arg_set()[i]);
      EndEvent();
    }
  }
  // Async slices become b/e pairs; an end is written once every slice that
  // started inside it has ended, so the loader's per-id stack nests them back.
  void WriteAsyncTrack(TrackId track, const TrackTable::Ranges& r, int64_t pid, int64_t tid) {
    const SliceTable& s = trace_.slices();
    const StringId cat = trace_.tracks().category(track);
    std::vector<uint32_t> open;
    auto end_event = [&](uint32_t row) {
      AsyncEvent('e', row, s.start_ns()[row] + s.dur_ns()[row], pid, tid, cat);
      EndEvent();
    };
    for (uint32_t i = r.slice_begin; i < r.slice_end && ok_; ++i) {
      while (!open.empty() && s.end_ns(SliceId(open.back())) <= s.start_ns()[i]) {
        end_event(open.back());
        open.pop_back();
      }
      AsyncEvent('b', i, s.start_ns()[i], pid, tid, cat);
      Args(s.arg_set()[i]);
      EndEvent();
      open.push_back(i);
    }
    while (!open.empty()) {
      end_event(open.back());
      open.pop_back();
    }
    const InstantTable& in = trace_.instants();
    for (uint32_t i = r.instant_begin; i < r.instant_end && ok_; ++i) {
      BeginEvent('n');
      PidTid(pid, tid);
      Ts(in.ts_ns()[i]);
      Key(",\"id\":");
      Uint(static_cast<uint64_t>(tid));
      Key(",\"name\":");
      Str(in.name()[i]);
      Key(",\"cat\":");
      Str(cat);
      Args(in.arg_set()[i]);
      EndEvent();
    }
  }
  void AsyncEvent(char ph, uint32_t row, TimeNs ts, int64_t pid, int64_t tid, StringId cat) {
    BeginEvent(ph);
    PidTid(pid, tid);
    Ts(ts);
    Key(",\"id\":");
    Uint(static_cast<uint64_t>(tid));
    Key(",\"name\":");
    Str(trace_.slices().name()[row]);
    Key(",\"cat\":");
    Str(cat);
  }
  void WriteCounterTrack(TrackId track, const TrackTable::Ranges& r, int64_t pid) {
    const CounterTable& c = trace_.counters();
    const StringId cat = trace_.tracks().category(track);
    for (uint32_t i = r.counter_begin; i < r.counter_end && ok_; ++i) {
      BeginEvent('C');
      Key(",\"pid\":");
      Int(pid);
      Ts(c.ts_ns()[i]);
      NameCat(trace_.tracks().name(track), cat);
      Key(",\"args\":{\"\":");
      AppendJsonDouble(&buf_, c.value()[i]);
      buf_.push_back('}');
      EndEvent();
    }
  }
  void WriteMarkerTrack(const TrackTable::Ranges& r, int64_t pid) {
    const bool global = pid == loaders::kGlobalPid;
    WriteInstants(r, global ? 0 : pid, 0, global ? 'g' : 'p');
  }

  // --- Flows -------------------------------------------------------------------
  // The first instant of `slice` not covered by one of its children, so the
  // loader's "deepest enclosing slice" lookup lands on `slice` itself.
  TimeNs AnchorTs(SliceId slice) const {
    const SliceTable& s = trace_.slices();
    const size_t end_row = trace_.tracks().ranges(s.track()[slice.index()]).slice_end;
    const uint16_t child_depth = s.depth()[slice.index()] + 1;
    const TimeNs end = s.end_ns(slice);
    TimeNs t = s.start_ns()[slice.index()];
    for (size_t row = slice.index() + 1; row < end_row && s.start_ns()[row] < end; ++row) {
      if (s.depth()[row] != child_depth) continue;
      if (s.start_ns()[row] > t) break;
      t = std::max(t, std::max(s.end_ns(SliceId::FromIndex(row)), s.start_ns()[row] + 1));
    }
    return t < end ? t : s.start_ns()[slice.index()];
  }
  void FlowEnd(char ph, SliceId slice, uint64_t id, std::string_view cat, std::string_view name) {
    const SliceTable& s = trace_.slices();
    TrackId track = s.track()[slice.index()];
    BeginEvent(ph);
    PidTid(trace_.processes().pid(trace_.tracks().process(track)), trace_.tracks().tid(track));
    Ts(AnchorTs(slice));
    Key(",\"id\":");
    Uint(id);
    Key(",\"cat\":");
    AppendJsonString(&buf_, cat);
    Key(",\"name\":");
    AppendJsonString(&buf_, name);
    if (ph == 'f') Key(",\"bp\":\"e\"");
    EndEvent();
  }
  void WriteFlows() {
    const FlowTable& f = trace_.flows();
    // Fresh ids for generic flows start above every launch correlation id so
    // the two kinds never share an (id, cat, name) key.
    uint64_t next_id = 1;
    for (size_t i = 0; i < f.size(); ++i) next_id = std::max(next_id, f.flow_id()[i] + 1);
    for (size_t i = 0; i < f.size() && ok_; ++i) {
      std::string_view cat = "ac2g", name = "ac2g";
      uint64_t id = f.flow_id()[i];
      if (f.kind()[i] != FlowKind::kLaunch || id == 0) {
        id = next_id++;
      }
      if (f.kind()[i] != FlowKind::kLaunch) {
        cat = f.category()[i].is_none() ? std::string_view("flow") : trace_.str(f.category()[i]);
        name = f.name()[i].is_none() ? cat : trace_.str(f.name()[i]);
      }
      FlowEnd('s', f.from()[i], id, cat, name);
      FlowEnd('f', f.to()[i], id, cat, name);
    }
  }

  // Trace-level key/values become top-level keys (deviceProperties,
  // schemaVersion, ...). Keys the format reserves, or that would shift every
  // timestamp on reload (baseTimeNanoseconds: our times already include it),
  // are left out.
  void WriteTraceMetadata() {
    ArgSetId set = trace_.info().metadata;
    if (set.is_none()) return;
    const ArgTable& args = trace_.args();
    for (uint32_t row = args.set_begin(set); row < args.set_end(set); ++row) {
      std::string_view key = trace_.str(args.key()[row]);
      if (key == "traceEvents" || key == "displayTimeUnit" || key == "baseTimeNanoseconds") continue;
      buf_.push_back(',');
      Str(args.key()[row]);
      buf_.push_back(':');
      ArgValue(args.value(row));
    }
  }

  const Trace& trace_;
  ByteSink* sink_;
  std::vector<std::string> escaped_;
  std::string buf_;
  uint64_t events_ = 0;
  uint64_t bytes_ = 0;
  bool ok_ = true;
};

// ============================================================================
// [SECTION] Public entry points
// ============================================================================

// EndsWith, Errno, PathExists and Publish: export/file_publish.h.
using namespace file_publish;  // NOLINT: the helpers read as local ones

}  // namespace

std::string CompressionForPath(const std::string& path) {
  if (EndsWith(path, ".gz")) return "gzip";
  if (EndsWith(path, ".zst") || EndsWith(path, ".zstd")) return "zstd";
  return "";
}

std::string ChromeJsonText(const Trace& trace) {
  std::string out;
  StringSink sink(&out);
  uint64_t events = 0, bytes = 0;
  Serializer(trace, &sink).Run(&events, &bytes);
  return out;
}

Result<ChromeJsonWriteStats, std::string> WriteChromeJsonFile(const Trace& trace, const std::string& path,
                                                              const ChromeJsonWriteOptions& options) {
  if (!options.overwrite && PathExists(path)) {
    return MakeUnexpected(path + " already exists (use --force to replace it)");
  }
  std::string tmp = path + ".tmp-XXXXXX";
  int fd = ::mkstemp(tmp.data());
  if (fd < 0) return MakeUnexpected(Errno("cannot create a temporary file next to", path));
  mode_t mask = ::umask(0);  // mkstemp makes 0600; give the usual 0666 & ~umask
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);

  ChromeJsonWriteStats stats;
  stats.compression = CompressionForPath(path);
  FileSink file(fd);
  std::unique_ptr<ByteSink> encoder;
  if (stats.compression == "gzip") {
    encoder = std::make_unique<GzipSink>(&file, options.compression_level ? options.compression_level : 1);
  } else if (stats.compression == "zstd") {
    encoder = std::make_unique<ZstdSink>(&file, options.compression_level ? options.compression_level : 3);
  }
  ByteSink* sink = encoder ? encoder.get() : &file;
  bool ok = sink->error().empty() && Serializer(trace, sink).Run(&stats.events, &stats.json_bytes) && sink->Finish() &&
            (sink == &file || file.Finish());
  if (!ok) {
    std::string why = !sink->error().empty() ? sink->error() : file.error();
    ::unlink(tmp.c_str());
    return MakeUnexpected("cannot write " + path + ": " + why);
  }
  stats.file_bytes = file.written();
  auto published = Publish(tmp, path, options.overwrite);
  if (!published) {
    ::unlink(tmp.c_str());
    return MakeUnexpected(published.error());
  }
  return stats;
}

}  // namespace stepline::exports
