// A long session in a real window (GL, under xvfb-run): cycles of opening a
// trace of every format alone and drawing it until analysed, a comparison
// and a ranks view, each frame as the viewer's loop draws it. After each
// cycle the resident set must be back within 10% of its level after the
// first, and the open file descriptors and threads as many as then (GL
// buffers, textures and the draw lists of each view included, which the
// headless LongSessionTest does not reach). CI runs 20 cycles;
// STEPLINE_LONG_SESSION_CYCLES=300 is the run by hand (docs/performance.md).
// The last frame is saved as a PNG (STEPLINE_LONG_SESSION_PNG_DIR keeps it).
#include <gtest/gtest.h>
#include <imgui.h>
#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "app/gui/gl_quad_renderer.h"
#include "app/gui/gl_window.h"
#include "app/gui/picture_saver.h"
#include "app/gui/viewer_frame.h"
#include "app/gui/viewer_session.h"
#include "tests/app/command_test_helpers.h"
#include "tests/app/process_levels.h"
#include "tests/app/screenshot_test_helpers.h"
#include "tests/support/test_traces.h"
#include "ui/notes/note_actions.h"

namespace stepline::app {
namespace {

namespace fs = std::filesystem;

class WindowLongSessionTest : public ::testing::Test {
 protected:
  bool Busy() const { return session_.loading() || session_.analysing() || session_.loading_ranks(); }
  void Frame() { RunViewerFrame(*window_, session_, pictures_, gl_renderer_, renderer_); }
  // Polls while the jobs run (drawing every frame of a load on llvmpipe
  // would take most of CI's minute), then draws frames until one shows the
  // result with nothing started by it (the analysis, its panels filled).
  void DrawUntilSettled() {
    Frame();
    for (int i = 0; i < 6000; ++i) {
      if (Busy()) {
        session_.PollLoads();
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        continue;
      }
      Frame();
      if (!Busy()) break;
    }
    Frame();
    ASSERT_FALSE(Busy());
    ASSERT_TRUE(session_.error().empty()) << session_.error();
  }
  // Notes on each trace, as M and Shift+M make them: the session saves them
  // in the config folder on the next frame; deleting them removes the file.
  // What notes hold (and their files) is measured with the rest.
  void NotesStep() {
    ui::ViewState& state = session_.state();
    const Trace* trace = state.trace();
    ASSERT_NE(trace, nullptr);
    if (trace->slices().size() > 0) {
      state.selected = SliceId::FromIndex(0);
      EXPECT_TRUE(ui::MarkSelection(state));
    }
    ui::DropFlag(state, trace->span().start_ns + trace->span().duration_ns() / 2);
    Frame();
    while (!state.notes.items.empty()) ui::DeleteNote(state, 0);
    Frame();
  }

