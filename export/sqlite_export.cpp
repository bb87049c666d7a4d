// The SQLite export: schema, model tables (track, slice, instant, flow,
// counter, arg) and the atomic publish; the analysis tables are in
// sqlite_export_analysis.cpp. Times are integer ns of the trace's clock,
// names are text, absent values NULL.
//
// [SECTION] Schema: kSchema (every column documented) and the indexes
// [SECTION] Model tables: WriteTracks, WriteSlices, ..., WriteArgs
// [SECTION] The database: the side thread, WriteDatabase, ExportSqlite (temporary file, then rename)
//
// Speed (the target is 1 M slices/s; docs/performance.md): prepared statements bound
// without copies, no journal and no fsync while writing (the file is a
// temporary one until the rename, so a crash leaves no half database under
// OUT.db), names stored once, and two threads with one connection each: the
// main one writes OUT.db, a side one writes the args into a database of its
// own that the main one then copies in by SQLite's transfer optimization.
#include "export/sqlite_export.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <future>
#include <unordered_map>
#include <vector>

#include "export/safe_write.h"
#include "export/file_publish.h"
#include "sqlite/insert.h"

namespace stepline::exports {
namespace {

//-----------------------------------------------------------------------------
// [SECTION] Schema
//-----------------------------------------------------------------------------

// Every table, one column per line with its unit; docs/cli.md, "stepline export", mirrors it.
constexpr const char* kSchema = R"sql(
CREATE TABLE track(
  id INTEGER PRIMARY KEY,   -- the model's TrackId
  name TEXT,                -- thread name, "Stream #7", counter name; NULL = unnamed
  kind TEXT NOT NULL,       -- host_thread, gpu_stream, gpu_derived, counter, async, markers
  device INTEGER,           -- GPU/TPU ordinal; NULL for host tracks
  process TEXT,             -- the owning process's (or device's) name
  pid INTEGER,              -- the owning process's pid as in the trace
  thread INTEGER            -- tid / stream id / async id
);
CREATE TABLE name(          -- every distinct slice name once
  id INTEGER PRIMARY KEY,
  value TEXT NOT NULL UNIQUE
);
CREATE TABLE slice_row(     -- the rows of the view `slice` (below), with the name as a name id
  id INTEGER PRIMARY KEY,   -- the model's SliceId (sorted by track, ts)
  ts INTEGER NOT NULL,      -- start, ns
  dur INTEGER NOT NULL,     -- duration, ns
  track_id INTEGER NOT NULL REFERENCES track(id),
  name_id INTEGER REFERENCES name(id),  -- NULL = unnamed
  category TEXT,
  depth INTEGER NOT NULL,   -- 0 = root of its track
  parent_id INTEGER REFERENCES slice_row(id),  -- NULL for roots
  gpu_kind TEXT             -- kernel, collective, memcpy_h2d, ...; NULL for host slices
);
-- What scripts query: the slices with their names as text. SQLite flattens
-- the join, so `WHERE name = ?` looks the name up in name's index and then
-- uses slice_name; `WHERE track_id = ? AND ts ...` uses slice_track_ts.
CREATE VIEW slice AS
  SELECT r.id, r.ts, r.dur, r.track_id, n.value AS name, r.category, r.depth, r.parent_id, r.gpu_kind
  FROM slice_row r LEFT JOIN name n ON n.id = r.name_id;
CREATE TABLE instant(
  id INTEGER PRIMARY KEY,
  ts INTEGER NOT NULL,      -- ns
  track_id INTEGER NOT NULL REFERENCES track(id),
  name TEXT,
  category TEXT
);
CREATE TABLE flow(
  id INTEGER PRIMARY KEY,
  from_slice_id INTEGER NOT NULL REFERENCES slice_row(id),  -- a launch call for kind 'launch'
  to_slice_id INTEGER NOT NULL REFERENCES slice_row(id),    -- the GPU activity it launched
  kind TEXT NOT NULL,       -- launch, generic
  name TEXT,
  category TEXT,
  flow_id INTEGER           -- id in the trace (correlation id, JSON id); NULL = none
);
CREATE TABLE counter(
  track_id INTEGER NOT NULL REFERENCES track(id),
  ts INTEGER NOT NULL,      -- ns
  value REAL NOT NULL       -- in the counter's own unit
);
CREATE TABLE arg(           -- clustered by slice: the table is its own slice_id index
  slice_id INTEGER NOT NULL REFERENCES slice_row(id),
  seq INTEGER NOT NULL,     -- the arg's position among its slice's args, from 0
  key TEXT NOT NULL,
  value,                    -- INTEGER, REAL or TEXT (JSON text for arrays and objects)
  PRIMARY KEY(slice_id, seq)
) WITHOUT ROWID;
CREATE TABLE step(
  id INTEGER PRIMARY KEY,   -- index in step order
  name TEXT NOT NULL,
  ts INTEGER NOT NULL,      -- ns
  dur INTEGER NOT NULL      -- ns
);
CREATE TABLE step_breakdown(
  step_id INTEGER NOT NULL REFERENCES step(id),
  device INTEGER,           -- NULL: GPU slices of no known device
  device_name TEXT NOT NULL,
  is_primary INTEGER NOT NULL,  -- 1 for the device `report` describes
  category TEXT NOT NULL,   -- compute, collective, memcpy_*, memset, idle_*
  dur INTEGER NOT NULL      -- ns of the step in this category; a step's rows sum to its dur
);
CREATE TABLE gap(
  id INTEGER PRIMARY KEY,   -- by start
  device INTEGER,
  device_name TEXT NOT NULL,
  ts INTEGER NOT NULL,      -- ns
  dur INTEGER NOT NULL,     -- ns; gaps >= 10 us, as `report` lists them
  step_id INTEGER REFERENCES step(id),  -- NULL when in no step
  cause TEXT NOT NULL,      -- input, memcpy_h2d, memcpy_d2h, sync, launch, host_compute, other
  blamed_event TEXT,        -- the first host event blamed, NULL when none
  next_kernel TEXT,
  launch_delay INTEGER      -- ns; NULL unknown
);
CREATE TABLE op_stat(
  name TEXT NOT NULL,
  kind TEXT NOT NULL,       -- host_op, kernel, memcpy, memset, graph_replay
  count INTEGER NOT NULL,
  total INTEGER NOT NULL, self INTEGER NOT NULL, avg INTEGER NOT NULL,
  min INTEGER NOT NULL, max INTEGER NOT NULL,  -- ns
  percent REAL NOT NULL,
  flops REAL,               -- summed over the instances with known FLOPs; NULL unknown
  achieved_tflops REAL,     -- flops / the GPU time of those instances; NULL unknown
  bound TEXT                -- compute, memory; NULL unclassified
);
CREATE TABLE headline(      -- the window's headline figures, as its overview prints them
  figure TEXT PRIMARY KEY,  -- steps, mean_step, device_busy, device_idle, top_idle_cause, most_blamed, memory_peak, mfu, samples_per_s
  label TEXT NOT NULL,      -- "GPU busy", ...
  value TEXT NOT NULL       -- "54.9%", ...; "-" when the trace has none
);
CREATE TABLE kernel_stat(
  name TEXT NOT NULL,
  grid TEXT, block TEXT,    -- "x,y,z"; NULL unknown
  registers_per_thread INTEGER, shared_memory_bytes INTEGER, occupancy_percent REAL,  -- NULL unknown
  framework_op TEXT,        -- the op that launched it; NULL unknown
  count INTEGER NOT NULL,
  total INTEGER NOT NULL, avg INTEGER NOT NULL, min INTEGER NOT NULL, max INTEGER NOT NULL,  -- ns
  bound TEXT,               -- compute, memory; NULL unclassified
  graph_id INTEGER          -- the CUDA / HIP graph it was replayed from; NULL outside graphs
);
)sql";

