// MainView: the window's content: menu bar, search bar, the overview column
// (analysis summary + selection details) left of the timeline, the tabbed
// analysis tables below it, the optional caption strip, plus the help
// overlay, load status and toast notices. Every panel has a right-click menu
// (save it as PNG, copy or save its table). In solo mode one panel fills the
// window (headless pictures). It never opens or writes files itself: it
// returns requests to the app.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "ui/details_panel.h"
#include "ui/efficiency_settings.h"
#include "ui/input/test_events.h"
#include "ui/keys_window.h"
#include "ui/idle_gaps_panel.h"
#include "ui/kernel_panel.h"
#include "ui/memory/memory_panel.h"
#include "ui/notes/notes_tab.h"
#include "ui/op_stats_panel.h"
#include "ui/overview_panel.h"
#include "ui/query_panel.h"
#include "ui/panel_capture.h"
#include "ui/range_panel.h"
#include "ui/table_export.h"
#include "ui/timeline/timeline_panel.h"
#include "ui/toast.h"
#include "ui/view_state.h"

namespace stepline::ui {

// What the app tells the view about loading.
struct AppStatus {
  bool loading = false;
  double progress = -1;            // 0..1, or < 0 when unknown
  std::string loading_name;        // file being loaded
  bool waiting = false;            // a pipe with no data yet: "Waiting for data from <name>"
  std::string error;               // last load error (LoadError::ToString()), shown until dismissed
  std::string title;               // current trace file name
  std::vector<std::string> recent; // recent files, newest first
  std::string notice;              // a short message (e.g. "Saved screenshot to ..."), shown as a toast
  bool capturing = false;          // this frame becomes a picture: no toast
  bool modal_open = false;         // a dialog (file browser, drop question) has the keyboard
  std::string reload_offer;        // "run.json changed on disk: ..." with Reload / Dismiss, until answered
};

// What the view asks the app to do this frame.
struct ViewRequests {
  std::string open_path;       // load this file
  bool open_dialog = false;    // show the file browser
  bool open_folder_dialog = false;  // pick a run of a TensorBoard/XProf log directory
  bool compare_dialog = false;  // pick a file to compare with: it becomes B, the trace on screen A
  bool memory_snapshot_dialog = false;  // pick a PyTorch memory snapshot to open with the trace on screen
  bool clear_cache = false;     // delete every column cache file (File > Clear cache)
  bool cancel_load = false;
  bool dismiss_error = false;
  bool reload = false;          // load the changed file(s) of reload_offer again
  bool dismiss_reload = false;  // keep what is shown; forget the offer
  bool save_screenshot = false;             // the whole window as PNG
  std::optional<PanelShot> save_panel;      // one panel as PNG ("Save as PNG" on its menu)
  std::vector<ExportRequest> exports;       // tables (CSV) and charts (SVG) to save
  bool export_notes = false;   // File > Export notes: the app writes them beside the pictures
  bool import_notes = false;   // File > Import notes: the app asks for the file
  // Efficiency settings' Apply: analyse the trace on screen again with these (and keep them for it).
  std::optional<analysis::EfficiencyOptions> efficiency;
  std::string notice;          // a key's short confirmation ("Note 2 added"), for the toast
  bool quit = false;
};

class MainView {
 public:
  ViewRequests Draw(ViewState& state, const AppStatus& status, QuadRenderer* renderer);
  const TimelinePanel& timeline() const { return timeline_; }
  // Panels that said "Analysing..." in the last frame (0 once the analysis is in).
  int analysis_pending_panels() const { return analysis_pending_panels_; }
  // Where the caption strip was drawn last frame (none when it is off): the
  // app puts it under a saved panel.
  const std::optional<PanelShot>& caption_strip() const { return caption_strip_; }

 private:
  void DrawMenuBar(ViewState& state, const AppStatus& status, ViewRequests* req);
  void DrawPicturesMenu(ViewState& state, ViewRequests* req);
  void OpenSearch() {  // `/`, Ctrl+F: the field takes the keyboard next frame
    focus_search_ = true;
    TestEvent("search.open");
  }
  void DrawSearchBar(ViewState& state, bool keys);
  void DrawHelp(ViewState& state);
  void DrawStatus(const AppStatus& status, ViewRequests* req);
  void DrawBody(ViewState& state, const AppStatus& status, QuadRenderer* renderer, ViewRequests* req);
  void DrawLeftColumn(ViewState& state, float height, float width, ViewRequests* req);
  void DrawDetails(ViewState& state, const char* id, float width, ViewRequests* req);
  void DrawBottomTabs(ViewState& state, ViewRequests* req);
  void DrawBottomMenu(ViewState& state, ViewRequests* req);
  void DrawSelectionTab(ViewState& state);
  // The walk's log (STEPLINE_TEST_EVENTS): where a bottom tab's label is, when
  // it moves ("tab.rect name=notes x= y="), and when a tab starts to show.
  void ReportTabForWalk(BottomTab tab, bool open);
  void DrawSolo(ViewState& state, const AppStatus& status);
  void DrawCaption(const ViewState& state, const AppStatus& status);

  TimelinePanel timeline_;
  DetailsPanel details_;
  RangePanel range_;
  OverviewPanel overview_;
  IdleGapsPanel gaps_;
  OpStatsPanel ops_;
  KernelPanel kernels_;
  MemoryPanel memory_;
  QueryPanel query_;
  NotesTab notes_;
  EfficiencySettings efficiency_settings_;
  Toast toast_;
  std::optional<PanelShot> caption_strip_;
  char folder_buf_[512] = {};  // the View menu's export folder field
  bool focus_search_ = false;
  bool diagnostics_open_ = false;
  std::array<std::string, kBottomTabCount> reported_tab_rects_;  // per BottomTab, for ReportTabForWalk
  int reported_open_tab_ = -1;
  bool overview_column_ = true;  // last frame drew the overview column (not the narrow summary strip)
  bool narrow_ = false;            // last frame's window was below the overview column's width
  bool overview_window_ = false;   // narrow window: the overview in a window of its own
  char search_buf_[256] = {};
  int analysis_pending_panels_ = 0;
};

// Every shortcut, for the help overlay and docs/guide.md.
const std::vector<Shortcut>& Shortcuts();

}  // namespace stepline::ui
