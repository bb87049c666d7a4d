// Window-wide keys by key code: Esc closes a menu, a popup or the help
// window (never a modal dialog, which answers Esc itself), Ctrl+= / Ctrl+- /
// Ctrl+0 size the text, Ctrl+Q quits; each writes its test event.
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <string>
#include <vector>

#include "tests/support/headless_imgui.h"
#include "ui/input/key_codes.h"
#include "ui/input/test_events.h"
#include "ui/input/window_keys.h"

namespace stepline::ui {
namespace {

class WindowKeysTest : public ::testing::Test {
 protected:
  WindowKeysTest() {
    SetTestEventSink([this](const std::string& line) { events_.push_back(line); });
  }
  ~WindowKeysTest() override { SetTestEventSink(nullptr); }
  // One frame: `popup_flags` non-zero keeps popup "##p" open with those
  // flags; `press` is held down this frame (and let go before the next).
  bool Frame(ImGuiWindowFlags popup_flags, int press = -1, bool ctrl = false, bool* show_help = nullptr,
             bool* quit = nullptr) {
    ImGuiIO& io = ImGui::GetIO();
    for (bool& k : io.KeysDown) k = false;
    if (press >= 0) io.KeysDown[press] = true;
    io.KeyCtrl = ctrl;
    ImGui::NewFrame();
    ImGui::Begin("win");
    bool used = false;
    if (press >= 0) {
      HandleTextSizeAndQuitKeys(quit);
      used = CloseTopPopupOnEsc(show_help);
    }
    const ImGuiID id = ImGui::GetID("##p");
    if (popup_flags != 0 && !opened_) {
      ImGui::OpenPopupEx(id);
      opened_ = true;
    }
    open_ = false;
    if (popup_flags != 0 && ImGui::BeginPopupEx(id, popup_flags)) {
      open_ = true;
      ImGui::TextUnformatted("popup");
      ImGui::EndPopup();
    }
    ImGui::End();
    ImGui::Render();
    return used;
  }

  stepline::testing::HeadlessImGui imgui_{ImVec2(800, 600)};
  std::vector<std::string> events_;
  bool opened_ = false, open_ = false;
};

constexpr ImGuiWindowFlags kKeysMenuFlags =
    ImGuiWindowFlags_ChildMenu | ImGuiWindowFlags_Popup | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoTitleBar;
constexpr ImGuiWindowFlags kKeysPopupFlags =
    ImGuiWindowFlags_Popup | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoTitleBar;
constexpr ImGuiWindowFlags kKeysModalFlags = ImGuiWindowFlags_Popup | ImGuiWindowFlags_Modal | ImGuiWindowFlags_NoTitleBar;

TEST_F(WindowKeysTest, EscClosesAMenu) {
  Frame(kKeysMenuFlags);
  Frame(kKeysMenuFlags);
  ASSERT_TRUE(open_);
  EXPECT_TRUE(Frame(kKeysMenuFlags, keycode::kEscape));
  Frame(kKeysMenuFlags);
  EXPECT_FALSE(open_);
  EXPECT_EQ(events_, std::vector<std::string>{"popup.close kind=menu"});
}

TEST_F(WindowKeysTest, EscClosesARightClickPopup) {
  Frame(kKeysPopupFlags);
  Frame(kKeysPopupFlags);
  ASSERT_TRUE(open_);
  EXPECT_TRUE(Frame(kKeysPopupFlags, keycode::kEscape));
  Frame(kKeysPopupFlags);
  EXPECT_FALSE(open_);
  EXPECT_EQ(events_, std::vector<std::string>{"popup.close kind=popup"});
}

TEST_F(WindowKeysTest, EscLeavesAModalDialogToItsOwnEsc) {
  Frame(kKeysModalFlags);
  Frame(kKeysModalFlags);
  ASSERT_TRUE(open_);
  bool help = true;
  EXPECT_FALSE(Frame(kKeysModalFlags, keycode::kEscape, false, &help));
  Frame(kKeysModalFlags);
  EXPECT_TRUE(open_);
  EXPECT_TRUE(help) << "the help window behind a dialog stays";
  EXPECT_TRUE(events_.empty());
}

TEST_F(WindowKeysTest, EscClosesTheHelpWindowWhenNoPopupIsOpen) {
  bool help = true;
  EXPECT_TRUE(Frame(0, keycode::kEscape, false, &help));
  EXPECT_FALSE(help);
  Frame(0);
  EXPECT_FALSE(Frame(0, keycode::kEscape, false, &help)) << "nothing left for Esc: the view's own use";
  EXPECT_EQ(events_, std::vector<std::string>{"popup.close kind=help"});
}

TEST_F(WindowKeysTest, TextSizeByKeyCodeWithCtrlAndQuit) {
  ImGuiIO& io = ImGui::GetIO();
  io.FontGlobalScale = 1.f;
  Frame(0, keycode::kEqual, /*ctrl=*/true);
  EXPECT_FLOAT_EQ(io.FontGlobalScale, 1.1f);
  Frame(0);
  Frame(0, keycode::kKpAdd, true);
  EXPECT_FLOAT_EQ(io.FontGlobalScale, 1.1f * 1.1f);
  Frame(0);
  Frame(0, keycode::kMinus, true);
  EXPECT_FLOAT_EQ(io.FontGlobalScale, 1.1f);
  Frame(0);
  Frame(0, keycode::kEqual, /*ctrl=*/false);
  EXPECT_FLOAT_EQ(io.FontGlobalScale, 1.1f) << "= without Ctrl is not a text size key";
  Frame(0);
  Frame(0, keycode::k0, true);
  EXPECT_FLOAT_EQ(io.FontGlobalScale, 1.f);
  Frame(0);
  bool quit = false;
  Frame(0, keycode::kQ, true, nullptr, &quit);
  EXPECT_TRUE(quit);
  EXPECT_EQ(events_, (std::vector<std::string>{"text.larger scale=1.10", "text.larger scale=1.21",
                                               "text.smaller scale=1.10", "text.reset scale=1.00", "app.quit"}));
}

}  // namespace
}  // namespace stepline::ui
