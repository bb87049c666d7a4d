// `stepline [FILE [FILE_B]] [--demo SCENARIO]`: the viewer window. With no
// file it opens the built-in input-bound demo; with two it compares them.
#include <imgui.h>

#include <ostream>
#include <string_view>

#include "app/cli/cli_args.h"
#include "app/cli/command_options.h"
#include "app/cli/commands.h"
#include "app/gui/efficiency_store.h"
#include "app/gui/finding_focus.h"
#include "app/gui/gl_quad_renderer.h"
#include "app/gui/gl_window.h"
#include "app/gui/picture_saver.h"
#include "app/gui/screenshot_name.h"
#include "app/gui/startup_timing.h"
#include "app/gui/test_events_file.h"
#include "app/gui/viewer_frame.h"
#include "app/gui/viewer_session.h"
#include "app/gui/viewer_settings.h"
#include "app/runs/rank_set.h"

#include <algorithm>
#include <memory>
#include <thread>

namespace stepline::app {
namespace {

constexpr std::string_view kViewUsage =
    "usage: stepline view [FILE [FILE_B]] [--demo SCENARIO] [--memory-snapshot SNAP]\n"
    "                     [--peak-tflops X] [--peak-dtype T] [--batch-size N]\n"
    "       stepline view --ranks PATH...\n"
    "  FILE             a trace, or a TensorBoard/XProf log directory (its newest run); none: the demo\n"
    "  FILE_B           a second trace: compare it with FILE (the baseline)\n"
    "  --demo SCENARIO  open a built-in demo scenario, such as input-bound\n"
    "  --ranks PATH...  the ranks view: every rank of a distributed run side by side\n"
    "  --memory-snapshot SNAP  a PyTorch memory snapshot of FILE's run: its memory rows under\n"
    "                   FILE's timeline, placed by the epoch clock\n"

