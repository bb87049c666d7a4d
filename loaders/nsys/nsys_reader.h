// NsysReader: the state of one Nsight Systems export being read into a
// TraceBuilder, and one method per group of tables. The tables and their
// columns are looked up first (pragma table_info); a missing table is not an
// error, a missing column reads as NULL (NsysTable).
//
// Identities (Nsight's own encodings):
//   globalTid = (vm/host << 48) | (pid << 24) | tid, each 24 bits; the model
//   keys host threads by (pid, tid). Device work lives on processes of their
//   own (pid kDevicePidBase + deviceId), one "Stream N" track per stream.
//   CUPTI correlation ids count per process, so a launch pairs with its
//   activity by (process, correlationId).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

#include "loaders/annotation_steps.h"
#include "loaders/load.h"
#include "loaders/nsys/api_call_batch.h"
#include "loaders/nsys/nsys_table.h"
#include "sqlite/database.h"
#include "loaders/trace_builder.h"
#include "model/worker_thread.h"

namespace stepline::loaders::nsys {

inline constexpr int64_t kDevicePidBase = int64_t{1} << 40;

inline int64_t PidOfGlobalTid(int64_t global_tid) { return (global_tid >> 24) & 0xFFFFFF; }
inline int64_t TidOfGlobalTid(int64_t global_tid) { return global_tid & 0xFFFFFF; }

class NsysReader {
 public:
  NsysReader(const sqlite::Database& db, TraceBuilder* builder, const LoadOptions& options, uint64_t input_bytes);
  ~NsysReader() {
    try {
      JoinPrefetches();
    } catch (...) {  // unwinding already, or the result is no longer wanted
    }
  }
  NsysReader(const NsysReader&) = delete;
  NsysReader& operator=(const NsysReader&) = delete;

  // Reads the table list; false (with *error) when even that fails.
  bool ReadSchema(std::string* error);
  // True when the file holds at least one table Stepline reads events from.
  bool HasEventTables() const;
  std::string EventTableNames() const;  // for the error when there are none

  // [nsys_reader.cpp] names and facts
  void ReadStrings();
  void ReadProcessesAndThreads();
  void ReadGpuInfo();
  void ReadExportMetadata();
  // [nsys_gpu_tables.cpp] device activities
  void ReadKernels();
  void ReadMemcpys();
  void ReadMemsets();
  void ReadSynchronization();
  // [nsys_host_tables.cpp] host events
  // Opens another connection to the same database (for a worker thread).
  using Reopen = std::function<Result<sqlite::Database, std::string>()>;
  // Starts reading an API-call table on a worker thread; ReadApiCalls then
  // waits for it instead of reading the table itself.
  void StartApiCallPrefetch(const std::string& table, bool with_correlation, const Reopen& reopen);
  void JoinPrefetches();  // before the reader goes away, on every path
  void ReadApiCalls(const std::string& table, std::string_view category, bool is_launch_api);
  void ReadNvtx();
  // Adds the Steps row from the NVTX ranges read; returns the step count.
  size_t AddNvtxSteps();
  // The trace-level key/values gathered along the way (schema version, GPUs).
  ArgSetId MetadataArgs() { return builder_.AddArgs(metadata_); }

  bool cancelled() const { return cancelled_; }
  void set_cancel_flag(const std::atomic<bool>* cancel) { cancel_ = cancel; }
  void set_progress(LoadProgress* progress) { progress_ = progress; }

 private:
  // Looks up a table; null when the file does not have it.
  NsysTable* Table(const std::string& name);
  // Steps a query to its end, calling `row` per row. A SQLite error mid-way
  // keeps the rows read and records kTruncated naming the table.
  // `failed_first`: when given, an error before the first row is not
  // recorded but reported there (the caller retries another way).
  template <typename RowFn>
  void ForEachRow(const NsysTable& table, sqlite::Query& q, RowFn&& row, bool* failed_first = nullptr);
  // The rows of `table` (optionally `where`) in time order (NsysTable::
  // TimeOrder). SQLite sorts before the first row, so a cut or damaged file
  // fails there; then the rows it can read are read in file order.
  template <typename RowFn>
  void ForEachRowInTimeOrder(const NsysTable& table, const std::string& where, RowFn&& row);

