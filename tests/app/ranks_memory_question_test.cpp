// The question before loading a rank set or a comparison that may not fit in
// memory. A rank set's load holds the models of `threads` ranks at once (each
// freed after its summary), so its estimate is the sum of the largest
// `threads` ranks' estimates; a comparison loads both sides at once, so it
// asks once for the sum of both. Driven without a window with a fake budget.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "app/cli/commands.h"
#include "app/gui/viewer_session.h"
#include "app/runs/rank_set.h"
#include "app/runs/rank_set_memory.h"
#include "loaders/memory_estimate.h"
#include "tests/app/command_test_helpers.h"

namespace stepline::app {
namespace {

namespace fs = std::filesystem;

// A Chrome JSON trace of about `pad` bytes (one slice, a long name).
std::string RanksMemoryTrace(const fs::path& path, size_t pad) {
  std::ofstream out(path, std::ios::trunc);
  out << R"({"traceEvents":[{"ph":"X","name":")" << std::string(pad, 'x') << R"(","ts":0,"dur":5,"pid":1,"tid":1}]})";
  return path.string();
}

uint64_t RanksMemoryNeeds(const std::string& path) { return loaders::EstimateLoadMemory(path).needed_bytes; }

TEST(RankSetMemoryTest, TheEstimateIsTheLargestRanksLoadedAtOnce) {
  const fs::path dir = MakeScratchDirRemovedAtExit("rank-set-memory");
  const std::vector<std::string> files = {RanksMemoryTrace(dir / "rank0.json", 300000),
                                          RanksMemoryTrace(dir / "rank1.json", 100000),
                                          RanksMemoryTrace(dir / "rank2.json", 200000)};
  const uint64_t big = RanksMemoryNeeds(files[0]), small = RanksMemoryNeeds(files[1]),
                 middle = RanksMemoryNeeds(files[2]);
  ASSERT_GT(big, middle);
  ASSERT_GT(middle, small);
  ASSERT_GT(small, loaders::kLoadBaseBytes);
  // One at a time: the largest rank alone.
  const loaders::MemoryEstimate one = EstimateRankSetMemory(files, 1);
  EXPECT_EQ(one.needed_bytes, big);
  const auto of = [](const std::string& f) { return loaders::FormatMemory(fs::file_size(f)) + " of chrome-json"; };
  EXPECT_EQ(one.basis, "the largest of 3 rank files, loaded one at a time: " + of(files[0]));
  // Two at a time: the two largest, the process counted once.
  const loaders::MemoryEstimate two = EstimateRankSetMemory(files, 2);
  EXPECT_EQ(two.needed_bytes, big + middle - loaders::kLoadBaseBytes);
  EXPECT_EQ(two.file_bytes, fs::file_size(files[0]) + fs::file_size(files[2]));
  EXPECT_EQ(two.basis, "the 2 largest of 3 rank files at once: " + of(files[0]) + " + " + of(files[2]));
  // More threads than files: every rank, as LoadRanks never runs more.
  const loaders::MemoryEstimate all = EstimateRankSetMemory(files, 8);
  EXPECT_EQ(all.needed_bytes, big + middle + small - 2 * loaders::kLoadBaseBytes);
  EXPECT_EQ(all.basis.rfind("3 rank files at once: ", 0), 0u) << all.basis;
  // The warning walks a folder as the load does.
  const loaders::MemoryBudget tight{two.needed_bytes - 1, "cgroup memory.max"};
  const std::string warning = RankSetMemoryWarning("run", {dir.string()}, 2, "", tight);
  EXPECT_EQ(warning.rfind("run: the 2 ranks loaded at once need about ", 0), 0u) << warning;
  EXPECT_NE(warning.find("is available (cgroup memory.max)"), std::string::npos) << warning;
  EXPECT_EQ(RankSetMemoryWarning("run", {dir.string()}, 2, "", {two.needed_bytes, "MemAvailable"}), "");
  EXPECT_EQ(RankSetMemoryWarning("run", {(dir / "none").string()}, 2, "", tight), "") << "the load says why";
}

class RanksMemoryQuestionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = MakeScratchDirRemovedAtExit("ranks-memory-question");
    ASSERT_EQ(
        RunCommand(RunDemo, {"ddp-straggler", "--ranks", "2", "--steps", "2", "--kernels", "2", "--out", dir_.string()})
            .code,
        0);
    std::ostringstream ignored;
    ASSERT_EQ(CollectRankFiles({dir_.string()}, &files_, ignored), "");
    ASSERT_EQ(files_.size(), 2u);
    // What the session's ranks job holds at once (it loads every core's worth).
    needs_ =
        EstimateRankSetMemory(files_, static_cast<int>(std::max(1u, std::thread::hardware_concurrency()))).needed_bytes;
    ASSERT_GT(needs_, 0u);
  }
  void Budget(uint64_t bytes) {
    session_.SetMemoryBudget([bytes] { return loaders::MemoryBudget{bytes, "cgroup memory.max"}; });
  }
  void SettleRanks() {
    for (int i = 0; i < 3000 && session_.loading_ranks(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      session_.PollLoads();
    }
  }
  fs::path dir_;
  std::vector<std::string> files_;
  uint64_t needs_ = 0;
  ViewerSession session_{RecentFiles("/dev/null/never")};
};

TEST_F(RanksMemoryQuestionTest, ASetAboveTheBudgetAsksAndCancelLoadsNothing) {
  Budget(needs_ - 1);
  session_.OpenRanks({dir_.string()}, "ddp");
  EXPECT_FALSE(session_.loading_ranks()) << "the load waits for the answer";
  EXPECT_EQ(session_.memory_question().rfind("ddp: the ", 0), 0u) << session_.memory_question();
  EXPECT_NE(session_.memory_question().find("rank files at once"), std::string::npos) << session_.memory_question();
  EXPECT_NE(session_.memory_question().find("is available (cgroup memory.max)"), std::string::npos);
  session_.AnswerMemoryQuestion(false);
  EXPECT_EQ(session_.memory_question(), "");
  EXPECT_FALSE(session_.loading_ranks());
  EXPECT_FALSE(session_.showing_ranks());
  EXPECT_EQ(session_.notice(), "Not loaded: the ranks of ddp");
}

TEST_F(RanksMemoryQuestionTest, LoadAnywayLoadsTheSet) {
  Budget(needs_ - 1);
  session_.OpenFile(dir_.string());  // a folder of ranks opens the ranks view, as File > Open folder
  ASSERT_NE(session_.memory_question(), "");
  session_.AnswerMemoryQuestion(true);
  EXPECT_EQ(session_.memory_question(), "");
  EXPECT_TRUE(session_.loading_ranks());
  SettleRanks();
  ASSERT_TRUE(session_.showing_ranks()) << session_.error();
  EXPECT_EQ(session_.ranks_run()->ranks.size(), 2u);
}

TEST_F(RanksMemoryQuestionTest, ASetThatFitsAsksNothing) {
  Budget(needs_);  // exactly what the set holds at once
  session_.OpenRanks({dir_.string()}, "ddp");
  EXPECT_EQ(session_.memory_question(), "");
  EXPECT_TRUE(session_.loading_ranks());
  SettleRanks();
  EXPECT_TRUE(session_.showing_ranks()) << session_.error();
}

class CompareMemoryQuestionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = MakeScratchDirRemovedAtExit("compare-memory-question");
    a_ = RanksMemoryTrace(dir_ / "a.json", 1000);
    b_ = RanksMemoryTrace(dir_ / "b.json", 1000);
    one_ = RanksMemoryNeeds(a_);
    both_ = loaders::AddEstimates({loaders::EstimateLoadMemory(a_), loaders::EstimateLoadMemory(b_)}).needed_bytes;
    ASSERT_GT(both_, one_);
  }
  void Budget(uint64_t bytes) {
    session_.SetMemoryBudget([bytes] { return loaders::MemoryBudget{bytes, "MemAvailable"}; });
  }
  void Settle() {
    session_.PollLoads();
    for (int i = 0; i < 3000 && (session_.loading() || session_.analysing()); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      session_.PollLoads();
    }
  }
  fs::path dir_;
  std::string a_, b_;
  uint64_t one_ = 0, both_ = 0;
  ViewerSession session_{RecentFiles("/dev/null/never")};
};

