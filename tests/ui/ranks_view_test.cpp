// The ranks view (issue #20): its rows, sorting, CSV and stacked-bar
// segments from a small RanksAnalysis, and a headless frame that draws it.
#include "ui/ranks/ranks_view.h"

#include <gtest/gtest.h>
#include <imgui.h>

#include "tests/support/headless_imgui.h"
#include "ui/theme.h"

namespace stepline::ui {
namespace {

using analysis::TimeCategory;

struct Fixture {
  std::vector<analysis::RankSummary> ranks;
  analysis::RanksAnalysis analysis;
};

// Three ranks; rank 2 is the straggler (late 30 ms, idle input), the others wait.
Fixture Make() {
  Fixture f;
  for (int r = 0; r < 3; ++r) {
    analysis::RankSummary s;
    s.rank = r;
    s.host = r == 2 ? "b-host" : "a-host";
    s.path = "rank" + std::to_string(r) + ".json";
    f.ranks.push_back(s);
    analysis::RankRow row;
    row.input = static_cast<size_t>(r);
    row.rank = r;
    row.steps = 4;
    row.step_mean_ns = 100'000'000;
    At(row.breakdown_per_step, TimeCategory::kCompute) = 50'000'000;
    At(row.breakdown_per_step, TimeCategory::kCollective) = r == 2 ? 2'000'000 : 32'000'000;
    At(row.breakdown_per_step, TimeCategory::kIdleInput) = r == 2 ? 48'000'000 : 18'000'000;
    At(row.idle_by_cause_per_step, analysis::IdleCause::kInput) = At(row.breakdown_per_step, TimeCategory::kIdleInput);
    row.collective_wait_ns_per_step = r == 2 ? 0 : 30'000'000;
    row.collective_transfer_ns_per_step = 2'000'000;
    row.late_ns = r == 2 ? 20'000'000 : -10'000'000;
    row.clock_offset_ns = r * 7'000'000;
    f.analysis.ranks.push_back(row);
  }
  f.analysis.world_size = 3;
  f.analysis.matched = 4;
  f.analysis.straggler = analysis::Straggler{2, 2, 20'000'000, "input", {"DataLoader"}, "AllReduce"};
  f.analysis.recommendations = {"Rank 2 arrives 20.0 ms late at each all-reduce."};
  return f;
}

TEST(RanksViewTest, RowsCarryTheAnalysisPerStep) {
  const Fixture f = Make();
  const std::vector<RanksTableRow> rows = RanksTableRows({f.ranks, &f.analysis, "t", {}});
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[2].rank, 2);
  EXPECT_TRUE(rows[2].straggler);
  EXPECT_FALSE(rows[0].straggler);
  EXPECT_EQ(rows[0].wait_ns, 30'000'000);
  EXPECT_EQ(rows[0].transfer_ns, 2'000'000);
  EXPECT_EQ(rows[2].idle_ns, 48'000'000);
  EXPECT_EQ(rows[1].clock_offset_ns, 7'000'000);
  EXPECT_EQ(rows[2].host, "b-host");
}

TEST(RanksViewTest, SortsByAnyColumnTiesByRank) {
  const Fixture f = Make();
  std::vector<RanksTableRow> rows = RanksTableRows({f.ranks, &f.analysis, "t", {}});
  SortRanksRows(&rows, RanksColumn::kLate, false);
  EXPECT_EQ(rows[0].rank, 2);
  EXPECT_EQ(rows[1].rank, 0);  // tie at -10 ms: by rank
  SortRanksRows(&rows, RanksColumn::kWait, true);
  EXPECT_EQ(rows[0].rank, 2);
  SortRanksRows(&rows, RanksColumn::kHost, false);
  EXPECT_EQ(rows[0].host, "b-host");
  SortRanksRows(&rows, RanksColumn::kOffset, false);
  EXPECT_EQ(rows[0].rank, 2);
  SortRanksRows(&rows, RanksColumn::kRank, true);
  EXPECT_EQ(rows[0].rank, 0);
}

TEST(RanksViewTest, CsvHasAHeaderAndOneLinePerRankInTableOrder) {
  const Fixture f = Make();
  std::vector<RanksTableRow> rows = RanksTableRows({f.ranks, &f.analysis, "t", {}});
  SortRanksRows(&rows, RanksColumn::kLate, false);
  const std::string csv = RanksTableCsv(rows);
  EXPECT_EQ(csv.rfind("rank,host,steps,step_mean_ns,compute_ns,collective_wait_ns,collective_transfer_ns,idle_ns,"
                      "idle_input_ns,",
                      0),
            0u)
      << csv;
  EXPECT_NE(csv.find("\n2,b-host,4,100000000,50000000,0,2000000,48000000,48000000,"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",20000000,14000000,yes,rank2.json\n"), std::string::npos) << csv;
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 4);
}

