// `stepline export --sqlite` (export/sqlite_export.h): the tables hold the
// model row for row, the write is atomic, and docs/cli.md's three example
// queries, run on an export of every shared trace, give `report`'s numbers.
#include "export/sqlite_export.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

#include "loaders/load.h"
#include "model/analysis/report.h"
#include "model/analysis/trace_summary.h"
#include "tests/app/command_test_helpers.h"
#include "tests/support/test_traces.h"

namespace stepline::app {
namespace {
namespace fs = std::filesystem;

using Rows = std::vector<std::vector<std::string>>;  // NULL reads as "<null>"

// Runs `sql` on the database at `path`; every value as text.
Rows Query(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  Rows rows;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    ADD_FAILURE() << "cannot open " << path;
    sqlite3_close(db);
    return rows;
  }
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
    ADD_FAILURE() << sqlite3_errmsg(db) << " in " << sql;
  } else {
    while (sqlite3_step(stmt) == SQLITE_ROW) {
      std::vector<std::string> row;
      for (int c = 0; c < sqlite3_column_count(stmt); ++c) {
        const unsigned char* text = sqlite3_column_text(stmt, c);
        row.push_back(text ? reinterpret_cast<const char*>(text) : "<null>");
      }
      rows.push_back(std::move(row));
    }
  }
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return rows;
}

int64_t Int(const std::string& s) { return std::stoll(s); }

// The SQL of docs/cli.md's `<!-- sqlite-query NAME -->` block.
std::string ReadmeQuery(const std::string& name) {
  std::ifstream in(std::string(STEPLINE_SOURCE_DIR) + "/docs/cli.md");
  std::stringstream text;
  text << in.rdbuf();
  const std::string readme = text.str();
  const size_t marker = readme.find("<!-- sqlite-query " + name + " -->");
  EXPECT_NE(marker, std::string::npos) << "docs/cli.md has no query " << name;
  if (marker == std::string::npos) return "";
  const size_t begin = readme.find("```sql\n", marker);
  const size_t end = readme.find("```", begin + 7);
  return readme.substr(begin + 7, end - begin - 7);
}

std::string Export(const Trace& trace, const std::string& name) {
  const std::string path = (MakeScratchDirRemovedAtExit(name) / "out.db").string();
  const std::string error = exports::ExportSqlite(trace, path, {});
  EXPECT_EQ(error, "");
  return path;
}

Trace LoadDemo(const char* scenario) {
  demo::DemoOptions demo;
  demo.scenario = scenario;
  demo.steps = 3;
  demo.compute_truth = false;
  auto trace = demo::GenerateDemoTrace(demo);
  EXPECT_TRUE(trace.ok());
  return trace.ok() ? std::move(trace).value() : Trace();
}

