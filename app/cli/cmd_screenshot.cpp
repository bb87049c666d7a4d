// `stepline screenshot FILE [FILE_B] --out PNG [--view VIEW] [--size WxH]
// [--range START_MS:END_MS] [--step N] [--scale S] [--caption] [--force]
// [--theme dark|light] [--notes FILE]`:
// renders a view with a hidden window into an offscreen framebuffer of
// exactly the asked size and writes a PNG. No interaction; exit 0 on
// success, 1 with a message otherwise. Same inputs give the same pixels.
#include <epoxy/gl.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <ostream>

#include "app/cli/headline_dump.h"
#include "app/runs/cached_trace_load.h"
#include "app/runs/snapshot_pair.h"
#include "app/cli/cli_args.h"
#include "app/cli/command_options.h"
#include "app/cli/commands.h"
#include "app/gui/gl_quad_renderer.h"
#include "app/gui/gl_window.h"
#include "app/gui/headless_frame.h"
#include "app/gui/offscreen.h"
#include "app/gui/viewer_session.h"
#include "ui/theme_style.h"
#include "app/cli/screenshot_ranks.h"
#include "demo/demo_generator.h"
#include "loaders/load.h"

namespace stepline::app {
namespace {

constexpr const char* kUsage =
    "usage: stepline screenshot FILE [FILE_B] --out OUT.png\n"
    "       [--view timeline|overview|step-histogram|ops|kernels|gaps|memory|compare]\n"
    "       [--size WxH] [--range START_MS:END_MS] [--step N] [--scale S] [--caption] [--critical-path] [--force]\n"
    "       [--theme dark|light] [--notes FILE]  (FILE: exported notes drawn on the timeline;\n"
    "       the trace's own saved notes are drawn anyway)\n"
    "       [--file-dialog DIR]  (the File > Open dialog up, listing DIR)\n"
    "       [--efficiency-settings]  (the Efficiency settings window up over the single view)\n"
    "       [--headlines FILE]  (every headline figure drawn, as view, subject, figure, text lines)\n"
    "       [--peak-tflops X] [--peak-dtype T] [--batch-size N]  (the analysis' efficiency options, as report's)\n"
    "       [--memory-snapshot SNAP]  (a PyTorch memory snapshot of FILE's run: its memory rows under FILE's timeline)\n"
    "       stepline screenshot PATH... --view ranks --out OUT.png [--runs] [--step N] [--range START_MS:END_MS]\n"
    "       (rank traces, or directories of them; --runs: the list of a TensorBoard folder's runs shown;\n"
    "       --step/--range: the timeline aligned on step N, showing that range since its start, zoomed in\n"
    "       ranks drawn slice by slice once loaded)\n"
    "       (--demo SCENARIO instead of FILE renders a built-in demo; --view compare needs two files;\n"
    "       a FILE that is a TensorBoard/XProf log directory stands for its newest profile run)\n";

struct Size {
  int w = 1920, h = 1080;
};

bool ParseSize(const std::string& text, Size* out) {
  int w = 0, h = 0;
  char x = 0, extra = 0;
  if (std::sscanf(text.c_str(), "%d%c%d%c", &w, &x, &h, &extra) != 3 || (x != 'x' && x != 'X')) return false;
  if (w < 16 || h < 16 || w > 16384 || h > 16384) return false;
  *out = Size{w, h};
  return true;
}

bool ParseRangeMs(const std::string& text, double* start_ms, double* end_ms) {
  char colon = 0, extra = 0;
  if (std::sscanf(text.c_str(), "%lf%c%lf%c", start_ms, &colon, end_ms, &extra) != 3 || colon != ':') return false;
  return std::isfinite(*start_ms) && std::isfinite(*end_ms) && *end_ms > *start_ms;
}

// --view names; kNone with is_timeline / is_compare for the two non-solo views.
struct ViewChoice {
  ui::SoloPanel solo = ui::SoloPanel::kNone;
  bool compare = false;
  bool step_histogram = false;  // the overview with its step chart as a histogram
};

bool ParseView(const std::string& name, ViewChoice* out) {
  if (name == "timeline") *out = ViewChoice{};
  else if (name == "overview") *out = ViewChoice{ui::SoloPanel::kOverview, false};
  else if (name == "step-histogram") *out = ViewChoice{ui::SoloPanel::kOverview, false, true};
  else if (name == "ops") *out = ViewChoice{ui::SoloPanel::kOpStats, false};
  else if (name == "kernels") *out = ViewChoice{ui::SoloPanel::kKernels, false};
  else if (name == "gaps") *out = ViewChoice{ui::SoloPanel::kIdleGaps, false};
  else if (name == "memory") *out = ViewChoice{ui::SoloPanel::kMemory, false};
  else if (name == "compare") *out = ViewChoice{ui::SoloPanel::kNone, true};
  else return false;
  return true;
}

// The number a step name ends with ("ProfilerStep#12" -> 12), -1 without one.
long TrailingNumber(const std::string& name) {
  size_t i = name.size();
  while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9') --i;
  if (i == name.size() || name.size() - i > 15) return -1;
  return std::stol(name.substr(i));
}

// --step N: the step whose name ends in N (ProfilerStep#N), else the N-th
// step counting from 0; -1 when neither exists.
int FindStep(const std::vector<analysis::ReportStep>& steps, long n) {
  for (size_t i = 0; i < steps.size(); ++i) {
    if (TrailingNumber(steps[i].name) == n) return static_cast<int>(i);
  }
  return n >= 0 && static_cast<size_t>(n) < steps.size() ? static_cast<int>(n) : -1;
}

using LoadedData = std::shared_ptr<const ui::TimelineData>;

// Loads FILE through the column cache (or builds the demo); null with
// `error` set on failure. A parsed FILE's cache entry is written by `store`
// while the picture renders.
LoadedData LoadInput(const std::string& path, const std::string& demo, const std::string& snapshot, std::string* title,
                     std::string* error, column_cache::BackgroundStore* store,
                     const analysis::EfficiencyOptions& efficiency) {
  Result<Trace, std::string> loaded = Unexpected<std::string>{"not loaded"};
  const column_cache::CacheSettings cache_settings = CacheSettingsForApp();
  column_cache::CachedLoad cache_info;
  if (!path.empty() && !snapshot.empty()) {
    *title = std::filesystem::path(path).filename().string();
    std::string notice;
    loaded = LoadTraceWithSnapshot(path, snapshot, &notice);  // no cache entry: the snapshot's rows are added
    if (!notice.empty()) *error = notice;
  } else if (!path.empty()) {
    *title = std::filesystem::path(path).filename().string();
    auto r = column_cache::LoadThroughCache(path, cache_settings, {}, nullptr, &cache_info);
    loaded = r.ok() ? Result<Trace, std::string>(std::move(r).value())
                    : Result<Trace, std::string>(Unexpected<std::string>{r.error().ToString()});  // names the path
  } else {
    demo::DemoOptions options;
    options.scenario = demo;
    *title = "demo: " + demo;
    loaded = demo::GenerateDemoTrace(options);
  }
  if (!loaded.ok()) {
    *error = loaded.error();
    return nullptr;
  }
  auto trace = std::make_shared<const Trace>(std::move(loaded).value());
  store->Start(trace, cache_info.ticket, cache_settings);
  return std::make_shared<const ui::TimelineData>(std::move(trace), efficiency);
}

}  // namespace

int RunScreenshot(const Args& args, std::ostream& out, std::ostream& err) {
  auto parsed = ParsedArgs::Parse(
      args,
      ArgSpec{{"--force", "--caption", "--help", "--runs", "--critical-path", "--efficiency-settings"},
              {"--out", "--view", "--size", "--range", "--scale", "--demo", "--step", "--file-dialog", "--headlines",
               "--theme", "--notes", "--peak-tflops", "--peak-dtype", "--batch-size",
               "--memory-snapshot"}});
  if (parsed.ok() && parsed->Has("--help")) {
    out << kUsage;
    return 0;
  }
  if (!parsed.ok()) {
    err << "stepline screenshot: " << parsed.error() << "\n" << kUsage;
    return 1;
  }
  const ParsedArgs& a = *parsed;
  analysis::EfficiencyOptions efficiency;
  if (const std::string e = ReadEfficiencyOptions(a, &efficiency); !e.empty()) {
    err << "stepline screenshot: " << e << "\n" << kUsage;
    return 1;
  }
  const bool ranks_view = a.Value("--view") == "ranks";
  const auto out_path = a.Value("--out");
  std::vector<std::string> files = a.positionals();
  const char* problem = !out_path                              ? "--out OUT.png is required"
                        : files.empty() && !a.Value("--demo")  ? "no trace given (a FILE, or --demo SCENARIO)"
                        : !files.empty() && a.Value("--demo")  ? "give a FILE or --demo SCENARIO, not both"
                        : files.size() > 2 && !ranks_view      ? "at most two trace files (A and B)"
                                                               : nullptr;
  if (problem) {
    err << "stepline screenshot: " << problem << "\n" << kUsage;
    return 1;
  }
  const std::string view_name = a.Value("--view").value_or("timeline");
  ViewChoice view;
  if (!ranks_view && !ParseView(view_name, &view)) {
    err << "stepline screenshot: unknown --view '" << view_name
        << "' (one of: timeline, overview, step-histogram, ops, kernels, gaps, memory, compare, ranks)\n";
    return 1;
  }
  if (!ranks_view && view.compare != (files.size() == 2)) {
    err << "stepline screenshot: "
        << (view.compare ? "--view compare needs two trace files (A then B)"
                         : "two files are compared: pass --view compare, or one file")
        << "\n";
    return 1;
  }
  Size size;
  if (auto s = a.Value("--size"); s && !ParseSize(*s, &size)) {
    err << "stepline screenshot: --size wants WIDTHxHEIGHT between 16 and 16384, got '" << *s << "'\n";
    return 1;
  }
  double scale = 1.0;
  if (auto s = a.Value("--scale")) {
    char* end = nullptr;
    scale = std::strtod(s->c_str(), &end);
    if (*end != '\0' || !(scale >= 0.5 && scale <= 4.0)) {
      err << "stepline screenshot: --scale wants a number from 0.5 to 4, got '" << *s << "'\n";
      return 1;
    }
  }
  const std::string theme_name = a.Value("--theme").value_or("dark");
  const std::optional<ui::theme::ThemeKind> theme = ui::ParseThemeName(theme_name);
  if (!theme) {
    err << "stepline screenshot: --theme wants dark or light, got '" << theme_name << "'\n";
    return 1;
  }
  double start_ms = 0, end_ms = 0;
  const auto range = a.Value("--range");
  if (range && !ParseRangeMs(*range, &start_ms, &end_ms)) {
    err << "stepline screenshot: --range wants START_MS:END_MS with END > START, got '" << *range << "'\n";
    return 1;
  }
  long step_number = -1;
  const auto step_arg = a.Value("--step");
  if (step_arg) {
    char* end = nullptr;
    step_number = std::strtol(step_arg->c_str(), &end, 10);
    if (step_arg->empty() || *end != '\0' || step_number < 0) {
      err << "stepline screenshot: --step wants a step number, got '" << *step_arg << "'\n";
      return 1;
    }
  }
  if (ranks_view) {
    RanksShotView shot;
    shot.theme = *theme;
    shot.run_list = a.Has("--runs");
    shot.step = static_cast<int>(std::max(0L, step_number));
    if (range) shot.range_ms = std::pair{start_ms, end_ms};
    shot.headlines_path = a.Value("--headlines").value_or("");
    return ScreenshotRanks(files, *out_path, size.w, size.h, scale, a.Has("--force"), shot, out, err);
  }
  for (std::string& file : files) {
    if (!ChooseTraceArg(&file, "stepline screenshot", err)) return 1;
  }
  // Load first: a bad file fails fast, before any window exists. Cache
  // entries are written meanwhile; the command waits for them before it returns.
  column_cache::BackgroundStore cache_store;
  std::string error;
  std::string titles[2];
  LoadedData data[2];
  const std::string snapshot = a.Value("--memory-snapshot").value_or("");
  if (!snapshot.empty() && files.size() != 1) {
    err << "stepline screenshot: --memory-snapshot goes with exactly one FILE, the trace of the same run\n";
    return 2;
  }
  // Said before the load (each file was, when it was chosen): both sides of a compare are held at once.
  if (files.size() == 2) WarnIfPairTooLarge(files[0], files[1], "stepline screenshot", err);
  for (size_t i = 0; i < std::max<size_t>(1, files.size()); ++i) {
    data[i] = LoadInput(files.empty() ? "" : files[i], a.Value("--demo").value_or(""), snapshot, &titles[i], &error,
                        &cache_store, efficiency);
    if (!data[i]) {
      err << "stepline screenshot: " << error << "\n";
      return 1;
    }
  }
  int step_index = -1;
  if (step_arg) {
    const auto& steps = data[0]->analysis.report.steps;
    step_index = FindStep(steps, step_number);
    if (step_index < 0) {
      err << "stepline screenshot: no step " << step_number << " in " << titles[0] << " (it has " << steps.size()
          << (steps.size() == 1 ? " step" : " steps") << (steps.empty() ? "" : ", first " + steps.front().name) << ")\n";
      return 1;
    }
  }

  GlWindow window;
  GlWindow::Options options;
  options.width = size.w;
  options.height = size.h;
  options.visible = false;
  options.font_scale = static_cast<float>(scale);
  if (!window.Create(options, &error)) {
    err << "stepline screenshot: " << error << "\n";
    return 1;
  }
  ui::ApplyTheme(*theme);
  GlQuadRenderer renderer;
  if (!renderer.Init(&error)) {
    err << "stepline screenshot: " << error << "\n";
    return 1;
  }
  OffscreenTarget target;
  if (!target.Create(size.w, size.h, &error)) {
    err << "stepline screenshot: " << error << "\n";
    return 1;
  }
  ViewerSession session{RecentFiles("/dev/null/never")};  // headless: never touch the user's recent list
  // The traces' saved notes are drawn, never written.
  session.notes().set_read_only(true);
  for (int side = 0; side < 2; ++side) session.compare_notes(side).set_read_only(true);
  if (view.compare) {
    session.ShowCompare(data[0], titles[0], data[1], titles[1]);
    session.state().pictures.show_caption = a.Has("--caption");  // the compare view reads the preference from there
    if (step_index >= 0) session.compare_view().SelectStep(step_index);
    // On the compare axis 0 is the aligned step's start (the rulers read so).
    if (range) {
      session.compare_view().ShowAlignedRange(static_cast<DurNs>(std::llround(start_ms * 1e6)),
                                              static_cast<DurNs>(std::llround(end_ms * 1e6)));
    }
  } else {
    session.Show(data[0], titles[0]);
    ui::ViewState& state = session.state();
    state.pictures.solo = view.solo;
    state.panels.step_histogram = view.step_histogram;
    state.pictures.show_caption = a.Has("--caption");
    state.show_critical_path = a.Has("--critical-path");
    if (step_index >= 0) {
      const analysis::ReportStep& s = data[0]->analysis.report.steps[step_index];
      state.links.focused_step = step_index;
      state.FitRange(TimeRange{s.start_ns, s.start_ns + s.dur_ns}, 0.02);
    }
    if (range) {
      const TimeNs origin = data[0]->trace->span().start_ns;
      state.requests.fit = TimeRange{origin + static_cast<TimeNs>(std::llround(start_ms * 1e6)),
                                     origin + static_cast<TimeNs>(std::llround(end_ms * 1e6))};
    }
  }
  if (const auto notes_path = a.Value("--notes"); notes_path && !view.compare) {
    std::string message;
    if (!session.ImportNotes(*notes_path, &message)) {
      err << "stepline screenshot: " << message << "\n";
      return 1;
    }
    if (message.find(" (the notes were made on ") != std::string::npos) err << "stepline screenshot: " << message << "\n";
  }
  // The Open dialog up over the view, listing DIR (pictures of the dialog).
  if (const auto dialog_dir = a.Value("--file-dialog")) session.BrowseFor(ViewerSession::Pick::kOpen, *dialog_dir);
  // The Efficiency settings window up, filled with the options the picture's analysis used.
  if (a.Has("--efficiency-settings") && !view.compare) session.state().requests.efficiency_settings = true;
  // A few frames let ImGui settle table and window sizes.
  const std::string headlines_path = a.Value("--headlines").value_or("");
  std::vector<ui::DrawnHeadline> drawn;
  if (!headlines_path.empty()) ui::RecordHeadlines(&drawn);
  RenderHeadlessFrames(size.w, size.h, 4, [&] {
    renderer.BeginFrame();
    session.Frame({}, &renderer);
  }, target);
  ui::RecordHeadlines(nullptr);
  if (!headlines_path.empty() && !WriteHeadlineDump(headlines_path, drawn, &error)) {
    err << "stepline screenshot: " << error << "\n";
    return 1;
  }
  exports::SafeWriteOptions write;
  write.overwrite = a.Has("--force");
  for (const std::string& f : files) write.inputs.push_back(f);
  if (!WritePng(*out_path, size.w, size.h, target.ReadRgba(), write, &error)) {
    err << "stepline screenshot: " << error << "\n";
    return 1;
  }
  out << *out_path << "\n";
  return 0;
}

}  // namespace stepline::app