TEST(RanksViewTest, BarSegmentsSplitCollectiveIntoHatchedWaitAndTransfer) {
  const Fixture f = Make();
  const std::vector<RanksTableRow> rows = RanksTableRows({f.ranks, &f.analysis, "t", {}});
  const std::vector<RankBarSegment> seg = RankBarSegments(rows[0]);
  ASSERT_EQ(seg.size(), static_cast<size_t>(analysis::kTimeCategoryCount) + 1);
  DurNs total = 0;
  for (const RankBarSegment& s : seg) total += s.ns;
  EXPECT_EQ(total, 100'000'000);
  EXPECT_TRUE(seg[1].hatched);
  EXPECT_EQ(seg[1].ns, 30'000'000);
  EXPECT_FALSE(seg[2].hatched);
  EXPECT_EQ(seg[2].ns, 2'000'000);
}

TEST(RanksViewTest, DrawsAFrameHeadless) {
  testing::HeadlessImGui imgui(ImVec2(1200, 700));
  const Fixture f = Make();
  RanksView view;
  for (int frame = 0; frame < 2; ++frame) {
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(1200, 700));
    ImGui::Begin("ranks");
    view.Draw({f.ranks, &f.analysis, "demo", {}});
    ImGui::End();
    ImGui::Render();
  }
  const ImDrawData* data = ImGui::GetDrawData();
  ASSERT_NE(data, nullptr);
  EXPECT_GT(data->TotalVtxCount, 500);
}

}  // namespace
}  // namespace stepline::ui

namespace stepline::ui {
namespace {

TEST(RanksViewTest, LatenessColorIsRedWhenLateBlueWhenEarly) {
  EXPECT_EQ(LatenessColor(0, 10), theme::Rgba(48, 52, 60));
  EXPECT_EQ(LatenessColor(10, 10), theme::Rgba(239, 83, 80));
  EXPECT_EQ(LatenessColor(50, 10), theme::Rgba(239, 83, 80));  // clamped
  EXPECT_EQ(LatenessColor(-10, 10), theme::Rgba(66, 165, 245));
  EXPECT_EQ(LatenessColor(5, 0), theme::Rgba(48, 52, 60));  // no scale: neutral
}

}  // namespace
}  // namespace stepline::ui

