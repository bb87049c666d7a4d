// The window shows the timeline as soon as the trace is loaded and
// the analysis panels say "Analysing..." until the background analysis is
// handed over; then they fill in, and the view keeps its zoom. The flow arrows
// wait for their index, built after the first frame. Opening another trace
// while an analysis runs drops it safely. Headless ImGui through the whole
// session frame; no window.
#include <gtest/gtest.h>
#include <imgui.h>

#include <chrono>
#include <thread>

#include "app/gui/viewer_session.h"
#include "tests/support/headless_imgui.h"

namespace stepline::app {
namespace {

class WindowFirstTest : public ::testing::Test {
 protected:
  void Frame() {
    ImGui::NewFrame();
    session_.Frame({}, &renderer_);
    ImGui::Render();
  }
  // Draws frames until `done` holds (bounded: a hang fails, never blocks).
  template <typename Pred>
  bool FramesUntil(Pred done) {
    for (int i = 0; i < 3000; ++i) {
      Frame();
      if (done()) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return false;
  }

  stepline::testing::HeadlessImGui imgui_{ImVec2(1600, 900)};  // first: outlives the views
  ViewerSession session_{RecentFiles("/dev/null/never")};
  ui::DrawListQuadRenderer renderer_;
};

TEST_F(WindowFirstTest, TimelineShowsBeforeTheAnalysisAndPanelsFillAfter) {
  session_.HoldAnalysisResults(true);
  session_.OpenDemo("input-bound");
  ASSERT_TRUE(FramesUntil([&] { return session_.state().data != nullptr; }));
  const auto pending = session_.state().data;
  EXPECT_FALSE(pending->analysis_ready);
  EXPECT_TRUE(pending->analysis.report.steps.empty());
  EXPECT_TRUE(session_.analysing());
  Frame();
  // The timeline drew events; the overview and the bottom tab wait.
  EXPECT_GT(session_.view().timeline().last_quad_count(), 0u);
  EXPECT_EQ(session_.view().analysis_pending_panels(), 2);
  // Zoom in while the analysis runs: the view outlives the hand-over.
  ui::ViewState& state = session_.state();
  const TimeRange span = pending->trace->span();
  state.requests.fit = TimeRange{span.start_ns, span.start_ns + (span.end_ns - span.start_ns) / 4};
  Frame();
  const TimeRange zoomed = state.viewport.visible;

  session_.HoldAnalysisResults(false);
  ASSERT_TRUE(FramesUntil([&] { return session_.state().data->analysis_ready; }));
  Frame();
  const auto& done = session_.state().data;
  EXPECT_FALSE(session_.analysing());
  EXPECT_NE(done, pending);
  EXPECT_NE(done->generation, pending->generation);       // panel caches rebuild
  EXPECT_EQ(done->trace, pending->trace);                 // the same model, not a copy
  EXPECT_EQ(done->indices, pending->indices);             // nor a rebuild of the timeline's indices
  EXPECT_FALSE(done->analysis.report.steps.empty());      // the input-bound demo has steps
  EXPECT_EQ(session_.view().analysis_pending_panels(), 0);
  EXPECT_GT(session_.view().timeline().last_quad_count(), 0u);
  EXPECT_EQ(session_.state().viewport.visible.start_ns, zoomed.start_ns);
  EXPECT_EQ(session_.state().viewport.visible.end_ns, zoomed.end_ns);
}

// The first frame needs only the depth index and the row layout; the flow
// index comes after it, on a worker. Until then no arrow is drawn (not the
// selection's incoming links, nor "show all arrows"), nothing crashes, and a
// click still selects; once published, the arrows draw on the same data.
TEST_F(WindowFirstTest, FlowsAreIndexedAfterTheFirstFrameAndAnEarlyClickSelects) {
  session_.HoldBackgroundJobs(true);
  session_.OpenDemo("input-bound");
  ASSERT_TRUE(FramesUntil([&] { return session_.state().data != nullptr; }));
  const auto data = session_.state().data;
  ASSERT_GT(data->trace->flows().size(), 0u);
  ui::ViewState& state = session_.state();
  state.show_all_flows = true;
  for (int i = 0; i < 3; ++i) Frame();
  EXPECT_EQ(data->flows(), nullptr);  // held: the jobs never started
  EXPECT_TRUE(session_.analysing());
  EXPECT_GT(session_.view().timeline().last_quad_count(), 0u);
  EXPECT_EQ(session_.view().timeline().last_flow_arrow_count(), 0u);

  // A kernel launched by a flow: its only arrow is incoming, which needs the index.
  const FlowTable& flows = data->trace->flows();
  const SliceId kernel = flows.to()[0];
  state.selected = kernel;
  state.requests.scroll_to_selection = true;
  Frame();
  Frame();  // the details panel lists the outgoing links only, the arrow waits
  EXPECT_EQ(session_.view().timeline().last_flow_arrow_count(), 0u);
  EXPECT_EQ(state.selected, kernel);

  // A click on whatever slice is under the mouse selects it (scan down the
  // middle of the timeline for one).
  state.selected = SliceId();
  ImGuiIO& io = ImGui::GetIO();
  SliceId hovered;
  for (float y = 0; y < 900 && hovered.is_none(); y += 4) {
    io.MousePos = ImVec2(800, y);
    Frame();
    hovered = state.hovered;
  }
  ASSERT_FALSE(hovered.is_none()) << "no slice under the mouse anywhere down the timeline";
  io.MouseDown[0] = true;
  Frame();
  io.MouseDown[0] = false;
  Frame();
  EXPECT_EQ(state.selected, hovered);
  EXPECT_EQ(data->flows(), nullptr);

  // Released: the flows are indexed and drawn on the same data, before the
  // analysis is taken (its results are held).
  session_.HoldAnalysisResults(true);
  session_.HoldBackgroundJobs(false);
  ASSERT_TRUE(FramesUntil([&] { return data->flows() != nullptr; }));
  Frame();
  EXPECT_EQ(session_.state().data, data);
  EXPECT_EQ(data->flows()->by_to.size(), flows.size());
  EXPECT_GT(session_.view().timeline().last_flow_arrow_count(), 0u);
  session_.HoldAnalysisResults(false);
  ASSERT_TRUE(FramesUntil([&] { return session_.state().data->analysis_ready; }));
  EXPECT_EQ(session_.state().data->flows(), data->flows());  // shared, not rebuilt
}

TEST_F(WindowFirstTest, OpeningAnotherTraceWhileAnalysingDropsTheOldAnalysis) {
  session_.HoldAnalysisResults(true);
  session_.OpenDemo("input-bound");
  ASSERT_TRUE(FramesUntil([&] { return session_.state().data != nullptr; }));
  const auto first = session_.state().data;
  session_.OpenDemo("small-batch");
  ASSERT_TRUE(FramesUntil([&] { return session_.state().data != first; }));
  const auto second = session_.state().data;
  EXPECT_FALSE(second->analysis_ready);
  session_.HoldAnalysisResults(false);
  ASSERT_TRUE(FramesUntil([&] { return session_.state().data->analysis_ready; }));
  EXPECT_EQ(session_.state().data->trace, second->trace);  // never the first trace's analysis
  EXPECT_FALSE(session_.analysing());
}

TEST_F(WindowFirstTest, ClosingWhileAnalysingCancelsAndJoins) {
  auto session = std::make_unique<ViewerSession>(RecentFiles("/dev/null/never"));
  session->OpenDemo("input-bound");
  for (int i = 0; i < 3000 && !session->analysing(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    session->PollLoads();
  }
  ASSERT_NE(session->state().data, nullptr);
  EXPECT_TRUE(session->analysing() || session->state().data->analysis_ready);
  session.reset();  // the destructor cancels the analysis and joins its thread
}

}  // namespace
}  // namespace stepline::app
