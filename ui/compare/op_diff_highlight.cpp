// Ops-diff row highlighting; see op_diff_highlight.h.
#include "ui/compare/op_diff_highlight.h"

#include <algorithm>
#include <vector>

namespace stepline::ui {

void HighlightOpNames(ViewState& state, std::span<const StringId> names, bool on_device) {
  state.HighlightOp(names.empty() ? StringId::None() : names.front(), on_device);
  if (names.size() <= 1 || state.trace() == nullptr) return;
  // Several names: one pass over the slices with a sorted id list.
  std::vector<StringId> sorted(names.begin(), names.end());
  std::sort(sorted.begin(), sorted.end());
  const SliceTable& s = state.trace()->slices();
  const auto slice_names = s.name();
  const auto kinds = s.gpu_kind();
  state.links.op_occurrences.clear();
  ++state.links.highlight_generation;
  for (uint32_t i = 0; i < s.size(); ++i) {
    if ((kinds[i] != GpuKind::kNone) == on_device && std::binary_search(sorted.begin(), sorted.end(), slice_names[i])) {
      state.links.op_occurrences.push_back(i);
    }
  }
}

TimeRange OpRevealRange(TimeNs start, DurNs dur, TimeRange span) {
  dur = std::max<DurNs>(dur, 1000);
  TimeRange r{start - 2 * dur, start + 19 * dur};
  if (span.empty()) return r;
  if (r.start_ns < span.start_ns) {
    r.end_ns += span.start_ns - r.start_ns;
    r.start_ns = span.start_ns;
  }
  if (r.end_ns > span.end_ns) {
    r.start_ns = std::max(span.start_ns, r.start_ns - (r.end_ns - span.end_ns));
    r.end_ns = span.end_ns;
  }
  return r;
}

}  // namespace stepline::ui