  ViewerSession session_{RecentFiles("/dev/null/never")};
  PictureSaver pictures_;
  GlWindow* window_ = nullptr;
  GlQuadRenderer* gl_renderer_ = nullptr;
  ui::QuadRenderer* renderer_ = nullptr;
};

TEST_F(WindowLongSessionTest, OpensAnalysesAndClosesEveryFormatInOneWindow) {
  const char* display = std::getenv("DISPLAY");
  const fs::path dir = MakeScratchDirRemovedAtExit("window-long-session");
  if (display == nullptr || *display == '\0') {
    if (std::system("command -v xvfb-run >/dev/null 2>&1") != 0) GTEST_SKIP() << "no display and no xvfb-run";
    // The notes each cycle makes are saved here, not in the user's folder.
    ::setenv("XDG_CONFIG_HOME", (dir / "config").c_str(), 1);
    const std::string self = fs::read_symlink("/proc/self/exe").string();
    const std::string log = (dir / "log.txt").string();
    const std::string cmd = std::string(testing::kUnsharded) + testing::kXvfbRun + "'" + self +
                            "' --gtest_filter=WindowLongSessionTest.* > '" + log + "' 2>&1";
    const int status = std::system(cmd.c_str());
    FILE* f = std::fopen(log.c_str(), "r");
    std::string output;
    if (f != nullptr) {
      char buf[4096];
      while (size_t n = std::fread(buf, 1, sizeof buf, f)) output.append(buf, n);
      std::fclose(f);
    }
    EXPECT_EQ(status, 0) << output;
    const size_t line = output.find("window long session:");
    if (line != std::string::npos) std::printf("%s", output.substr(line, output.find('\n', line) - line + 1).c_str());
    return;
  }
#if defined(__GLIBC__)
  mallopt(M_ARENA_MAX, 1);  // as main() does: the level measured is the session's, not idle arenas'
#endif
  GlWindow window;
  GlWindow::Options options;
  options.width = 1100;
  options.height = 700;
  options.font_scale = 1.f;
  std::string error;
  ASSERT_TRUE(window.Create(options, &error)) << error;
  GlQuadRenderer gl;
  ui::DrawListQuadRenderer fallback;
  window_ = &window;
  if (gl.Init(&error)) {
    gl_renderer_ = &gl;
    renderer_ = &gl;
  } else {
    renderer_ = &fallback;  // llvmpipe without instancing: ImGui's own lists
  }
  // Every format: the small Perfetto and rocprof files are the fuzzers' seeds
  // (a Kineto trace in the PyTorch exporter's Perfetto layout, eight rocprofv3 records).
  const fs::path seeds = fs::path(STEPLINE_SOURCE_DIR) / "tests/fuzz/corpus";
  std::vector<std::string> files = {testing::TestDataPath("chrome_kineto_gpu.json"),
                                    testing::TestDataPath("chrome_tensorboard_gpu.json"),
                                    (seeds / "perfetto/kineto_layout.pftrace").string(),
                                    (seeds / "rocprof/rocprofv3_8_records.json").string()};
  for (const char* relative : {"xprof/tpu_inference_2.xplane.pb", "nsys/mock.sqlite",
                               "hta/trace_filter_sampled_rank-0.json.gz", "memory_snapshots/mosaic_output.pickle"}) {
    const std::string path = testing::SharedTracesDir().empty() ? "" : testing::SharedTracePath(relative);
    if (!path.empty() && fs::exists(path)) files.push_back(path);
  }
  std::vector<std::string> ranks;
  for (int r = 0; r < 2; ++r) {
    ranks.push_back((dir / ("rank" + std::to_string(r) + ".json")).string());
    fs::copy_file(files[0], ranks.back());
  }
  const char* env = std::getenv("STEPLINE_LONG_SESSION_CYCLES");
  // Under AddressSanitizer the resident set is not checked (process_levels.h)
  // and a cycle takes several times as long: three cycles check descriptors and threads.
  const int cycles = env != nullptr ? std::max(2, std::atoi(env)) : kResidentSetIsMeaningful ? 20 : 3;
  ProcessLevel first;
  uint64_t highest = 0;
  for (int cycle = 1; cycle <= cycles; ++cycle) {
    for (const std::string& f : files) {
      session_.OpenFile(f);
      ASSERT_NO_FATAL_FAILURE(DrawUntilSettled()) << f;
      ASSERT_TRUE(session_.state().data) << f;
      NotesStep();
    }
    session_.OpenCompare(files[0], files[1]);
    ASSERT_NO_FATAL_FAILURE(DrawUntilSettled());
    ASSERT_TRUE(session_.comparing());
    session_.OpenRanks(ranks, "ranks");
    ASSERT_NO_FATAL_FAILURE(DrawUntilSettled());
    ASSERT_TRUE(session_.showing_ranks());
    ProcessLevel now = MeasureProcessLevel();
    for (int i = 0; i < 200 && cycle > 1 && now.threads != first.threads; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));  // cancelled analyses end on their own
      now = MeasureProcessLevel();
    }
    if (std::getenv("STEPLINE_LONG_SESSION_VERBOSE") != nullptr) {
      std::printf("cycle %d: %.2f MB resident, %zu fds, %zu threads\n", cycle, double(now.rss) / 1e6, now.fds,
                  now.threads);
    }
    if (cycle == 1) {
      first = now;
      continue;
    }
    highest = std::max(highest, now.rss);
    if (kResidentSetIsMeaningful) {
      EXPECT_LE(now.rss, first.rss + first.rss / 10)
          << "cycle " << cycle << ": " << now.rss << " B resident, " << first.rss << " B after the first";
    }
    EXPECT_EQ(now.fds, first.fds) << "cycle " << cycle;
    EXPECT_EQ(now.threads, first.threads) << "cycle " << cycle;
    if (::testing::Test::HasFailure()) break;
  }
  // The window at the end, to look at: the ranks view of the last cycle.
  const char* keep = std::getenv("STEPLINE_LONG_SESSION_PNG_DIR");
  session_.state().pictures.export_folder = keep != nullptr ? std::string(keep) : dir.string();
  pictures_.RequestWindow();
  for (int f = 0; f < 6 && pictures_.pending(); ++f) Frame();
  EXPECT_FALSE(pictures_.pending());
  std::printf("window long session: %d cycles of %zu traces alone, a comparison and 2 ranks (%s); resident %.1f MB "
              "after the first, at most %.1f MB after the others; %zu fds, %zu threads\n",
              cycles, files.size(), gl_renderer_ != nullptr ? "GL renderer" : "ImGui renderer",
              double(first.rss) / 1e6, double(highest) / 1e6, first.fds, first.threads);
}

