// Right-click on a track name offers Pin and Hide (docs/guide.md and the `?`
// help promise it), not the timeline's picture menu, whether the click is
// quick or held, and View > Show hidden tracks brings hidden ones back.
// Headless ImGui driven with the mouse, through the whole session frame.
#include <gtest/gtest.h>
#include <imgui.h>

#include "app/gui/viewer_session.h"
#include "demo/demo_generator.h"
#include "tests/support/headless_imgui.h"

namespace stepline::app {
namespace {

class TrackMenuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    demo::DemoOptions options;
    options.scenario = "input-bound";
    options.steps = 4;
    auto r = demo::GenerateDemoTrace(options);
    ASSERT_TRUE(r.ok());
    session_.Show(std::make_shared<const ui::TimelineData>(std::make_shared<const Trace>(std::move(r).value())),
                  "demo: input-bound");
    for (int i = 0; i < 3; ++i) Frame();
  }
  ViewerSession::FrameResult Frame() {
    ImGui::NewFrame();
    ViewerSession::FrameResult r = session_.Frame({}, &renderer_);
    ImGui::Render();
    if (r.save_panel) ++panel_menu_picks_;
    return r;
  }
  // A right-click at `at` held for `held` frames.
  void RightClick(ImVec2 at, int held) {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = at;
    Frame();
    io.MouseDown[1] = true;
    for (int i = 0; i < held; ++i) Frame();
    io.MouseDown[1] = false;
    Frame();
    Frame();
  }
  void LeftClick(ImVec2 at) {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = at;
    Frame();
    io.MouseDown[0] = true;
    Frame();
    io.MouseDown[0] = false;
    Frame();
    Frame();
  }
  // Right-clicks down the track names column (left of the slices) and picks
  // the first item of the menu that opens, until a track is pinned.
  bool PinByRightClick(int held) {
    const float names_x = 1600 - 900;  // the timeline takes the right part; names are its first 220 px
    for (float y = 120; y < 520; y += 14) {
      RightClick(ImVec2(names_x, y), held);
      LeftClick(ImVec2(names_x + 20, y + 12));  // "Pin to top" (or the picture menu's first item)
      if (!session_.state().layout.pinned_tracks.empty()) return true;
    }
    return false;
  }

  stepline::testing::HeadlessImGui imgui_{ImVec2(1600, 900)};  // first: outlives the views
  ViewerSession session_{RecentFiles("/dev/null/never")};
  ui::DrawListQuadRenderer renderer_;
  int panel_menu_picks_ = 0;
};

TEST_F(TrackMenuTest, QuickRightClickOnATrackNamePins) {
  ASSERT_TRUE(PinByRightClick(1));
}

TEST_F(TrackMenuTest, HeldRightClickOnATrackNamePinsNotThePictureMenu) {
  ASSERT_TRUE(PinByRightClick(6));
}

TEST_F(TrackMenuTest, RightClickWhileAMenuIsOpenStillOpensTheTrackMenu) {
  // The first right-click opens a menu; the second, elsewhere on the names,
  // closes it and must open the track menu, not the picture menu.
  const float names_x = 1600 - 900;
  bool pinned = false;
  for (float y = 120; y < 520 && !pinned; y += 14) {
    RightClick(ImVec2(names_x, y), 4);
    RightClick(ImVec2(names_x, y + 2), 4);
    LeftClick(ImVec2(names_x + 20, y + 14));
    pinned = !session_.state().layout.pinned_tracks.empty();
  }
  EXPECT_TRUE(pinned);
}

TEST_F(TrackMenuTest, ShowHiddenTracksIsInTheViewMenu) {
  session_.state().layout.hidden_tracks.insert(0);
  session_.state().layout.hidden_tracks.insert(1);
  Frame();
  LeftClick(ImVec2(48, 8));  // View (after File)
  // The items under View, top to bottom: find "Show hidden tracks (2)" by
  // clicking down the menu until the hidden set empties.
  for (float y = 30; y < 300 && !session_.state().layout.hidden_tracks.empty(); y += 6) {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = ImVec2(70, y);
    Frame();
    if (!ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel)) LeftClick(ImVec2(48, 8));
    // Only the one item clears hidden tracks; others toggle view options.
    const auto before = session_.state().layout.hidden_tracks.size();
    io.MouseDown[0] = true;
    Frame();
    io.MouseDown[0] = false;
    Frame();
    if (session_.state().layout.hidden_tracks.size() < before) break;
    LeftClick(ImVec2(48, 8));
  }
  EXPECT_TRUE(session_.state().layout.hidden_tracks.empty());
}

}  // namespace
}  // namespace stepline::app