// Before the inserts: the slices arrive in (track, ts) order (SliceIds are
// sorted so), so this index only ever appends, cheaper than sorting it
// afterwards (measured: 880 -> 770 ms for the slice table and its indexes
// of a 1 M-slice trace).
constexpr const char* kSliceTrackIndex = "CREATE INDEX slice_track_ts ON slice_row(track_id, ts);";
// After the inserts: names arrive in no order, and one sort beats 1 M
// inserts at random places (1070 ms against 870 with it made first).
constexpr const char* kSliceNameIndex = "CREATE INDEX slice_name ON slice_row(name_id);";
// Built after the counter rows are copied in (an index the side database
// lacks would stop SQLite's transfer optimization).
constexpr const char* kCounterIndex = "CREATE INDEX counter_track_ts ON counter(track_id, ts);";

// The tables the side thread writes (WriteSideDatabase); nothing else reads
// them. Flows stay on the main thread: it then waits for nobody, and their
// rows need no copy.
constexpr const char* kSideTables[] = {"instant", "counter", "arg"};

//-----------------------------------------------------------------------------
// [SECTION] Model tables
//-----------------------------------------------------------------------------

void WriteTracks(const Trace& trace, sqlite::Database* db, SqliteExportCounts* counts) {
  sqlite::Insert ins(db, "track", 7);
  const TrackTable& tracks = trace.tracks();
  for (size_t t = 0; t < tracks.size(); ++t) {
    const TrackId id = TrackId::FromIndex(t);
    const ProcessId process = tracks.process(id);
    ins.Int(1, static_cast<int64_t>(t));
    ins.TextOrNull(2, trace.str(tracks.name(id)));
    ins.Text(3, TrackKindName(tracks.kind(id)));
    tracks.device_id(id) < 0 ? ins.Null(4) : ins.Int(4, tracks.device_id(id));
    if (process.is_none()) {
      ins.Null(5);
      ins.Null(6);
    } else {
      ins.TextOrNull(5, trace.str(trace.processes().name(process)));
      ins.Int(6, trace.processes().pid(process));
    }
    ins.Int(7, tracks.tid(id));
    if (!ins.Row()) return;
  }
  counts->tracks = tracks.size();
}

