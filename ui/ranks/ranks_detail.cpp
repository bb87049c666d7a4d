// The ranks timeline's detail mode (see ranks_detail.h).
#include "ui/ranks/ranks_detail.h"

#include <algorithm>

namespace stepline::ui {

bool SummaryTooCoarse(const Viewport& view, const analysis::RankLanes& lanes) {
  if (lanes.empty() || lanes.range.empty()) return false;
  const double bin_ns = static_cast<double>(lanes.range.duration_ns()) / static_cast<double>(lanes.bins());
  return bin_ns * view.px_per_ns() > kDetailMinBinPx;
}

bool RankHasTrace(const RanksViewInput& input, size_t input_rank) {
  if (input_rank >= input.ranks.size() || input.ranks[input_rank].lanes.empty()) return false;
  return !input.details || input.details->State(input_rank) != RankDetailState::kNoTrace;
}

std::vector<size_t> RanksToLoad(const RanksViewInput& input, const Viewport& view, size_t first_row, size_t end_row,
                                size_t budget) {
  std::vector<size_t> out;
  if (!input.analysis) return out;
  end_row = std::min(end_row, input.analysis->ranks.size());
  for (size_t g = first_row; g < end_row && out.size() < budget; ++g) {
    const size_t r = input.analysis->ranks[g].input;
    if (RankHasTrace(input, r) && SummaryTooCoarse(view, input.ranks[r].lanes)) out.push_back(r);
  }
  return out;
}

std::vector<DetailRect> LayoutDetailLane(const analysis::DetailLane& lane, const Viewport& view, DurNs offset_ns) {
  std::vector<DetailRect> out;
  const auto [first, last] = lane.RowsIn(view.visible.start_ns + offset_ns, view.visible.end_ns + offset_ns);
  const float w = static_cast<float>(view.width_px);
  const auto x_of = [&](TimeNs t) {
    return static_cast<float>(std::clamp(view.TimeToX(t - offset_ns), -1.0, view.width_px + 1.0));
  };
  std::optional<DetailRect> run;  // sub-pixel slices being merged
  for (size_t i = first; i < last; ++i) {
    if (lane.end_ns[i] <= view.visible.start_ns + offset_ns) continue;  // ends before the view
    const float x0 = x_of(lane.start_ns[i]), x1 = x_of(lane.end_ns[i]);
    if (x1 - x0 >= 1.f) {
      if (run) out.push_back(*run), run.reset();
      out.push_back({x0, x1, static_cast<uint32_t>(i), 1});
      continue;
    }
    if (run && x0 <= run->x1 + 1.f) {
      run->x1 = std::max(run->x1, x1);
      ++run->slices;
      continue;
    }
    if (run) out.push_back(*run);
    run = DetailRect{x0, std::min(w + 1.f, std::max(x1, x0 + 1.f)), static_cast<uint32_t>(i), 1};
  }
  if (run) out.push_back(*run);
  return out;
}

std::optional<uint32_t> DetailRowAt(const analysis::DetailLane& lane, TimeNs t, DurNs slop_ns) {
  const auto [first, last] = lane.RowsIn(t - slop_ns, t + slop_ns + 1);
  std::optional<uint32_t> best;
  DurNs best_dur = 0;
  for (size_t i = first; i < last; ++i) {
    if (lane.end_ns[i] + slop_ns < t || lane.start_ns[i] - slop_ns > t) continue;
    const DurNs dur = lane.end_ns[i] - lane.start_ns[i];
    if (!best || dur < best_dur) best = static_cast<uint32_t>(i), best_dur = dur;
  }
  return best;
}

const analysis::DetailLane* DetailLaneOf(const analysis::RankDetail& detail, int li, int compute_lanes) {
  if (li < compute_lanes) {
    return static_cast<size_t>(li) < detail.compute.size() ? &detail.compute[static_cast<size_t>(li)] : nullptr;
  }
  return li == compute_lanes ? &detail.collective : &detail.host;
}

}  // namespace stepline::ui
