// The window's Query tab below its drawing: the app's backend over the shown
// trace (rows typed for sorting, NULLs, errors, a new backend for a new
// trace), saved queries round-tripped through the config folder (tabs and
// line breaks in the SQL too), CSV saved into the export folder, and where
// "Show on timeline" goes for a row.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <memory>

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
