// `stepline screenshot PATH... --view ranks --out PNG [--size WxH] [--scale S]
// [--force] [--step N] [--range START_MS:END_MS] [--theme T]`: the ranks view (ui/ranks) of a set of rank traces, rendered
// headless like the other views.
#include <epoxy/gl.h>

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <ostream>
#include <thread>

#include "app/cli/cli_args.h"
#include "app/cli/headline_dump.h"
#include "app/gui/gl_window.h"
#include "app/gui/headless_frame.h"
#include "app/gui/offscreen.h"
#include "app/gui/run_picker.h"
#include "app/gui/rank_detail_cache.h"
#include "app/runs/rank_set.h"
#include "app/runs/rank_set_memory.h"
#include "app/cli/screenshot_ranks.h"
#include "ui/ranks/ranks_view.h"
#include "ui/ranks/ranks_window.h"
#include "ui/theme_style.h"

namespace stepline::app {

int ScreenshotRanks(const std::vector<std::string>& paths, const std::string& out_path, int width, int height,
                    double scale, bool force, const RanksShotView& shot, std::ostream& out, std::ostream& err) {
  if (paths.empty()) {
    err << "stepline screenshot: --view ranks needs rank trace files or a directory of them\n";
    return 1;
  }
  // Said at the start, as `stepline ranks` says it: the models of `threads` ranks are held at once.
  const int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  std::string subject;
  for (const std::string& p : paths) subject += (subject.empty() ? "" : " ") + p;
  const std::string warning = RankSetMemoryWarning(subject, paths, threads, "", loaders::AvailableMemory());
  if (!warning.empty()) err << "stepline screenshot: warning: " << warning << '\n';
  RanksRun run;
  const std::string error = LoadRankSet(paths, threads, &run, err);
  for (const RankFailure& f : run.failed) err << "stepline screenshot: " << f.path << " failed to load: " << f.error << '\n';
  if (!error.empty()) {
    err << "stepline screenshot: " << error << '\n';
    return 1;
  }
  GlWindow window;
  GlWindow::Options options;
  options.width = width;
  options.height = height;
  options.visible = false;
  options.font_scale = static_cast<float>(scale);
  std::string gl_error;
  if (!window.Create(options, &gl_error)) {
    err << "stepline screenshot: " << gl_error << '\n';
    return 1;
  }
  ui::ApplyTheme(shot.theme);
  OffscreenTarget target;
  if (!target.Create(width, height, &gl_error)) {
    err << "stepline screenshot: " << gl_error << '\n';
    return 1;
  }
  ui::RanksView view;
  ui::RanksViewInput input;
  input.ranks = run.ranks;
  input.analysis = &run.analysis;
  input.title = paths.size() == 1 ? paths.front() : std::to_string(paths.size()) + " paths";
  input.runs = RanksRunChoices(run.runs, run.run_index);
  if (shot.run_list) view.OpenRunList();
  std::optional<TimeRange> range;
  if (shot.range_ms) {
    range = TimeRange{static_cast<TimeNs>(shot.range_ms->first * 1e6), static_cast<TimeNs>(shot.range_ms->second * 1e6)};
  }
  view.timeline().ShowStep(shot.step, range);
  // The window's detail loading, waited for: frames until nothing is queued.
  std::vector<std::string> trace_paths;
  for (const analysis::RankSummary& r : run.ranks) trace_paths.push_back(r.lanes.empty() ? std::string() : r.path);
  RankDetailCache details(std::move(trace_paths), RankDetailBudget());
  input.details = &details;
  ui::RanksWindow ranks_window;  // as the window draws it: menu bar and all
  const auto draw = [&] { ranks_window.Draw(view, input, false); };
  RenderHeadlessFrames(width, height, 4, draw, target);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(2);
  while (!details.Idle() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    RenderHeadlessFrames(width, height, 1, draw, target);  // the view may ask for more ranks
  }
  if (!details.Idle()) err << "stepline screenshot: rank detail still loading after 2 minutes; drawn as summaries\n";
  std::vector<ui::DrawnHeadline> drawn;
  if (!shot.headlines_path.empty()) ui::RecordHeadlines(&drawn);
  RenderHeadlessFrames(width, height, 4, draw, target);
  ui::RecordHeadlines(nullptr);
  if (!shot.headlines_path.empty() && !WriteHeadlineDump(shot.headlines_path, drawn, &gl_error)) {
    err << "stepline screenshot: " << gl_error << '\n';
    return 1;
  }
  exports::SafeWriteOptions write;
  write.overwrite = force;
  for (const analysis::RankSummary& s : run.ranks) write.inputs.push_back(s.path);
  if (!WritePng(out_path, width, height, target.ReadRgba(), write, &gl_error)) {
    err << "stepline screenshot: " << gl_error << '\n';
    return 1;
  }
  out << out_path << '\n';
  return 0;
}

}  // namespace stepline::app
