// Nsight Systems 2025.6 and later writes its SQLite rows out of time order.
// A shared export with every time-stamped table's rows shuffled must give
// the `stepline info --json` and `report --json` of the export as written.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <string>
#include <vector>

#include "model/json_value.h"
#include "tests/app/command_test_helpers.h"
#include "tests/support/test_traces.h"

namespace stepline::app {
namespace {

namespace fs = std::filesystem;
using ::stepline::ParseJson;

// Rewrites every table with a "start" column in a fixed scrambled row order.
void NroShuffleRows(const std::string& path) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  std::vector<std::string> tables;
  sqlite3_stmt* q = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT name FROM sqlite_master WHERE type = 'table'", -1, &q, nullptr), SQLITE_OK);
  while (sqlite3_step(q) == SQLITE_ROW) tables.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(q, 0)));
  sqlite3_finalize(q);
  size_t shuffled = 0;
  for (const std::string& table : tables) {
    const std::string quoted = "\"" + table + "\"";
    bool has_start = false;
    ASSERT_EQ(sqlite3_prepare_v2(db, ("PRAGMA table_info(" + quoted + ")").c_str(), -1, &q, nullptr), SQLITE_OK);
    while (sqlite3_step(q) == SQLITE_ROW)
      has_start |= std::string(reinterpret_cast<const char*>(sqlite3_column_text(q, 1))) == "start";
    sqlite3_finalize(q);
    if (!has_start) continue;
    const std::string sql = "CREATE TEMP TABLE nro AS SELECT * FROM " + quoted +
                            " ORDER BY (rowid * 7919) % 100003; DELETE FROM " + quoted + "; INSERT INTO " + quoted +
                            " SELECT * FROM nro; DROP TABLE nro;";
    ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
    ++shuffled;
  }
  sqlite3_close(db);
  EXPECT_GE(shuffled, 4u);  // kernels, copies, runtime calls, NVTX at least
}

bool NroEqual(const ::stepline::JsonValue& a, const ::stepline::JsonValue& b) {
  if (a.type != b.type || a.text != b.text || a.boolean != b.boolean || a.items.size() != b.items.size() ||
      a.members.size() != b.members.size())
    return false;
  for (size_t i = 0; i < a.items.size(); ++i) {
    if (!NroEqual(a.items[i], b.items[i])) return false;
  }
  for (size_t i = 0; i < a.members.size(); ++i) {
    if (a.members[i].first != b.members[i].first || !NroEqual(a.members[i].second, b.members[i].second)) return false;
  }
  return true;
}

TEST(NsysRowOrderTest, ShuffledRowsGiveTheSameInfoAndReport) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  const std::string original = ::stepline::testing::SharedTracePath("nsys/h100_2gpu_1s.sqlite");
  if (!fs::exists(original)) GTEST_SKIP() << "nsys/h100_2gpu_1s.sqlite is not among the shared traces";
  const fs::path dir = MakeScratchDirRemovedAtExit("nsys-row-order");
  const std::string shuffled = (dir / "shuffled.sqlite").string();
  fs::copy_file(original, shuffled);
  fs::permissions(shuffled, fs::perms::owner_write, fs::perm_options::add);
  NroShuffleRows(shuffled);
  for (const bool report : {false, true}) {
    const auto run = report ? RunReport : RunInfo;
    const RunOutput a = RunCommand(run, Args{original, "--json"});
    const RunOutput b = RunCommand(run, Args{shuffled, "--json"});
    ASSERT_EQ(a.code, 0) << a.err;
    ASSERT_EQ(b.code, 0) << b.err;
    auto ja = ParseJson(a.out), jb = ParseJson(b.out);
    ASSERT_TRUE(ja && jb);
    // The file's own facts: its size (the rewrite moves pages) and the load time.
    for (auto* j : {&*ja, &*jb}) {
      std::erase_if(j->members, [](const auto& m) { return m.first == "load_ms" || m.first == "bytes"; });
    }
    EXPECT_EQ(ja->Keys(), jb->Keys());
    for (const auto& m : ja->members) {
      const auto* other = jb->Find(m.first);
      ASSERT_NE(other, nullptr) << m.first;
      EXPECT_TRUE(NroEqual(m.second, *other)) << (report ? "report" : "info") << " differs at \"" << m.first << "\"";
    }
  }
}

}  // namespace
}  // namespace stepline::app
