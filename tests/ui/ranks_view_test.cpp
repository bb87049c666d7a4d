// The ranks view: its rows, sorting, CSV and stacked-bar
// segments from a small RanksAnalysis, and a headless frame that draws it.
#include "ui/ranks/ranks_view.h"

#include <gtest/gtest.h>
#include <imgui.h>

#include "tests/support/headless_imgui.h"
#include "ui/theme.h"

namespace stepline::ui {
namespace {

using analysis::TimeCategory;

struct RanksFixture {
  std::vector<analysis::RankSummary> ranks;
  analysis::RanksAnalysis analysis;
};

// Three ranks; rank 2 is the straggler (late 30 ms, idle input), the others wait.
RanksFixture Make() {
  RanksFixture f;
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
  const RanksFixture f = Make();
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
  const RanksFixture f = Make();
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
  const RanksFixture f = Make();
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
  const RanksFixture f = Make();
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
  const RanksFixture f = Make();
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
  // The light theme's neutral is light; the ends stay.
  theme::SetTheme(theme::ThemeKind::kLight);
  EXPECT_EQ(LatenessColor(0, 10), theme::kLightPalette.heat_neutral);
  EXPECT_EQ(LatenessColor(10, 10), theme::Rgba(239, 83, 80));
  theme::SetTheme(theme::ThemeKind::kDark);
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

#include "demo/demo_ddp.h"
#include "loaders/load.h"

namespace stepline::ui {
namespace {

// The ddp-straggler demo's four ranks, their clocks 1 s apart.
struct DemoRun {
  std::vector<analysis::RankSummary> ranks;
  analysis::RanksAnalysis analysis;
};
DemoRun MakeDemoRun() {
  demo::DdpDemoOptions o;
  o.ranks = 4;
  o.steps = 3;
  o.kernels_per_step = 4;
  o.skew_ns = 1'000'000'000;
  const demo::DdpDemo demo(o);
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
  const RanksFixture f = Make();
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

// The timeline's detail mode (ranks_detail.h): when a summary is too
// coarse, which ranks are asked for, and where a loaded rank's slices go.
#include "ui/ranks/ranks_detail.h"

namespace stepline::ui {
namespace {

// A summary of `bins` bins over [0, span_ns).
analysis::RankLanes Lanes(DurNs span_ns, size_t bins) {
  analysis::RankLanes l;
  l.range = {0, span_ns};
  for (auto& lane : l.busy) lane.assign(bins, 0);
  return l;
}

TEST(RanksDetailTest, ASummaryIsTooCoarseOnceABinIsWiderThanAPixel) {
  const analysis::RankLanes lanes = Lanes(4'096'000, 4096);  // 1 us bins
  Viewport v;
  v.width_px = 1000;
  v.visible = {0, 1'000'000};  // 1 us per px: a bin is one pixel
  EXPECT_FALSE(SummaryTooCoarse(v, lanes));
  v.visible = {0, 999'000};    // a bin is 1.001 px
  EXPECT_TRUE(SummaryTooCoarse(v, lanes));
  v.visible = {0, 4'096'000};  // the whole rank: 4 bins per px
  EXPECT_FALSE(SummaryTooCoarse(v, lanes));
  EXPECT_FALSE(SummaryTooCoarse(v = Viewport{{0, 10}, 1000}, analysis::RankLanes{}));  // no summary
}

// A source that loads nothing: it reports the states it is given and keeps
// what the view asked for.
class FakeDetails : public RankDetailSource {
 public:
  std::vector<RankDetailState> states;
  std::vector<std::shared_ptr<const analysis::RankDetail>> details;
  std::vector<size_t> wanted;
  std::vector<size_t> loads;
  size_t budget_ = 4;
  RankDetailState State(size_t i) const override { return i < states.size() ? states[i] : RankDetailState::kNoTrace; }
  std::shared_ptr<const analysis::RankDetail> Detail(size_t i) override { return i < details.size() ? details[i] : nullptr; }
  void Want(std::vector<size_t> inputs) override { wanted = std::move(inputs); }
  void Load(size_t i) override { loads.push_back(i); }
  size_t budget() const override { return budget_; }
  std::string Error(size_t) const override { return {}; }
};

TEST(RanksDetailTest, RanksOnScreenAreAskedForTopFirstWithinTheBudgetNeverOneFromAReport) {
  std::vector<analysis::RankSummary> ranks(5);
  analysis::RanksAnalysis a;
  for (size_t r = 0; r < ranks.size(); ++r) {
    ranks[r].rank = static_cast<int32_t>(r);
    if (r != 1) ranks[r].lanes = Lanes(4'096'000, 4096);  // rank 1 was read from a report: no summary
    analysis::RankRow row;
    row.input = 4 - r;  // the table lists the ranks in reverse
    a.ranks.push_back(row);
  }
  FakeDetails src;
  src.states.assign(5, RankDetailState::kNotLoaded);
  src.states[1] = RankDetailState::kNoTrace;
  RanksViewInput input{ranks, &a, "t", {}};
  input.details = &src;
  Viewport zoomed{{0, 100'000}, 1000};
  // Rows 0..4 hold ranks 4, 3, 2, 1, 0; rank 1 never, at most the budget.
  EXPECT_EQ(RanksToLoad(input, zoomed, 0, 5, 4), (std::vector<size_t>{4, 3, 2, 0}));
  EXPECT_EQ(RanksToLoad(input, zoomed, 0, 5, 2), (std::vector<size_t>{4, 3}));
  EXPECT_EQ(RanksToLoad(input, zoomed, 2, 4, 4), (std::vector<size_t>{2}));  // rows 2..3 on screen
  EXPECT_EQ(RanksToLoad(input, zoomed, 0, 99, 0), (std::vector<size_t>{}));
  // Zoomed out, nothing.
  EXPECT_TRUE(RanksToLoad(input, Viewport{{0, 4'096'000}, 1000}, 0, 5, 4).empty());
  // Without a source, the summaries decide alone; rank 1 still never.
  input.details = nullptr;
  EXPECT_EQ(RanksToLoad(input, zoomed, 2, 5, 4), (std::vector<size_t>{2, 0}));
}

TEST(RanksDetailTest, SubPixelSlicesCoalesceAndOnlyVisibleOnesAreVisited) {
  analysis::DetailLane lane;
  for (TimeNs t = 0; t < 10'000'000; t += 20) {  // 500k slices of 10 ns every 20 ns
    lane.start_ns.push_back(t);
    lane.end_ns.push_back(t + 10);
    lane.max_end_ns.push_back(t + 10);
    lane.name.push_back(0);
    lane.track.push_back(0);
  }
  lane.start_ns.push_back(10'000'000);  // and one wide slice
  lane.end_ns.push_back(11'000'000);
  lane.max_end_ns.push_back(11'000'000);
  lane.name.push_back(0);
  lane.track.push_back(0);
  const Viewport v{{9'000'000, 11'000'000}, 1000};  // 2 us per px
  const std::vector<DetailRect> rects = LayoutDetailLane(lane, v, 0);
  ASSERT_EQ(rects.size(), 2u);  // the dense half as one rect, then the wide slice
  EXPECT_EQ(rects[0].slices, 50'000u);
  EXPECT_FLOAT_EQ(rects[0].x0, 0.f);
  EXPECT_NEAR(rects[0].x1, 500.f, 1.f);
  EXPECT_EQ(rects[1].slices, 1u);
  EXPECT_FLOAT_EQ(rects[1].x0, 500.f);
  EXPECT_FLOAT_EQ(rects[1].x1, 1000.f);
  // The mouse over the wide slice finds it; past the lane's end, nothing.
  EXPECT_EQ(DetailRowAt(lane, 10'500'000, 0), std::optional<uint32_t>(500'000));
  EXPECT_FALSE(DetailRowAt(lane, 12'000'000, 1000).has_value());
}

// The demo's four ranks, 7 ms apart: zoomed in on step 1, each rank's
// detail lanes draw exactly its kernels overlapping the view once its
// own-clock times are shifted by its clock offset.
TEST(RanksDetailTest, DetailLanesHoldExactlyTheRanksEventsInTheViewAfterOffsetAlignment) {
  demo::DdpDemoOptions o;
  o.ranks = 4;
  o.steps = 3;
  o.kernels_per_step = 4;
  o.skew_ns = 7'000'000;
  const demo::DdpDemo demo(o);
  std::vector<analysis::RankSummary> ranks;
  std::vector<analysis::RankDetail> details;
  std::vector<std::vector<analysis::Interval>> kernels, collectives;
  for (int r = 0; r < o.ranks; ++r) {
    auto trace = loaders::LoadBytes(demo.RankJson(r), "rank" + std::to_string(r) + ".json");
    ASSERT_TRUE(static_cast<bool>(trace));
    const analysis::TraceAnalysis ta = analysis::ComputeAnalysis(trace.value());
    ranks.push_back(analysis::SummarizeRank(trace.value(), ta));
    details.push_back(analysis::ExtractRankDetail(trace.value(), ta));
    kernels.emplace_back();
    collectives.emplace_back();
    for (const analysis::DeviceOp& op : ta.primary()->activity.ops) {
      if (op.kind == GpuKind::kKernel) kernels.back().push_back({op.start_ns, op.end_ns});
      if (op.kind == GpuKind::kCollective) collectives.back().push_back({op.start_ns, op.end_ns});
    }
  }
  const analysis::RanksAnalysis a = analysis::AnalyzeRanks(ranks);
  ASSERT_EQ(a.error, "");
  TimeNs origin = 0;
  const TimeRange step = RanksStepView(ranks, a, 1, &origin);
  // The step's first 6 ms (DataLoader, then the compute kernels), 100k px wide so no slice merges.
  Viewport v{{origin, origin + 6'000'000}, 100'000};
  for (const analysis::RankRow& row : a.ranks) {
    const size_t r = row.input;
    EXPECT_NEAR(static_cast<double>(row.clock_offset_ns), static_cast<double>(r) * 7e6, 1e6) << r;
    ASSERT_TRUE(SummaryTooCoarse(v, ranks[r].lanes)) << r;
    for (auto [lane, truth] : {std::pair{&details[r].compute[0], &kernels[r]},
                               std::pair{&details[r].collective, &collectives[r]}}) {
      std::vector<analysis::Interval> drawn, expected;
      for (const DetailRect& rc : LayoutDetailLane(*lane, v, row.clock_offset_ns)) {
        ASSERT_EQ(rc.slices, 1u);
        drawn.push_back({lane->start_ns[rc.row], lane->end_ns[rc.row]});
        // At its aligned time: own clock minus the offset.
        EXPECT_NEAR(rc.x0, std::max(-1.0, v.TimeToX(lane->start_ns[rc.row] - row.clock_offset_ns)), 0.01);
      }
      for (const analysis::Interval& k : *truth) {
        if (k.start_ns - row.clock_offset_ns < v.visible.end_ns && k.end_ns - row.clock_offset_ns > v.visible.start_ns)
          expected.push_back(k);
      }
      EXPECT_EQ(drawn.size(), expected.size()) << "rank " << r;
      EXPECT_TRUE(std::equal(drawn.begin(), drawn.end(), expected.begin(), expected.end(),
                             [](const auto& x, const auto& y) { return x.start_ns == y.start_ns && x.end_ns == y.end_ns; }))
          << "rank " << r;
    }
    // Aligned, every rank's main thread starts the step with the DataLoader
    // within 1 ms of the ruler's 0 (unaligned, rank r's would be r * 7 ms later).
    bool dataloader_at_start = false;
    for (const DetailRect& rc : LayoutDetailLane(details[r].host, v, row.clock_offset_ns)) {
      const TimeNs aligned = details[r].host.start_ns[rc.row] - row.clock_offset_ns;
      dataloader_at_start = dataloader_at_start ||
                            (details[r].names[details[r].host.name[rc.row]] == demo::kDdpInputEventName &&
                             std::llabs(aligned - origin) < 1'000'000);
    }
    EXPECT_TRUE(dataloader_at_start) << "rank " << r;
  }
  EXPECT_LT(step.start_ns, v.visible.start_ns);
}

// A frame zoomed in on step 1 asks the source for the ranks on screen; a
// rank whose detail is there is drawn from it; zoomed out, nothing is asked.
TEST(RanksDetailTest, AZoomedInFrameAsksForTheRanksOnScreen) {
  testing::HeadlessImGui imgui(ImVec2(1000, 400));
  const DemoRun d = MakeDemoRun();
  ASSERT_EQ(d.analysis.error, "");
  FakeDetails src;
  src.states.assign(d.ranks.size(), RankDetailState::kNotLoaded);
  RanksViewInput input{d.ranks, &d.analysis, "demo", {}};
  input.details = &src;
  RanksTimeline t;
  TimelineFrame(&t, input);
  EXPECT_TRUE(src.wanted.empty());  // the whole step: the summaries are fine
  t.ShowStep(1, TimeRange{0, 3'000'000});
  src.budget_ = 3;
  TimelineFrame(&t, input);
  EXPECT_EQ(src.wanted, (std::vector<size_t>{0, 1, 2}));
  const int before = ImGui::GetDrawData()->TotalVtxCount;
  // Rank 0 loaded: drawn slice by slice (more vertices than its summary's runs).
  auto trace = loaders::LoadBytes(demo::DdpDemo([] {
                                    demo::DdpDemoOptions o;
                                    o.ranks = 4;
                                    o.steps = 3;
                                    o.kernels_per_step = 4;
                                    o.skew_ns = 1'000'000'000;
                                    return o;
                                  }())
                                      .RankJson(0),
                                  "rank0.json");
  ASSERT_TRUE(static_cast<bool>(trace));
  src.details.assign(d.ranks.size(), nullptr);
  src.details[0] = std::make_shared<analysis::RankDetail>(
      analysis::ExtractRankDetail(trace.value(), analysis::ComputeAnalysis(trace.value())));
  src.states[0] = RankDetailState::kLoaded;
  TimelineFrame(&t, input);
  EXPECT_NE(ImGui::GetDrawData()->TotalVtxCount, before);
  // "L" over rank 1's group asks for it.
  ImGuiIO& io = ImGui::GetIO();
  const RanksTimelineLayout layout;
  io.MousePos = ImVec2(t.lanes_left() + 100, t.lanes_top() + 1 * layout.group_h() + 2);
  TimelineFrame(&t, input);
  io.KeysDown[int{'L'}] = true;
  TimelineFrame(&t, input);
  io.KeysDown[int{'L'}] = false;
  TimelineFrame(&t, input);
  EXPECT_EQ(src.loads, (std::vector<size_t>{1}));
}

}  // namespace
}  // namespace stepline::ui