TEST(SqliteExportTest, TablesHoldTheModelRowForRow) {
  const Trace trace = LoadDemo("small-batch");
  const std::string db = Export(trace, "sqlite-export-rows");
  const SliceTable& s = trace.slices();
  ASSERT_GT(s.size(), 1000u);
  EXPECT_EQ(Int(Query(db, "SELECT count(*) FROM slice")[0][0]), static_cast<int64_t>(s.size()));
  EXPECT_EQ(Int(Query(db, "SELECT count(*) FROM track")[0][0]), static_cast<int64_t>(trace.tracks().size()));
  EXPECT_EQ(Int(Query(db, "SELECT count(*) FROM flow")[0][0]), static_cast<int64_t>(trace.flows().size()));
  // A child slice, every column.
  size_t child = 0;
  while (child < s.size() && s.parent()[child].is_none()) ++child;
  ASSERT_LT(child, s.size());
  const Rows row = Query(db, "SELECT ts, dur, track_id, name, depth, parent_id, gpu_kind FROM slice WHERE id = " +
                                 std::to_string(child));
  ASSERT_EQ(row.size(), 1u);
  EXPECT_EQ(Int(row[0][0]), s.start_ns()[child]);
  EXPECT_EQ(Int(row[0][1]), s.dur_ns()[child]);
  EXPECT_EQ(Int(row[0][2]), static_cast<int64_t>(s.track()[child].index()));
  EXPECT_EQ(row[0][3], trace.str(s.name()[child]));
  EXPECT_EQ(Int(row[0][4]), s.depth()[child]);
  EXPECT_EQ(Int(row[0][5]), static_cast<int64_t>(s.parent()[child].index()));
  EXPECT_EQ(row[0][6], "<null>");  // a host slice
  // Every GPU slice has its kind; the args are all there.
  size_t gpu = 0;
  for (size_t i = 0; i < s.size(); ++i) gpu += s.gpu_kind()[i] != GpuKind::kNone;
  EXPECT_EQ(Int(Query(db, "SELECT count(*) FROM slice WHERE gpu_kind IS NOT NULL")[0][0]), static_cast<int64_t>(gpu));
  size_t args = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const ArgSetId set = s.arg_set()[i];
    if (!set.is_none()) args += trace.args().set_end(set) - trace.args().set_begin(set);
  }
  EXPECT_EQ(Int(Query(db, "SELECT count(*) FROM arg")[0][0]), static_cast<int64_t>(args));
  // The indexes the issue asks for.
  const Rows indexes = Query(db, "SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name");
  std::vector<std::string> names;
  for (const auto& r : indexes) names.push_back(r[0]);
  EXPECT_NE(std::find(names.begin(), names.end(), "slice_track_ts"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "slice_name"), names.end());
  // The analysis tables are filled.
  EXPECT_EQ(Int(Query(db, "SELECT count(*) FROM step")[0][0]), 3);
  EXPECT_GT(Int(Query(db, "SELECT count(*) FROM gap")[0][0]), 0);
  EXPECT_GT(Int(Query(db, "SELECT count(*) FROM kernel_stat")[0][0]), 0);
  // A step's breakdown rows sum to its duration.
  const Rows sums = Query(db,
                          "SELECT s.dur, sum(b.dur) FROM step s JOIN step_breakdown b ON b.step_id = s.id "
                          "AND b.is_primary = 1 GROUP BY s.id");
  ASSERT_EQ(sums.size(), 3u);
  for (const auto& r : sums) EXPECT_EQ(r[0], r[1]);
}

// TensorBoard's "correlation_id" strings are held as their number in the
// model (ArgType::kDecimalString); the export keeps them text, as written.
TEST(SqliteExportTest, DecimalStringArgsStayText) {
  // 300 slices: the export inserts 64 rows at a time and keeps each digit
  // string only until its rows are in.
  std::string json = R"({"traceEvents":[)";
  for (int i = 0; i < 300; ++i) {
    json += std::string(i ? "," : "") + R"({"ph":"X","pid":1,"tid":2,"ts":)" + std::to_string(i) +
            R"(,"dur":1,"name":"k","args":{"correlation_id":")" + std::to_string(1000 + i * 7) + R"("}})";
  }
  json += "]}";
  auto trace = loaders::LoadBytes(json, "tb.json");
  ASSERT_TRUE(trace.ok()) << trace.error().ToString();
  ArgValue v;
  ASSERT_TRUE(trace->args().Find(trace->slices().arg_set()[0], trace->strings().Find("correlation_id"), &v));
  ASSERT_EQ(v.type, ArgType::kDecimalString);
  const std::string db = Export(*trace, "sqlite-export-decimal-string");
  const Rows rows = Query(db, "SELECT typeof(value), value FROM arg WHERE key = 'correlation_id' ORDER BY slice_id");
  ASSERT_EQ(rows.size(), 300u);
  for (int i = 0; i < 300; ++i) {
    EXPECT_EQ(rows[i], (std::vector<std::string>{"text", std::to_string(1000 + i * 7)})) << i;
  }
}

