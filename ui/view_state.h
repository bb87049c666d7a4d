// ViewState: everything the panels share (selection, visible range, layout
// choices, search, options). Panels talk through it, never through pointers
// to each other; they keep only ids and view state, never trace data.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/analysis/report.h"
#include "model/trace.h"
#include "ui/notes/note_set.h"
#include "ui/timeline/slice_colors.h"
#include "ui/timeline/timeline_data.h"
#include "ui/timeline/track_layout.h"
#include "ui/timeline/viewport.h"
#include "ui/timeline/zoom_history.h"

namespace stepline::ui {

class QueryBackend;  // ui/query_panel.h

// Which analysis tab the bottom pane shows.
enum class BottomTab : uint8_t { kIdleGaps = 0, kOpStats, kKernels, kSelection, kMemory, kQuery, kNotes };
inline constexpr int kBottomTabCount = 7;
static_assert(static_cast<int>(BottomTab::kNotes) + 1 == kBottomTabCount, "a new tab needs its name");
// "idle_gaps", "op_stats", ...: a tab's name in the settings file and the
// window walk's events log.
std::string_view BottomTabName(BottomTab tab);

// Sizes and visibility of the panes around the timeline. Plain data so the
// app can persist it between runs (see PanelLayout fields; px are unscaled).
struct PanelLayout {
  bool show_overview = true;   // the overview column at the left
  float overview_width = 0;    // px; 0 = theme default
  float bottom_height = 0;     // px of the tabbed tables under the timeline; 0 = theme default
  BottomTab bottom_tab = BottomTab::kIdleGaps;
  bool step_histogram = false;  // the overview's step chart shows the step-duration histogram
  bool operator==(const PanelLayout&) const = default;
};

// A single panel filling the window, for headless pictures of one panel
// (`stepline screenshot --view ops`); kNone is the normal layout.
enum class SoloPanel : uint8_t { kNone = 0, kOverview, kOpStats, kKernels, kIdleGaps, kMemory };

// Search over the whole trace (not just the view).
struct SearchState {
  std::string text;
  bool regex = false;
  std::vector<uint32_t> matches;  // matching slice rows, ascending
  std::string error;
  size_t cursor = 0;
};

// Analysis links between the panels and the timeline: the selected gap and
// step, the highlighted op, and the Idle gaps filters (the gaps list and the
// timeline's shading both read them).
struct AnalysisLinks {
  bool show_gap_overlay = true;           // idle gaps shaded on GPU device rows
  int32_t selected_gap = -1;              // index into data->analysis.gaps; -1 none
  int32_t focused_step = -1;              // index into data->analysis.report.steps; -1 none
  StringId highlighted_op;                // op whose occurrences are highlighted; None = none
  bool highlighted_op_on_device = false;  // which side its name was counted on
  std::vector<uint32_t> op_occurrences;   // slice rows of the highlighted op, ascending
  uint64_t highlight_generation = 0;      // bumped whenever search.matches or op_occurrences change
  uint32_t gap_cause_mask = (1u << analysis::kIdleCauseCount) - 1;  // bit per analysis::IdleCause shown
  // Shorter gaps are hidden: the report's --min-gap-us default (launch jitter).
  DurNs gap_min_dur_ns = analysis::ReportOptions{}.min_gap_ns;
};

// Pictures and exports.
struct PictureOptions {
  bool show_caption = false;          // caption strip under the view: file, visible range, step
  std::string export_folder;          // where screenshots and exports go (the app sets its default)
  SoloPanel solo = SoloPanel::kNone;  // one panel fills the window (headless screenshots)
};

// Requests from panels or keys, applied by the timeline (or the main view) next frame.
struct PanelRequests {
  std::optional<TimeRange> fit;
  bool scroll_to_selection = false;
  bool bottom_tab = false;  // a panel asked to show panels.bottom_tab
  bool efficiency_settings = false;  // a tile asked for the Efficiency settings window
};

struct ViewState {
  std::shared_ptr<const TimelineData> data;  // null until a trace is loaded
  // SQL over `data`'s trace for the Query tab; the app sets it (null: none).
  std::shared_ptr<QueryBackend> query;

  // The view of the timeline.
  Viewport viewport;                 // visible time window; width set by the timeline each frame
  ZoomHistory history;               // earlier and later views (Alt+Left / Alt+Right)
  float scroll_y = 0;                // track area scroll, pixels
  SliceId selected;                  // clicked slice; None = nothing selected
  SliceId hovered;                   // under the mouse this frame
  std::optional<TimeRange> range;    // ruler / shift-drag selection
  LayoutChoices layout;
  ColorMode color_mode = ColorMode::kByName;
  bool show_all_flows = false;       // every flow in view, not just the selection's
  bool show_critical_path = false;   // the steps' critical paths drawn over the timeline
  bool show_help = false;
  std::optional<TimeNs>
      ruler_origin_ns;  // the ruler counts from here; unset = the trace start (compare view: a step start)
  PanelLayout panels;

  SearchState search;
  AnalysisLinks links;
  PictureOptions pictures;
  PanelRequests requests;
  NoteSet notes;  // of this trace; the app loads and saves them (not kept across traces)

  const Trace* trace() const { return data ? data->trace.get() : nullptr; }
  // Takes the user's layout and options from `other` (panels, overlays,
  // caption, export folder), not its trace, selection or view: they outlive
  // loading another trace.
  void KeepPreferencesOf(const ViewState& other);
  // Shows the whole trace.
  void FitAll();
  // Selects `slice`, and asks the timeline to bring it into view.
  void SelectAndReveal(SliceId slice);
  // Frames [range] with a margin of `margin` of its length on each side.
  void FitRange(TimeRange range, double margin = 0.05);
  // Selects gap `index`: frames it with its blamed event and the kernel that
  // ended it, and selects the most-blamed event (else the launch call).
  void SelectGap(int32_t index);
  // Highlights every slice named `name` on the host (on_device false) or GPU
  // side; None clears the highlight.
  void HighlightOp(StringId name, bool on_device);
};

}  // namespace stepline::ui
