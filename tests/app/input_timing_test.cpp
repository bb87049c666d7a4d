// Input on a slow window (a 2-core machine under load, a remote desktop):
// everything below arrives before one frame, as it does when a frame takes
// longer than the typing. `/` then letters reach the search field, never the
// view; Ctrl+A works in the field; each Enter is one match, the first the
// one nearest the view; double-clicks are judged from the clicks' own times;
// W W W then Alt+Left is back where it started; a held W speeds up; Esc
// closes the help window. Headless ImGui with the GLFW key codes.
#include <gtest/gtest.h>
#include <imgui.h>

#include <cmath>
#include <string>
#include <vector>

#include "app/gui/key_event_queue.h"
#include "app/gui/viewer_session.h"
#include "demo/demo_generator.h"
#include "tests/support/headless_imgui.h"
#include "ui/input/test_events.h"
#include "ui/input/text_focus.h"
#include "ui/search_matches.h"

namespace stepline::app {
namespace {

constexpr int kTimingEnter = 257, kTimingEscape = 256, kTimingLeft = 263, kTimingRight = 262;
constexpr int kTimingCtrl = 341, kTimingAlt = 342, kTimingShift = 340, kTimingSlash = 47;

class InputTimingTest : public ::testing::Test {
 protected:
  InputTimingTest() {
    ImGuiIO& io = ImGui::GetIO();
    io.KeyMap[ImGuiKey_Enter] = kTimingEnter;
    io.KeyMap[ImGuiKey_Escape] = kTimingEscape;
    io.KeyMap[ImGuiKey_LeftArrow] = kTimingLeft;
    io.KeyMap[ImGuiKey_RightArrow] = kTimingRight;
    io.KeyMap[ImGuiKey_A] = 'A';
    ui::SetTestEventSink([this](const std::string& line) { events_.push_back(line); });
  }
  ~InputTimingTest() override { ui::SetTestEventSink(nullptr); }
  // One window frame, as GlWindow::BeginFrame orders it.
  void Frame() {
    keys_.ApplyToImGui(ui::TextFocusPending());
    ImGui::NewFrame();
    keys_.ApplyClickCounts();
    session_.Frame({}, &renderer_);
    ImGui::Render();
  }
  void Drain() {
    for (int i = 0; i < 200 && keys_.pending(); ++i) Frame();
    Frame();
    Frame();
  }
  void Tap(int key) {
    keys_.PushKey(key, true);
    keys_.PushKey(key, false);
  }
  // A letter or symbol as a keyboard sends it: key down, its character, key up.
  void TypeKeys(const std::string& text) {
    for (char c : text) {
      const int key = c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c;
      keys_.PushKey(key, true);
      keys_.PushChar(static_cast<unsigned char>(c));
      keys_.PushKey(key, false);
    }
  }
  void Chord(int modifier, int key) {
    keys_.PushKey(modifier, true);
    Tap(key);
    keys_.PushKey(modifier, false);
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
    events_.clear();
  }
  int Count(const std::string& prefix) const {
    int n = 0;
    for (const std::string& e : events_) n += e.rfind(prefix, 0) == 0 ? 1 : 0;
    return n;
  }

