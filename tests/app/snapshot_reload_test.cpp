// A trace shown with a memory snapshot in the window (File > Open memory
// snapshot..., `view --memory-snapshot`): what the pairing wants the user to
// know reaches the window's notice, and when either file changes on disk,
// Reload reads the pair again instead of the trace alone.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "app/gui/viewer_session.h"
#include "model/memory_snapshot_process.h"
#include "tests/app/command_test_helpers.h"
#include "tests/support/test_traces.h"

namespace stepline::app {
namespace {

namespace fs = std::filesystem;

// The generated files (make_snapshots.py), written into a scratch folder the test may change.
fs::path MakePair() {
  const fs::path dir = MakeScratchDirRemovedAtExit("snapshot-reload");
  return ::stepline::testing::WriteGeneratedSnapshots(dir.string()) ? dir : fs::path();
}

void WaitForLoad(ViewerSession& session) {
  for (int i = 0; i < 3000 && session.loading(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    session.PollLoads();
  }
  session.PollLoads();
}

bool ShowsSnapshotRows(const ViewerSession& session) {
  if (!session.state().data || !session.state().data->trace) return false;
  const Trace& t = *session.state().data->trace;
  for (size_t p = 0; p < t.processes().size(); ++p) {
    if (t.str(t.processes().name(ProcessId::FromIndex(p))) == kMemorySnapshotProcessName) return true;
  }
  return false;
}

void Append(const fs::path& file, const std::string& text) {
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // a later mtime on coarse clocks
  std::ofstream(file, std::ios::app) << text;
}

// A change offered under `label`; Reload reads the trace again with its snapshot.
void ExpectOfferedAndReloadedWithSnapshot(ViewerSession& session, const std::string& label, const fs::path& snapshot) {
  SCOPED_TRACE("changed: " + (label.empty() ? std::string("the trace") : label));
  session.PollLoads();
  ASSERT_EQ(session.reload_offer().size(), 1u);
  EXPECT_EQ(session.reload_offer()[0].label, label);
  session.Reload();
  EXPECT_TRUE(session.loading());
  WaitForLoad(session);
  ASSERT_EQ(session.error(), "");
  EXPECT_TRUE(ShowsSnapshotRows(session)) << "the snapshot's rows came back with the trace";
  EXPECT_EQ(session.shown_snapshot(), snapshot.string());
  EXPECT_TRUE(session.reload_offer().empty());
}

TEST(SnapshotReloadTest, TheNoticeOfAPairThatDoesNotOverlapReachesTheWindow) {
  const fs::path dir = MakePair();
  if (dir.empty()) GTEST_SKIP() << "python3 is not available to write the trace and snapshot";
  ViewerSession session{RecentFiles("/dev/null/never")};
  session.OpenWithSnapshot((dir / "pair_trace.json").string(), (dir / "late_snapshot.pickle").string());
  WaitForLoad(session);
  ASSERT_EQ(session.error(), "");
  EXPECT_TRUE(ShowsSnapshotRows(session));
  EXPECT_NE(session.notice().find("do not overlap in time"), std::string::npos) << session.notice();
  EXPECT_NE(session.notice().find("after"), std::string::npos) << session.notice();
  EXPECT_EQ(session.shown_snapshot(), (dir / "late_snapshot.pickle").string());
}

TEST(SnapshotReloadTest, ReloadReadsThePairAgainWhicheverFileChanged) {
  const fs::path dir = MakePair();
  if (dir.empty()) GTEST_SKIP() << "python3 is not available to write the trace and snapshot";
  const fs::path trace = dir / "pair_trace.json", snapshot = dir / "pair_snapshot.pickle";
  ViewerSession session{RecentFiles("/dev/null/never")};
  session.SetWatchInterval(std::chrono::milliseconds(0));
  session.OpenWithSnapshot(trace.string(), snapshot.string());
  WaitForLoad(session);
  ASSERT_EQ(session.error(), "");
  ASSERT_TRUE(ShowsSnapshotRows(session));
  EXPECT_EQ(session.notice(), "");

  // The trace grows (a JSON file may end in white space): offered, and
  // reloaded with its snapshot.
  Append(trace, "\n");
  ExpectOfferedAndReloadedWithSnapshot(session, "", snapshot);

  // The snapshot is rewritten: offered under its own name, and the pair read again.
  const std::string bytes = [&] {
    std::ifstream in(snapshot, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  std::ofstream(snapshot, std::ios::binary | std::ios::trunc) << bytes;
  fs::last_write_time(snapshot, fs::last_write_time(snapshot) + std::chrono::seconds(2));
  ExpectOfferedAndReloadedWithSnapshot(session, "memory snapshot", snapshot);

  // Another file opened alone: no snapshot any more.
  session.OpenFile(trace.string());
  WaitForLoad(session);
  EXPECT_FALSE(ShowsSnapshotRows(session));
  EXPECT_EQ(session.shown_snapshot(), "");
}

}  // namespace
}  // namespace stepline::app