// The question before a load that may not fit in memory, in the real window
// (a fake budget of 1 KB), saved as a PNG to look at.
TEST(WindowMemoryQuestionTest, TheModalAsksBeforeTheLoad) {
  const char* display = std::getenv("DISPLAY");
  const fs::path dir = MakeScratchDirRemovedAtExit("window-memory-question");
  if (display == nullptr || *display == '\0') {
    if (std::system("command -v xvfb-run >/dev/null 2>&1") != 0) GTEST_SKIP() << "no display and no xvfb-run";
    const std::string self = fs::read_symlink("/proc/self/exe").string();
    const std::string cmd = std::string(testing::kUnsharded) + testing::kXvfbRun + "'" + self +
                            "' --gtest_filter=WindowMemoryQuestionTest.* > '" + (dir / "log.txt").string() + "' 2>&1";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << "see " << (dir / "log.txt").string();
    return;
  }
  GlWindow window;
  GlWindow::Options options;
  options.width = 1000;
  options.height = 600;
  options.font_scale = 1.f;
  std::string error;
  ASSERT_TRUE(window.Create(options, &error)) << error;
  ui::DrawListQuadRenderer renderer;
  ViewerSession session{RecentFiles("/dev/null/never")};
  session.SetMemoryBudget([] { return loaders::MemoryBudget{1024, "cgroup memory.max"}; });
  PictureSaver pictures;
  session.OpenFile(testing::TestDataPath("chrome_kineto_gpu.json"));
  for (int f = 0; f < 3; ++f) RunViewerFrame(window, session, pictures, nullptr, &renderer);
  ASSERT_NE(session.memory_question(), "");
  const char* keep = std::getenv("STEPLINE_LONG_SESSION_PNG_DIR");
  session.state().pictures.export_folder = keep != nullptr ? std::string(keep) : dir.string();
  pictures.RequestWindow();
  for (int f = 0; f < 6 && pictures.pending(); ++f) RunViewerFrame(window, session, pictures, nullptr, &renderer);
  EXPECT_FALSE(pictures.pending());
  EXPECT_NE(session.memory_question(), "") << "the picture does not answer the question";
  EXPECT_FALSE(session.loading());
}

