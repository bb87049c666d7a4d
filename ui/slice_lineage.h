// Where a slice sits in its track's nesting: its ancestors (for the details
// panel's breadcrumbs) and how many slices it contains; and the slice's
// args as one JSON object (the details panel's "Copy args").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/trace.h"

namespace stepline::ui {

// Outermost first, ending with the slice's parent; empty for a root slice.
std::vector<SliceId> SliceAncestors(const Trace& trace, SliceId slice);

struct ChildCounts {
  uint32_t direct = 0;       // slices whose parent is this one
  uint32_t descendants = 0;  // every slice nested inside it, at any depth
};
// Walks only the slice's descendants (they follow it in table order on its
// track), so a caller keeps the answer while the selection holds.
ChildCounts SliceChildCounts(const Trace& trace, SliceId slice);

// {"key": value, ...} in the args' order: numbers and booleans as JSON
// literals, strings escaped, values that were JSON in the trace as they were.
std::string SliceArgsJson(const Trace& trace, SliceId slice);

}  // namespace stepline::ui
