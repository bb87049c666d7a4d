// Highlights on the timeline through the whole main view, headless: a search
// match folded into a grey block at fit-all still shows (the block is lit),
// everything else is dimmed while it is highlighted, and clearing the search
// brings the plain colours back.
#include <gtest/gtest.h>
#include <imgui.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "tests/support/headless_imgui.h"
#include "ui/main_view.h"
#include "ui/theme.h"

namespace stepline::ui {
namespace {

// Keeps every quad of the last frame (and draws nothing).
class CapturingRenderer : public QuadRenderer {
 public:
  void Draw(ImDrawList*, std::span<const QuadInstance> quads) override { last.assign(quads.begin(), quads.end()); }
  std::vector<QuadInstance> last;
};

struct Needle {
  std::shared_ptr<const TimelineData> data;
  uint32_t row = 0;
};

// 20,000 back-to-back 1 us slices on one thread in ten clusters 2 ms apart:
// fit-all folds each cluster into one block.
Needle MakeHaystack() {
  auto trace = std::make_shared<Trace>();
  StringPool& s = trace->mutable_strings();
  const ProcessId host = trace->mutable_processes().Append({100, s.Intern("python"), 0, -1});
  const TrackId main = trace->mutable_tracks().Append({TrackKind::kHostThread, host, 1, s.Intern("main"), 0, -1, {}});
  const StringId hay = s.Intern("hay"), needle = s.Intern("needle");
  for (int i = 0; i < 20'000; ++i) {
    const TimeNs at = TimeNs{i} * 1'000 + (i / 2'000) * 2'000'000;
    trace->mutable_slices().Append({main, at, 1'000, i == 12'345 ? needle : hay, {}, {}, GpuKind::kNone});
  }
  trace->Finalize();
  Needle n;
  for (uint32_t r = 0; r < trace->slices().size(); ++r) {
    if (trace->slices().name()[r] == needle) n.row = r;
  }
  n.data = std::make_shared<const TimelineData>(std::move(trace));
  return n;
}

class TimelineHighlightTest : public ::testing::Test {
 protected:
  void Frame() {
    ImGui::NewFrame();
    view_.Draw(state_, status_, &renderer_);
    ImGui::Render();
  }
  size_t Count(uint32_t color) const {
    return static_cast<size_t>(std::count_if(renderer_.last.begin(), renderer_.last.end(),
                                             [&](const QuadInstance& q) { return q.color == color; }));
  }
  stepline::testing::HeadlessImGui imgui_{ImVec2(1600, 900)};  // first: outlives the views
  ViewState state_;
  AppStatus status_;
  MainView view_;
  CapturingRenderer renderer_;
};

TEST_F(TimelineHighlightTest, AFoldedSearchMatchIsLitAndTheRestDimmed) {
  const Needle n = MakeHaystack();
  state_.data = n.data;
  for (int i = 0; i < 3; ++i) Frame();
  ASSERT_GE(Count(theme::kFoldedRun), 10u) << "each cluster should fold into a block at fit-all";
  ASSERT_LT(renderer_.last.size(), 2'000u);
  EXPECT_EQ(Count(theme::kSearchMatch), 0u);

  state_.search.matches = {n.row};
  ++state_.links.highlight_generation;
  Frame();
  EXPECT_EQ(Count(theme::kSearchMatch), 1u) << "the block holding the match is lit";
  EXPECT_EQ(Count(theme::kFoldedRun), 0u) << "other blocks are dimmed";
  EXPECT_GE(Count(theme::Dimmed(theme::kFoldedRun)), 9u);

  state_.search.matches.clear();
  ++state_.links.highlight_generation;
  Frame();
  EXPECT_EQ(Count(theme::kSearchMatch), 0u);
  EXPECT_GT(Count(theme::kFoldedRun), 0u);
}

}  // namespace
}  // namespace stepline::ui
