// The ranks view in the window's session: ShowRanks puts it on
// screen (title, frames draw), double-clicking a rank's row asks for that
// rank's file alone, and showing a trace replaces the ranks view.
#include <gtest/gtest.h>
#include <imgui.h>

#include <chrono>
#include <fstream>
#include <memory>
#include <thread>

#include "app/cli/commands.h"
#include "app/gui/viewer_session.h"
#include "app/gui/rank_detail_cache.h"
#include "app/runs/rank_set.h"
#include "demo/demo_generator.h"
#include "tests/app/command_test_helpers.h"
#include "tests/loaders/xspace_ranks_builder.h"
#include "tests/support/headless_imgui.h"

namespace stepline::app {
namespace {

TEST(RanksSessionTest, ShowsTheRanksAndOpensADoubleClickedRankAlone) {
  ::stepline::testing::HeadlessImGui imgui(ImVec2(1200, 800));
  const std::filesystem::path dir = MakeScratchDirRemovedAtExit("ranks-session");
  ASSERT_EQ(RunCommand(RunDemo, {"ddp-straggler", "--ranks", "3", "--steps", "3", "--kernels", "4", "--out",
                                 dir.string()})
                .code,
            0);
  auto run = std::make_shared<RanksRun>();
  std::ostringstream err;
  ASSERT_EQ(LoadRankSet({dir.string()}, 2, run.get(), err), "");
  ViewerSession session{RecentFiles("/dev/null/never")};
  session.ShowRanks(run, "ddp");
  EXPECT_TRUE(session.showing_ranks());
  EXPECT_EQ(session.WindowTitle(), "ddp (ranks) \u2014 Stepline");
  ui::DrawListQuadRenderer renderer;
  auto frame = [&] {
    ImGui::NewFrame();
    session.Frame({}, &renderer);
    ImGui::Render();
  };
  for (int i = 0; i < 3; ++i) frame();
  EXPECT_GT(ImGui::GetDrawData()->TotalVtxCount, 500);
  // Double-click the first table row (rank 0): the session starts loading it alone.
  ImGuiIO& io = ImGui::GetIO();
  // Under the menu bar (a frame height), the title and straggler lines and the table's header.
  const float row_y = ImGui::GetFrameHeight() + ImGui::GetTextLineHeightWithSpacing() * 2 +
                      ImGui::GetFrameHeightWithSpacing() * 1.5f + 8;
  bool opened = false;
  for (float y = row_y; y < 200 && !opened; y += 4) {
    for (int click = 0; click < 2 && session.showing_ranks(); ++click) {
      io.MousePos = ImVec2(20, y);
      io.MouseDown[0] = true;
      frame();
      io.MouseDown[0] = false;
      frame();
    }
    opened = !session.showing_ranks();
  }
  EXPECT_TRUE(opened) << "no row double-click opened a rank";
  EXPECT_TRUE(session.loading() || !session.showing_ranks());
}

TEST(RanksSessionTest, ADroppedRankDirectoryOpensTheRanksView) {
  ::stepline::testing::HeadlessImGui imgui(ImVec2(1000, 700));
  const std::filesystem::path dir = MakeScratchDirRemovedAtExit("ranks-drop");
  ASSERT_EQ(RunCommand(RunDemo, {"ddp-straggler", "--ranks", "2", "--steps", "2", "--kernels", "2", "--out",
                                 dir.string()})
                .code,
            0);
  ViewerSession session{RecentFiles("/dev/null/never")};
  session.HandleDrops({dir.string()});
  EXPECT_TRUE(session.loading_ranks());
  for (int i = 0; i < 1000 && !session.showing_ranks(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    session.PollLoads();
  }
  ASSERT_TRUE(session.showing_ranks()) << session.error();
  EXPECT_EQ(session.WindowTitle(), dir.string() + " (ranks) \u2014 Stepline");
}

// A dropped TensorBoard log directory whose run holds several XSpace hosts
// opens the ranks view with one rank per host.
TEST(RanksSessionTest, ADroppedXSpaceRunOpensOneRankPerHost) {
  ::stepline::testing::HeadlessImGui imgui(ImVec2(1000, 700));
  const std::filesystem::path root = MakeScratchDirRemovedAtExit("ranks-drop-xspace") / "logs";
  const std::filesystem::path run = root / "plugins" / "profile" / "2024_05_01_12_00_00";
  std::filesystem::create_directories(run);
  ::stepline::testing::XlaRunPlan plan;
  plan.hosts = 3;
  plan.steps = 2;
  for (int h = 0; h < plan.hosts; ++h) {
    std::ofstream(run / ("host-" + std::to_string(h) + ".xplane.pb"), std::ios::binary)
        << ::stepline::testing::XlaRunHost(plan, h);
  }
  ViewerSession session{RecentFiles("/dev/null/never")};
  session.HandleDrops({root.string()});
  EXPECT_TRUE(session.loading_ranks());
  for (int i = 0; i < 1000 && !session.showing_ranks(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    session.PollLoads();
  }
  ASSERT_TRUE(session.showing_ranks()) << session.error();
  ASSERT_NE(session.ranks_run(), nullptr);
  ASSERT_EQ(session.ranks_run()->ranks.size(), 3u);
  EXPECT_EQ(session.ranks_run()->ranks[2].host, "host-2");
  EXPECT_EQ(session.ranks_run()->analysis.error, "");
  ASSERT_TRUE(session.ranks_run()->analysis.straggler.has_value());
  EXPECT_EQ(session.ranks_run()->analysis.straggler->rank, plan.straggler);
}

// The run picker's request: OpenRanks with a run of the folder loads that
// run, and the loaded run still lists every run of the folder.
TEST(RanksSessionTest, OpeningAnotherRunOfTheFolderLoadsItsHosts) {
  ::stepline::testing::HeadlessImGui imgui(ImVec2(1000, 700));
  const std::filesystem::path root = MakeScratchDirRemovedAtExit("ranks-session-runs") / "logs";
  const std::pair<const char*, int> runs[] = {{"2024_05_01_12_00_00", 2}, {"2024_05_01_11_00_00", 3}};
  for (const auto& [name, hosts] : runs) {
    const std::filesystem::path run = root / "plugins" / "profile" / name;
    std::filesystem::create_directories(run);
    ::stepline::testing::XlaRunPlan plan;
    plan.hosts = hosts;
    plan.steps = 2;
    plan.straggler = 1;
    for (int h = 0; h < hosts; ++h) {
      std::ofstream(run / ("host-" + std::to_string(h) + ".xplane.pb"), std::ios::binary)
          << ::stepline::testing::XlaRunHost(plan, h);
    }
  }
  ViewerSession session{RecentFiles("/dev/null/never")};
  const std::string older = (root / "plugins" / "profile" / "2024_05_01_11_00_00").string();
  session.OpenRanks({root.string()}, root.string(), older);
  for (int i = 0; i < 1000 && !session.showing_ranks(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    session.PollLoads();
  }
  ASSERT_TRUE(session.showing_ranks()) << session.error();
  const RanksRun* run = session.ranks_run();
  ASSERT_NE(run, nullptr);
  EXPECT_EQ(run->ranks.size(), 3u);
  ASSERT_EQ(run->runs.size(), 2u);
  EXPECT_EQ(run->run_index, 1u);
  EXPECT_EQ(run->runs_root, root.string());
}

// The loaded ranks' order: at most the capacity, the least recently used
// evicted first, one the view does not want before one it does.
TEST(RankDetailLruTest, KeepsAtMostNEvictingTheLeastRecentlyUsedUnwantedFirst) {
  RankDetailLru lru(3);
  EXPECT_TRUE(lru.Insert(0).empty());
  EXPECT_TRUE(lru.Insert(1).empty());
  EXPECT_TRUE(lru.Insert(2).empty());
  lru.Touch(0);  // order: 0 2 1
  EXPECT_EQ(lru.Insert(3), (std::vector<size_t>{1}));
  EXPECT_EQ(lru.size(), 3u);
  EXPECT_EQ(lru.order(), (std::list<size_t>{3, 0, 2}));
  // 2 is the least recent but wanted: 0 goes instead.
  EXPECT_EQ(lru.Insert(4, [](size_t k) { return k == 2; }), (std::vector<size_t>{0}));
  // All wanted: the least recent goes anyway, never the one inserted.
  EXPECT_EQ(lru.Insert(5, [](size_t) { return true; }), (std::vector<size_t>{2}));
  EXPECT_EQ(lru.order(), (std::list<size_t>{5, 4, 3}));
  lru.Touch(9);  // absent: nothing
  EXPECT_EQ(lru.size(), 3u);
  EXPECT_FALSE(lru.Contains(0));
  for (size_t k = 10; k < 30; ++k) {
    lru.Insert(k);
    EXPECT_LE(lru.size(), 3u);
  }
}

// Two wanted ranks of a demo run load in the background (budget 2); a third
// evicts the least recently drawn; a rank read from a report is never
// loaded; a file that is gone fails with its name.
TEST(RankDetailCacheTest, LoadsWantedRanksInTheBackgroundWithinTheBudget) {
  const std::filesystem::path dir = MakeScratchDirRemovedAtExit("rank-detail-cache");
  ASSERT_EQ(RunCommand(RunDemo, {"ddp-straggler", "--ranks", "3", "--steps", "2", "--kernels", "2", "--skew-us", "7000",
                                 "--out", dir.string()})
                .code,
            0);
  std::vector<std::string> paths;
  for (int r = 0; r < 3; ++r) paths.push_back((dir / ("rank-" + std::to_string(r) + ".pt.trace.json")).string());
  ASSERT_TRUE(std::filesystem::exists(paths[0])) << paths[0];
  paths.push_back("");                                     // rank 3: from a report
  paths.push_back((dir / "gone.pt.trace.json").string());  // rank 4: missing
  RankDetailCache cache(paths, 2);
  const auto wait = [&] {
    for (int i = 0; i < 2000 && !cache.Idle(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ASSERT_TRUE(cache.Idle());
  };
  EXPECT_EQ(cache.State(0), ui::RankDetailState::kNotLoaded);
  EXPECT_EQ(cache.State(3), ui::RankDetailState::kNoTrace);
  cache.Want({0, 1, 3});
  EXPECT_NE(cache.State(0), ui::RankDetailState::kNotLoaded);  // queued or already loaded
  wait();
  ASSERT_EQ(cache.State(0), ui::RankDetailState::kLoaded);
  ASSERT_EQ(cache.State(1), ui::RankDetailState::kLoaded);
  ASSERT_NE(cache.Detail(1), nullptr);
  const std::shared_ptr<const analysis::RankDetail> d0 = cache.Detail(0);  // 0 drawn last
  ASSERT_NE(d0, nullptr);
  EXPECT_EQ(d0->collective.size(), 2u);  // one all-reduce per step
  cache.Want({2});
  wait();
  EXPECT_EQ(cache.Loaded(), (std::vector<size_t>{2, 0}));  // 1 was the least recently drawn
  EXPECT_EQ(cache.State(1), ui::RankDetailState::kNotLoaded);
  EXPECT_EQ(cache.Requested(), (std::vector<size_t>{0, 1, 2}));  // never rank 3
  cache.Load(3);
  cache.Load(4);
  wait();
  EXPECT_EQ(cache.State(4), ui::RankDetailState::kFailed);
  EXPECT_NE(cache.Error(4).find("gone.pt.trace.json"), std::string::npos) << cache.Error(4);
  EXPECT_EQ(cache.Requested(), (std::vector<size_t>{0, 1, 2, 4}));
  EXPECT_LE(cache.Loaded().size(), 2u);
}

}  // namespace
}  // namespace stepline::app