// Names go once into `name`; slice_row holds their ids, so the slice_name
// index sorts integers instead of text (half the time of the biggest index)
// and the rows are shorter.
void WriteSlices(const Trace& trace, sqlite::Database* db, SqliteExportCounts* counts) {
  const SliceTable& s = trace.slices();
  const auto names = s.name();
  // By pool string: -1 not seen yet, 0 unnamed (""), else the name id. The
  // map guards against a pool holding one text twice (UNIQUE would fail).
  std::vector<int32_t> name_id(trace.strings().size(), -1);
  {
    std::unordered_map<std::string_view, int32_t> by_text;
    sqlite::Insert ins(db, "name", 2);
    for (size_t i = 0; i < s.size(); ++i) {
      int32_t& id = name_id[names[i].index()];
      if (id >= 0) continue;
      const std::string_view text = trace.str(names[i]);
      if (text.empty()) {
        id = 0;
        continue;
      }
      const auto [it, added] = by_text.emplace(text, static_cast<int32_t>(by_text.size()) + 1);
      id = it->second;
      if (!added) continue;
      ins.Int(1, id);
      ins.Text(2, text);
      if (!ins.Row()) return;
    }
  }
  sqlite::Insert ins(db, "slice_row", 9);
  const auto category = s.category();
  for (size_t i = 0; i < s.size(); ++i) {
    ins.Int(1, static_cast<int64_t>(i));
    ins.Int(2, s.start_ns()[i]);
    ins.Int(3, s.dur_ns()[i]);
    ins.Int(4, s.track()[i].index());
    const int64_t name = name_id[names[i].index()];
    name == 0 ? ins.Null(5) : ins.Int(5, name);
    ins.TextOrNull(6, trace.str(category[i]));
    ins.Int(7, s.depth()[i]);
    s.parent()[i].is_none() ? ins.Null(8) : ins.Int(8, s.parent()[i].index());
    s.gpu_kind()[i] == GpuKind::kNone ? ins.Null(9) : ins.Text(9, GpuKindName(s.gpu_kind()[i]));
    if (!ins.Row()) return;
  }
  counts->slices = s.size();
}

void WriteInstants(const Trace& trace, sqlite::Database* db, SqliteExportCounts* counts) {
  sqlite::Insert ins(db, "instant", 5);
  const InstantTable& s = trace.instants();
  for (size_t i = 0; i < s.size(); ++i) {
    ins.Int(1, static_cast<int64_t>(i));
    ins.Int(2, s.ts_ns()[i]);
    ins.Int(3, s.track()[i].index());
    ins.TextOrNull(4, trace.str(s.name()[i]));
    ins.TextOrNull(5, trace.str(s.category()[i]));
    if (!ins.Row()) return;
  }
  counts->instants = s.size();
}

