// Ctrl+C, M and Shift+M in the compare view, headless on two synthetic runs:
// each acts on one side (the side whose selection was made last; Shift+M the
// timeline under the mouse), its notes are that side's own and are drawn on
// that side's timeline; a dialog up over the view keeps the keys.
#include <gtest/gtest.h>
#include <imgui.h>

#include <memory>
#include <string>

#include "tests/support/headless_imgui.h"
#include "tests/support/synthetic_trace.h"
#include "ui/clipboard.h"
#include "ui/compare/compare_view.h"
#include "ui/theme.h"

namespace stepline::ui {
namespace {

using stepline::testing::SyntheticTrace;
using stepline::testing::Us;

std::shared_ptr<const TimelineData> CompareKeysRun(int steps, int64_t step_us, const char* op) {
  SyntheticTrace t;
  for (int i = 0; i < steps; ++i) {
    const int64_t at = 100 + i * step_us;
    t.Thread("main").Slice("ProfilerStep#" + std::to_string(i + 1), Us(at), Us(step_us - 10));
    t.Thread("main").Slice(std::string(op) + "_" + std::to_string(i), Us(at + 1), Us(5));
    t.Kernel(7, Us(at + 10), Us(step_us / 2), "gemm").LaunchedFrom("main", Us(at + 2));
  }
  return std::make_shared<const TimelineData>(std::make_shared<const Trace>(t.Build()));
}

SliceId CompareKeysFind(const Trace& t, std::string_view name) {
  for (size_t i = 0; i < t.slices().size(); ++i) {
    if (t.str(t.slices().name()[i]) == name) return SliceId(static_cast<uint32_t>(i));
  }
  return SliceId();
}

class CompareSelectionKeysTest : public ::testing::Test {
 protected:
  void SetUp() override {
    view_.SetRuns(CompareKeysRun(4, 1'000, "a_op"), "a.json", CompareKeysRun(4, 2'000, "b_op"), "b.json");
    Frame();
    Frame();
  }
  CompareRequests Frame(int key = 0, bool ctrl = false, bool shift = false) {
    ImGuiIO& io = ImGui::GetIO();
    if (key != 0) {
      // A frame with every key up first: a key held over two frames is not pressed again.
      ImGui::NewFrame();
      view_.Draw(status_, &renderer_);
      ImGui::Render();
      io.KeysDown[key] = true;
    }
    io.KeyCtrl = ctrl;
    io.KeyShift = shift;
    ImGui::NewFrame();
    CompareRequests r = view_.Draw(status_, &renderer_);
    ImGui::Render();
    for (bool& k : io.KeysDown) k = false;
    io.KeyCtrl = io.KeyShift = false;
    return r;
  }
  const Trace& trace(int side) { return *view_.state(side).trace(); }

