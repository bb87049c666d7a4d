// LaunchLinks: pairs host launch calls with the GPU activities they launched
// by correlation id (Kineto "correlation", XSpace correlation_id).
//
// Why not a hash map from id to launch: a large XSpace file has millions of
// launches, and a node-based map costs an allocation per launch while it is
// built and a cache miss per lookup. With the 80-byte pending flows it fed and
// their sort, pairing was 2.4-2.9 s of a 6.5-8 s load of a 1 GB XSpace file
// (5.8M launches; now about 0.6 s). Profilers count correlation ids up from a small number per
// process (CUPTI, ROCm), so the ids are usually dense: then a plain array
// indexed by id works. Sparse ids fall back to a sorted array.
//
// Links() comes out ordered by (launch, activity), the order the flow table
// keeps, so that building the flows needs no sort in the common case.
#pragma once

#include <cstdint>
#include <vector>

#include "model/event_tables.h"
#include "model/grow_array.h"

namespace stepline::loaders {

class LaunchLinks {
 public:
  // from = the launch, to = the activity, flow_id = the correlation id.
  using Link = FlowTable::LaunchLink;

  void NoteLaunch(uint64_t correlation, SliceId launch) { launches_.push_back({correlation, launch}); }
  void NoteActivity(uint64_t correlation, SliceId activity) { activities_.push_back({correlation, activity}); }

  // Indexes the launches noted so far; the last launch noted for an id wins.
  // Call once, after the last NoteLaunch and before LaunchOf / Links.
  void Index();
  // The launch with this id, or None.
  SliceId LaunchOf(uint64_t correlation) const;
  // One link per activity whose id has a launch, ordered by (launch,
  // activity), ready for FlowTable::AddLaunchLinks; activities with no launch
  // are left out.
  std::vector<Link> Links() const;

  bool dense() const { return !dense_.empty(); }  // which index Index() chose (for tests)

 private:
  static constexpr uint32_t kNoLaunch = UINT32_MAX;
  struct Noted {
    uint64_t correlation;
    SliceId slice;
  };
  uint32_t OrdinalOf(uint64_t correlation) const;  // index into launches_, or kNoLaunch

  GrowArray<Noted> launches_, activities_;  // millions on a large trace: grown without copies
  // Dense index: dense_[id - dense_base_] = ordinal of the id's launch.
  uint64_t dense_base_ = 0;
  std::vector<uint32_t> dense_;
  // Sparse index: (id, ordinal), sorted by id, one entry per id.
  std::vector<std::pair<uint64_t, uint32_t>> sparse_;
};

}  // namespace stepline::loaders