namespace stepline::ui {
namespace {

TEST(RanksTimelineTest, LaneAtMapsAHeightToARankRowAndLane) {
  RanksTimelineLayout l;
  l.lane_h = 10;
  l.group_gap = 5;  // groups of 35 px
  EXPECT_EQ(l.LaneAt(0, 4), (std::pair{size_t{0}, analysis::RankLane::kCompute}));
  EXPECT_EQ(l.LaneAt(15, 4), (std::pair{size_t{0}, analysis::RankLane::kCollective}));
  EXPECT_EQ(l.LaneAt(29.9f, 4), (std::pair{size_t{0}, analysis::RankLane::kHost}));
  EXPECT_FALSE(l.LaneAt(32, 4).has_value());  // the gap between groups
  EXPECT_EQ(l.LaneAt(35 * 3 + 12, 4), (std::pair{size_t{3}, analysis::RankLane::kCollective}));
  // Three compute lanes (one per stream): the collective and main-thread lanes move down.
  RanksTimelineLayout w = l;
  w.compute_lanes = 3;
  int compute_lane = -1;
  EXPECT_EQ(w.group_h(), 5 * w.lane_h + w.group_gap);
  EXPECT_EQ(w.LaneAt(25, 4, &compute_lane), (std::pair{size_t{0}, analysis::RankLane::kCompute}));
  EXPECT_EQ(compute_lane, 2);
  EXPECT_EQ(w.LaneAt(35, 4), (std::pair{size_t{0}, analysis::RankLane::kCollective}));
  EXPECT_EQ(w.LaneAt(45, 4), (std::pair{size_t{0}, analysis::RankLane::kHost}));
  EXPECT_EQ(w.LaneAt(w.group_h() + 5, 4, &compute_lane), (std::pair{size_t{1}, analysis::RankLane::kCompute}));
  EXPECT_EQ(compute_lane, 0);
  EXPECT_FALSE(l.LaneAt(35 * 4 + 1, 4).has_value());  // below the last group
  EXPECT_FALSE(l.LaneAt(-1, 4).has_value());
}

// Two ranks, rank 1's clock 1 ms ahead; rank 1 has steps, rank 0 none.
TEST(RanksTimelineTest, StepViewFramesTheAlignedStepElseTheAlignedSpans) {
  std::vector<analysis::RankSummary> ranks(2);
  ranks[0].rank = 0;
  ranks[0].span = {0, 10'000'000};
  ranks[1].rank = 1;
  ranks[1].span = {1'000'000, 12'000'000};
  ranks[1].lanes.steps = {{2'000'000, 4'000'000}, {4'000'000, 6'000'000}};
  analysis::RanksAnalysis a;
  a.ranks.resize(2);
  a.ranks[1].input = 1;
  a.ranks[1].rank = 1;
  a.ranks[1].clock_offset_ns = 1'000'000;
  TimeNs origin = -1;
  // Step 1 on rank 1 is [3, 5) ms aligned; 3% either side.
  EXPECT_EQ(RanksStepView(ranks, a, 1, &origin), (TimeRange{3'000'000 - 60'000, 5'000'000 + 60'000}));
  EXPECT_EQ(origin, 3'000'000);
  // No rank has step 5: the union of the aligned spans, [0, 11) ms.
  EXPECT_EQ(RanksStepView(ranks, a, 5, &origin), (TimeRange{-330'000, 11'330'000}));
  EXPECT_EQ(origin, 0);
}

}  // namespace
}  // namespace stepline::ui

#include "loaders/demo/demo_ddp.h"
#include "loaders/load.h"

namespace stepline::ui {
namespace {

// The ddp-straggler demo's four ranks, their clocks 1 s apart.
struct DemoRun {
  std::vector<analysis::RankSummary> ranks;
  analysis::RanksAnalysis analysis;
};
DemoRun MakeDemoRun() {
  loaders::DdpDemoOptions o;
  o.ranks = 4;
  o.steps = 3;
  o.kernels_per_step = 4;
  o.skew_ns = 1'000'000'000;
  const loaders::DdpDemo demo(o);
  DemoRun d;
  for (int r = 0; r < o.ranks; ++r) {
    auto trace = loaders::LoadBytes(demo.RankJson(r), "rank" + std::to_string(r) + ".json");
    if (!trace) continue;
    d.ranks.push_back(analysis::SummarizeRank(trace.value(), analysis::ComputeAnalysis(trace.value())));
  }
  d.analysis = analysis::AnalyzeRanks(d.ranks);
  return d;
}

// A frame of the timeline alone in a 1000 x 400 window.
void TimelineFrame(RanksTimeline* t, const RanksViewInput& input) {
  ImGui::NewFrame();
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(ImVec2(1000, 400));
  ImGui::Begin("timeline", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove);
  t->Draw(input, ImGui::GetContentRegionAvail().x, ImGui::GetContentRegionAvail().y);
  ImGui::End();
  ImGui::Render();
  ImGui::GetIO().MouseWheel = 0.f;  // a backend sets it per frame
}

TEST(RanksTimelineTest, AClickOnACollectiveSelectsItsInstanceAndTheWheelZooms) {
  testing::HeadlessImGui imgui(ImVec2(1000, 400));
  const DemoRun d = MakeDemoRun();
  ASSERT_EQ(d.ranks.size(), 4u);
  ASSERT_EQ(d.analysis.error, "");
  const RanksViewInput input{d.ranks, &d.analysis, "demo", {}};
  RanksTimeline t;
  TimelineFrame(&t, input);
  ASSERT_EQ(t.instances().instances.size(), 3u);
  // Step 0 is framed: the step's all-reduce on rank 3 (its clock 3 s ahead) is in view.
  const analysis::InstanceSpan sp = analysis::SpanOnRank(t.instances(), d.ranks, 0, 3);
  ASSERT_GT(t.viewport().TimeToX(sp.end), 0.0);
  ASSERT_LT(t.viewport().TimeToX(sp.end), t.viewport().width_px);
  // Click the last pixel of that kernel on rank 3's collective lane (its 4th group, 2nd lane).
  const RanksTimelineLayout layout;  // the default font is 13 px: scale 1
  const float x = t.lanes_left() + static_cast<float>(t.viewport().TimeToX(sp.end)) - 1.f;
  const float y = t.lanes_top() + 3 * layout.group_h() + 1.5f * layout.lane_h;
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = ImVec2(x, y);
  TimelineFrame(&t, input);
  io.MouseDown[0] = true;
  TimelineFrame(&t, input);
  io.MouseDown[0] = false;
  TimelineFrame(&t, input);
  EXPECT_EQ(t.selected(), std::optional<uint32_t>(0));
  // A click on an empty stretch of rank 3's compute lane, far from any collective, clears it.
  io.MousePos = ImVec2(t.lanes_left() + 2.f, t.lanes_top() + 3 * layout.group_h() + 0.5f * layout.lane_h);
  TimelineFrame(&t, input);
  io.MouseDown[0] = true;
  TimelineFrame(&t, input);
  io.MouseDown[0] = false;
  TimelineFrame(&t, input);
  EXPECT_FALSE(t.selected().has_value());
  // One wheel notch zooms in by 1.25 around the mouse.
  const DurNs before = t.viewport().visible.duration_ns();
  io.MouseWheel = 1.f;
  TimelineFrame(&t, input);
  EXPECT_NEAR(static_cast<double>(t.viewport().visible.duration_ns()), static_cast<double>(before) / 1.25,
              static_cast<double>(before) * 0.01);
}

// The run picker: a click on another run's row of the open list asks for
// that run once; the run on screen's row asks for nothing.
TEST(RanksViewTest, ARunPickedFromTheListIsAskedForOnce) {
  testing::HeadlessImGui imgui(ImVec2(1200, 700));
  const Fixture f = Make();
  RanksViewInput input{f.ranks, &f.analysis, "demo", {}};
  for (int i = 0; i < 3; ++i) {
    RanksRunChoice c;
    c.run = "run" + std::to_string(i);
    c.dir = "/logs/plugins/profile/run" + std::to_string(i);
    c.hosts = 2;
    c.current = i == 0;
    input.runs.push_back(c);
  }
  RanksView view;
  view.OpenRunList();
  ImGuiIO& io = ImGui::GetIO();
  auto frame = [&] {
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(1200, 700));
    ImGui::Begin("ranks", nullptr, ImGuiWindowFlags_NoDecoration);
    view.Draw(input);
    ImGui::End();
    ImGui::Render();
  };
  frame();
  // Click down the list's first column, one line at a time, until a run is asked for.
  std::vector<std::string> asked;
  for (float y = ImGui::GetFrameHeightWithSpacing(); y < 160 && asked.empty(); y += 3) {
    io.MousePos = ImVec2(30, y);
    io.MouseDown[0] = true;
    frame();
    io.MouseDown[0] = false;
    frame();
    if (auto dir = view.TakeRunChoice()) asked.push_back(*dir);
  }
  ASSERT_EQ(asked.size(), 1u) << "no click on the list asked for a run";
  EXPECT_EQ(asked[0], "/logs/plugins/profile/run1");  // the first row under the one on screen
  EXPECT_FALSE(view.TakeRunChoice().has_value());    // once
}

}  // namespace
}  // namespace stepline::ui