  stepline::testing::HeadlessImGui imgui_{ImVec2(1600, 900)};  // first: outlives the views
  CompareView view_;
  CompareStatus status_;
  DrawListQuadRenderer renderer_;
};

TEST_F(CompareSelectionKeysTest, CtrlCCopiesTheNameOnTheSideSelectedLast) {
  view_.state(0).selected = CompareKeysFind(trace(0), "a_op_1");
  Frame();
  CopyText("before");
  CompareRequests r = Frame('C', /*ctrl=*/true);
  EXPECT_EQ(LastCopiedText(), "a_op_1");
  EXPECT_EQ(r.notice.rfind("A: ", 0), 0u) << r.notice;
  // A selection made on B after A's: B's name.
  view_.state(1).selected = CompareKeysFind(trace(1), "b_op_2");
  Frame();
  r = Frame('C', true);
  EXPECT_EQ(LastCopiedText(), "b_op_2");
  EXPECT_EQ(r.notice.rfind("B: ", 0), 0u) << r.notice;
  // B's selection cleared: A's is the one left.
  view_.state(1).selected = SliceId();
  Frame();
  Frame('C', true);
  EXPECT_EQ(LastCopiedText(), "a_op_1");
  // Nothing selected anywhere: nothing copied.
  view_.state(0).selected = SliceId();
  Frame();
  CopyText("kept");
  Frame('C', true);
  EXPECT_EQ(LastCopiedText(), "kept");
}

TEST_F(CompareSelectionKeysTest, MMarksOnEachSidesOwnNotes) {
  CompareRequests r = Frame('M');
  EXPECT_TRUE(view_.state(0).notes.items.empty());
  EXPECT_TRUE(view_.state(1).notes.items.empty());
  EXPECT_NE(r.notice.find("Select a slice"), std::string::npos) << r.notice;

  view_.state(1).selected = CompareKeysFind(trace(1), "b_op_0");
  Frame();
  r = Frame('M');
  ASSERT_EQ(view_.state(1).notes.items.size(), 1u);
  EXPECT_TRUE(view_.state(0).notes.items.empty()) << "B's note is not A's";
  const Note& b_note = view_.state(1).notes.items[0];
  EXPECT_EQ(b_note.text, "b_op_0");
  EXPECT_EQ(b_note.start_ns, trace(1).slices().start_ns()[CompareKeysFind(trace(1), "b_op_0").index()]);
  EXPECT_EQ(r.notice.rfind("B: Note 1", 0), 0u) << r.notice;

  view_.state(0).range = TimeRange{Us(300), Us(600)};
  Frame();
  Frame('M');
  ASSERT_EQ(view_.state(0).notes.items.size(), 1u);
  EXPECT_EQ(view_.state(0).notes.items[0].start_ns, Us(300));
  EXPECT_EQ(view_.state(0).notes.items[0].end_ns, Us(600));
  EXPECT_EQ(view_.state(1).notes.items.size(), 1u);
}

// Shift+M flags the timeline under the mouse at the mouse's time; both
// sides' notes are drawn (vertices in each note's colour).
TEST_F(CompareSelectionKeysTest, ShiftMFlagsTheTimelineUnderTheMouseAndBothAreDrawn) {
  ImGuiIO& io = ImGui::GetIO();
  // Find a point over B's timeline: the overlay records the time under the mouse.
  bool over_b = false;
  for (float y = 40; y < 900 && !over_b; y += 15) {
    io.MousePos = ImVec2(1300, y);
    Frame();
    over_b = view_.state(1).notes.cursor_ns.has_value();
  }
  ASSERT_TRUE(over_b) << "no point of the window over B's timeline";
  const TimeNs at = *view_.state(1).notes.cursor_ns;
  Frame('M', false, /*shift=*/true);
  ASSERT_EQ(view_.state(1).notes.items.size(), 1u);
  EXPECT_TRUE(view_.state(1).notes.items[0].is_flag);
  EXPECT_EQ(view_.state(1).notes.items[0].start_ns, at);
  EXPECT_TRUE(view_.state(0).notes.items.empty());

  // Colours no data on the timeline has.
  const uint32_t magenta = theme::Rgba(255, 0, 255), green = theme::Rgba(0, 192, 0);
  view_.state(0).notes.items.push_back(Note{Us(1'200), Us(1'500), false, "on A", magenta});
  view_.state(1).notes.items[0].color = green;
  Frame();
  size_t colour_a = 0, colour_b = 0;
  const ImDrawData* dd = ImGui::GetDrawData();
  for (int l = 0; l < dd->CmdListsCount; ++l) {
    for (const ImDrawVert& v : dd->CmdLists[l]->VtxBuffer) {
      colour_a += (v.col & 0xFFFFFF) == (magenta & 0xFFFFFF) ? 1 : 0;
      colour_b += (v.col & 0xFFFFFF) == (green & 0xFFFFFF) ? 1 : 0;
    }
  }
  EXPECT_GT(colour_a, 0u) << "A's note on A's timeline";
  EXPECT_GT(colour_b, 0u) << "B's flag on B's timeline";
}

TEST_F(CompareSelectionKeysTest, ADialogKeepsTheKeys) {
  view_.state(0).selected = CompareKeysFind(trace(0), "a_op_1");
  Frame();
  status_.modal_open = true;
  Frame('M');
  EXPECT_TRUE(view_.state(0).notes.items.empty());
  status_.modal_open = false;
  Frame('M');
  EXPECT_EQ(view_.state(0).notes.items.size(), 1u);
}

}  // namespace
}  // namespace stepline::ui
