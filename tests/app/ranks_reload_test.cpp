// The ranks view and a rank file that changes on disk: the session offers
// Reload naming that rank, the ranks window draws the offer, and Reload loads
// that rank again with the other ranks' summaries kept as they were.
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <sstream>
#include <thread>

#include "app/cli/commands.h"
#include "app/gui/viewer_session.h"
#include "app/runs/rank_set.h"
#include "tests/app/command_test_helpers.h"
#include "tests/support/headless_imgui.h"

namespace stepline::app {
namespace {

TEST(RanksReloadTest, AChangedRankIsOfferedAndReloadedAlone) {
  ::stepline::testing::HeadlessImGui imgui(ImVec2(1200, 800));
  const std::filesystem::path dir = MakeScratchDirRemovedAtExit("ranks-reload");
  const std::filesystem::path other = MakeScratchDirRemovedAtExit("ranks-reload-other");
  ASSERT_EQ(RunCommand(RunDemo, {"ddp-straggler", "--ranks", "3", "--steps", "3", "--kernels", "4", "--out",
                                 dir.string()})
                .code,
            0);
  // The same run with more steps: rank 1's file is replaced by its twin.
  ASSERT_EQ(RunCommand(RunDemo, {"ddp-straggler", "--ranks", "3", "--steps", "6", "--kernels", "4", "--out",
                                 other.string()})
                .code,
            0);
  auto run = std::make_shared<RanksRun>();
  std::ostringstream err;
  ASSERT_EQ(LoadRankSet({dir.string()}, 2, run.get(), err), "");
  ASSERT_EQ(run->ranks.size(), 3u);
  ViewerSession session{RecentFiles("/dev/null/never")};
  session.SetWatchInterval(std::chrono::milliseconds(0));
  session.ShowRanks(run, "ddp");
  const analysis::RankSummary before0 = run->ranks[0], before1 = run->ranks[1];
  const std::string changed = before1.path;
  const std::filesystem::path twin = other / std::filesystem::path(changed).filename();
  ASSERT_TRUE(std::filesystem::exists(twin)) << twin;
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // a later mtime on coarse clocks
  std::filesystem::copy_file(twin, changed, std::filesystem::copy_options::overwrite_existing);
  session.PollLoads();
  ASSERT_EQ(session.reload_offer().size(), 1u);
  EXPECT_EQ(session.reload_offer()[0].label, "rank 1");
  // The ranks window draws the offer.
  ui::DrawListQuadRenderer renderer;
  for (int i = 0; i < 2; ++i) {
    ImGui::NewFrame();
    session.Frame({}, &renderer);
    ImGui::Render();
  }
  EXPECT_NE(ImGui::FindWindowByName("Ranks"), nullptr);
  session.Reload();
  EXPECT_TRUE(session.loading_ranks());
  for (int i = 0; i < 3000 && session.loading_ranks(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    session.PollLoads();
  }
  ASSERT_TRUE(session.showing_ranks()) << session.error();
  EXPECT_EQ(session.error(), "");
  const RanksRun* now = session.ranks_run();
  ASSERT_NE(now, nullptr);
  ASSERT_EQ(now->ranks.size(), 3u);
  EXPECT_EQ(now->ranks[1].path, changed);
  EXPECT_EQ(now->ranks[1].rank, before1.rank);
  EXPECT_GT(now->ranks[1].steps, before1.steps) << "rank 1 was read again";
  EXPECT_EQ(now->ranks[0].steps, before0.steps) << "rank 0 kept";
  EXPECT_TRUE(session.reload_offer().empty());
}

}  // namespace
}  // namespace stepline::app
