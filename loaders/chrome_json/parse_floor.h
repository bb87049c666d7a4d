// The parse floor (`stepline bench`'s parse_floor_mb_per_s):
// simdjson's on-demand parse of a Chrome JSON trace on the loader's cores and
// chunks, visiting every value (numbers converted, strings unescaped) and
// keeping nothing. A load can be compared with it: the rest is our own work.
#pragma once

#include <optional>
#include <string_view>

namespace stepline::loaders {

// Milliseconds (wall) for one parse of `json`, which must be followed by at
// least 64 readable bytes (a DecodedInput's buffer is). `threads` 0 = all
// cores. nullopt when a chunk does not parse (a damaged or cut file, which
// the loader reads through its exact fallback; the floor has none).
std::optional<double> MeasureParseFloorMs(std::string_view json, int threads);

}  // namespace stepline::loaders
