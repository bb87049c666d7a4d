// ComputeBusyBins: spreads each merged busy interval over the bins it covers.
#include "model/analysis/busy_bins.h"

#include <algorithm>

namespace stepline::analysis {

BusyBins ComputeBusyBins(std::vector<Interval> intervals, TimeRange range, size_t bins) {
  BusyBins out{range, std::vector<float>(bins, 0.f)};
  if (range.empty() || bins == 0) return out;
  const double bin_ns = static_cast<double>(range.duration_ns()) / static_cast<double>(bins);
  for (const Interval& iv : MergeIntervals(std::move(intervals))) {
    const TimeNs s = std::max(iv.start_ns, range.start_ns), e = std::min(iv.end_ns, range.end_ns);
    if (e <= s) continue;
    const size_t b0 = std::min(bins - 1, static_cast<size_t>(static_cast<double>(s - range.start_ns) / bin_ns));
    // The bin holding `e` itself: with fractional bin widths the last
    // nanosecond [e - 1, e) can straddle a bin edge (a bin with no overlap adds nothing).
    const size_t b1 = std::min(bins - 1, static_cast<size_t>(static_cast<double>(e - range.start_ns) / bin_ns));
    for (size_t b = b0; b <= b1; ++b) {
      const double lo = static_cast<double>(range.start_ns) + static_cast<double>(b) * bin_ns;
      const double overlap = std::min<double>(static_cast<double>(e), lo + bin_ns) - std::max<double>(static_cast<double>(s), lo);
      if (overlap > 0) out.fraction[b] += static_cast<float>(overlap / bin_ns);
    }
  }
  for (float& f : out.fraction) f = std::min(f, 1.f);
  return out;
}

}  // namespace stepline::analysis