    "  the efficiency options below apply to FILE (and FILE_B) instead of their saved Efficiency settings:\n";

}  // namespace

int RunViewer(const Args& args, std::ostream& out, std::ostream& err) {
  if (args.size() == 1 && (args[0] == "--help" || args[0] == "-h")) {
    out << kViewUsage << kEfficiencyUsage;
    return 0;
  }
  StartupTiming timing;  // STEPLINE_TIMING=1: when the timeline and the analysis first show
  auto parsed = ParsedArgs::Parse(args, ArgSpec{{"--ranks"}, {"--demo", "--finding", "--memory-snapshot", "--peak-tflops",
                                                                "--peak-dtype", "--batch-size"}});
  if (!parsed.ok()) {
    err << "stepline: " << parsed.error() << "\n" << kViewUsage << kEfficiencyUsage;
    return 2;
  }
  // `stepline FILE --batch-size 32`: the figures `report` gives with the same options.
  analysis::EfficiencyOptions efficiency;
  if (const std::string e = ReadEfficiencyOptions(*parsed, &efficiency); !e.empty()) {
    err << "stepline: " << e << "\n" << kViewUsage << kEfficiencyUsage;
    return 2;
  }
  // A log directory stands for its newest run's trace: say which, or fail here
  // on the terminal rather than in an empty window.
  std::vector<std::string> files = parsed->positionals();
  // `stepline view --ranks PATH...`: every rank side by side (loaded here,
  // before the window, each rank's model freed after its summary).
  std::shared_ptr<RanksRun> ranks;
  if (parsed->Has("--ranks")) {
    ranks = std::make_shared<RanksRun>();
    const std::string e =
        LoadRankSet(files, static_cast<int>(std::max(1u, std::thread::hardware_concurrency())), ranks.get(), err);
    for (const RankFailure& f : ranks->failed) err << "stepline: " << f.path << " failed to load: " << f.error << "\n";
    if (!e.empty()) {
      err << "stepline: " << e << "\n";
      return 1;
    }
    files.clear();
  }
  for (std::string& file : files) {
    if (!ChooseTraceArg(&file, "stepline", err)) return 1;
  }
  const std::string snapshot = parsed->Value("--memory-snapshot").value_or("");
  if (!snapshot.empty() && files.size() != 1) {
    err << "stepline: --memory-snapshot goes with exactly one FILE, the trace of the same run\n" << kViewUsage;
    return 2;
  }
  // The layout, window size and picture options of the last run; saved again on change.
  const std::string settings_path = DefaultSettingsPath();
  std::string settings_notice;
  ViewerSettings saved = LoadSettings(settings_path, &settings_notice);
  if (!settings_notice.empty()) err << "stepline: " << settings_notice << "\n";
  std::string events_error;
  if (!InstallTestEventsLog(&events_error)) {
    err << "stepline: " << events_error << "\n";
    return 1;
  }
  GlWindow window;  // declared before the session, which is destroyed first; created below
  // The load starts before the window and GL come up (a few tenths of a
  // second on llvmpipe), so the two overlap (a cached 10M-slice
  // trace on screen within 1 s). Nothing here needs the window yet.
  ViewerSession session{RecentFiles()};
  // Without a file the options apply to the demo the window opens (its path is "").
  session.SetEfficiencySources(EfficiencyStore(DefaultEfficiencyStorePath()), efficiency,
                               files.empty() ? std::vector<std::string>{""} : files);
  if (ranks) {
    session.ShowRanks(ranks, parsed->positionals().size() == 1 ? parsed->positionals().front() : "ranks");
  } else if (files.size() >= 2) {
    session.OpenCompare(files[0], files[1]);  // `stepline A B`
  } else if (!snapshot.empty()) {
    session.OpenWithSnapshot(files.front(), snapshot);
  } else if (!files.empty()) {
    session.OpenFile(files.front());
  } else {
    session.OpenDemo(parsed->Value("--demo").value_or("input-bound"));
  }
  // --finding F1: shown once the analysis is ready (finding_focus.h).
  std::string finding = parsed->Value("--finding").value_or("");
  std::string error;
  GlWindow::Options window_options;
  window_options.width = saved.window_width;
  window_options.height = saved.window_height;
  if (!window.Create(window_options, &error)) {
    err << "stepline: " << error << "\n";
    return 1;
  }
  GlQuadRenderer gl_renderer;
  ui::DrawListQuadRenderer fallback;
  ui::QuadRenderer* renderer = &gl_renderer;
  if (!gl_renderer.Init(&error)) {
    err << "stepline: instanced renderer unavailable (" << error << "); drawing with ImGui\n";
    renderer = &fallback;
  }
  const std::string default_folder = ScreenshotFolder();
  ApplySettings(saved, default_folder, &session.state());
  PictureSaver pictures;
  // Saved once a change has held for a moment: not on every frame of a
  // splitter drag or a window resize.
  constexpr double kSettleSeconds = 0.5;
  ViewerSettings pending = saved;
  double pending_since = 0;
  // Once per change: a read-only home must not flood the terminal.
  auto save = [&](const ViewerSettings& settings) {
    std::string save_error;
    if (!SaveSettings(settings_path, settings, &save_error)) err << "stepline: settings not saved: " << save_error << "\n";
    saved = settings;
  };
  while (!window.ShouldClose()) {
    const ViewerSession::FrameResult r = RunViewerFrame(window, session, pictures, &gl_renderer, renderer);
    const bool timing_done = timing.AfterFrame(session, err);
    if (!finding.empty()) {
      std::string finding_error;
      const FindingFocus focus = FocusFinding(finding, &session.state(), &finding_error);
      if (focus == FindingFocus::kFailed) err << "stepline: " << finding_error << "\n";
      if (focus != FindingFocus::kWaiting) finding.clear();
    }
    window.SetTitle(session.WindowTitle());  // the open file(s), for the task bar and window list
    ViewerSettings now = SettingsOf(session.state(), default_folder);
    window.GetSize(&now.window_width, &now.window_height);
    const double t = ImGui::GetTime();
    if (now != pending) {
      pending = now;
      pending_since = t;
    } else if (now != saved && !ImGui::IsAnyMouseDown() && t - pending_since >= kSettleSeconds) {
      save(now);
    }
    if (r.quit || timing_done) window.RequestClose();
  }
  if (pending != saved) save(pending);  // changed just before closing
  return 0;
}

}  // namespace stepline::app
