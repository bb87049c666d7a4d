// SQL over the loaded model (query/query_session.h) against the SQLite
// export of the same trace: the README's three documented queries and every
// table in full give the same rows; the virtual tables' plans (id, track_id
// and ts ranges, the orders they deliver without a sort) keep exactly the
// matching rows; writes, ATTACH and bad SQL are errors; `stepline query`
// prints a table, CSV and JSON and exits 1 with SQLite's message.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "app/cli/commands.h"
#include "demo/demo_generator.h"
#include "export/chrome_json_writer.h"
#include "export/sqlite_export.h"
#include "model/json_value.h"
#include "query/query_session.h"
#include "tests/app/command_test_helpers.h"

namespace stepline::app {
namespace {

using query::Value;
using TableRows = std::vector<std::vector<Value>>;

TableRows ExportRows(const std::string& db_path, const std::string& sql) {
  TableRows rows;
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open_v2(db_path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
    ADD_FAILURE() << sqlite3_errmsg(db) << " in " << sql;
  } else {
    while (sqlite3_step(stmt) == SQLITE_ROW) {
      auto& row = rows.emplace_back();
      for (int c = 0; c < sqlite3_column_count(stmt); ++c) {
        switch (sqlite3_column_type(stmt, c)) {
          case SQLITE_INTEGER: row.emplace_back(int64_t{sqlite3_column_int64(stmt, c)}); break;
          case SQLITE_FLOAT: row.emplace_back(sqlite3_column_double(stmt, c)); break;
          case SQLITE_NULL: row.emplace_back(std::monostate{}); break;
          default: row.emplace_back(std::string(reinterpret_cast<const char*>(sqlite3_column_text(stmt, c))));
        }
      }
    }
  }
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return rows;
}

// One demo trace with GPU activity, flows and args; its export beside it.
class QueryTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::filesystem::path(MakeScratchDir("stepline-query-test"));
    demo::DemoOptions demo;
    demo.scenario = "input-bound";
    demo.style = demo::DemoStyle::kPyTorch;
    demo.steps = 4;
    demo.compute_truth = false;
    auto trace = demo::GenerateDemoTrace(demo);
    ASSERT_TRUE(trace.ok()) << trace.error();
    trace_ = new Trace(std::move(trace).value());
    ASSERT_EQ(exports::ExportSqlite(*trace_, DbPath(), {}), "");
    ASSERT_TRUE(exports::WriteChromeJsonFile(*trace_, JsonPath()).ok());
    auto session = query::QuerySession::Open(*trace_);
    ASSERT_TRUE(session.ok()) << session.error();
    session_ = std::move(session).value().release();
  }
  static void TearDownTestSuite() {
    delete session_;
    delete trace_;
    std::filesystem::remove_all(*dir_);
    delete dir_;
  }
  static std::string DbPath() { return (*dir_ / "trace.db").string(); }
  static std::string JsonPath() { return (*dir_ / "trace.json").string(); }
  static TableRows Model(const std::string& sql) {
    auto r = session_->Run(sql, 100'000'000);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error()) << " in " << sql;
    return r.ok() ? r->rows : TableRows{};
  }
  static void ExpectSameRows(const std::string& sql) {
    SCOPED_TRACE(sql);
    const TableRows model = Model(sql), exported = ExportRows(DbPath(), sql);
    ASSERT_EQ(model.size(), exported.size());
    for (size_t i = 0; i < model.size(); ++i) ASSERT_EQ(model[i], exported[i]) << "row " << i;
  }

  static inline std::filesystem::path* dir_ = nullptr;
  static inline Trace* trace_ = nullptr;
  static inline query::QuerySession* session_ = nullptr;
};

TEST_F(QueryTest, TheReadmeQueriesGiveTheExportsRows) {
  ExpectSameRows(
      "SELECT name, count(*) AS launches, sum(dur) AS total_ns FROM slice WHERE gpu_kind IN ('kernel', 'collective') "
      "GROUP BY name ORDER BY total_ns DESC, name LIMIT 10");
  ExpectSameRows(
      "SELECT g.device_name, g.ts, g.dur, g.cause, g.blamed_event, s.name AS step FROM gap g LEFT JOIN step s ON "
      "s.id = g.step_id WHERE g.dur > 1000000 ORDER BY g.dur DESC");
  ExpectSameRows(
      "SELECT s.id, s.name, coalesce(b.dur, 0) AS nccl_ns FROM step s LEFT JOIN step_breakdown b ON b.step_id = s.id "
      "AND b.is_primary = 1 AND b.category = 'collective' ORDER BY s.id");
  EXPECT_FALSE(Model("SELECT * FROM gap").empty());
}

