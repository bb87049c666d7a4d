// AlignedTimelines: A's timeline above B's, each a TimelinePanel with its own
// ViewState and tracks, on one time axis that counts from the start of the
// aligned step of each run (the rulers read 0 there). Zoom and pan follow
// from either side (ViewportSync); step boundaries are drawn in both; a step
// selector (or a click on a step in either Steps strip) picks which step of A
// faces which step of B.
#pragma once

#include <string>

#include "model/analysis/compare.h"
#include "ui/compare/compare_exports.h"
#include "ui/compare/timeline_sync.h"
#include "ui/timeline/timeline_panel.h"
#include "ui/view_state.h"

namespace stepline::ui {

class AlignedTimelines {
 public:
  // Aligns step `step_a` of A with step `step_b` of B (each clamped to its
  // run; a run without steps aligns on its trace start) and frames them.
  void SelectSteps(ViewState& a, ViewState& b, const analysis::Comparison& c, int step_a, int step_b);
  // Frames [start, end) of the shared axis (ns from the aligned step starts)
  // in both timelines, keeping the alignment.
  void ShowRelativeRange(ViewState& a, ViewState& b, DurNs start_ns, DurNs end_ns);
  // Draws the step selector, then A over B, filling width x height at the
  // cursor. Each timeline's right-click menu (save it, with its title strip,
  // as PNG) reports into `menus` (may be null: no menus).
  void Draw(ViewState states[2], const std::string titles[2], const analysis::Comparison& c, float width, float height,
            QuadRenderer* renderer, ComparePanelMenus* menus = nullptr);

  int step(int side) const { return steps_[side]; }
  const StepAlignment& alignment() const { return sync_.alignment(); }

 private:
  void DrawSelector(ViewState states[2], const analysis::Comparison& c);
  void DrawTitle(const ViewState& state, const std::string& title, const analysis::CompareSide& side, int index,
                 float width);
  void DrawStepEdges(const ViewState& state, const analysis::CompareSide& side, int index) const;

  TimelinePanel panels_[2];
  ViewportSync sync_;
  int steps_[2] = {-1, -1};  // the aligned step of A and of B; -1 without steps
  std::string reported_slice_[2];  // the last compare.slice test event of each side
};

}  // namespace stepline::ui
