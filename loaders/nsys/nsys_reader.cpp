// NsysReader: schema lookup, the StringIds table, processes, threads, GPUs
// and export metadata (see nsys_reader.h). The event tables are in
// nsys_gpu_tables.cpp and nsys_host_tables.cpp.
#include "loaders/nsys/nsys_reader.h"

#include <algorithm>

namespace stepline::loaders::nsys {
namespace {

// Tables whose rows become events; a file with none of them is not an export
// Stepline can show anything of.
constexpr std::string_view kEventTables[] = {
    "CUPTI_ACTIVITY_KIND_KERNEL",
    "CUPTI_ACTIVITY_KIND_MEMCPY",
    "CUPTI_ACTIVITY_KIND_MEMSET",
    "CUPTI_ACTIVITY_KIND_RUNTIME",
    "CUPTI_ACTIVITY_KIND_DRIVER",
    "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
    "NVTX_EVENTS",
    "OSRT_API",
};

}  // namespace

NsysReader::NsysReader(const sqlite::Database& db, TraceBuilder* builder, const LoadOptions& options, uint64_t input_bytes)
    : db_(db), builder_(*builder), options_(options), input_bytes_(input_bytes) {}

bool NsysReader::ReadSchema(std::string* error) {
  const std::vector<std::string> names = db_.TableNames(error);
  if (!error->empty()) return false;
  for (const std::string& name : names) tables_.emplace(name, NsysTable(name, db_.Columns(name)));
  return true;
}

bool NsysReader::HasEventTables() const {
  return std::any_of(std::begin(kEventTables), std::end(kEventTables),
                     [&](std::string_view t) { return tables_.count(std::string(t)) != 0; });
}

std::string NsysReader::EventTableNames() const {
  std::string out;
  for (std::string_view t : kEventTables) out += (out.empty() ? "" : ", ") + std::string(t);
  return out;
}

NsysTable* NsysReader::Table(const std::string& name) {
  auto it = tables_.find(name);
  return it == tables_.end() ? nullptr : &it->second;
}

void NsysReader::CountRows(uint64_t n) {
  rows_read_ += n;
  // Progress in bytes: rows are spread over the file, so rows read so far
  // scaled by the bytes per row seen is a fair estimate; capped below 100%.
  if (progress_) {
    progress_->bytes_done.store(std::min<uint64_t>(input_bytes_ - input_bytes_ / 100, rows_read_ * 64),
                                std::memory_order_relaxed);
  }
}

//-----------------------------------------------------------------------------
// Strings
//-----------------------------------------------------------------------------

void NsysReader::ReadStrings() {
  // StringIds (id, value); very old exports called it StringTable.
  NsysTable* table = Table("StringIds");
  if (!table) table = Table("StringTable");
  if (!table) return;
  NsysTable t = *table;
  const int id_col = t.Want({"id"});
  const int value_col = t.Want({"value"});
  if (id_col == NsysTable::kAbsent || value_col == NsysTable::kAbsent) return;
  std::vector<StringSpan> spans;
  int64_t max_id = -1;
  sqlite::Query q(db_, t.Sql());
  ForEachRow(t, q, [&](const sqlite::Query& row) {
    const int64_t id = row.Int(id_col);
    const std::string_view text = row.Text(value_col);
    if (id < 0 || text.size() >= UINT32_MAX) return;
    spans.push_back({id, string_arena_.size(), static_cast<uint32_t>(text.size())});
    string_arena_.append(text);
    max_id = std::max(max_id, id);
  });
  // Ids usually count up from 0 (a plain array indexes them); some exports
  // leave large holes, and then a sorted array is searched instead.
  if (max_id >= 0 && static_cast<uint64_t>(max_id) < 4 * spans.size() + 65536) {
    dense_spans_.assign(static_cast<size_t>(max_id) + 1, StringSpan{-1, 0, 0});
    for (const StringSpan& s : spans) dense_spans_[static_cast<size_t>(s.id)] = s;
    interned_.assign(dense_spans_.size(), StringId::None());
  } else {
    std::sort(spans.begin(), spans.end(), [](const StringSpan& a, const StringSpan& b) { return a.id < b.id; });
    sparse_spans_ = std::move(spans);
    interned_.assign(sparse_spans_.size(), StringId::None());
  }
}

StringId NsysReader::Str(int64_t id) {
  size_t slot = 0;
  const StringSpan* span = nullptr;
  if (!dense_spans_.empty()) {
    if (id < 0 || static_cast<uint64_t>(id) >= dense_spans_.size() || dense_spans_[static_cast<size_t>(id)].id < 0)
      return StringId::None();
    slot = static_cast<size_t>(id);
    span = &dense_spans_[slot];
  } else {
    auto it = std::lower_bound(sparse_spans_.begin(), sparse_spans_.end(), id,
                               [](const StringSpan& s, int64_t v) { return s.id < v; });
    if (it == sparse_spans_.end() || it->id != id) return StringId::None();
    slot = static_cast<size_t>(it - sparse_spans_.begin());
    span = &*it;
  }
  StringId& s = interned_[slot];
  if (s.is_none()) s = builder_.Intern(std::string_view(string_arena_).substr(span->offset, span->size));
  return s;
}

StringId NsysReader::TextOrId(const sqlite::Query& q, int col) {
  if (col == NsysTable::kAbsent || q.IsNull(col)) return StringId::None();
  // Some versions store names as text, others as StringIds ids.
  return q.IsInteger(col) ? Str(q.Int(col)) : builder_.Intern(q.Text(col));
}

//-----------------------------------------------------------------------------
// Processes, threads and tracks
//-----------------------------------------------------------------------------

void NsysReader::ReadProcessesAndThreads() {
  if (NsysTable* table = Table("PROCESSES")) {
    NsysTable t = *table;
    const int gpid = t.Want({"globalPid"});
    const int pid = t.Want({"pid"});
    const int name = t.Want({"name"});
    sqlite::Query q(db_, t.Sql());
    if (name != NsysTable::kAbsent && (gpid != NsysTable::kAbsent || pid != NsysTable::kAbsent)) {
      ForEachRow(t, q, [&](const sqlite::Query& row) {
        const int64_t p = gpid != NsysTable::kAbsent ? PidOfGlobalTid(row.Int(gpid)) : row.Int(pid);
        process_names_[p] = std::string(row.Text(name));
      });
    }
  }
  if (NsysTable* table = Table("ThreadNames")) {
    NsysTable t = *table;
    const int name = t.Want({"nameId", "name"});
    const int gtid = t.Want({"globalTid"});
    if (name == NsysTable::kAbsent || gtid == NsysTable::kAbsent) return;
    sqlite::Query q(db_, t.Sql());
    ForEachRow(t, q, [&](const sqlite::Query& row) { thread_names_[row.Int(gtid)] = TextOrId(row, name); });
  }
}

TrackId NsysReader::HostTrack(int64_t global_tid) {
  if (global_tid == last_tid_key_) return last_tid_track_;
  auto [it, inserted] = host_tracks_.try_emplace(global_tid);
  if (inserted) {
    const int64_t pid = PidOfGlobalTid(global_tid);
    const int64_t tid = TidOfGlobalTid(global_tid);
    it->second = builder_.ThreadTrack(pid, tid);
    if (builder_.ProcessName(pid).is_none()) {
      auto name = process_names_.find(pid);
      builder_.SetProcessName(pid, name != process_names_.end() ? name->second : "Process " + std::to_string(pid),
                              Diagnostics::kNoOffset);
    }
    auto thread = thread_names_.find(global_tid);
    const std::string_view thread_name = thread != thread_names_.end() ? builder_.trace().str(thread->second) : "";
    builder_.SetThreadName(pid, tid, thread_name.empty() ? "Thread " + std::to_string(tid) : std::string(thread_name),
                           Diagnostics::kNoOffset);
  }
  last_tid_key_ = global_tid;
  last_tid_track_ = it->second;
  return it->second;
}

int64_t NsysReader::DevicePid(int32_t device) {
  const int64_t pid = kDevicePidBase + device;
  if (builder_.ProcessName(pid).is_none()) {
    auto name = gpu_names_.find(device);
    builder_.SetProcessName(
        pid, "GPU " + std::to_string(device) + (name != gpu_names_.end() ? " (" + name->second + ")" : ""),
        Diagnostics::kNoOffset);
    builder_.SetProcessDevice(pid, device);
    builder_.SetProcessSortIndex(pid, device);
  }
  return pid;
}

TrackId NsysReader::StreamTrack(int32_t device, int64_t stream, bool sync_row) {
  const uint64_t key = (static_cast<uint64_t>(static_cast<uint32_t>(device)) << 33) |
                       ((static_cast<uint64_t>(stream) & 0xFFFFFFFFu) << 1) | (sync_row ? 1u : 0u);
  auto [it, inserted] = stream_tracks_.try_emplace(key);
  if (inserted) {
    const int64_t pid = DevicePid(device);
    // The sync row keeps waits off the stream's row, where they would overlap
    // the kernels (Kineto draws "stream N (sync)" the same way).
    const int64_t tid = sync_row ? stream + (int64_t{1} << 32) : stream;
    it->second = builder_.ThreadTrack(pid, tid);
    builder_.SetTrackKind(it->second, TrackKind::kGpuStream, device);
    // CUPTI writes stream 0xFFFFFFFF for syncs not tied to a stream (event and
    // context syncs).
    const bool no_stream = stream < 0 || stream == 0xFFFFFFFFll;
    builder_.SetThreadName(
        pid, tid,
        no_stream ? std::string("Sync (no stream)") : "Stream " + std::to_string(stream) + (sync_row ? " (sync)" : ""),
        Diagnostics::kNoOffset);
    builder_.SetThreadSortIndex(pid, tid, static_cast<int32_t>(sync_row ? stream * 2 + 1 : stream * 2));
  }
  return it->second;
}

uint64_t NsysReader::CorrelationKey(int64_t pid, int64_t correlation) {
  // One small ordinal per process keeps the ids of a single-process capture
  // dense (LaunchLinks then indexes them with a plain array).
  if (pid != last_correlation_pid_) {
    auto [it, inserted] = correlation_pids_.try_emplace(pid, static_cast<uint32_t>(correlation_pids_.size()));
    last_correlation_pid_ = pid;
    last_correlation_ordinal_ = it->second;
  }
  return (uint64_t{last_correlation_ordinal_} << 32) | (static_cast<uint64_t>(correlation) & 0xFFFFFFFFu);
}

//-----------------------------------------------------------------------------
// GPUs and export metadata
//-----------------------------------------------------------------------------

void NsysReader::ReadGpuInfo() {
  NsysTable* table = Table("TARGET_INFO_GPU");
  if (!table) return;
  NsysTable t = *table;
  const int device = t.Want({"cuDevice", "id"});
  const int name = t.Want({"name"});
  const int memory = t.Want({"totalMemory"});
  const int sms = t.Want({"smCount"});
  if (device == NsysTable::kAbsent) return;
  sqlite::Query q(db_, t.Sql());
  ForEachRow(t, q, [&](const sqlite::Query& row) {
    const auto d = static_cast<int32_t>(row.Int(device));
    const std::string prefix = "gpu " + std::to_string(d) + " ";
    if (name != NsysTable::kAbsent && !row.IsNull(name)) {
      gpu_names_[d] = std::string(row.Text(name));
      metadata_.push_back({builder_.Intern(prefix + "name"), ArgValue::String(builder_.Intern(row.Text(name)))});
    }
    if (memory != NsysTable::kAbsent && !row.IsNull(memory))
      metadata_.push_back({builder_.Intern(prefix + "total memory"), ArgValue::Int(row.Int(memory))});
    if (sms != NsysTable::kAbsent && !row.IsNull(sms))
      metadata_.push_back({builder_.Intern(prefix + "sm count"), ArgValue::Int(row.Int(sms))});
  });
}

void NsysReader::ReadExportMetadata() {
  if (NsysTable* table = Table("META_DATA_EXPORT")) {
    NsysTable t = *table;
    const int name = t.Want({"name"});
    const int value = t.Want({"value"});
    if (name != NsysTable::kAbsent && value != NsysTable::kAbsent) {
      sqlite::Query q(db_, t.Sql());
      ForEachRow(t, q, [&](const sqlite::Query& row) {
        const std::string_view key = row.Text(name);
        if (key == "EXPORT_SCHEMA_VERSION" || key == "EXPORT_PRODUCT_VERSION" || key == "EXPORT_PRODUCT_NAME") {
          metadata_.push_back(
              {builder_.Intern("nsys " + std::string(key)), ArgValue::String(builder_.Intern(row.Text(value)))});
        }
      });
    }
  }
  if (NsysTable* table = Table("TARGET_INFO_SESSION_START_TIME")) {
    NsysTable t = *table;
    const int utc = t.Want({"utcEpochNs"});
    if (utc != NsysTable::kAbsent) {
      sqlite::Query q(db_, t.Sql());
      ForEachRow(t, q, [&](const sqlite::Query& row) {
        metadata_.push_back({builder_.Intern("session start utc ns"), ArgValue::Int(row.Int(utc))});
      });
    }
  }
}

size_t NsysReader::AddNvtxSteps() { return AddStepsFromRanges(&builder_, std::move(nvtx_ranges_), "nvtx"); }

}  // namespace stepline::loaders::nsys
