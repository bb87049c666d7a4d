// CompareView: the window's content when two runs are compared:
// its own menu bar (replace or swap a side, close the comparison), both
// sides' load status, the summary table and breakdown chart in the left
// column, the aligned timelines of A above B, and the ops diff table below
// them, plus the optional caption strip. Every panel has a right-click menu
// (save it as PNG; copy or save its table). Like MainView it opens and
// writes no files and starts no loads: it returns requests to the app.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/analysis/compare.h"
#include "model/analysis/headline.h"
#include "ui/compare/aligned_timelines.h"
#include "ui/compare/compare_chart.h"
#include "ui/compare/compare_exports.h"
#include "ui/compare/compare_selection_keys.h"
#include "ui/compare/ops_diff_table.h"
#include "ui/panel_capture.h"
#include "ui/table_export.h"
#include "ui/timeline/quad_renderer.h"
#include "ui/toast.h"
#include "ui/view_state.h"

namespace stepline::ui {

// What the app tells the compare view about loading.
struct CompareStatus {
  struct Load {
    bool loading = false;
    double progress = -1;  // 0..1, or < 0 when unknown
    std::string name;      // file being loaded
  };
  Load load[2];                     // side A, side B
  std::string error;                // last load error, shown until dismissed
  std::string notice;               // a short message (e.g. "Saved screenshot to ..."), shown as a toast
  bool capturing = false;           // this frame becomes a picture: no toast
  std::vector<std::string> recent;  // recent files, newest first
  bool show_caption = false;        // the caption strip at the bottom (the app keeps the preference)
  std::string export_folder;        // where pictures and tables go (shown in the View menu)
  std::string reload_offer;         // "A (a.json) changed on disk: ..." with Reload / Dismiss
  bool modal_open = false;          // a dialog (file browser, drop question) has the keyboard
};

// What the compare view asks the app to do this frame.
struct CompareRequests {
  int replace_dialog = -1;  // 0 / 1: pick a file for side A / B with the file browser
  int replace_side = -1;    // 0 / 1: load replace_path into that side
  std::string replace_path;
  std::string open_path;     // leave the comparison and open this file alone
  bool open_dialog = false;  // leave the comparison: pick one file to open alone
  bool swap = false;         // exchange A and B
  bool close = false;        // back to the single-trace view of A
  bool cancel_load = false;
  bool dismiss_error = false;
  bool reload = false;          // load the changed side(s) again
  bool dismiss_reload = false;  // keep what is shown; forget the offer
  bool save_screenshot = false;
  std::optional<PanelShot> save_panel;       // one panel as PNG ("Save ... as PNG" on its menu)
  std::vector<ExportRequest> exports;        // tables (CSV) to save
  std::optional<bool> show_caption;          // the View menu's caption toggle was flipped
  std::optional<std::string> export_folder;  // the View menu's folder was edited
  bool quit = false;
  std::string notice;  // a short message for the toast (Ctrl+C, M, Shift+M)
};

class CompareView {
 public:
  // Shows runs `a` and `b` (both loaded); computes the comparison and aligns
  // the timelines on each run's first full step.
  void SetRuns(std::shared_ptr<const TimelineData> a, std::string title_a, std::shared_ptr<const TimelineData> b,
               std::string title_b);
  bool has_runs() const { return states_[0].data && states_[1].data; }
  // Draws the whole window; call between ImGui::NewFrame() and Render().
  CompareRequests Draw(const CompareStatus& status, QuadRenderer* renderer);

  // Aligns step `step` of A with step `step` of B (clamped to each run).
  void SelectStep(int step) { SelectSteps(step, step); }
  // Aligns step `step_a` of A with step `step_b` of B.
  void SelectSteps(int step_a, int step_b) {
    timelines_.SelectSteps(states_[0], states_[1], comparison_, step_a, step_b);
  }
  // Frames [start, end) ns from the aligned step starts in both timelines.
  void ShowAlignedRange(DurNs start_ns, DurNs end_ns) {
    timelines_.ShowRelativeRange(states_[0], states_[1], start_ns, end_ns);
  }
  // Selects row `row` of comparison().ops as a click on it would: highlights
  // the op in both timelines and brings an occurrence into view.
  void SelectOp(int row) {
    ops_.Select(row);
    HighlightSelectedOp();
  }
  // Merges op names that differ only by numbering or template noise.
  void SetNormalizeNames(bool normalize);

  const analysis::Comparison& comparison() const { return comparison_; }
  ViewState& state(int side) { return states_[side]; }
  const std::string& title(int side) const { return titles_[side]; }
  const AlignedTimelines& timelines() const { return timelines_; }
  OpsDiffTable& ops_table() { return ops_; }
  // Where the caption strip was drawn last frame (none when it is off): the
  // app puts it under a saved panel.
  const std::optional<PanelShot>& caption_strip() const { return caption_strip_; }
  // The compare view's body as drawn last frame (what "Save compare view as
  // PNG" saves); none before the first frame with both runs.
  const std::optional<PanelShot>& whole_view() const { return whole_; }
  // The caption text for the current alignment and view.
  std::string CaptionText() const;

 private:
  void Recompare();
  void DrawMenuBar(const CompareStatus& status, CompareRequests* req);
  void DrawPicturesMenu(const CompareStatus& status, CompareRequests* req);
  void DrawStatus(const CompareStatus& status, CompareRequests* req);
  void DrawLeftColumn(float width, float height, ComparePanelMenus* menus);
  OpsDiffTable::Event DrawOpsDiff(ComparePanelMenus* menus);
  void DrawCaption();
  void HighlightSelectedOp();
  void RevealHighlightedOp();

  ViewState states_[2];
  std::string titles_[2];
  analysis::Comparison comparison_;
  analysis::Headline heads_[2];  // A's and B's headline figures, with the comparison
  bool normalize_names_ = true;
  AlignedTimelines timelines_;
  CompareChart chart_;
  OpsDiffTable ops_;
  Toast toast_;
  CompareSelectionKeys selection_keys_;  // Ctrl+C, M, Shift+M on one side
  std::optional<PanelShot> caption_strip_;
  bool diagnostics_open_[2] = {};  // each side's Details window (data-loss banner)
  std::optional<PanelShot> whole_;  // the compare view's body, last frame
  bool pending_normalize_ = true;   // the ops table's checkbox, applied after drawing
  char folder_buf_[512] = {};       // the View menu's export folder field
};

}  // namespace stepline::ui
