// Strong row ids. The row index in its table *is* the id; a distinct type per
// table keeps a TrackId from being passed where a SliceId is expected.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>

namespace stepline {

// kNoneValue is the null sentinel of the id type (documented per column).
template <typename Tag, uint32_t kNoneValue = std::numeric_limits<uint32_t>::max()>
struct StrongId {
  uint32_t value = kNoneValue;

  constexpr StrongId() = default;
  constexpr explicit StrongId(uint32_t v) : value(v) {}
  static constexpr StrongId None() { return StrongId(); }
  static constexpr StrongId FromIndex(size_t index) { return StrongId(static_cast<uint32_t>(index)); }

  constexpr bool is_none() const { return value == kNoneValue; }
  constexpr size_t index() const { return value; }
  constexpr auto operator<=>(const StrongId&) const = default;
};

using SliceId = StrongId<struct SliceTag>;      // row of SliceTable; None = no slice
using TrackId = StrongId<struct TrackTag>;      // row of TrackTable; None = no track
using ProcessId = StrongId<struct ProcessTag>;  // row of ProcessTable; None = no process
using InstantId = StrongId<struct InstantTag>;  // row of InstantTable
using FlowId = StrongId<struct FlowTag>;        // row of FlowTable
// StringId 0 is the empty string and means "none".
using StringId = StrongId<struct StringTag, 0>;
// ArgSetId 0 means "no args"; sets are numbered from 1.
using ArgSetId = StrongId<struct ArgSetTag, 0>;

}  // namespace stepline

template <typename Tag, uint32_t kNone>
struct std::hash<stepline::StrongId<Tag, kNone>> {
  size_t operator()(stepline::StrongId<Tag, kNone> id) const noexcept { return std::hash<uint32_t>()(id.value); }
};
