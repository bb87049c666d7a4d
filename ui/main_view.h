// MainView: the window's content: menu bar, search bar, the overview column
// (analysis summary + selection details) left of the timeline, the tabbed
// analysis tables below it, plus the help overlay and load status.
// It never opens files or windows itself: it returns requests to the app.
#pragma once

#include <string>
#include <vector>

#include "ui/details_panel.h"
#include "ui/idle_gaps_panel.h"
#include "ui/kernel_panel.h"
#include "ui/op_stats_panel.h"
#include "ui/overview_panel.h"
#include "ui/range_panel.h"
#include "ui/timeline/timeline_panel.h"
#include "ui/view_state.h"

namespace stepline::ui {

// What the app tells the view about loading.
struct AppStatus {
  bool loading = false;
  double progress = -1;            // 0..1, or < 0 when unknown
  std::string loading_name;        // file being loaded
  std::string error;               // last load error (LoadError::ToString()), shown until dismissed
  std::string title;               // current trace file name
  std::vector<std::string> recent; // recent files, newest first
  std::string notice;              // a short message (e.g. "Saved screenshot to ...")
};

// What the view asks the app to do this frame.
struct ViewRequests {
  std::string open_path;       // load this file
  bool open_dialog = false;    // show the file browser
  bool cancel_load = false;
  bool dismiss_error = false;
  bool save_screenshot = false;
  bool quit = false;
};

class MainView {
 public:
  ViewRequests Draw(ViewState& state, const AppStatus& status, QuadRenderer* renderer);
  const TimelinePanel& timeline() const { return timeline_; }

 private:
  void DrawMenuBar(ViewState& state, const AppStatus& status, ViewRequests* req);
  void DrawSearchBar(ViewState& state);
  void DrawHelp(ViewState& state);
  void DrawStatus(const AppStatus& status, ViewRequests* req);
  void DrawBody(ViewState& state, QuadRenderer* renderer);
  void DrawLeftColumn(ViewState& state, float height);
  void DrawBottomTabs(ViewState& state);
  void DrawSelectionTab(ViewState& state);

  TimelinePanel timeline_;
  DetailsPanel details_;
  RangePanel range_;
  OverviewPanel overview_;
  IdleGapsPanel gaps_;
  OpStatsPanel ops_;
  KernelPanel kernels_;
  bool focus_search_ = false;
  char search_buf_[256] = {};
};

// Every shortcut, for the help overlay and the README.
struct Shortcut {
  const char* keys;
  const char* action;
};
const std::vector<Shortcut>& Shortcuts();

}  // namespace stepline::ui