// `slice` is a view over slice_row and name (names stored once): a script
// still reads names as text, and SQLite's planner still answers the two
// lookups the issue names from the indexes, not by scanning.
TEST(SqliteExportTest, SliceViewReadsNamesAsTextAndUsesTheIndexes) {
  const Trace trace = LoadDemo("small-batch");
  const std::string db = Export(trace, "sqlite-export-plan");
  const SliceTable& s = trace.slices();
  size_t named = 0;
  for (size_t i = 0; i < s.size(); ++i) named += !trace.str(s.name()[i]).empty();
  ASSERT_GT(named, 0u);
  EXPECT_EQ(Query(db, "SELECT DISTINCT typeof(name) FROM slice WHERE name IS NOT NULL"), (Rows{{"text"}}));
  EXPECT_EQ(Int(Query(db, "SELECT count(name) FROM slice")[0][0]), static_cast<int64_t>(named));
  // Every name once in `name`.
  EXPECT_EQ(Query(db, "SELECT count(*) FROM name")[0][0], Query(db, "SELECT count(DISTINCT name) FROM slice")[0][0]);
  // A name lookup gives exactly the model's slices of that name.
  const std::string name(trace.str(s.name()[s.size() / 2]));
  const size_t want = static_cast<size_t>(std::count_if(s.name().begin(), s.name().end(), [&](StringId id) {
    return trace.str(id) == name;
  }));
  std::string quoted;
  for (char c : name) quoted += c == '\'' ? std::string("''") : std::string(1, c);
  EXPECT_EQ(Int(Query(db, "SELECT count(*) FROM slice WHERE name = '" + quoted + "'")[0][0]),
            static_cast<int64_t>(want));
  // The query plans (the detail column of EXPLAIN QUERY PLAN, one row per loop).
  const auto plan = [&](const std::string& sql) {
    std::string text;
    for (const auto& row : Query(db, "EXPLAIN QUERY PLAN " + sql)) text += row.back() + "\n";
    return text;
  };
  const std::string by_name = plan("SELECT * FROM slice WHERE name = 'x'");
  EXPECT_NE(by_name.find("SEARCH n USING COVERING INDEX"), std::string::npos) << by_name;
  EXPECT_NE(by_name.find("USING INDEX slice_name (name_id=?)"), std::string::npos) << by_name;
  EXPECT_EQ(by_name.find("SCAN"), std::string::npos) << by_name;
  const std::string by_time = plan("SELECT * FROM slice WHERE track_id = 3 AND ts BETWEEN 1000 AND 2000");
  EXPECT_NE(by_time.find("USING INDEX slice_track_ts (track_id=? AND ts>? AND ts<?)"), std::string::npos) << by_time;
  EXPECT_EQ(by_time.find("SCAN"), std::string::npos) << by_time;
  const std::string by_id = plan("SELECT name FROM slice WHERE id = 7");
  EXPECT_EQ(by_id.find("SCAN"), std::string::npos) << by_id;
}

TEST(SqliteExportTest, WritesAtomicallyAndNeverReplacesWithoutForce) {
  const Trace trace = LoadDemo("baseline");
  const fs::path dir = MakeScratchDirRemovedAtExit("sqlite-export-atomic");
  const std::string path = (dir / "out.db").string();
  { std::ofstream(path) << "keep me"; }
  const std::string error = exports::ExportSqlite(trace, path, {});
  EXPECT_NE(error.find("already exists (use --force"), std::string::npos) << error;
  EXPECT_EQ(ReadFile(path), "keep me");
  exports::SqliteExportOptions force;
  force.force = true;
  EXPECT_EQ(exports::ExportSqlite(trace, path, force), "");
  EXPECT_EQ(Int(Query(path, "SELECT count(*) FROM slice")[0][0]), static_cast<int64_t>(trace.slices().size()));
  // No temporary file is left beside it.
  size_t files = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir)) ++files;
  EXPECT_EQ(files, 1u);
  // A folder that does not exist: an error naming the file, nothing left.
  const std::string missing = (dir / "no" / "such" / "out.db").string();
  const std::string bad = exports::ExportSqlite(trace, missing, {});
  EXPECT_NE(bad.find(missing), std::string::npos) << bad;
}

TEST(SqliteExportTest, CommandWritesTheDatabaseAndRefusesTheInput) {
  const fs::path dir = MakeScratchDirRemovedAtExit("sqlite-export-command");
  const std::string trace = (dir / "t.json").string();
  WriteDemoJson("sync", demo::DemoStyle::kPyTorch, trace);
  const std::string db = (dir / "t.db").string();
  RunOutput r = RunCommand(RunExport, {trace, "--sqlite", db});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("wrote " + db), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("M slices/s"), std::string::npos) << r.out;
  r = RunCommand(RunExport, {trace, "--sqlite", db});
  EXPECT_EQ(r.code, 1);
  r = RunCommand(RunExport, {trace, "--sqlite", trace, "--force"});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("is the trace being exported"), std::string::npos) << r.err;
  EXPECT_NE(ReadFile(trace).find("traceEvents"), std::string::npos);  // the input is untouched
  r = RunCommand(RunExport, {trace});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--sqlite OUT.db is required"), std::string::npos) << r.err;
}