void WriteFlows(const Trace& trace, sqlite::Database* db, SqliteExportCounts* counts) {
  sqlite::Insert ins(db, "flow", 7);
  const FlowTable& f = trace.flows();
  for (size_t i = 0; i < f.size(); ++i) {
    ins.Int(1, static_cast<int64_t>(i));
    ins.Int(2, f.from()[i].index());
    ins.Int(3, f.to()[i].index());
    ins.Text(4, f.kind()[i] == FlowKind::kLaunch ? "launch" : "generic");
    ins.TextOrNull(5, trace.str(f.name()[i]));
    ins.TextOrNull(6, trace.str(f.category()[i]));
    // SQLite integers are signed 64-bit: an id past that keeps its bits.
    f.flow_id()[i] == 0 ? ins.Null(7) : ins.Int(7, static_cast<int64_t>(f.flow_id()[i]));
    if (!ins.Row()) return;
  }
  counts->flows = f.size();
}

void WriteCounters(const Trace& trace, sqlite::Database* db, SqliteExportCounts* counts) {
  sqlite::Insert ins(db, "counter", 3);
  const CounterTable& c = trace.counters();
  for (size_t i = 0; i < c.size(); ++i) {
    ins.Int(1, c.track()[i].index());
    ins.Int(2, c.ts_ns()[i]);
    ins.Real(3, c.value()[i]);
    if (!ins.Row()) return;
  }
  counts->counters = c.size();
}

void BindArgValue(const Trace& trace, ArgValue v, sqlite::Insert* ins) {
  constexpr int kValue = 4;  // arg.value
  switch (v.type) {
    case ArgType::kInt: ins->Int(kValue, v.as_int()); break;
    case ArgType::kBool: ins->Int(kValue, v.as_bool() ? 1 : 0); break;
    case ArgType::kDouble: ins->Real(kValue, v.as_double()); break;
    case ArgType::kString:
    case ArgType::kJson: ins->Text(kValue, trace.str(v.as_string())); break;
    case ArgType::kDecimalString: ins->OwnedText(kValue, std::to_string(v.as_uint())); break;
    case ArgType::kUint:
      // Past INT64_MAX an integer column would wrap: keep the exact digits as text.
      if (v.as_uint() > static_cast<uint64_t>(INT64_MAX)) {
        ins->OwnedText(kValue, std::to_string(v.as_uint()));
      } else {
        ins->Int(kValue, static_cast<int64_t>(v.as_uint()));
      }
      break;
  }
}

void WriteArgs(const Trace& trace, sqlite::Database* db, SqliteExportCounts* counts) {
  sqlite::Insert ins(db, "arg", 4);
  const SliceTable& s = trace.slices();
  const ArgTable& args = trace.args();
  const auto sets = s.arg_set();
  uint64_t rows = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const ArgSetId set = sets[i];
    if (set.is_none()) continue;
    for (uint32_t row = args.set_begin(set); row < args.set_end(set); ++row) {
      ins.Int(1, static_cast<int64_t>(i));
      ins.Int(2, row - args.set_begin(set));
      ins.Text(3, trace.str(args.key()[row]));
      BindArgValue(trace, args.value(row), &ins);
      if (!ins.Row()) return;
      ++rows;
    }
  }
  counts->args = rows;
}

//-----------------------------------------------------------------------------
// [SECTION] The database
//-----------------------------------------------------------------------------

// CPU time of the calling thread, ms, lap by lap: on a machine shared with
// other work the wall time says more about the neighbours than the export.
class ThreadCpuClock {
 public:
  double Lap() {
    const double now = Now(), lap = now - last_;
    last_ = now;
    return lap;
  }

 private:
  static double Now() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
  }
  double last_ = Now();
};

// The side thread: instant, counter and arg (most of the rows after the
// slices: 2-3 args per slice) into a database of their own at `side_path`,
// while the main thread writes the slice table and builds its indexes.
// SQLite stays one connection per thread. "" or an error.
std::string WriteSideDatabase(const Trace& trace, const std::string& side_path, SqliteExportCounts* counts) {
  ThreadCpuClock clock;
  std::string error;
  {
    sqlite::Database db;
    if (db.OpenForWriting(side_path)) {
      db.Exec(sqlite::Database::kBulkWritePragmas);
      db.Exec("BEGIN;");
      db.Exec(kSchema);  // the same declarations, so the copy is a transfer of records
      WriteInstants(trace, &db, counts);
      WriteCounters(trace, &db, counts);
      WriteArgs(trace, &db, counts);
      db.Exec("COMMIT;");
    }
    error = db.error();
    if (!db.Close() && error.empty()) error = db.error();  // closed: the main thread may attach it
  }
  counts->side_cpu_ms = clock.Lap();
  return error.empty() ? "" : "side database " + side_path + ": " + error;
}

