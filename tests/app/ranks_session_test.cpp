// The ranks view in the window's session (issue #20): ShowRanks puts it on
// screen (title, frames draw), double-clicking a rank's row asks for that
// rank's file alone, and showing a trace replaces the ranks view.
#include <gtest/gtest.h>
#include <imgui.h>

#include <chrono>
#include <fstream>
#include <memory>
#include <thread>

#include "app/commands.h"
#include "app/gui/viewer_session.h"
#include "app/rank_set.h"
#include "loaders/demo/demo_generator.h"
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
  const float row_y = ImGui::GetTextLineHeightWithSpacing() * 2 + ImGui::GetFrameHeightWithSpacing() * 1.5f + 8;
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

}  // namespace
}  // namespace stepline::app
