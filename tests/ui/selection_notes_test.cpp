// Where a slice sits (ancestors, child counts), its args as JSON, the copy
// actions (Ctrl+C and the details panel's buttons, seen through
// ui/clipboard.h), the note actions behind M / Shift+M and the Notes tab,
// and the theme switch: on a small synthetic trace, headless.
#include <gtest/gtest.h>
#include <imgui.h>

#include <memory>

#include "tests/support/headless_imgui.h"
#include "tests/support/synthetic_trace.h"
#include "ui/clipboard.h"
#include "ui/details_panel.h"
#include "ui/main_view.h"
#include "ui/notes/note_actions.h"
#include "ui/slice_lineage.h"
#include "ui/theme_style.h"

namespace stepline::ui {
namespace {

using stepline::testing::SyntheticTrace;
using stepline::testing::Us;

// step > forward > (linear > gemm, relu); a second root "optimizer".
std::shared_ptr<const TimelineData> SelNotesData() {
  Trace t = SyntheticTrace()
                .Thread("main")
                .Slice("ProfilerStep#1", Us(0), Us(1000))
                .Slice("forward", Us(10), Us(500))
                .Arg("batch", 32)
                .ArgString("phase", "train \"fast\"")
                .ArgDouble("lr", 0.5)
                .ArgJson("shape", "[8,16]")
                .Slice("linear", Us(20), Us(100))
                .Slice("gemm", Us(30), Us(50))
                .Slice("relu", Us(200), Us(50))
                .Slice("optimizer", Us(1200), Us(300))
                .Build();
  return std::make_shared<const TimelineData>(std::make_shared<const Trace>(std::move(t)));
}

SliceId SelNotesFind(const Trace& t, std::string_view name) {
  for (size_t i = 0; i < t.slices().size(); ++i) {
    if (t.str(t.slices().name()[i]) == name) return SliceId(static_cast<uint32_t>(i));
  }
  return SliceId();
}

TEST(SliceLineageTest, AncestorsOutermostFirstAndChildCounts) {
  const auto data = SelNotesData();
  const Trace& t = *data->trace;
  const std::vector<SliceId> chain = SliceAncestors(t, SelNotesFind(t, "gemm"));
  ASSERT_EQ(chain.size(), 3u);
  EXPECT_EQ(t.str(t.slices().name()[chain[0].index()]), "ProfilerStep#1");
  EXPECT_EQ(t.str(t.slices().name()[chain[1].index()]), "forward");
  EXPECT_EQ(t.str(t.slices().name()[chain[2].index()]), "linear");
  EXPECT_TRUE(SliceAncestors(t, SelNotesFind(t, "optimizer")).empty());

  const ChildCounts forward = SliceChildCounts(t, SelNotesFind(t, "forward"));
  EXPECT_EQ(forward.direct, 2u);       // linear, relu
  EXPECT_EQ(forward.descendants, 3u);  // and gemm inside linear
  const ChildCounts step = SliceChildCounts(t, SelNotesFind(t, "ProfilerStep#1"));
  EXPECT_EQ(step.direct, 1u);
  EXPECT_EQ(step.descendants, 4u) << "optimizer starts after the step ends: not inside";
  EXPECT_EQ(SliceChildCounts(t, SelNotesFind(t, "gemm")).descendants, 0u);
}

TEST(SliceLineageTest, ArgsAsJson) {
  const auto data = SelNotesData();
  const Trace& t = *data->trace;
  EXPECT_EQ(SliceArgsJson(t, SelNotesFind(t, "forward")),
            R"({"batch": 32, "phase": "train \"fast\"", "lr": 0.5, "shape": [8,16]})");
  EXPECT_EQ(SliceArgsJson(t, SelNotesFind(t, "gemm")), "{}");
}

class SelectionNotesViewTest : public ::testing::Test {
 protected:
  void SetUp() override { state_.data = SelNotesData(); }
  void TearDown() override { ApplyTheme(theme::ThemeKind::kDark); }
  ViewRequests Frame(int key = 0, bool ctrl = false, bool shift = false) {
    ImGuiIO& io = ImGui::GetIO();
    if (key != 0) {
      // A frame with every key up first: a key held over two frames is not pressed again.
      ImGui::NewFrame();
      ImGui::Render();
      io.KeysDown[key] = true;
    }
    io.KeyCtrl = ctrl;
    io.KeyShift = shift;
    ImGui::NewFrame();
    ViewRequests r = view_.Draw(state_, AppStatus{}, &renderer_);
    ImGui::Render();
    for (bool& k : io.KeysDown) k = false;
    io.KeyCtrl = io.KeyShift = false;
    return r;
  }
  const Trace& trace() const { return *state_.trace(); }