  void ReadCopyLike(const std::string& table_name, bool is_memset);
  // start/end of a device or host row into `slice`; false (recorded) when unusable.
  bool ActivityTimes(const NsysTable& t, const sqlite::Query& row, int start, int end, SliceTable::Row* slice);
  StringId Str(int64_t id);                          // StringIds.id -> interned name (None if unknown)
  StringId TextOrId(const sqlite::Query& q, int col);  // a column that is text or a StringIds id
  TrackId HostTrack(int64_t global_tid);
  TrackId StreamTrack(int32_t device, int64_t stream, bool sync_row);
  int64_t DevicePid(int32_t device);
  uint64_t CorrelationKey(int64_t pid, int64_t correlation);
  void CountRows(uint64_t n);

  const sqlite::Database& db_;
  TraceBuilder& builder_;
  const LoadOptions options_;
  uint64_t input_bytes_;
  const std::atomic<bool>* cancel_ = nullptr;
  LoadProgress* progress_ = nullptr;
  bool cancelled_ = false;
  uint64_t rows_read_ = 0;

  std::map<std::string, NsysTable> tables_;
  // StringIds: text kept in one arena until first use, interned lazily.
  struct StringSpan {
    int64_t id;  // -1: no string with this id (dense index holes)
    uint64_t offset;
    uint32_t size;
  };
  std::string string_arena_;
  std::vector<StringSpan> dense_spans_;                     // indexed by id, when ids are dense
  std::vector<StringSpan> sparse_spans_;                    // sorted by id, otherwise
  std::vector<StringId> interned_;                          // parallel to whichever is used; None until first use
  std::unordered_map<int64_t, std::string> process_names_;  // pid -> name
  std::unordered_map<int64_t, StringId> thread_names_;      // globalTid -> name
  std::map<int32_t, std::string> gpu_names_;                // device -> "NVIDIA H100 80GB HBM3"
  std::unordered_map<int64_t, TrackId> host_tracks_;        // globalTid -> track
  std::unordered_map<uint64_t, TrackId> stream_tracks_;     // (device, stream, sync) -> track
  std::unordered_map<int64_t, uint32_t> correlation_pids_;  // pid -> small ordinal
  int64_t last_correlation_pid_ = INT64_MIN;
  uint32_t last_correlation_ordinal_ = 0;
  struct Prefetch {
    WorkerThread worker;
    ApiCallBatch batch;
  };
  std::map<std::string, Prefetch> prefetches_;  // node-based: workers hold references
  std::vector<AnnotationRange> nvtx_ranges_;
  std::vector<Arg> metadata_;
  int64_t last_tid_key_ = INT64_MIN;
  TrackId last_tid_track_;
};

template <typename RowFn>
void NsysReader::ForEachRowInTimeOrder(const NsysTable& table, const std::string& where, RowFn&& row) {
  const std::string order = table.TimeOrder();
  if (!order.empty()) {
    sqlite::Query ordered(db_, table.Sql(where.empty() ? order : where + " " + order));
    bool failed_first = false;
    if (ordered.ok()) {
      ForEachRow(table, ordered, row, &failed_first);
      if (!failed_first) return;
    }
  }
  sqlite::Query q(db_, table.Sql(where));
  ForEachRow(table, q, row);
}

template <typename RowFn>
void NsysReader::ForEachRow(const NsysTable& table, sqlite::Query& q, RowFn&& row, bool* failed_first) {
  if (!q.ok()) {
    builder_.diag().Record(DiagCode::kTruncated, Diagnostics::kNoOffset,
                           table.name() + ": not read (" + q.Error() + ")");
    return;
  }
  uint64_t n = 0;
  for (;;) {
    const sqlite::Query::Step s = q.Next();
    if (s == sqlite::Query::Step::kDone) break;
    if (s == sqlite::Query::Step::kError) {
      if (failed_first != nullptr && n == 0 && !(cancel_ && cancel_->load(std::memory_order_relaxed))) {
        *failed_first = true;
        break;
      }
      if (cancel_ && cancel_->load(std::memory_order_relaxed)) {
        cancelled_ = true;
      } else {
        builder_.diag().Record(DiagCode::kTruncated, Diagnostics::kNoOffset,
                               table.name() + ": SQLite stopped after " + std::to_string(n) + " rows (" + q.Error() +
                                   "); the rows before were kept");
      }
      break;
    }
    row(q);
    if ((++n & 0xFFFF) == 0) CountRows(0x10000);
  }
  CountRows(n & 0xFFFF);
}

}  // namespace stepline::loaders::nsys
