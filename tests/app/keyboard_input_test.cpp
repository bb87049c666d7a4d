// The keyboard as the window delivers it: KeyEventQueue hands ImGui one state
// change per key per frame, so a press released within one slow frame still
// counts (three quick W taps are three presses, a quick Ctrl+O opens the
// dialog); the search field keeps the keyboard through Enter after Enter;
// and nothing typed into the file dialog reaches the view behind it.
// Headless ImGui with the GLFW key codes the backend would map.
#include <gtest/gtest.h>
#include <imgui.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "app/gui/key_event_queue.h"
#include "app/gui/viewer_session.h"
#include "demo/demo_generator.h"
#include "tests/support/headless_imgui.h"
#include "ui/search_matches.h"

namespace stepline::app {
namespace {

// GLFW key codes (app/ knows GLFW; the test does not need its header).
constexpr int kKeyW = 87, kKeyO = 79, kKeyEnter = 257, kKeyEscape = 256, kKeyTab = 258, kKeyBackspace = 259;
constexpr int kKeyDown = 264, kKeyUp = 265, kKeyLeftShift = 340, kKeyLeftControl = 341;

class KeyboardTest : public ::testing::Test {
 protected:
  KeyboardTest() {
    ImGuiIO& io = ImGui::GetIO();
    // What ImGui_ImplGlfw_Init sets.
    io.KeyMap[ImGuiKey_Enter] = kKeyEnter;
    io.KeyMap[ImGuiKey_Escape] = kKeyEscape;
    io.KeyMap[ImGuiKey_Tab] = kKeyTab;
    io.KeyMap[ImGuiKey_Backspace] = kKeyBackspace;
    io.KeyMap[ImGuiKey_DownArrow] = kKeyDown;
    io.KeyMap[ImGuiKey_UpArrow] = kKeyUp;
  }
  // One window frame: the queue first, as GlWindow::BeginFrame does.
  ViewerSession::FrameResult Frame() {
    keys_.ApplyToImGui();
    ImGui::NewFrame();
    ViewerSession::FrameResult r = session_.Frame({}, &renderer_);
    ImGui::Render();
    return r;
  }
  void Tap(int key) {
    keys_.PushKey(key, true);
    keys_.PushKey(key, false);
  }
  void Type(const std::string& text) {
    for (char c : text) keys_.PushChar(static_cast<unsigned char>(c));
  }
  // Frames until the queue is empty (and two more for focus requests).
  void Drain() {
    for (int i = 0; i < 64 && keys_.pending(); ++i) Frame();
    Frame();
    Frame();
  }
  void ShowDemo() {
    demo::DemoOptions options;
    options.scenario = "input-bound";
    options.steps = 4;
    auto r = demo::GenerateDemoTrace(options);
    ASSERT_TRUE(r.ok());
    session_.Show(std::make_shared<const ui::TimelineData>(std::make_shared<const Trace>(std::move(r).value())),
                  "demo.json");
    Frame();
    Frame();
  }