// Copies the side tables into OUT.db. `INSERT INTO t SELECT * FROM side.t`
// into an empty table declared the same way is SQLite's transfer
// optimization: records are copied in key order without being decoded,
// about half the cost of inserting them.
void CopySideTables(sqlite::Database* db, const std::string& side_path) {
  sqlite3_stmt* attach = nullptr;
  if (sqlite3_prepare_v2(db->handle(), "ATTACH ?1 AS side", -1, &attach, nullptr) != SQLITE_OK) {
    return db->Fail("cannot attach the side database");
  }
  sqlite3_bind_text(attach, 1, side_path.c_str(), -1, SQLITE_TRANSIENT);
  const int rc = sqlite3_step(attach);
  sqlite3_finalize(attach);
  if (rc != SQLITE_DONE) return db->Fail("cannot attach the side database " + side_path);
  db->Exec("BEGIN;");
  for (const char* table : kSideTables) {
    db->Exec(("INSERT INTO main." + std::string(table) + " SELECT * FROM side." + table + ";").c_str());
  }
}

// Fills the database at `path` (a fresh, empty file) with the help of an
// empty file `side_path` for the side thread; "" or an error. Transactions:
// the slice table and its indexes; then the copied side tables, the
// analysis tables and the counter index (ATTACH needs the pause between).
std::string WriteDatabase(const Trace& trace, const std::string& path, const std::string& side_path,
                          SqliteExportCounts* counts) {
  // Destroyed on every return, in reverse: that waits for both threads.
  const auto write_analysis = StartAnalysisTables(trace);
  auto side = std::async(std::launch::async, [&] { return WriteSideDatabase(trace, side_path, counts); });
  sqlite::Database db;
  if (!db.OpenForWriting(path)) return db.error();
  // No rollback journal and no fsync: the file is private until renamed.
  db.Exec(sqlite::Database::kBulkWritePragmas);
  db.Exec("BEGIN;");
  db.Exec(kSchema);
  db.Exec(kSliceTrackIndex);
  ThreadCpuClock clock;
  WriteTracks(trace, &db, counts);
  WriteSlices(trace, &db, counts);
  WriteFlows(trace, &db, counts);
  counts->slices_cpu_ms = clock.Lap();
  db.Exec(kSliceNameIndex);
  db.Exec("COMMIT;");
  counts->name_index_cpu_ms = clock.Lap();
  const auto wait_start = std::chrono::steady_clock::now();
  const std::string side_error = side.get();
  counts->wait_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - wait_start).count();
  clock.Lap();
  if (!side_error.empty()) return side_error;
  if (db.error().empty()) CopySideTables(&db, side_path);
  counts->copy_cpu_ms = clock.Lap();
  write_analysis(&db, counts);
  db.Exec(kCounterIndex);
  db.Exec("COMMIT;");
  counts->finish_cpu_ms = clock.Lap();
  std::string error = db.error();
  if (!db.Close() && error.empty()) error = db.error();
  return error;
}

}  // namespace

std::string ExportSqlite(const Trace& trace, const std::string& path, const SqliteExportOptions& options,
                         SqliteExportCounts* counts) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!trace.info().source_path.empty() && SameFile(path, trace.info().source_path)) {
    return path + " is the trace being exported; choose another output file";
  }
  if (fs::is_directory(path, ec)) return path + " is a directory";
  if (!options.force && fs::exists(fs::symlink_status(path, ec))) {
    return path + " already exists (use --force to replace it)";
  }
  std::string tmp, side, error;
  const int fd = file_publish::CreateTempNextTo(path, ".tmp", &tmp, &error);
  if (fd < 0) return error;
  ::close(fd);
  const int side_fd = file_publish::CreateTempNextTo(path, ".side", &side, &error);
  if (side_fd < 0) {
    ::unlink(tmp.c_str());
    return error;
  }
  ::close(side_fd);
  SqliteExportCounts local;
  error = WriteDatabase(trace, tmp, side, counts ? counts : &local);
  ::unlink(side.c_str());
  if (!error.empty()) {
    ::unlink(tmp.c_str());
    return path + ": " + error;
  }
  auto published = file_publish::Publish(tmp, path, options.force);
  if (!published.ok()) {
    ::unlink(tmp.c_str());
    return published.error();
  }
  return "";
}

}  // namespace stepline::exports