// Every trace of the shared MANIFEST.tsv (the corrupt one aside).
std::vector<std::string> ManifestTraces() {
  std::vector<std::string> paths;
  const std::string dir = testing::SharedTracesDir();
  if (dir.empty()) return paths;
  std::ifstream in(dir + "/MANIFEST.tsv");
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::vector<std::string> cols;
    std::stringstream ss(line);
    for (std::string col; std::getline(ss, col, '\t');) cols.push_back(col);
    if (cols.size() > 6 && cols[6].find("CORRUPT") == std::string::npos) paths.push_back(cols[0]);
  }
  return paths;
}

TEST(SqliteExportTest, SharedTracesAreListed) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  EXPECT_GE(ManifestTraces().size(), 50u);
}

class SqliteExportRealTest : public ::testing::TestWithParam<std::string> {};

TEST_P(SqliteExportRealTest, ReadmeQueriesAgreeWithReport) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  auto loaded = loaders::LoadFile(testing::SharedTracePath(GetParam()));
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const Trace& trace = loaded.value();
  std::string scratch = "sqlite-export-real-" + GetParam();
  std::replace(scratch.begin(), scratch.end(), '/', '_');
  const std::string db = Export(trace, scratch);

  // `info`'s slice count.
  EXPECT_EQ(Int(Query(db, "SELECT count(*) FROM slice")[0][0]),
            static_cast<int64_t>(analysis::ComputeTraceSummary(trace).slices));

  const analysis::Report report = analysis::ComputeReport(trace);
  // Top kernels: each row is report's kernel op of that name.
  std::map<std::string_view, const analysis::ReportOp*> kernel_ops;
  for (const analysis::ReportOp& op : report.ops) {
    if (op.kind == analysis::OpKind::kKernel) kernel_ops[op.name] = &op;
  }
  const Rows top = Query(db, ReadmeQuery("top-kernels"));
  EXPECT_EQ(top.size(), std::min<size_t>(10, kernel_ops.size()));
  for (const auto& row : top) {
    auto it = kernel_ops.find(row[0]);
    ASSERT_NE(it, kernel_ops.end()) << row[0];
    EXPECT_EQ(Int(row[1]), static_cast<int64_t>(it->second->count)) << row[0];
    EXPECT_EQ(Int(row[2]), it->second->total_ns) << row[0];
  }
  // Gaps over 1 ms: the same gaps, causes and blamed events as the report's.
  std::vector<std::tuple<int64_t, int64_t, std::string>> want, got;
  for (const analysis::ReportGap& g : report.gaps) {
    if (g.dur_ns > 1'000'000) want.emplace_back(g.start_ns, g.dur_ns, std::string(analysis::IdleCauseName(g.cause)));
  }
  for (const auto& row : Query(db, ReadmeQuery("long-gaps"))) got.emplace_back(Int(row[1]), Int(row[2]), row[3]);
  std::sort(want.begin(), want.end());
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, want);
  // NCCL per step: the primary device's collective time of each step.
  const Rows nccl = Query(db, ReadmeQuery("nccl-per-step"));
  ASSERT_EQ(nccl.size(), report.steps.size());
  for (size_t i = 0; i < nccl.size(); ++i) {
    EXPECT_EQ(nccl[i][1], report.steps[i].name);
    EXPECT_EQ(Int(nccl[i][2]), At(report.steps[i].breakdown, analysis::TimeCategory::kCollective)) << i;
  }
  fs::remove_all(fs::path(db).parent_path());  // some exports are tens of MB
}

INSTANTIATE_TEST_SUITE_P(SharedTraces, SqliteExportRealTest, ::testing::ValuesIn(ManifestTraces()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name;
                           for (char c : info.param) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return name;
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(SqliteExportRealTest);

}  // namespace
}  // namespace stepline::app
