// A sizing pass over an XSpace before it is decoded: how many events, and how
// many arg rows they will make, so the loader sizes the slice and arg tables
// once. Growing them by doubling instead copies every column and faults in
// its pages twice, which costs more than this pass (page faults are the
// largest single cost of building a big model).
#pragma once

#include <cstdint>
#include <vector>

#include "loaders/xspace/xspace_framing.h"

namespace stepline::loaders::xspace {

struct XSpaceSize {
  uint64_t events = 0;  // XLine.events entries over all lines
  // Event stats, plus the args each event takes from its metadata (stats,
  // long_name), plus trace metadata (plane stats, one per plane, hostnames):
  // an upper bound on the arg rows of a load that keeps args.
  uint64_t arg_rows = 0;
};

// Counts from tags and lengths only; nothing is interned or validated. Stops
// quietly at malformed bytes (the decode reports them), so the figures are
// then lower bounds. `with_args` false skips the arg count. With `threads`
// >= 2 a large input is measured in two halves of planes at once.
XSpaceSize MeasureXSpace(const char* input, const std::vector<PlaneSpan>& planes, bool with_args, unsigned threads);
// The planes in [begin, end), on this thread (without the hostnames row).
XSpaceSize MeasurePlanes(const char* input, const PlaneSpan* begin, const PlaneSpan* end, bool with_args);

}  // namespace stepline::loaders::xspace
