// ViewState helpers.
#include "ui/view_state.h"

namespace stepline::ui {

void ViewState::FitAll() {
  if (const Trace* t = trace()) {
    TimeRange span = t->span();
    const DurNs pad = std::max<DurNs>(1, span.duration_ns() / 50);
    request_fit = TimeRange{span.start_ns - pad, span.end_ns + pad};
  }
}

void ViewState::SelectAndReveal(SliceId slice) {
  selected = slice;
  const Trace* t = trace();
  if (!t || slice.is_none()) return;
  const TimeNs start = t->slices().start_ns()[slice.index()];
  const DurNs dur = t->slices().dur_ns()[slice.index()];
  // Keep the zoom if the slice fits; otherwise frame it with margins.
  if (dur > viewport.visible.duration_ns() || start < viewport.visible.start_ns ||
      start + dur > viewport.visible.end_ns) {
    const DurNs width = std::max<DurNs>({dur * 3, viewport.visible.duration_ns() / 4, 1000});
    request_fit = TimeRange{start + dur / 2 - width / 2, start + dur / 2 + width / 2};
  }
  request_scroll_to_selection = true;
}

}  // namespace stepline::ui
