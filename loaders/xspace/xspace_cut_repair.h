// Cut XSpace files: when the input ends inside a top-level field, rebuilds
// the well-formed prefix: the cut plane keeps its complete fields, the cut
// line its complete events, and their length prefixes are rewritten in
// place at their original width (a padded varint), so every byte keeps its
// offset and the normal loader then reads what precedes the cut.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "loaders/load_error.h"
#include "model/result.h"

namespace stepline::loaders::xspace {

struct CutRepair {
  std::string bytes;         // the repaired prefix; offsets as in the input
  uint64_t input_bytes = 0;  // where the input ends (the cut)
  uint64_t kept_bytes = 0;   // bytes.size(): everything from here on is dropped
  uint64_t declared_end = 0; // where the cut top-level field said it would end
  std::string detail;        // for the kTruncated diagnostic: where the cut is, what was dropped
};

// `cut_field_at` is XSpaceFraming::truncated_at (the tag of the field that
// runs past the end). Fails only when the bytes before the cut are malformed.
Result<CutRepair, LoadError> RepairCutXSpace(std::string_view bytes, uint64_t cut_field_at, const std::string& path);

}  // namespace stepline::loaders::xspace
