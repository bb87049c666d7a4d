// The viewer session's open / compare / replace / swap / close state
// machine, driven without a window: real files load on the background jobs,
// and we check which trace ends up on which side by comparing against the
// files loaded independently here.
#include "app/gui/viewer_session.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "loaders/load.h"

namespace stepline::app {
namespace {

// Slice count of a file loaded here, independently of the session.
size_t SlicesOf(const std::string& path) {
  auto r = loaders::LoadFile(path);
  return r.ok() ? r.value().slices().size() : 0;
}

size_t SlicesOf(const std::shared_ptr<const ui::TimelineData>& d) { return d ? d->trace->slices().size() : 0; }

// A tiny Chrome-trace file with `slices` slices, so each file is told apart
// by its slice count.
std::string WriteTrace(const std::filesystem::path& path, int slices) {
  std::ofstream out(path);
  out << "{\"traceEvents\":[";
  for (int i = 0; i < slices; ++i) {
    out << (i ? "," : "") << "{\"ph\":\"X\",\"name\":\"op" << i << "\",\"ts\":" << i * 10
        << ",\"dur\":5,\"pid\":1,\"tid\":1}";
  }
  out << "]}";
  return path.string();
}

class CompareSessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("stepline-compare-session-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    p1_ = WriteTrace(dir_ / "one.json", 3);
    p2_ = WriteTrace(dir_ / "two.json", 5);
    p3_ = WriteTrace(dir_ / "three.json", 8);
    n1_ = SlicesOf(p1_);
    n2_ = SlicesOf(p2_);
    n3_ = SlicesOf(p3_);
    ASSERT_EQ(n1_, 3u);
    ASSERT_EQ(n2_, 5u);
    ASSERT_EQ(n3_, 8u);
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  // Waits for the background loads and the analyses they start (bounded, so
  // a hang fails instead of blocking the suite), taking their results.
  void Settle() {
    session_.PollLoads();
    for (int i = 0; i < 6000 && (session_.loading() || session_.analysing()); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      session_.PollLoads();
    }
    ASSERT_FALSE(session_.loading());
    ASSERT_FALSE(session_.analysing());
  }
  size_t Side(int side) { return SlicesOf(session_.compare_view().state(side).data); }

  ViewerSession session_{RecentFiles("/dev/null/never")};
  std::filesystem::path dir_;
  std::string p1_, p2_, p3_;
  size_t n1_ = 0, n2_ = 0, n3_ = 0;
};

TEST_F(CompareSessionTest, OpenCompareLoadsBothSidesThenShowsThem) {
  session_.OpenCompare(p1_, p2_);
  EXPECT_FALSE(session_.comparing());  // nothing to show before both are in
  Settle();
  ASSERT_TRUE(session_.comparing());
  EXPECT_EQ(Side(0), n1_);
  EXPECT_EQ(Side(1), n2_);
  EXPECT_EQ(session_.compare_view().title(0), "one.json");
  EXPECT_EQ(session_.compare_view().title(1), "two.json");
  EXPECT_TRUE(session_.error().empty());
}

TEST_F(CompareSessionTest, SwapReplaceAndClose) {
  session_.OpenCompare(p1_, p2_);
  Settle();
  ASSERT_TRUE(session_.comparing());
  session_.SwapSides();
  EXPECT_EQ(Side(0), n2_);
  EXPECT_EQ(Side(1), n1_);
  EXPECT_EQ(session_.compare_view().title(0), "two.json");
  // Replace B: A stays the very same object; the comparison shows until B is in.
  const auto a_before = session_.compare_view().state(0).data;
  session_.ReplaceSide(1, p3_);
  EXPECT_TRUE(session_.comparing());
  Settle();
  EXPECT_EQ(session_.compare_view().state(0).data, a_before);
  EXPECT_EQ(Side(1), n3_);
  EXPECT_EQ(session_.compare_view().title(1), "three.json");
  // Close: A alone in the single view.
  session_.CloseCompare();
  EXPECT_FALSE(session_.comparing());
  EXPECT_EQ(session_.state().data, a_before);
}

TEST_F(CompareSessionTest, OneFileDroppedOnAnOpenTraceAsksFirst) {
  session_.OpenFile(p1_);
  Settle();
  ASSERT_FALSE(session_.comparing());
  const auto current = session_.state().data;
  ASSERT_EQ(SlicesOf(current), n1_);
  session_.HandleDrops({p2_});
  EXPECT_EQ(session_.drop_question(), ui::DropQuestion::kCompareWithCurrent);
  EXPECT_FALSE(session_.loading());  // nothing happens before the answer
  session_.AnswerDrop(ui::DropChoice::kCompare);
  EXPECT_EQ(session_.drop_question(), ui::DropQuestion::kNone);
  Settle();
  ASSERT_TRUE(session_.comparing());
  EXPECT_EQ(session_.compare_view().state(0).data, current);  // the trace on screen became A, not reloaded
  EXPECT_EQ(Side(1), n2_);
  // While comparing, a drop asks which side it replaces.
  session_.HandleDrops({p3_});
  EXPECT_EQ(session_.drop_question(), ui::DropQuestion::kReplaceWhich);
  session_.AnswerDrop(ui::DropChoice::kReplaceA);
  Settle();
  EXPECT_EQ(Side(0), n3_);
  EXPECT_EQ(Side(1), n2_);
  // Cancel changes nothing.
  session_.HandleDrops({p1_});
  session_.AnswerDrop(ui::DropChoice::kCancel);
  EXPECT_FALSE(session_.loading());
  EXPECT_EQ(Side(0), n3_);
}

TEST_F(CompareSessionTest, OpenInsteadAndDropsWithoutQuestions) {
  session_.OpenFile(p1_);
  Settle();
  session_.HandleDrops({p2_});
  session_.AnswerDrop(ui::DropChoice::kOpenInstead);
  Settle();
  EXPECT_FALSE(session_.comparing());
  EXPECT_EQ(SlicesOf(session_.state().data), n2_);
  // Two files at once: compared straight away, first is A.
  session_.HandleDrops({p3_, p1_});
  EXPECT_EQ(session_.drop_question(), ui::DropQuestion::kNone);
  Settle();
  ASSERT_TRUE(session_.comparing());
  EXPECT_EQ(Side(0), n3_);
  EXPECT_EQ(Side(1), n1_);
}

TEST_F(CompareSessionTest, NothingOnScreenOpensADroppedFileDirectly) {
  session_.HandleDrops({p2_});
  EXPECT_EQ(session_.drop_question(), ui::DropQuestion::kNone);
  Settle();
  EXPECT_FALSE(session_.comparing());
  EXPECT_EQ(SlicesOf(session_.state().data), n2_);
}

TEST_F(CompareSessionTest, AFailedSideKeepsWhatIsOnScreenAndSaysWhich) {
  session_.OpenCompare(p1_, p2_);
  Settle();
  const auto b_before = session_.compare_view().state(1).data;
  session_.ReplaceSide(1, "/nonexistent/trace.json");
  Settle();
  EXPECT_TRUE(session_.comparing());
  EXPECT_EQ(session_.compare_view().state(1).data, b_before);
  EXPECT_EQ(session_.error().rfind("B: ", 0), 0u) << session_.error();
  // From nothing: a failed side leaves no half comparison behind.
  ViewerSession fresh{RecentFiles("/dev/null/never")};
  fresh.OpenCompare("/nonexistent/a.json", p2_);
  for (int i = 0; i < 6000 && fresh.loading(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  fresh.PollLoads();
  for (int i = 0; i < 6000 && fresh.loading(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  fresh.PollLoads();
  EXPECT_FALSE(fresh.comparing());
  EXPECT_EQ(fresh.error().rfind("A: ", 0), 0u) << fresh.error();
}

TEST_F(CompareSessionTest, CompareWithPicksBAndKeepsTheTraceOnScreenAsA) {
  session_.OpenFile(p1_);
  Settle();
  ASSERT_FALSE(session_.comparing());
  ui::ViewRequests req;  // File > Compare with...
  req.compare_dialog = true;
  session_.ApplyViewRequests(req);
  EXPECT_EQ(session_.browsing_for(), ViewerSession::Pick::kCompareWith);
  EXPECT_EQ(session_.browser().title(), "Compare with");
  session_.HandlePick(p2_);
  Settle();
  ASSERT_TRUE(session_.comparing());
  EXPECT_EQ(Side(0), n1_);
  EXPECT_EQ(Side(1), n2_);
  EXPECT_EQ(session_.compare_view().title(0), "one.json");
  EXPECT_EQ(session_.compare_view().title(1), "two.json");
}

TEST_F(CompareSessionTest, CompareWithNeedsATraceOnScreen) {
  ui::ViewRequests req;
  req.compare_dialog = true;
  session_.ApplyViewRequests(req);
  EXPECT_EQ(session_.browsing_for(), ViewerSession::Pick::kOpen) << "nothing to compare with: no browser";
  EXPECT_EQ(session_.browser().title(), "Open trace");
}

TEST_F(CompareSessionTest, BrowserTitleSaysWhatThePickIsForAndReplaceBLoadsB) {
  session_.OpenCompare(p1_, p2_);
  Settle();
  ASSERT_TRUE(session_.comparing());
  session_.BrowseFor(ViewerSession::Pick::kReplaceB);
  EXPECT_EQ(session_.browser().title(), "Replace B");
  session_.HandlePick(p3_);
  Settle();
  ASSERT_TRUE(session_.comparing());
  EXPECT_EQ(Side(0), n1_);
  EXPECT_EQ(Side(1), n3_);
  session_.BrowseFor(ViewerSession::Pick::kReplaceA);
  EXPECT_EQ(session_.browser().title(), "Replace A");
  session_.BrowseFor(ViewerSession::Pick::kOpen);
  EXPECT_EQ(session_.browser().title(), "Open trace");
  session_.HandlePick(p2_);  // opened alone
  Settle();
  EXPECT_FALSE(session_.comparing());
  EXPECT_EQ(SlicesOf(session_.state().data), n2_);
}

}  // namespace
}  // namespace stepline::app
