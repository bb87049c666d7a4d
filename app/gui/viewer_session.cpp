// ViewerSession: load hand-off, requests from the view, dropped files.
#include "app/gui/viewer_session.h"

#include <filesystem>

#include "loaders/demo/demo_generator.h"

namespace stepline::app {

void ViewerSession::OpenFile(const std::string& path) {
  pending_path_ = path;
  status_.error.clear();
  job_.Start(path);
}

void ViewerSession::OpenDemo(const std::string& scenario) {
  pending_path_.clear();
  status_.error.clear();
  job_.StartWith("demo: " + scenario, [scenario] {
    loaders::DemoOptions options;
    options.scenario = scenario;
    return loaders::GenerateDemoTrace(options);
  });
}

void ViewerSession::Show(std::shared_ptr<const ui::TimelineData> data, const std::string& title) {
  state_ = ui::ViewState{};
  state_.data = std::move(data);
  state_.FitAll();
  status_.title = title;
}

void ViewerSession::PollLoad() {
  status_.loading = job_.running();
  status_.loading_name = job_.name();
  status_.progress = job_.progress();
  std::optional<LoadJob::Outcome> out = job_.TakeOutcome();
  if (!out) return;
  if (!out->data) {
    // The trace on screen stays; the error is shown above it, never a crash.
    status_.error = out->error;
    return;
  }
  Show(std::move(out->data), std::filesystem::path(out->path).filename().string());
  if (!pending_path_.empty()) recent_.Add(pending_path_);
}

ViewerSession::FrameResult ViewerSession::Frame(const std::vector<std::string>& dropped_files,
                                               ui::QuadRenderer* renderer) {
  FrameResult result;
  if (!dropped_files.empty()) {
    OpenFile(dropped_files.front());
    if (dropped_files.size() > 1) {
      status_.notice = "Comparing two runs is not available yet; opened " +
                       std::filesystem::path(dropped_files.front()).filename().string();
    }
  }
  PollLoad();
  status_.recent = recent_.list();
  const ui::ViewRequests req = view_.Draw(state_, status_, renderer);
  std::string picked;
  if (req.open_dialog) {
    std::string start;
    if (!recent_.list().empty()) start = std::filesystem::path(recent_.list().front()).parent_path().string();
    browser_.Open(start);
  }
  if (browser_.Draw(&picked)) OpenFile(picked);
  if (!req.open_path.empty()) OpenFile(req.open_path);
  if (req.cancel_load) job_.Cancel();
  if (req.dismiss_error) status_.error.clear();
  result.quit = req.quit;
  result.save_screenshot = req.save_screenshot;
  return result;
}

}  // namespace stepline::app
