// Builds a large Chrome-JSON trace from a small one, in memory, for load
// benchmarks (`stepline bench --tile-mb N`). Text in, text out: no parsing
// into a model, so the result measures the loader, not this code.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "model/result.h"

namespace stepline::app {

struct TiledTrace {
  std::string json;        // the tiled trace
  uint32_t copies = 0;     // how many copies of the event array it holds
  int64_t shift_us = 0;    // time shift between consecutive copies, whole microseconds
  uint64_t ts_fields = 0;  // "ts" values rewritten per copy
};

// Repeats the body of the `traceEvents` array (object form) or of the
// top-level array (array form) until the output holds at least `min_bytes`.
// Copy k has every event-level "ts" shifted by k * shift_us, where shift_us =
// ceil(span of the original events) + 1000 (1 ms), so copies never overlap in
// time. Numbers are shifted on their text: a non-negative decimal keeps its
// fraction digits exactly; other forms (exponent, negative) go through double.
// Only keys of the event objects themselves are touched ("ts" inside args is
// left alone). Ids (flows, async, correlation) repeat in every copy, each
// copy's events being contiguous in the file. Fails on input that is not a
// Chrome-JSON trace or whose event array is empty or unterminated.
Result<TiledTrace, std::string> TileChromeJson(std::string_view json, uint64_t min_bytes);

}  // namespace stepline::app
