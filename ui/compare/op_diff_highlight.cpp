// Ops-diff row highlighting; see op_diff_highlight.h.
#include "ui/compare/op_diff_highlight.h"

#include <algorithm>

#include "model/analysis/op_name_normalize.h"

namespace stepline::ui {

std::vector<StringId> MatchDiffRowNames(const AnalysisData& run, std::string_view row_name, analysis::OpKind kind,
                                        bool normalized) {
  std::vector<StringId> out;
  const auto& ops = run.report.ops;
  for (size_t i = 0; i < ops.size() && i < run.ops.ops.size(); ++i) {
    if (ops[i].kind != kind) continue;
    const bool match = normalized ? analysis::NormalizeOpName(ops[i].name) == row_name : ops[i].name == row_name;
    if (match) out.push_back(run.ops.ops[i].name);
  }
  return out;
}

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

}  // namespace stepline::ui
