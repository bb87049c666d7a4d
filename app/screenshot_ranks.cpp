// `stepline screenshot PATH... --view ranks --out PNG [--size WxH] [--scale S]
// [--force]`: the ranks view (ui/ranks) of a set of rank traces, rendered
// headless like the other views (issue #20).
#include <epoxy/gl.h>

#include <imgui.h>

#include <algorithm>
#include <ostream>
#include <thread>

#include "app/cli_args.h"
#include "app/gui/gl_window.h"
#include "app/gui/headless_frame.h"
#include "app/gui/offscreen.h"
#include "app/gui/run_picker.h"
#include "app/rank_set.h"
#include "app/screenshot_ranks.h"
#include "ui/ranks/ranks_view.h"

namespace stepline::app {

int ScreenshotRanks(const std::vector<std::string>& paths, const std::string& out_path, int width, int height,
                    double scale, bool force, bool run_list, std::ostream& out, std::ostream& err) {
  if (paths.empty()) {
    err << "stepline screenshot: --view ranks needs rank trace files or a directory of them\n";
    return 1;
  }
  RanksRun run;
  const std::string error = LoadRankSet(paths, static_cast<int>(std::max(1u, std::thread::hardware_concurrency())), &run, err);
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
  if (run_list) view.OpenRunList();
  RenderHeadlessFrames(width, height, 4, [&] {
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(vp->Pos);
    ImGui::SetNextWindowSize(vp->Size);
    ImGui::Begin("Ranks", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings);
    view.Draw(input);
    ImGui::End();
  }, target);
  SafeWriteOptions write;
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