TEST_F(CompareMemoryQuestionTest, BothSidesAreAskedForOnceAsTheirSum) {
  Budget(one_);  // each side alone fits, both at once do not
  session_.OpenCompare(a_, b_);
  EXPECT_FALSE(session_.loading()) << "neither side starts before the answer";
  const std::string question = session_.memory_question();
  EXPECT_EQ(question.rfind(a_ + " and " + b_ + ": the two traces loaded at once need about ", 0), 0u) << question;
  EXPECT_NE(question.find(loaders::FormatMemory(both_)), std::string::npos) << question;
  session_.AnswerMemoryQuestion(true);
  EXPECT_EQ(session_.memory_question(), "") << "one question for both sides";
  Settle();
  EXPECT_TRUE(session_.comparing()) << session_.error();
  // Cancel: nothing compared, the comparison on screen stays.
  session_.OpenCompare(b_, a_);
  ASSERT_NE(session_.memory_question(), "");
  session_.AnswerMemoryQuestion(false);
  EXPECT_EQ(session_.memory_question(), "");
  EXPECT_FALSE(session_.loading());
  EXPECT_TRUE(session_.comparing());
  EXPECT_EQ(session_.notice(), "Not compared: b.json and a.json were not loaded");
}

TEST_F(CompareMemoryQuestionTest, APairThatFitsAsksNothing) {
  Budget(both_);
  session_.OpenCompare(a_, b_);
  EXPECT_EQ(session_.memory_question(), "");
  EXPECT_TRUE(session_.loading());
  Settle();
  EXPECT_TRUE(session_.comparing()) << session_.error();
}

}  // namespace
}  // namespace stepline::app
