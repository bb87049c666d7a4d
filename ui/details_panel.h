// DetailsPanel: everything about the selected slice: name, category, track,
// start, duration, self time, every arg, and the slices linked to it by flows
// (launch <-> kernel) with a button to jump there; where the slice sits (its
// ancestors as breadcrumbs that select and frame them, its child count) and
// buttons that copy its name, args (JSON), start and duration.
#pragma once

#include <cstdint>
#include <utility>

#include "ui/slice_lineage.h"
#include "ui/view_state.h"

namespace stepline::ui {

class DetailsPanel {
 public:
  void Draw(ViewState& state);

 private:
  void DrawLineage(ViewState& state);
  void DrawCopyButtons(const ViewState& state);

  // Self time of the selection (analysis::SliceSelfNs), for (generation, slice).
  std::pair<uint64_t, uint32_t> self_for_{0, UINT32_MAX};
  DurNs self_ns_ = 0;
  ChildCounts children_;  // of the same selection, kept with the self time
};

}  // namespace stepline::ui
