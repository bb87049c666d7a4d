// NsysReader: the host-side tables. CUDA runtime/driver calls and OS runtime
// calls become slices on their thread (globalTid), runtime calls linked to
// the GPU work they launched by correlation id, as Kineto's launches are;
// NVTX ranges become slices (their domain as category) and marks instants.
#include "loaders/nsys/nsys_reader.h"

namespace stepline::loaders::nsys {
namespace {

// NVTX_EVENTS.eventType values (ENUM_NSYS_EVENT_TYPE).
constexpr int64_t kNvtxMark = 34;
constexpr int64_t kNvtxPushPop = 59;
constexpr int64_t kNvtxStartEnd = 60;
constexpr int64_t kNvtxDomainCreate = 75;

// CUPTI names API functions with their ABI version ("cudaLaunchKernel_v7000");
// Kineto and the CUDA docs do not, so without it an op compares across
// formats and the idle-cause patterns read the plain name.
std::string_view WithoutVersionSuffix(std::string_view name) {
  const size_t v = name.rfind("_v");
  if (v == std::string_view::npos || v == 0 || v + 2 == name.size()) return name;
  for (size_t i = v + 2; i < name.size(); ++i)
    if (name[i] < '0' || name[i] > '9') return name;
  return name.substr(0, v);
}

}  // namespace

void NsysReader::StartApiCallPrefetch(const std::string& table_name, bool with_correlation, const Reopen& reopen) {
  NsysTable* table = Table(table_name);
  if (!table || !reopen) return;
  Prefetch& p = prefetches_[table_name];
  // The worker owns its own connection over the same read-only bytes (or
  // file); only the batch crosses threads, after join().
  p.worker = WorkerThread([&p, reopen, t = *table, with_correlation, cancel = cancel_] {
    auto db = reopen();
    if (!db.ok()) {
      p.batch.error = db.error();
      p.batch.columns_ok = true;
      return;
    }
    db->SetCancelFlag(cancel);
    p.batch = FetchApiCalls(*db, t, with_correlation);
    p.batch.cancelled = cancel && cancel->load();
  });
}

void NsysReader::JoinPrefetches() {
  std::exception_ptr first;  // every worker is joined before the first one's exception goes on
  for (auto& [name, p] : prefetches_) {
    try {
      if (p.worker.joinable()) p.worker.join();
    } catch (...) {
      if (!first) first = std::current_exception();
    }
  }
  if (first) std::rethrow_exception(first);
}

void NsysReader::ReadApiCalls(const std::string& table_name, std::string_view category_name, bool is_launch_api) {
  NsysTable* table = Table(table_name);
  if (!table) return;
  ApiCallBatch batch;
  auto prefetched = prefetches_.find(table_name);
  if (prefetched != prefetches_.end()) {
    if (prefetched->second.worker.joinable()) prefetched->second.worker.join();
    batch = std::move(prefetched->second.batch);
  } else {
    batch = FetchApiCalls(db_, *table, is_launch_api);
  }
  if (!batch.columns_ok) {
    builder_.diag().Record(DiagCode::kMissingField, Diagnostics::kNoOffset,
                           table_name + " has no start/globalTid columns; skipped");
    return;
  }
  if (batch.cancelled) cancelled_ = true;
  if (!batch.error.empty() && !batch.cancelled) {
    builder_.diag().Record(DiagCode::kTruncated, Diagnostics::kNoOffset,
                           table_name + ": SQLite stopped after " + std::to_string(batch.calls.size()) + " rows (" +
                               batch.error + "); the rows before were kept");
  }
  const StringId category = builder_.Intern(category_name);
  const StringId k_corr = builder_.Intern("correlation");
  std::vector<StringId> plain_name;  // by StringId index: the name without "_vNNNN"; None until seen
  for (const ApiCallBatch::Call& c : batch.calls) {
    SliceTable::Row slice;
    slice.start_ns = c.start_ns;
    slice.dur_ns = c.end_ns == ApiCallBatch::kNoEnd ? 0 : c.end_ns - c.start_ns;
    if (slice.dur_ns < 0) {
      builder_.diag().Record(
          DiagCode::kNegativeDuration, Diagnostics::kNoOffset,
          table_name + ": end " + std::to_string(c.end_ns) + " before start " + std::to_string(c.start_ns));
      slice.dur_ns = 0;
    }
    slice.track = HostTrack(c.global_tid);
    const StringId recorded = c.name_is_text ? builder_.Intern(batch.texts[static_cast<size_t>(c.name)]) : Str(c.name);
    if (plain_name.size() <= recorded.index()) plain_name.resize(recorded.index() + 256, StringId::None());
    StringId& plain = plain_name[recorded.index()];
    if (plain.is_none()) plain = builder_.Intern(WithoutVersionSuffix(builder_.trace().str(recorded)));
    slice.name = plain;
    slice.category = category;
    if (options_.keep_args && c.correlation != 0) {
      const Arg arg{k_corr, ArgValue::Int(c.correlation)};
      slice.arg_set = builder_.AddArgs({&arg, 1});
    }
    const SliceId id = builder_.AddSlice(slice);
    if (is_launch_api && c.correlation != 0)
      builder_.NoteLaunch(CorrelationKey(PidOfGlobalTid(c.global_tid), c.correlation), id);
  }
  CountRows(batch.calls.size());
}

void NsysReader::ReadNvtx() {
  NsysTable* table = Table("NVTX_EVENTS");
  if (!table) return;
  // Domain names first: a domain-create event carries the name as text.
  std::unordered_map<int64_t, StringId> domains;
  {
    NsysTable t = *table;
    const int domain = t.Want({"domainId"}), text = t.Want({"text"}), type = t.Want({"eventType"});
    if (domain != NsysTable::kAbsent && text != NsysTable::kAbsent && type != NsysTable::kAbsent) {
      sqlite::Query q(db_, t.Sql("WHERE \"eventType\" = " + std::to_string(kNvtxDomainCreate)));
      ForEachRow(t, q, [&](const sqlite::Query& row) {
        if (!row.IsNull(text)) domains[row.Int(domain)] = builder_.Intern(row.Text(text));
      });
    }
  }
  NsysTable t = *table;
  const int start = t.Want({"start"}), end = t.Want({"end"}), type = t.Want({"eventType"});
  const int gtid = t.Want({"globalTid"}), text = t.Want({"text"}), text_id = t.Want({"textId"});
  const int domain = t.Want({"domainId"});
  if (start == NsysTable::kAbsent || type == NsysTable::kAbsent || gtid == NsysTable::kAbsent) {
    builder_.diag().Record(DiagCode::kMissingField, Diagnostics::kNoOffset,
                           t.name() + " has no start/eventType/globalTid columns; skipped");
    return;
  }
  const StringId default_category = builder_.Intern("nvtx");
  const StringId unnamed = builder_.Intern("(unnamed NVTX range)");
  const std::string ranges = "WHERE \"eventType\" IN (" + std::to_string(kNvtxMark) + ", " +
                             std::to_string(kNvtxPushPop) + ", " + std::to_string(kNvtxStartEnd) + ")";
  ForEachRowInTimeOrder(t, ranges, [&](const sqlite::Query& row) {
    if (row.IsNull(gtid) || row.IsNull(start)) return;
    StringId name =
        text != NsysTable::kAbsent && !row.IsNull(text) ? builder_.Intern(row.Text(text)) : StringId::None();
    if (name.is_none()) name = Str(IntOr(row, text_id, -1));
    StringId category = default_category;
    if (domain != NsysTable::kAbsent && !row.IsNull(domain)) {
      auto it = domains.find(row.Int(domain));
      if (it != domains.end()) category = it->second;
    }
    const TrackId track = HostTrack(row.Int(gtid));
    if (row.Int(type) == kNvtxMark) {
      builder_.AddInstant({track, row.Int(start), name.is_none() ? unnamed : name, category, ArgSetId::None()});
      return;
    }
    if (end == NsysTable::kAbsent || row.IsNull(end)) {
      builder_.diag().Record(DiagCode::kUnmatchedBegin, Diagnostics::kNoOffset,
                             "NVTX range \"" + std::string(builder_.trace().str(name)) + "\" at " +
                                 std::to_string(row.Int(start)) + " ns has no end; skipped");
      return;
    }
    SliceTable::Row slice;
    if (!ActivityTimes(t, row, start, end, &slice)) return;
    slice.track = track;
    slice.name = name.is_none() ? unnamed : name;
    slice.category = category;
    builder_.AddSlice(slice);
    nvtx_ranges_.push_back({track, slice.start_ns, slice.dur_ns, slice.name});
  });
}

}  // namespace stepline::loaders::nsys