  stepline::testing::HeadlessImGui imgui_{ImVec2(1600, 900)};  // first: outlives the views
  KeyEventQueue keys_;
  ViewerSession session_{RecentFiles("/dev/null/never")};
  ui::DrawListQuadRenderer renderer_;
};

TEST_F(KeyboardTest, ThreeQuickTapsAreThreePresses) {
  // All six events arrive before one frame, as on a slow frame.
  for (int i = 0; i < 3; ++i) Tap(kKeyW);
  int presses = 0;
  for (int f = 0; f < 12; ++f) {
    keys_.ApplyToImGui();
    ImGui::NewFrame();
    presses += ImGui::IsKeyPressed(kKeyW, false) ? 1 : 0;
    ImGui::Render();
  }
  EXPECT_EQ(presses, 3);
  EXPECT_FALSE(keys_.pending());
  EXPECT_FALSE(ImGui::GetIO().KeysDown[kKeyW]);
}

TEST_F(KeyboardTest, WithoutTheQueueATapWithinOneFrameIsLost) {
  // What ImGui's own GLFW callback does: the state is written straight into
  // io.KeysDown, so a press and release before the frame leave nothing.
  ImGuiIO& io = ImGui::GetIO();
  io.KeysDown[kKeyW] = true;
  io.KeysDown[kKeyW] = false;
  ImGui::NewFrame();
  EXPECT_FALSE(ImGui::IsKeyPressed(kKeyW, false));
  ImGui::Render();
}

TEST_F(KeyboardTest, QuickCtrlOOpensTheFileDialog) {
  ShowDemo();
  keys_.PushKey(kKeyLeftControl, true);
  Tap(kKeyO);
  keys_.PushKey(kKeyLeftControl, false);
  Frame();
  EXPECT_TRUE(session_.browser().is_open());
  EXPECT_EQ(session_.browser().title(), "Open trace");
}

TEST_F(KeyboardTest, CtrlOWithCtrlLetGoFirstOpensTheFileDialog) {
  ShowDemo();
  // xdotool's order: Ctrl down, then (in a later frame) O down, Ctrl up, O up.
  keys_.PushKey(kKeyLeftControl, true);
  Frame();
  keys_.PushKey(kKeyO, true);
  keys_.PushKey(kKeyLeftControl, false);
  keys_.PushKey(kKeyO, false);
  Frame();
  EXPECT_TRUE(session_.browser().is_open());
  Drain();
  EXPECT_FALSE(ImGui::GetIO().KeyCtrl);
}

TEST_F(KeyboardTest, CharactersStayInOrderWithTheirKeys) {
  keys_.PushKey(kKeyW, true);
  keys_.PushChar('w');
  keys_.PushKey(kKeyW, false);
  keys_.PushKey(kKeyW, true);
  keys_.PushChar('w');
  keys_.PushKey(kKeyW, false);
  keys_.ApplyToImGui();
  EXPECT_EQ(ImGui::GetIO().InputQueueCharacters.Size, 1) << "the second w waits for its own press";
  ImGui::NewFrame();
  ImGui::Render();
  keys_.ApplyToImGui();  // the release
  EXPECT_EQ(ImGui::GetIO().InputQueueCharacters.Size, 0);
  ImGui::NewFrame();
  ImGui::Render();
  keys_.ApplyToImGui();  // the second press and its character
  EXPECT_EQ(ImGui::GetIO().InputQueueCharacters.Size, 1);
  ImGui::NewFrame();
  ImGui::Render();
}

TEST_F(KeyboardTest, EnterStepsThroughSearchMatchesAndKeepsTheField) {
  ShowDemo();
  Type("/");  // focuses the search field
  Drain();
  Type("LaunchKernel");
  Drain();
  ASSERT_EQ(session_.state().search.text, "LaunchKernel");
  ASSERT_GE(session_.state().search.matches.size(), 6u);
  std::vector<SliceId> seen;
  for (int i = 0; i < 5; ++i) {
    Tap(kKeyEnter);
    Drain();
    EXPECT_TRUE(ImGui::GetIO().WantTextInput) << "the field keeps the keyboard after Enter " << i + 1;
    seen.push_back(session_.state().selected);
  }
  const auto& m = session_.state().search.matches;
  // The first Enter goes to the match nearest the view (the view does not
  // move until then), the next ones step on.
  const size_t k0 = ui::MatchPosition(m, seen[0]) - 1;
  ASSERT_LT(k0, m.size());
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(seen[i], SliceId(m[(k0 + i) % m.size()])) << "Enter " << i + 1 << " selects the next match";
  }
  keys_.PushKey(kKeyLeftShift, true);
  Tap(kKeyEnter);
  keys_.PushKey(kKeyLeftShift, false);
  Drain();
  EXPECT_EQ(session_.state().selected, SliceId(m[(k0 + 3) % m.size()])) << "Shift+Enter steps back";
  Tap(kKeyEscape);
  Drain();
  EXPECT_FALSE(ImGui::GetIO().WantTextInput) << "Esc leaves the field";
  EXPECT_EQ(session_.state().search.text, "LaunchKernel") << "and keeps what was typed";
}

TEST_F(KeyboardTest, TypingInTheFileDialogNeverReachesTheSearchBox) {
  ShowDemo();
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("stepline-kbd-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  std::filesystem::create_directories(dir / "sub");
  std::ofstream(dir / "sub" / "run.json") << "[]";
  keys_.PushKey(kKeyLeftControl, true);
  Tap(kKeyO);
  keys_.PushKey(kKeyLeftControl, false);
  Drain();
  ASSERT_TRUE(session_.browser().is_open());
  // '/' and 'w' would focus the search box and zoom the timeline if they
  // leaked; they go into the path field instead.
  Type(dir.string() + "/su");
  Drain();
  EXPECT_TRUE(session_.state().search.text.empty());
  EXPECT_EQ(session_.browser().field(), dir.string() + "/su");
  Tap(kKeyTab);  // completes the folder
  Drain();
  EXPECT_EQ(session_.browser().field(), dir.string() + "/sub/");
  EXPECT_EQ(session_.browser().dir(), (dir / "sub").string());
  Tap(kKeyBackspace);  // parent folder
  Drain();
  EXPECT_EQ(session_.browser().dir(), dir.string());
  Tap(kKeyDown);  // the only row: sub/
  Drain();
  Tap(kKeyEnter);  // opens it
  Drain();
  EXPECT_EQ(session_.browser().dir(), (dir / "sub").string());
  Tap(kKeyDown);
  Drain();
  EXPECT_EQ(session_.browser().field(), (dir / "sub" / "run.json").string());
  Tap(kKeyEnter);  // picks the file: the dialog closes and the load starts
  Drain();
  EXPECT_FALSE(session_.browser().is_open());
  EXPECT_TRUE(session_.state().search.text.empty());
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace stepline::app