  stepline::testing::HeadlessImGui imgui_{ImVec2(1600, 1000)};
  ViewState state_;
  MainView view_;
  DrawListQuadRenderer renderer_;
};

TEST_F(SelectionNotesViewTest, CtrlCCopiesTheSelectedName) {
  Frame();
  state_.selected = SelNotesFind(trace(), "relu");
  CopyText("before");
  const ViewRequests r = Frame('C', /*ctrl=*/true);
  EXPECT_EQ(LastCopiedText(), "relu");
  EXPECT_STREQ(ImGui::GetClipboardText(), "relu") << "through ImGui's clipboard too";
  EXPECT_FALSE(r.notice.empty());
  state_.selected = SliceId();
  CopyText("kept");
  Frame('C', true);
  EXPECT_EQ(LastCopiedText(), "kept") << "nothing selected: nothing copied";
}

TEST_F(SelectionNotesViewTest, MMarksTheSliceThenTheRangeShiftMDropsAFlag) {
  Frame();
  ViewRequests r = Frame('M');
  EXPECT_TRUE(state_.notes.items.empty()) << "nothing selected";
  EXPECT_NE(r.notice.find("Select a slice"), std::string::npos);

  state_.selected = SelNotesFind(trace(), "forward");
  Frame('M');
  ASSERT_EQ(state_.notes.items.size(), 1u);
  EXPECT_EQ(state_.notes.items[0], (Note{Us(10), Us(510), false, "forward", theme::kNoteColors[0]}));
  const uint64_t rev = state_.notes.revision;

  state_.range = TimeRange{Us(100), Us(300)};
  Frame('M');
  ASSERT_EQ(state_.notes.items.size(), 2u);
  EXPECT_EQ(state_.notes.items[1].start_ns, Us(100));
  EXPECT_EQ(state_.notes.items[1].end_ns, Us(300));
  EXPECT_EQ(state_.notes.items[1].color, theme::kNoteColors[1]) << "each new note takes the next colour";
  EXPECT_GT(state_.notes.revision, rev);

  // Off the timeline the flag goes to the view's centre.
  const TimeRange v = state_.viewport.visible;
  Frame('M', false, /*shift=*/true);
  ASSERT_EQ(state_.notes.items.size(), 3u);
  EXPECT_TRUE(state_.notes.items[2].is_flag);
  EXPECT_EQ(state_.notes.items[2].start_ns, v.start_ns + v.duration_ns() / 2);
  EXPECT_EQ(state_.notes.items[2].end_ns, state_.notes.items[2].start_ns);
}

TEST_F(SelectionNotesViewTest, JumpFramesASpanCentresAFlagDeleteRemoves) {
  Frame();
  state_.notes.items = {Note{Us(100), Us(300), false, "span", 0}, Note{Us(1200), Us(1200), true, "flag", 0}};
  JumpToNote(state_, 0);
  ASSERT_TRUE(state_.requests.fit);
  EXPECT_LE(state_.requests.fit->start_ns, Us(100));
  EXPECT_GE(state_.requests.fit->end_ns, Us(300));
  EXPECT_LT(state_.requests.fit->duration_ns(), Us(300)) << "framed, not the whole trace";
  Frame();
  const DurNs width = state_.viewport.visible.duration_ns();
  JumpToNote(state_, 1);
  ASSERT_TRUE(state_.requests.fit);
  EXPECT_EQ(state_.requests.fit->duration_ns(), width) << "a flag keeps the zoom";
  EXPECT_EQ(state_.requests.fit->start_ns + width / 2, Us(1200));
  const uint64_t rev = state_.notes.revision;
  DeleteNote(state_, 0);
  ASSERT_EQ(state_.notes.items.size(), 1u);
  EXPECT_EQ(state_.notes.items[0].text, "flag");
  EXPECT_GT(state_.notes.revision, rev);
}

TEST_F(SelectionNotesViewTest, NotesTabAndOverlayDraw) {
  state_.notes.items = {Note{Us(100), Us(300), false, "slow input", theme::kNoteColors[0]},
                        Note{Us(700), Us(700), true, "look here", theme::kNoteColors[1]}};
  state_.panels.bottom_tab = BottomTab::kNotes;
  state_.requests.bottom_tab = true;
  Frame();
  Frame();
  EXPECT_EQ(state_.panels.bottom_tab, BottomTab::kNotes);
  // The overlay's band, edges and label chips: vertices in the note colour.
  size_t in_note_colour = 0;
  const ImDrawData* dd = ImGui::GetDrawData();
  for (int l = 0; l < dd->CmdListsCount; ++l) {
    for (const ImDrawVert& v : dd->CmdLists[l]->VtxBuffer) {
      if ((v.col & 0xFFFFFF) == (theme::kNoteColors[1] & 0xFFFFFF)) ++in_note_colour;
    }
  }
  EXPECT_GT(in_note_colour, 0u);
}

TEST_F(SelectionNotesViewTest, BreadcrumbClickSelectsAndFramesTheAncestor) {
  // The crumbs select through the details panel: drawn alone, its first
  // button ("ProfilerStep#1") at the top left.
  state_.selected = SelNotesFind(trace(), "gemm");
  DetailsPanel details;
  ImGuiIO& io = ImGui::GetIO();
  ImVec2 button_pos;
  for (int frame = 0; frame < 4; ++frame) {
    io.MousePos = button_pos;
    io.MouseDown[0] = frame == 2;
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(600, 400));
    ImGui::Begin("details");
    const ImVec2 at = ImGui::GetCursorScreenPos();
    button_pos = ImVec2(at.x + 10, at.y + 5);
    details.Draw(state_);
    ImGui::End();
    ImGui::Render();
  }
  EXPECT_EQ(state_.selected, SelNotesFind(trace(), "ProfilerStep#1"));
  ASSERT_TRUE(state_.requests.fit);
  EXPECT_LE(state_.requests.fit->start_ns, Us(0));
  EXPECT_GE(state_.requests.fit->end_ns, Us(1000));
}

TEST_F(SelectionNotesViewTest, ThemeSwitchesEveryChromeColour) {
  const uint32_t dark_bg = theme::kBackground, dark_text = theme::kTrackText;
  ApplyTheme(theme::ThemeKind::kLight);
  EXPECT_EQ(theme::CurrentTheme(), theme::ThemeKind::kLight);
  EXPECT_NE(theme::kBackground, dark_bg);
  EXPECT_NE(theme::kTrackText, dark_text);
  EXPECT_EQ(theme::kBackground, theme::kLightPalette.background) << "the names read the palette in use";
  // ImGui's own widgets follow: a light window background.
  EXPECT_GT(ImGui::GetStyle().Colors[ImGuiCol_WindowBg].x, 0.8f);
  Frame();  // draws in the light theme without trouble
  ApplyTheme(theme::ThemeKind::kDark);
  EXPECT_EQ(theme::kBackground, dark_bg);
  EXPECT_LT(ImGui::GetStyle().Colors[ImGuiCol_WindowBg].x, 0.2f);
  EXPECT_EQ(ParseThemeName("light"), theme::ThemeKind::kLight);
  EXPECT_FALSE(ParseThemeName("sepia"));
}

}  // namespace
}  // namespace stepline::ui