  stepline::testing::HeadlessImGui imgui_{ImVec2(1600, 900)};  // first: outlives the views
  KeyEventQueue keys_;
  ViewerSession session_{RecentFiles("/dev/null/never")};
  ui::DrawListQuadRenderer renderer_;
  std::vector<std::string> events_;
};

TEST_F(InputTimingTest, SlashThenTypingInOneFrameReplacesTheQueryAndNeverZooms) {
  ShowDemo();
  TypeKeys("/");
  Drain();
  TypeKeys("voltage");
  Tap(kTimingEscape);
  Drain();
  ASSERT_EQ(session_.state().search.text, "voltage");
  const TimeRange before = session_.state().viewport.visible;
  events_.clear();
  // All at once: `/`, then "wait" (whose w would zoom the view if it leaked).
  TypeKeys("/wait");
  Drain();
  EXPECT_EQ(session_.state().search.text, "wait") << "the old query was selected and typing replaced it";
  EXPECT_EQ(session_.state().viewport.visible, before) << "no letter reached the timeline";
  EXPECT_EQ(Count("zoom."), 0);
  EXPECT_EQ(Count("search.open"), 1);
  EXPECT_TRUE(ImGui::GetIO().WantTextInput);
}

TEST_F(InputTimingTest, CtrlAInTheFieldSelectsAllEveryTime) {
  ShowDemo();
  TypeKeys("/");
  Drain();
  for (int i = 0; i < 4; ++i) {
    TypeKeys("abc");
    Chord(kTimingCtrl, 'A');  // all in the same frame as the typing
    TypeKeys("x");
    Drain();
    EXPECT_EQ(session_.state().search.text, "x") << "try " << i + 1;
  }
}

TEST_F(InputTimingTest, FiveEntersInOneFrameAreFiveMatchesFromTheNearestToTheView) {
  ShowDemo();
  TypeKeys("/");
  Drain();
  TypeKeys("launchkernel");
  Drain();
  const std::vector<uint32_t> m = session_.state().search.matches;
  ASSERT_GE(m.size(), 8u);
  // Look at the middle of the trace, nothing selected.
  const Trace& trace = *session_.state().trace();
  const TimeRange span = trace.span();
  const TimeNs mid = span.start_ns + span.duration_ns() / 2;
  session_.state().viewport.visible = TimeRange{mid - span.duration_ns() / 20, mid + span.duration_ns() / 20};
  const SliceId first = ui::NearestMatch(trace, m, session_.state().viewport.visible);
  ASSERT_NE(first, SliceId(m.front())) << "the test needs a nearest match other than the first";
  const size_t k0 = ui::MatchPosition(m, first) - 1;
  // Slow frames: an Enter kept down through the field's focus wait would
  // pass ImGui's key repeat delay and count twice.
  ImGui::GetIO().DeltaTime = 0.15f;
  for (int i = 0; i < 5; ++i) Tap(kTimingEnter);
  Drain();
  EXPECT_EQ(session_.state().selected, SliceId(m[(k0 + 4) % m.size()]));
  std::vector<std::string> nexts;
  for (const std::string& e : events_) {
    if (e.rfind("search.next", 0) == 0) nexts.push_back(e);
  }
  ASSERT_EQ(nexts.size(), 5u);
  for (size_t i = 0; i < 5; ++i) EXPECT_EQ(nexts[i], "search.next index=" + std::to_string((k0 + i) % m.size() + 1));
  Chord(kTimingShift, kTimingEnter);
  Drain();
  EXPECT_EQ(session_.state().selected, SliceId(m[(k0 + 3) % m.size()])) << "Shift+Enter steps back one";
}

TEST_F(InputTimingTest, DoubleClicksAreJudgedFromTheClicksOwnTimes) {
  ImGuiIO& io = ImGui::GetIO();
  io.DeltaTime = 1.f;  // frames a second apart: ImGui's own timing would see no double-click
  struct Case {
    double gap_s;
    float dx;
    int count;
  };
  const Case cases[] = {{0.04, 0, 2}, {0.06, 0, 2}, {0.25, 0, 2}, {0.30, 3, 2}, {0.8, 0, 1}, {0.06, 40, 1}};
  double t = 100;
  for (const Case& c : cases) {
    t += 10;  // far from the last pair
    keys_.PushMouseButton(0, true, t, 50, 50);
    keys_.PushMouseButton(0, false, t + 0.01, 50, 50);
    keys_.PushMouseButton(0, true, t + c.gap_s, 50 + c.dx, 50);
    keys_.PushMouseButton(0, false, t + c.gap_s + 0.01, 50 + c.dx, 50);
    std::vector<int> counts;
    for (int f = 0; f < 6; ++f) {
      keys_.ApplyToImGui();
      ImGui::NewFrame();
      keys_.ApplyClickCounts();
      if (ImGui::IsMouseClicked(0)) counts.push_back(ImGui::GetMouseClickedCount(0));
      ImGui::Render();
    }
    EXPECT_EQ(counts, (std::vector<int>{1, c.count})) << "second press " << c.gap_s << " s and " << c.dx << " px later";
  }
}

TEST_F(InputTimingTest, ASlowFrameDoesNotSplitADoubleClick) {
  // The window sees events when it polls, once a frame: a second press
  // reported 0.9 s after the first may have happened any time since the
  // poll before (its earliest time).
  auto second_count = [&](double t, double reported, double earliest) {
    keys_.PushMouseButton(0, true, t, 50, 50);
    keys_.PushMouseButton(0, false, t + 0.01, 50, 50);
    keys_.PushMouseButton(0, true, reported, 50, 50, earliest);
    keys_.PushMouseButton(0, false, reported + 0.01, 50, 50, earliest);
    int count = 0;
    for (int f = 0; f < 6; ++f) {
      keys_.ApplyToImGui();
      ImGui::NewFrame();
      keys_.ApplyClickCounts();
      if (ImGui::IsMouseClicked(0)) count = ImGui::GetMouseClickedCount(0);
      ImGui::Render();
    }
    return count;
  };
  EXPECT_EQ(second_count(10.0, 10.9, 10.3), 2) << "can have been 0.3 s after the first";
  EXPECT_EQ(second_count(20.0, 20.9, 20.6), 1) << "at least 0.6 s after the first";
}

TEST_F(InputTimingTest, ThreeWsThenAltLeftIsBackToTheViewBefore) {
  ShowDemo();
  const TimeRange start = session_.state().viewport.visible;
  for (int i = 0; i < 3; ++i) TypeKeys("w");
  Drain();
  EXPECT_EQ(Count("zoom.in"), 3);
  const TimeRange zoomed = session_.state().viewport.visible;
  ASSERT_LT(zoomed.duration_ns(), start.duration_ns() / 1.9);
  Chord(kTimingAlt, kTimingLeft);
  Drain();
  EXPECT_EQ(session_.state().viewport.visible, start) << "the three steps were one history entry";
  Chord(kTimingAlt, kTimingRight);
  Drain();
  EXPECT_EQ(session_.state().viewport.visible, zoomed);
  keys_.PushMouseButton(3, true, 1.0, 400, 400);  // the mouse's back button
  keys_.PushMouseButton(3, false, 1.01, 400, 400);
  Drain();
  EXPECT_EQ(session_.state().viewport.visible, start);
  EXPECT_EQ(Count("history.back"), 2);
  EXPECT_EQ(Count("history.forward"), 1);
}

TEST_F(InputTimingTest, AHeldWSpeedsUp) {
  ShowDemo();
  ImGuiIO& io = ImGui::GetIO();
  io.DeltaTime = 0.1f;
  auto width = [&] { return static_cast<double>(session_.state().viewport.visible.duration_ns()); };
  const double w0 = width();
  keys_.PushKey('W', true);
  Frame();  // the press: one tap's step
  EXPECT_NEAR(w0 / width(), 1.25, 0.01);
  for (int f = 0; f < 5; ++f) Frame();  // 0.5 s held
  const double w_half = width();
  for (int f = 0; f < 5; ++f) Frame();  // 1.0 s held
  const double w_one = width();
  for (int f = 0; f < 5; ++f) Frame();  // 1.5 s held
  const double w_one_half = width();
  keys_.PushKey('W', false);
  Drain();
  const double first_half = std::log2(w_half / w_one), second_half = std::log2(w_one / w_one_half);
  EXPECT_GT(first_half, 1.0) << "held, it zooms on its own";
  EXPECT_GT(second_half, first_half * 1.3) << "and faster the longer it is held";
  EXPECT_EQ(Count("zoom.in"), 1) << "one key press";
}

TEST_F(InputTimingTest, EscClosesTheHelpWindow) {
  ShowDemo();
  TypeKeys("?");
  Drain();
  ASSERT_TRUE(session_.state().show_help);
  Tap(kTimingEscape);
  Drain();
  EXPECT_FALSE(session_.state().show_help);
  EXPECT_EQ(Count("popup.close kind=help"), 1);
}

// Esc on the Open dialog and M at once: the dialog closes in the Esc's
// frame and the M reaches the view in the very next one (it was held back
// while the keyboard left the dialog's field, or lost).
TEST_F(InputTimingTest, AKeyAfterTheDialogsClosingEscGoesToTheViewNextFrame) {
  ShowDemo();
  session_.state().selected = SliceId(0);
  Chord(kTimingCtrl, 'O');
  Drain();
  ASSERT_TRUE(session_.browser().is_open());
  events_.clear();
  Tap(kTimingEscape);
  TypeKeys("m");
  Frame();
  EXPECT_FALSE(session_.browser().is_open()) << "Esc closes the dialog in its frame";
  EXPECT_EQ(Count("popup.close kind=dialog"), 1);
  Frame();
  EXPECT_EQ(Count("note.add"), 1) << "M in the next frame";
  Drain();
  EXPECT_EQ(session_.state().notes.items.size(), 1u);
  EXPECT_EQ(Count("note.add"), 1);
}

// A letter typed right after the closing Esc is the view's (w zooms), not
// the closing dialog field's.
TEST_F(InputTimingTest, AKeyAfterTheClosingEscIsNeverTypedIntoTheField) {
  ShowDemo();
  Chord(kTimingCtrl, 'O');
  Drain();
  ASSERT_TRUE(session_.browser().is_open());
  const std::string field = session_.browser().field();
  const TimeRange before = session_.state().viewport.visible;
  Tap(kTimingEscape);
  TypeKeys("w");
  Drain();
  EXPECT_FALSE(session_.browser().is_open());
  EXPECT_EQ(session_.browser().field(), field) << "the w went to the view, not the closing field";
  EXPECT_LT(session_.state().viewport.visible.duration_ns(), before.duration_ns()) << "w zoomed in";
}

}  // namespace
}  // namespace stepline::app
