// CopyRows construction; see copy_rows.h.
#include "ui/timeline/copy_rows.h"

#include <algorithm>

namespace stepline::ui {

CopyRows::CopyRows(const Trace& trace) {
  const SliceTable& s = trace.slices();
  std::map<Key, std::vector<uint32_t>> rows;
  // Per track: 1 a copy seen, 2 a kernel seen (the copies do not matter then).
  copies_only_.assign(trace.tracks().size(), 0);
  for (uint32_t i = 0; i < s.size(); ++i) {
    const GpuKind k = s.gpu_kind()[i];
    if (k == GpuKind::kNone) continue;
    uint8_t& seen = copies_only_[s.track()[i].index()];
    seen = k == GpuKind::kKernel || k == GpuKind::kCollective ? 2 : std::max<uint8_t>(seen, 1);
    if (k != GpuKind::kMemcpyH2D && k != GpuKind::kMemcpyD2H) continue;
    rows[Key{trace.tracks().device_id(s.track()[i]), k}].push_back(i);
  }
  for (uint8_t& seen : copies_only_) seen = seen == 1 ? 1 : 0;
  for (auto& [key, list] : rows) {
    std::stable_sort(list.begin(), list.end(), [&](uint32_t a, uint32_t b) { return s.start_ns()[a] < s.start_ns()[b]; });
    std::vector<std::vector<uint32_t>>& lanes = lanes_[key];
    std::vector<TimeNs> lane_end;
    for (uint32_t row : list) {
      const TimeNs start = s.start_ns()[row];
      size_t lane = 0;
      while (lane < lane_end.size() && lane_end[lane] > start) ++lane;
      if (lane == lane_end.size()) {
        lane_end.push_back(0);
        lanes.emplace_back();
      }
      lanes[lane].push_back(row);
      lane_end[lane] = start + s.dur_ns()[row];
    }
  }
}

std::vector<int32_t> CopyRows::Devices(GpuKind kind) const {
  std::vector<int32_t> out;
  for (const auto& [key, lanes] : lanes_) {
    if (key.kind == kind) out.push_back(key.device_id);
  }
  return out;
}

size_t CopyRows::lane_count(Key key) const {
  auto it = lanes_.find(key);
  return it == lanes_.end() ? 0 : it->second.size();
}

std::span<const uint32_t> CopyRows::Lane(Key key, size_t lane) const {
  auto it = lanes_.find(key);
  if (it == lanes_.end() || lane >= it->second.size()) return {};
  return it->second[lane];
}

size_t CopyRows::copy_count(Key key) const {
  auto it = lanes_.find(key);
  if (it == lanes_.end()) return 0;
  size_t n = 0;
  for (const auto& lane : it->second) n += lane.size();
  return n;
}

}  // namespace stepline::ui
