// Search over the whole trace (not just the view): slice names by substring
// (case-insensitive) or ECMAScript regex. Names are tested once per distinct
// string, then the name column is scanned, so a search over 10M slices costs
// one pass over a 4-byte column.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/trace.h"

namespace stepline::ui {

struct SearchResult {
  std::vector<uint32_t> rows;  // matching slice rows, ascending
  std::string error;           // a bad regex, else empty
};

SearchResult ComputeSearchMatches(const Trace& trace, std::string_view text, bool regex);

// The match to step to from `current` (a row or None): the first match after
// it (Enter) or before it (Shift+Enter), wrapping around; None if no matches.
SliceId StepSearch(const std::vector<uint32_t>& matches, SliceId current, bool backwards);
// The match nearest `view` (its middle nearest the view's middle; the lower
// row on a tie): where the first Enter goes when nothing is selected, so the
// search starts where the reader is looking, not at the trace's start.
SliceId NearestMatch(const Trace& trace, const std::vector<uint32_t>& matches, TimeRange view);
// 1-based position of `current` among `matches` ("match 3 of 12"); 0 when it
// is not one of them.
size_t MatchPosition(const std::vector<uint32_t>& matches, SliceId current);

}  // namespace stepline::ui
