// ViewerSession: the viewer's state machine, shared by the interactive window
// and the headless screenshot command: which trace is shown, the load job,
// recent files, the file browser, and one UI frame at a time.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "app/gui/file_browser.h"
#include "app/gui/load_job.h"
#include "app/gui/recent_files.h"
#include "ui/main_view.h"
#include "ui/view_state.h"

namespace stepline::app {

class ViewerSession {
 public:
  explicit ViewerSession(RecentFiles recent) : recent_(std::move(recent)) {}

  void OpenFile(const std::string& path);  // in the background
  void OpenDemo(const std::string& scenario);
  // Shows an already loaded trace (headless use).
  void Show(std::shared_ptr<const ui::TimelineData> data, const std::string& title);
  bool loading() const { return job_.running(); }

  struct FrameResult {
    bool quit = false;
    bool save_screenshot = false;
  };
  // Between ImGui::NewFrame() and ImGui::Render().
  FrameResult Frame(const std::vector<std::string>& dropped_files, ui::QuadRenderer* renderer);
  void SetNotice(std::string notice) { status_.notice = std::move(notice); }

  ui::ViewState& state() { return state_; }
  const ui::MainView& view() const { return view_; }

 private:
  void PollLoad();

  LoadJob job_;
  ui::ViewState state_;
  ui::MainView view_;
  ui::AppStatus status_;
  RecentFiles recent_;
  FileBrowser browser_;
  std::string pending_path_;  // file being loaded, for the recent list
};

}  // namespace stepline::app
