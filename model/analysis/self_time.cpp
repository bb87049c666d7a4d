// SelfTimes and SliceSelfNs; see self_time.h.
#include "model/analysis/self_time.h"

#include <algorithm>

namespace stepline::analysis {

std::vector<DurNs> SelfTimes(const Trace& trace) {
  const SliceTable& s = trace.slices();
  std::vector<DurNs> self(s.dur_ns().begin(), s.dur_ns().end());
  for (size_t i = 0; i < s.size(); ++i) {
    const SliceId p = s.parent()[i];
    if (p.is_none()) continue;
    self[p.index()] -= ChildTimeNs(s.start_ns()[i], s.dur_ns()[i], {s.start_ns()[p.index()], s.end_ns(p)});
  }
  for (DurNs& v : self) v = std::max<DurNs>(v, 0);
  return self;
}

DurNs SliceSelfNs(const Trace& trace, SliceId slice) {
  const SliceTable& s = trace.slices();
  const size_t i = slice.index();
  const TimeRange span{s.start_ns()[i], s.start_ns()[i] + s.dur_ns()[i]};
  const uint32_t track_end = trace.tracks().ranges(s.track()[i]).slice_end;
  DurNs children = 0;
  // Descendants follow the slice in table order until a slice starts at or
  // after its end; direct children are those whose parent is this slice.
  for (size_t j = i + 1; j < track_end && s.start_ns()[j] < span.end_ns; ++j) {
    if (s.parent()[j] == slice) children += ChildTimeNs(s.start_ns()[j], s.dur_ns()[j], span);
  }
  return std::max<DurNs>(0, s.dur_ns()[i] - children);
}

}  // namespace stepline::analysis