// The same question before a rank set (what its load holds at once above a
// fake budget of 1 KB), in the real window, saved as a PNG to look at.
TEST(WindowMemoryQuestionTest, TheModalAsksBeforeARankSet) {
  const char* display = std::getenv("DISPLAY");
  if (display == nullptr || *display == '\0') GTEST_SKIP() << "run by TheModalAsksBeforeTheLoad's xvfb child";
  const fs::path dir = MakeScratchDirRemovedAtExit("window-ranks-question");
  for (int r = 0; r < 2; ++r) {
    fs::copy_file(testing::TestDataPath("chrome_kineto_gpu.json"), dir / ("rank" + std::to_string(r) + ".json"));
  }
  GlWindow window;
  GlWindow::Options options;
  options.width = 1000;
  options.height = 600;
  options.font_scale = 1.f;
  std::string error;
  ASSERT_TRUE(window.Create(options, &error)) << error;
  ui::DrawListQuadRenderer renderer;
  ViewerSession session{RecentFiles("/dev/null/never")};
  session.SetMemoryBudget([] { return loaders::MemoryBudget{1024, "cgroup memory.max"}; });
  PictureSaver pictures;
  session.OpenRanks({dir.string()}, dir.filename().string());  // as File > Open folder
  for (int f = 0; f < 3; ++f) RunViewerFrame(window, session, pictures, nullptr, &renderer);
  ASSERT_NE(session.memory_question().find("rank files at once"), std::string::npos) << session.memory_question();
  EXPECT_FALSE(session.loading_ranks());
  const char* keep = std::getenv("STEPLINE_LONG_SESSION_PNG_DIR");
  session.state().pictures.export_folder = keep != nullptr ? std::string(keep) : dir.string();
  pictures.RequestWindow();
  for (int f = 0; f < 6 && pictures.pending(); ++f) RunViewerFrame(window, session, pictures, nullptr, &renderer);
  EXPECT_FALSE(pictures.pending());
  EXPECT_NE(session.memory_question(), "") << "the picture does not answer the question";
}

// The ranks view with a rank file changed on disk: Reload / Dismiss and the
// notice above the table, in the real window, saved as a PNG to look at.
TEST(WindowMemoryQuestionTest, RanksViewOffersReloadForAChangedRank) {
  const char* display = std::getenv("DISPLAY");
  if (display == nullptr || *display == '\0') GTEST_SKIP() << "run by TheModalAsksBeforeTheLoad's xvfb child";
  const fs::path dir = MakeScratchDirRemovedAtExit("window-ranks-reload");
  std::vector<std::string> ranks;
  for (int r = 0; r < 2; ++r) {
    ranks.push_back((dir / ("rank" + std::to_string(r) + ".json")).string());
    fs::copy_file(testing::TestDataPath("chrome_kineto_gpu.json"), ranks.back());
  }
  GlWindow window;
  GlWindow::Options options;
  options.width = 1000;
  options.height = 600;
  options.font_scale = 1.f;
  std::string error;
  ASSERT_TRUE(window.Create(options, &error)) << error;
  ui::DrawListQuadRenderer renderer;
  ViewerSession session{RecentFiles("/dev/null/never")};
  session.SetWatchInterval(std::chrono::milliseconds(0));
  PictureSaver pictures;
  session.OpenRanks(ranks, "ranks");
  for (int i = 0; i < 3000 && !session.showing_ranks(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    session.PollLoads();
  }
  ASSERT_TRUE(session.showing_ranks()) << session.error();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  std::ofstream(ranks[1], std::ios::app) << "  ";  // rank 1's file grows
  for (int f = 0; f < 3; ++f) RunViewerFrame(window, session, pictures, nullptr, &renderer);
  ASSERT_EQ(session.reload_offer().size(), 1u);
  const char* keep = std::getenv("STEPLINE_LONG_SESSION_PNG_DIR");
  session.state().pictures.export_folder = keep != nullptr ? std::string(keep) : dir.string();
  pictures.RequestWindow();
  for (int f = 0; f < 6 && pictures.pending(); ++f) RunViewerFrame(window, session, pictures, nullptr, &renderer);
  EXPECT_FALSE(pictures.pending());
}

}  // namespace
}  // namespace stepline::app
