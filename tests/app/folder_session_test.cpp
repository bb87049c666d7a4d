// A TensorBoard / XProf log directory in the viewer session, driven without a
// window: a dropped folder opens its newest run's trace with a notice naming
// it, a folder with no run is an error on screen (not a crash), and the
// Open folder picker starts where the last log directory was.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "app/gui/viewer_session.h"
#include "tests/app/command_test_helpers.h"
#include "tests/support/headless_imgui.h"

namespace stepline::app {
namespace {
namespace fs = std::filesystem;

void WriteSliceTrace(const fs::path& path, int slices) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path);
  out << "{\"traceEvents\":[";
  for (int i = 0; i < slices; ++i) {
    out << (i ? "," : "") << "{\"ph\":\"X\",\"name\":\"op\",\"ts\":" << i * 10 << ",\"dur\":5,\"pid\":1,\"tid\":1}";
  }
  out << "]}";
}

void WaitForLoads(ViewerSession& session) {
  for (int i = 0; i < 6000 && session.loading(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  session.PollLoads();
}

TEST(FolderSessionTest, ADroppedLogDirectoryOpensTheNewestRun) {
  const fs::path logs = MakeScratchDirRemovedAtExit("folder-session-drop") / "logs";
  WriteSliceTrace(logs / "plugins" / "profile" / "2024_01_01_00_00_00" / "h.pt.trace.json", 3);
  WriteSliceTrace(logs / "plugins" / "profile" / "2024_02_01_00_00_00" / "h.pt.trace.json", 7);
  ViewerSession session{RecentFiles("/dev/null/never")};
  session.HandleDrops({logs.string()});
  WaitForLoads(session);
  ASSERT_NE(session.state().data, nullptr) << session.error();
  EXPECT_EQ(session.state().data->trace->slices().size(), 7u);
  EXPECT_NE(session.notice().find("run 2024_02_01_00_00_00, newest of 2 runs"), std::string::npos)
      << session.notice();
  // Open folder starts in that log directory and lists both runs.
  session.BrowseFolder();
  EXPECT_EQ(session.run_picker().folder(), logs.string());
  EXPECT_EQ(session.run_picker().rows().size(), 2u);
}

TEST(FolderSessionTest, AFolderWithoutARunIsAnErrorOnScreen) {
  const fs::path empty = MakeScratchDirRemovedAtExit("folder-session-empty");
  ViewerSession session{RecentFiles("/dev/null/never")};
  session.OpenFile(empty.string());
  EXPECT_FALSE(session.loading());
  EXPECT_NE(session.error().find("no profile run found"), std::string::npos) << session.error();
  EXPECT_EQ(session.state().data, nullptr);
}

// File > Open folder on a run of several ranks (here two hosts' traces)
// opens the ranks view, all of them side by side; it once opened the first
// rank alone, and the ranks view was reachable only from the command line.
TEST(FolderSessionTest, AFolderOfSeveralRanksOpensTheRanksView) {
  const fs::path logs = MakeScratchDirRemovedAtExit("folder-session-ranks") / "logs";
  WriteSliceTrace(logs / "plugins" / "profile" / "run" / "worker0.pt.trace.json", 3);
  WriteSliceTrace(logs / "plugins" / "profile" / "run" / "worker1.pt.trace.json", 3);
  ViewerSession session{RecentFiles("/dev/null/never")};
  session.OpenFile(logs.string());
  EXPECT_TRUE(session.loading_ranks());
  for (int i = 0; i < 6000 && session.loading_ranks(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    session.PollLoads();
  }
  EXPECT_TRUE(session.showing_ranks()) << session.error();
  ASSERT_NE(session.ranks_run(), nullptr);
  EXPECT_EQ(session.ranks_run()->ranks.size(), 2u);
  EXPECT_EQ(session.state().data, nullptr);  // no single rank was opened
}

// The picker draws headless for a few frames: the modal opens, lists the
// runs, and picks nothing by itself.
TEST(FolderSessionTest, RunPickerDrawsHeadless) {
  const fs::path logs = MakeScratchDirRemovedAtExit("folder-session-picker") / "logs";
  WriteSliceTrace(logs / "plugins" / "profile" / "run" / "a.xplane.pb", 1);
  WriteSliceTrace(logs / "plugins" / "profile" / "run" / "b.xplane.pb", 1);
  testing::HeadlessImGui imgui(ImVec2(1280, 800));
  RunPicker picker;
  picker.Open(logs.string());
  RunPicker::Choice picked;
  bool open_seen = false;
  for (int frame = 0; frame < 3; ++frame) {
    ImGui::NewFrame();
    EXPECT_FALSE(picker.Draw(&picked));
    open_seen = open_seen || ImGui::IsPopupOpen("Open folder###profile_run_picker");
    ImGui::Render();
  }
  EXPECT_TRUE(open_seen);
  EXPECT_EQ(picked.path, "");
  EXPECT_EQ(picked.ranks_run, "");
  ASSERT_EQ(picker.rows().size(), 2u);
  // Two hosts of one run: choosing it opens the ranks view, not one rank.
  EXPECT_EQ(picker.rows()[0].run_traces, 2u);
  EXPECT_EQ(picker.rows()[0].run_dir, (logs / "plugins" / "profile" / "run").string());
}

}  // namespace
}  // namespace stepline::app
