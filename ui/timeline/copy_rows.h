// CopyRows: per GPU device, the "Memcpy H2D" and "Memcpy D2H" rows that
// gather every copy of that direction across all of the device's streams, so
// a copy bottleneck shows at a glance. Copies on different streams may
// overlap, so each row is split into lanes (greedy, first lane that is free)
// whose slices never overlap, which is what the draw list needs. Also which
// streams carry nothing but copies (no idle-gap shading there).
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <vector>

#include "model/trace.h"

namespace stepline::ui {

class CopyRows {
 public:
  explicit CopyRows(const Trace& trace);

  struct Key {
    int32_t device_id;
    GpuKind kind;  // kMemcpyH2D or kMemcpyD2H
    auto operator<=>(const Key&) const = default;
  };
  // Devices with at least one copy of `kind`, ascending.
  std::vector<int32_t> Devices(GpuKind kind) const;
  size_t lane_count(Key key) const;
  std::span<const uint32_t> Lane(Key key, size_t lane) const;  // slice rows in start order
  size_t copy_count(Key key) const;
  // The track's GPU slices are all copies and memsets, no kernel (a copy
  // engine's stream); false for a track without GPU slices.
  bool CopiesOnly(TrackId track) const {
    return track.index() < copies_only_.size() && copies_only_[track.index()] != 0;
  }

 private:
  std::map<Key, std::vector<std::vector<uint32_t>>> lanes_;
  std::vector<uint8_t> copies_only_;  // per track: 1 copies only
};

}  // namespace stepline::ui
