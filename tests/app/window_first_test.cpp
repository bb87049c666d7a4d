// Issue #22: the window shows the timeline as soon as the trace is loaded and
// the analysis panels say "Analysing..." until the background analysis is
// handed over; then they fill in, and the view keeps its zoom. Opening
// another trace while an analysis runs drops it safely. Headless ImGui
// through the whole session frame; no window.
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
