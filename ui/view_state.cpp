// ViewState helpers.
#include "ui/view_state.h"

#include <algorithm>

namespace stepline::ui {

void ViewState::FitAll() {
  if (const Trace* t = trace()) {
    TimeRange span = t->span();
    const DurNs pad = std::max<DurNs>(1, span.duration_ns() / 50);
    requests.fit = TimeRange{span.start_ns - pad, span.end_ns + pad};
  }
}

void ViewState::KeepPreferencesOf(const ViewState& other) {
  panels = other.panels;
  requests.bottom_tab = other.requests.bottom_tab;  // e.g. the remembered tab, not yet shown
  links.show_gap_overlay = other.links.show_gap_overlay;
  color_mode = other.color_mode;
  show_all_flows = other.show_all_flows;
  show_critical_path = other.show_critical_path;
  pictures.show_caption = other.pictures.show_caption;
  pictures.export_folder = other.pictures.export_folder;
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
    requests.fit = TimeRange{start + dur / 2 - width / 2, start + dur / 2 + width / 2};
  }
  requests.scroll_to_selection = true;
}

void ViewState::FitRange(TimeRange r, double margin) {
  const DurNs pad = std::max<DurNs>(1, static_cast<DurNs>(static_cast<double>(r.duration_ns()) * margin));
  requests.fit = TimeRange{r.start_ns - pad, r.end_ns + pad};
}

void ViewState::SelectGap(int32_t index) {
  const Trace* t = trace();
  if (!t || index < 0 || static_cast<size_t>(index) >= data->analysis.gaps.size()) {
    links.selected_gap = -1;
    return;
  }
  links.selected_gap = index;
  const analysis::IdleGap& g = data->analysis.gaps[index];
  const SliceId blamed = ArrowSource(g);
  TimeRange frame{g.start_ns, g.end_ns};
  for (SliceId s : {blamed, g.next_kernel}) {
    if (s.is_none()) continue;
    const TimeNs start = t->slices().start_ns()[s.index()];
    frame.start_ns = std::min(frame.start_ns, start);
    frame.end_ns = std::max(frame.end_ns, start + t->slices().dur_ns()[s.index()]);
  }
  FitRange(frame, 0.15);
  selected = blamed;
  requests.scroll_to_selection = !blamed.is_none();
}

void ViewState::HighlightOp(StringId name, bool on_device) {
  links.highlighted_op = name;
  links.highlighted_op_on_device = on_device;
  links.op_occurrences.clear();
  ++links.highlight_generation;
  const Trace* t = trace();
  if (!t || name.is_none()) return;
  const SliceTable& s = t->slices();
  const auto names = s.name();
  const auto kinds = s.gpu_kind();
  for (uint32_t i = 0; i < s.size(); ++i) {
    if (names[i] == name && (kinds[i] != GpuKind::kNone) == on_device) links.op_occurrences.push_back(i);
  }
}

std::string_view BottomTabName(BottomTab tab) {
  static constexpr std::string_view kNames[kBottomTabCount] = {"idle_gaps", "op_stats", "kernels", "selection",
                                                               "memory",    "query",    "notes"};
  return kNames[static_cast<size_t>(tab)];
}

}  // namespace stepline::ui