TEST_F(QueryTest, EveryTableHasTheExportsRows) {
  ExpectSameRows("SELECT * FROM slice ORDER BY id");
  ExpectSameRows("SELECT * FROM track ORDER BY id");
  ExpectSameRows("SELECT * FROM instant ORDER BY id");
  ExpectSameRows("SELECT * FROM flow ORDER BY id");
  ExpectSameRows("SELECT * FROM counter ORDER BY track_id, ts, value");
  ExpectSameRows("SELECT slice_id, seq, key, value, typeof(value) FROM arg ORDER BY slice_id, seq");
  ExpectSameRows("SELECT * FROM step ORDER BY id");
  ExpectSameRows("SELECT * FROM step_breakdown ORDER BY step_id, device, category");
  ExpectSameRows("SELECT * FROM gap ORDER BY id");
  ExpectSameRows("SELECT * FROM op_stat ORDER BY name, kind");
  ExpectSameRows("SELECT * FROM kernel_stat ORDER BY name, grid, block, framework_op");
  EXPECT_GT(Model("SELECT count(*) FROM arg")[0][0], Value{int64_t{0}});
  EXPECT_GT(Model("SELECT count(*) FROM flow")[0][0], Value{int64_t{0}});
}

TEST_F(QueryTest, ConstraintsKeepExactlyTheMatchingRows) {
  // A busy track and a window inside it.
  const TableRows busiest = Model("SELECT track_id, min(ts), max(ts) FROM slice GROUP BY track_id ORDER BY count(*) DESC LIMIT 1");
  ASSERT_EQ(busiest.size(), 1u);
  const int64_t track = std::get<int64_t>(busiest[0][0]);
  const int64_t lo = std::get<int64_t>(busiest[0][1]), hi = std::get<int64_t>(busiest[0][2]);
  const int64_t mid = lo + (hi - lo) / 3, mid2 = lo + 2 * (hi - lo) / 3;
  const std::string t = std::to_string(track), a = std::to_string(mid), b = std::to_string(mid2);
  for (const std::string& where : std::vector<std::string>{"track_id = " + t + " AND ts BETWEEN " + a + " AND " + b, "track_id = " + t + " AND ts > " + a,
        "track_id = " + t + " AND ts < " + b, "ts >= " + a + " AND ts <= " + b, "ts > " + a + ".5",
        "track_id >= " + t + " AND track_id < " + std::to_string(track + 2), "id = 7", "id > 10 AND id <= 50",
        "id < 3", "id >= 1e18", "ts > 'text'", "ts < 'text' AND id < 5", "track_id = NULL", "id = 2.5",
        "track_id IN (" + t + ", 0) AND ts >= " + a}) {
    ExpectSameRows("SELECT id, ts, track_id FROM slice WHERE " + where + " ORDER BY id");
  }
  ExpectSameRows("SELECT * FROM arg WHERE slice_id BETWEEN 20 AND 400 ORDER BY slice_id, seq");
  ExpectSameRows("SELECT * FROM step WHERE id >= 1 ORDER BY id");
  ExpectSameRows("SELECT * FROM step_breakdown WHERE step_id = 2 ORDER BY device, category");
  ExpectSameRows("SELECT * FROM step_breakdown WHERE step_id BETWEEN 1 AND 2 ORDER BY step_id, device, category");
  // Grouping by name walks the rows in name order: every group, NULL names too.
  ExpectSameRows("SELECT name, count(*), sum(dur), min(id) FROM slice GROUP BY name ORDER BY name");
  ExpectSameRows("SELECT id, name FROM slice ORDER BY name, id");
  // gpu_kind = / IN filter in the cursor, with and without the name order.
  ExpectSameRows("SELECT id FROM slice WHERE gpu_kind = 'kernel' ORDER BY id");
  ExpectSameRows("SELECT id FROM slice WHERE gpu_kind IN ('memcpy_h2d', 'kernel', 'nope', NULL, 3) ORDER BY id");
  ExpectSameRows("SELECT name, count(*) FROM slice WHERE gpu_kind IN ('kernel', 'collective') GROUP BY name ORDER BY name");
  ExpectSameRows("SELECT id FROM slice WHERE gpu_kind = 'kernel' AND track_id = 3 AND ts > 0 ORDER BY id");
  ExpectSameRows("SELECT count(*) FROM slice WHERE gpu_kind IS NULL");
}

