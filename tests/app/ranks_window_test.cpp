// The ranks view is a window like the others: a menu bar (File > Open
// folder..., Open..., Quit; View; Help), F12 saves a screenshot, `?` shows
// its keys, a right-click offers "Save ranks view as PNG". Each once did
// nothing there. Drawn headless on a three-rank demo at the test sizes.
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <cstring>
#include <memory>
#include <sstream>

#include "app/cli/commands.h"
#include "app/gui/run_picker.h"
#include "app/runs/rank_set.h"
#include "tests/app/command_test_helpers.h"
#include "tests/support/headless_imgui.h"
#include "ui/ranks/ranks_window.h"

namespace stepline::app {
namespace {

class RanksWindowTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::filesystem::path dir = MakeScratchDirRemovedAtExit("ranks-window");
    ASSERT_EQ(RunCommand(RunDemo, {"ddp-straggler", "--ranks", "3", "--steps", "3", "--kernels", "4", "--out",
                                   dir.string()})
                  .code,
              0);
    std::ostringstream err;
    ASSERT_EQ(LoadRankSet({dir.string()}, 2, &run_, err), "");
    input_.ranks = run_.ranks;
    input_.analysis = &run_.analysis;
    input_.title = "ddp";
  }
  ui::RanksRequests Frame() {
    ImGui::NewFrame();
    ui::RanksRequests r = window_.Draw(view_, input_, true);
    ImGui::Render();
    ImGuiIO& io = ImGui::GetIO();
    for (bool& k : io.KeysDown) k = false;
    io.MouseDown[0] = io.MouseDown[1] = false;
    return r;
  }
  // Clicks at `at` (press one frame, release the next); the requests of both.
  ui::RanksRequests Click(ImVec2 at, int button = 0) {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = at;
    Frame();
    io.MousePos = at;
    io.MouseDown[button] = true;
    ui::RanksRequests a = Frame();
    io.MousePos = at;
    ui::RanksRequests b = Frame();
    b.open_folder_dialog |= a.open_folder_dialog;
    b.open_dialog |= a.open_dialog;
    b.save_screenshot |= a.save_screenshot;
    if (a.save_panel) b.save_panel = a.save_panel;
    return b;
  }

  ::stepline::testing::HeadlessImGui imgui_{ImVec2(1024, 700)};
  RanksRun run_;
  ui::RanksViewInput input_;
  ui::RanksView view_;
  ui::RanksWindow window_;
};

TEST_F(RanksWindowTest, MenusKeysAndTheRightClickMenuWork) {
  for (const ImVec2 size : {ImVec2(1024, 700), ImVec2(1280, 800), ImVec2(1920, 1080)}) {
    ImGui::GetIO().DisplaySize = size;
    Frame();
    ImGuiWindow* ranks = ImGui::FindWindowByName("Ranks");
    ASSERT_NE(ranks, nullptr);
    EXPECT_TRUE(ranks->Flags & ImGuiWindowFlags_MenuBar);
    EXPECT_GT(ranks->MenuBarHeight(), 0.f);
    // File > Open folder...: the File menu's second item.
    const float bar_y = ranks->Pos.y + ranks->MenuBarHeight() / 2;
    bool folder = false;
    for (float y = ranks->Pos.y + ranks->MenuBarHeight() + 4; y < 140 && !folder; y += 3) {
      Click(ImVec2(ranks->Pos.x + 20, bar_y));  // opens File
      folder = Click(ImVec2(ranks->Pos.x + 40, y)).open_folder_dialog;
    }
    EXPECT_TRUE(folder) << "File > Open folder... asked for nothing at " << size.x;
  }
  // F12: a screenshot; `?`: the help window, and again to close it.
  ImGui::GetIO().KeysDown[301] = true;
  EXPECT_TRUE(Frame().save_screenshot);
  ImGui::GetIO().AddInputCharacter('?');
  Frame();
  EXPECT_TRUE(window_.help_open());
  EXPECT_GE(ui::RanksShortcuts().size(), 5u);
  ImGui::GetIO().AddInputCharacter('?');
  Frame();
  EXPECT_FALSE(window_.help_open());
  // A right-click over the view opens its menu; its first item saves the view.
  const ImVec2 size = ImGui::GetIO().DisplaySize;
  Click(ImVec2(size.x * 0.8f, size.y * 0.9f), 1);
  ASSERT_GT(GImGui->OpenPopupStack.Size, 0) << "no menu on right-click";
  const ImGuiWindow* popup = GImGui->OpenPopupStack.back().Window;
  ASSERT_NE(popup, nullptr);
  const ui::RanksRequests r = Click(ImVec2(popup->Pos.x + 30, popup->Pos.y + ImGui::GetFrameHeight() / 2 + 4));
  ASSERT_TRUE(r.save_panel.has_value());
  EXPECT_EQ(r.save_panel->stem, "ranks");
  EXPECT_GT(r.save_panel->y1 - r.save_panel->y0, size.y * 0.8f);
}

}  // namespace
}  // namespace stepline::app
