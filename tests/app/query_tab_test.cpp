// The window's Query tab below its drawing: the app's backend over the shown
// trace (rows typed for sorting, NULLs, errors, a new backend for a new
// trace; queries run off the window's thread, one at a time, and cancel),
// saved queries round-tripped through the config folder (tabs and
// line breaks in the SQL too), CSV saved into the export folder, and where
// "Show on timeline" goes for a row.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <thread>

#include "app/gui/query_backend.h"
#include "demo/demo_generator.h"
#include "tests/app/command_test_helpers.h"
#include "ui/query_panel.h"
#include "ui/timeline/timeline_data.h"

namespace stepline::app {
namespace {

std::shared_ptr<const ui::TimelineData> QueryTabDemoData() {
  demo::DemoOptions demo;
  demo.steps = 2;
  demo.compute_truth = false;
  auto trace = demo::GenerateDemoTrace(demo);
  EXPECT_TRUE(trace.ok());
  return std::make_shared<const ui::TimelineData>(std::make_shared<const Trace>(std::move(trace).value()));
}

TEST(QueryTabTest, TheBackendQueriesTheShownTraceAndKeepsSavedQueries) {
  const auto dir = MakeScratchDirRemovedAtExit("query-tab");
  ::setenv("XDG_CONFIG_HOME", (dir / "config").c_str(), 1);
  ui::ViewState state;
  UpdateQueryBackend(&state);
  EXPECT_EQ(state.query, nullptr) << "no trace, no backend";
  state.data = QueryTabDemoData();
  state.pictures.export_folder = (dir / "export").string();
  UpdateQueryBackend(&state);
  ASSERT_NE(state.query, nullptr);
  ui::QueryBackend* backend = state.query.get();
  UpdateQueryBackend(&state);
  EXPECT_EQ(state.query.get(), backend) << "the same trace keeps its backend (and session)";

  const ui::QueryTable t = backend->Run("SELECT id, name, parent_id, 1.5 AS x FROM slice ORDER BY id LIMIT 3", 100);
  ASSERT_TRUE(t.error.empty()) << t.error;
  EXPECT_EQ(t.columns, (std::vector<std::string>{"id", "name", "parent_id", "x"}));
  ASSERT_EQ(t.rows.size(), 3u);
  EXPECT_TRUE(t.rows[1][0].is_number);
  EXPECT_EQ(t.rows[1][0].number, 1);
  EXPECT_FALSE(t.rows[1][1].is_number);
  EXPECT_TRUE(t.rows[0][2].is_null);
  EXPECT_EQ(t.rows[0][3].text, "1.5");
  EXPECT_FALSE(backend->Run("SELECT nope FROM slice", 10).error.empty());
  EXPECT_TRUE(backend->Run("SELECT id FROM slice", 5).truncated);

  const std::vector<std::pair<std::string, std::string>> saved = {{"top\tkernels", "SELECT 1\nFROM slice -- \\ back"},
                                                                   {"b", "SELECT 2"}};
  backend->StoreSaved(saved);
  EXPECT_EQ(backend->LoadSaved(), saved);
  std::string error;
  const std::string csv = backend->SaveCsv("query", "a,b\n1,2\n", &error);
  ASSERT_FALSE(csv.empty()) << error;
  EXPECT_EQ(ReadFile(csv), "a,b\n1,2\n");
  EXPECT_NE(backend->SaveCsv("query", "x\n", &error), csv) << "never over an earlier file";

  const Trace* first = backend->trace();
  state.data = QueryTabDemoData();  // made before the first is released: another address
  UpdateQueryBackend(&state);
  EXPECT_EQ(state.query->trace(), state.trace());
  EXPECT_NE(state.query->trace(), first) << "a new trace gets a new backend";
  ::unsetenv("XDG_CONFIG_HOME");
}

// Polls the backend as the window's frames do, up to `frames` frames of 10 ms.
std::optional<ui::QueryTable> QueryTabAwait(ui::QueryBackend* backend, int frames) {
  for (int i = 0; i < frames; ++i) {
    if (auto t = backend->TakeFinished()) return t;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return std::nullopt;
}

// Counts forever: only a cancel ends it.
constexpr const char* kQueryTabEndless =
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c";

TEST(QueryTabTest, TheWindowsQueriesRunOffItsThreadOneAtATimeAndCancel) {
  ui::ViewState state;
  state.data = QueryTabDemoData();
  UpdateQueryBackend(&state);
  ui::QueryBackend* backend = state.query.get();
  ASSERT_NE(backend, nullptr);
  EXPECT_FALSE(backend->TakeFinished().has_value()) << "nothing ran yet";

  // An endless query: Start returns at once, the backend says it runs and
  // refuses a second one, and Cancel ends it with SQLite's error.
  ASSERT_TRUE(backend->Start(kQueryTabEndless, 10));
  EXPECT_TRUE(backend->Running());
  EXPECT_FALSE(backend->Start("SELECT 1", 10)) << "one query at a time";
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_TRUE(backend->Running()) << "an endless query still runs";
  EXPECT_FALSE(backend->TakeFinished().has_value());
  backend->Cancel();
  const auto cancelled = QueryTabAwait(backend, 500);
  ASSERT_TRUE(cancelled.has_value()) << "Cancel stops a running query";
  EXPECT_NE(cancelled->error.find("interrupt"), std::string::npos) << cancelled->error;
  EXPECT_FALSE(backend->Running());

  // The next one runs normally, on the same session, and is handed over once.
  ASSERT_TRUE(backend->Start("SELECT count(*) AS n FROM slice", 10));
  const auto counted = QueryTabAwait(backend, 500);
  ASSERT_TRUE(counted.has_value());
  ASSERT_TRUE(counted->error.empty()) << counted->error;
  ASSERT_EQ(counted->rows.size(), 1u);
  EXPECT_EQ(counted->rows[0][0].number, static_cast<double>(state.trace()->slices().size()));
  EXPECT_FALSE(backend->TakeFinished().has_value()) << "a result is handed over once";

  // Closing the trace (a new backend) while a query runs stops and joins it.
  ASSERT_TRUE(backend->Start(kQueryTabEndless, 10));
  state.data = QueryTabDemoData();
  UpdateQueryBackend(&state);
  EXPECT_NE(state.query.get(), nullptr);
  EXPECT_FALSE(state.query->Running());
}

TEST(QueryTabTest, ShowOnTimelineGoesToTheRowsSliceOrTimeRange) {
  const auto number = [](double v) { return ui::QueryCell{std::to_string(int64_t(v)), v, true, false}; };
  ui::QueryTable t;
  t.columns = {"id", "track_id", "ts", "dur"};
  t.rows = {{number(5), number(1), number(1000), number(400)}, {number(99), number(1), number(1000), number(400)}};
  EXPECT_EQ(ui::RowTarget(t, 0, 10).slice, SliceId::FromIndex(5));
  // An id past the trace's slices is not a slice: its ts/dur range instead.
  const ui::QueryRowTarget past = ui::RowTarget(t, 1, 10);
  EXPECT_TRUE(past.slice.is_none());
  ASSERT_TRUE(past.range.has_value());
  EXPECT_EQ(past.range->start_ns, 0);  // 1000 - max(400 / 4, 1000)
  EXPECT_EQ(past.range->end_ns, 2400);
  // `id` alone (a step, a gap) is not a slice id.
  t.columns = {"id", "name", "ts", "dur"};
  EXPECT_TRUE(ui::RowTarget(t, 0, 10).slice.is_none());
  t.columns = {"slice_id", "seq", "key", "value"};
  EXPECT_EQ(ui::RowTarget(t, 0, 10).slice, SliceId::FromIndex(5));
  t.columns = {"name", "n", "a", "b"};
  const ui::QueryRowTarget none = ui::RowTarget(t, 0, 10);
  EXPECT_TRUE(none.slice.is_none());
  EXPECT_FALSE(none.range.has_value());
}

}  // namespace
}  // namespace stepline::app