TEST_F(QueryTest, TheModelsSortOrdersNeedNoSort) {
  const auto plan = [](const std::string& sql) {
    std::string text;
    for (const auto& row : Model("EXPLAIN QUERY PLAN " + sql)) text += query::ValueText(row.back()) + "\n";
    return text;
  };
  for (const char* sql : {"SELECT * FROM slice ORDER BY id", "SELECT * FROM slice ORDER BY track_id, ts",
                          "SELECT * FROM slice WHERE track_id = 1 ORDER BY ts", "SELECT * FROM track ORDER BY id",
                          "SELECT name, count(*) FROM slice GROUP BY name", "SELECT * FROM slice ORDER BY name",
                          "SELECT * FROM step_breakdown ORDER BY step_id"}) {
    EXPECT_EQ(plan(sql).find("TEMP B-TREE"), std::string::npos) << sql << "\n" << plan(sql);
  }
  EXPECT_NE(plan("SELECT * FROM slice ORDER BY dur").find("TEMP B-TREE"), std::string::npos);
  // And the delivered order is that order.
  const TableRows rows = Model("SELECT track_id, ts FROM slice ORDER BY track_id, ts");
  EXPECT_TRUE(std::is_sorted(rows.begin(), rows.end()));
  const TableRows by_ts = Model("SELECT ts FROM slice WHERE track_id = 1 ORDER BY ts");
  EXPECT_TRUE(std::is_sorted(by_ts.begin(), by_ts.end()));
}

TEST_F(QueryTest, WritesAttachAndBadSqlAreErrors) {
  for (const char* sql : {"DELETE FROM slice", "CREATE TABLE x(a)", "INSERT INTO step VALUES (1, 'a', 1, 1)",
                          "ATTACH DATABASE '/tmp/stepline-query-attach.db' AS other", "SELECT * FROM nosuch",
                          "SELEC 1", ""}) {
    auto r = session_->Run(sql, 10);
    EXPECT_FALSE(r.ok()) << sql;
  }
  EXPECT_FALSE(std::filesystem::exists("/tmp/stepline-query-attach.db"));
  EXPECT_NE(session_->Run("SELECT * FROM nosuch", 10).error().find("no such table: nosuch"), std::string::npos);
  // Several statements: the last one's rows.
  auto r = session_->Run("SELECT 1; SELECT 2 AS two;", 10);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->columns, std::vector<std::string>{"two"});
}

TEST_F(QueryTest, TheCommandPrintsATableCsvAndJson) {
  const std::string sql = "SELECT id, name FROM step ORDER BY id";
  const RunOutput table = RunCommand(RunQuery, {JsonPath(), sql});
  ASSERT_EQ(table.code, 0) << table.err;
  EXPECT_EQ(table.out.rfind("id  name", 0), 0u) << table.out;
  EXPECT_NE(table.out.find("(4 rows)"), std::string::npos) << table.out;

  const RunOutput csv = RunCommand(RunQuery, {JsonPath(), sql, "--csv"});
  ASSERT_EQ(csv.code, 0) << csv.err;
  EXPECT_EQ(csv.out.substr(0, csv.out.find('\n')), "id,name");
  EXPECT_EQ(std::count(csv.out.begin(), csv.out.end(), '\n'), 5);

  const RunOutput json = RunCommand(RunQuery, {JsonPath(), sql, "--json", "--max-rows", "2"});
  ASSERT_EQ(json.code, 0) << json.err;
  auto parsed = ::stepline::ParseJson(json.out);
  ASSERT_TRUE(parsed.has_value()) << json.out;
  EXPECT_EQ(Member(*parsed, "rows").items.size(), 2u);
  EXPECT_TRUE(Member(*parsed, "truncated").boolean);

  const RunOutput bad = RunCommand(RunQuery, {JsonPath(), "SELECT nope FROM slice"});
  EXPECT_EQ(bad.code, 1);
  EXPECT_NE(bad.err.find("no such column: nope"), std::string::npos) << bad.err;
  EXPECT_EQ(RunCommand(RunQuery, {JsonPath(), "DROP TABLE slice"}).code, 1);
  EXPECT_EQ(RunCommand(RunQuery, {JsonPath()}).code, 2);
}

}  // namespace
}  // namespace stepline::app
