// Before a load that may not fit in memory (the estimate of
// loaders/memory_estimate.h above the budget) the window asks: Load anyway
// or Cancel. The session's decision, driven without a window with a fake
// budget; then one frame drawing the modal headless.
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "app/gui/viewer_session.h"
#include "tests/support/headless_imgui.h"

namespace stepline::app {
namespace {

std::string LoadQuestionTrace(const std::filesystem::path& path) {
  std::ofstream out(path, std::ios::trunc);
  out << R"({"traceEvents":[{"ph":"X","name":"op","ts":0,"dur":5,"pid":1,"tid":1}]})";
  return path.string();
}

class LoadMemoryQuestionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("stepline-load-question-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    a_ = LoadQuestionTrace(dir_ / "a.json");
    b_ = LoadQuestionTrace(dir_ / "b.json");
    // Any trace needs more than 1 KB (the process itself is tens of MB).
    session_.SetMemoryBudget([] { return loaders::MemoryBudget{1024, "cgroup memory.max"}; });
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  void Settle() {
    session_.PollLoads();
    for (int i = 0; i < 6000 && (session_.loading() || session_.analysing()); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      session_.PollLoads();
    }
  }
  std::filesystem::path dir_;
  std::string a_, b_;
  ViewerSession session_{RecentFiles("/dev/null/never")};
};

TEST_F(LoadMemoryQuestionTest, CancelLoadsNothing) {
  session_.OpenFile(a_);
  EXPECT_FALSE(session_.loading()) << "the load waits for the answer";
  EXPECT_NE(session_.memory_question().find("a.json: the trace needs about"), std::string::npos)
      << session_.memory_question();
  EXPECT_NE(session_.memory_question().find("but only 1 KB is available (cgroup memory.max)"), std::string::npos);
  session_.AnswerMemoryQuestion(false);
  EXPECT_EQ(session_.memory_question(), "");
  EXPECT_FALSE(session_.loading());
  Settle();
  EXPECT_EQ(session_.state().data, nullptr);
  EXPECT_EQ(session_.notice(), "Not loaded: a.json");
}

TEST_F(LoadMemoryQuestionTest, LoadAnywayLoadsOnceWithoutAskingAgain) {
  session_.OpenFile(a_);
  ASSERT_NE(session_.memory_question(), "");
  session_.AnswerMemoryQuestion(true);
  EXPECT_EQ(session_.memory_question(), "");
  EXPECT_TRUE(session_.loading());
  Settle();
  ASSERT_NE(session_.state().data, nullptr);
  EXPECT_EQ(session_.error(), "");
  // The answer was for that load: the next open of the file asks again.
  session_.OpenFile(a_);
  EXPECT_NE(session_.memory_question(), "");
  session_.AnswerMemoryQuestion(false);
}

TEST_F(LoadMemoryQuestionTest, EnoughMemoryAsksNothing) {
  session_.SetMemoryBudget([] { return loaders::MemoryBudget{uint64_t{64} << 30, "MemAvailable"}; });
  session_.OpenFile(a_);
  EXPECT_EQ(session_.memory_question(), "");
  EXPECT_TRUE(session_.loading());
  Settle();
  EXPECT_NE(session_.state().data, nullptr);
  session_.SetMemoryBudget([] { return loaders::MemoryBudget{}; });  // nothing known: no question either
  session_.OpenFile(b_);
  EXPECT_EQ(session_.memory_question(), "");
  Settle();
}

TEST_F(LoadMemoryQuestionTest, AComparisonAsksOnceAndAReplacedSideAlone) {
  // Both sides load at once: one question for their sum
  // (CompareMemoryQuestionTest checks the sum).
  session_.OpenCompare(a_, b_);
  ASSERT_NE(session_.memory_question().find("a.json and "), std::string::npos) << session_.memory_question();
  session_.AnswerMemoryQuestion(true);
  EXPECT_EQ(session_.memory_question(), "");
  Settle();
  ASSERT_TRUE(session_.comparing()) << session_.error();
  // Replacing a side loads that side alone, the other one held: asked for it alone.
  session_.ReplaceSide(1, a_);
  ASSERT_EQ(session_.memory_question().rfind(a_ + ": the trace needs about", 0), 0u) << session_.memory_question();
  session_.AnswerMemoryQuestion(false);
  EXPECT_EQ(session_.memory_question(), "");
  Settle();
  EXPECT_TRUE(session_.comparing()) << "the comparison on screen stays";
  EXPECT_EQ(session_.notice(), "Not compared: a.json was not loaded");
}

TEST_F(LoadMemoryQuestionTest, TheWindowDrawsTheModal) {
  stepline::testing::HeadlessImGui imgui{ImVec2(1280, 800)};
  ui::DrawListQuadRenderer renderer;
  session_.OpenFile(a_);
  for (int i = 0; i < 2; ++i) {
    ImGui::NewFrame();
    session_.Frame({}, &renderer);
    ImGui::Render();
  }
  const ImGuiWindow* modal = ImGui::FindWindowByName("Not enough memory?");
  ASSERT_NE(modal, nullptr);
  EXPECT_TRUE(modal->Active || modal->WasActive);
  EXPECT_NE(session_.memory_question(), "") << "still waiting for an answer";
  session_.AnswerMemoryQuestion(false);
}

}  // namespace
}  // namespace stepline::app
