// Clocks: snapshot decoding and timestamp conversion (see clock_converter.h).
#include "loaders/perfetto/clock_converter.h"

#include <algorithm>
#include <deque>

#include "loaders/perfetto/perfetto_fields.h"
#include "loaders/proto_wire/wire_reader.h"

namespace stepline::loaders::perfetto {

bool ParseClockSnapshot(std::string_view bytes, uint64_t base_offset, ClockSnapshot* out, uint64_t* error_offset,
                        const char** error) {
  out->clocks.clear();
  out->primary_trace_clock = 0;
  WireReader reader(bytes.data(), bytes.data() + bytes.size(), base_offset);
  WireField f;
  while (!reader.done()) {
    if (!reader.Next(&f)) break;
    if (f.number == clock_field::kPrimaryTraceClock && f.type == WireType::kVarint) {
      out->primary_trace_clock = static_cast<uint32_t>(f.value);
    } else if (f.number == clock_field::kClocks && f.type == WireType::kLen) {
      ClockReading r;
      WireReader clock(f.payload, f.payload + f.payload_size, reader.OffsetOf(f.payload));
      WireField c;
      while (!clock.done()) {
        if (!clock.Next(&c)) {
          *error_offset = clock.error().offset;
          *error = clock.error().what;
          return false;
        }
        if (c.type != WireType::kVarint) continue;
        if (c.number == clock_field::kClockId) r.clock_id = static_cast<uint32_t>(c.value);
        if (c.number == clock_field::kTimestamp) r.timestamp = c.value;
        if (c.number == clock_field::kIsIncremental) r.is_incremental = c.value != 0;
        if (c.number == clock_field::kUnitMultiplierNs && c.value != 0) r.unit_multiplier_ns = c.value;
      }
      out->clocks.push_back(r);
    }
  }
  if (reader.error().what != nullptr) {
    *error_offset = reader.error().offset;
    *error = reader.error().what;
    return false;
  }
  return true;
}

//-----------------------------------------------------------------------------
// Global clocks
//-----------------------------------------------------------------------------

void ClockConverter::AddSnapshot(const ClockSnapshot& snapshot) {
  for (const ClockReading& a : snapshot.clocks) {
    if (IsSequenceClock(a.clock_id)) continue;
    for (const ClockReading& b : snapshot.clocks) {
      if (IsSequenceClock(b.clock_id) || a.clock_id == b.clock_id) continue;
      Readings& r = links_[{a.clock_id, b.clock_id}];
      const auto ns = [](const ClockReading& c) { return static_cast<int64_t>(c.timestamp * c.unit_multiplier_ns); };
      const std::pair<int64_t, int64_t> reading{ns(a), ns(b)};
      r.insert(std::upper_bound(r.begin(), r.end(), reading), reading);
    }
  }
  paths_.clear();
  last_path_ = nullptr;
}

const ClockConverter::Path& ClockConverter::PathFrom(uint32_t clock) {
  if (last_path_ != nullptr && last_clock_ == clock) return *last_path_;
  auto [it, inserted] = paths_.try_emplace(clock);
  last_clock_ = clock;
  last_path_ = &it->second;
  if (!inserted) return it->second;
  // Breadth-first over the clocks linked by snapshots: few clocks, few links.
  std::unordered_map<uint32_t, uint32_t> came_from{{clock, clock}};
  std::deque<uint32_t> queue{clock};
  while (!queue.empty() && !came_from.contains(trace_clock_)) {
    const uint32_t at = queue.front();
    queue.pop_front();
    for (auto link = links_.lower_bound({at, 0}); link != links_.end() && link->first.first == at; ++link) {
      if (came_from.try_emplace(link->first.second, at).second) queue.push_back(link->first.second);
    }
  }
  if (clock != trace_clock_ && came_from.contains(trace_clock_)) {
    Path path;
    for (uint32_t c = trace_clock_; c != clock; c = came_from[c]) path.push_back(&links_.at({came_from[c], c}));
    std::reverse(path.begin(), path.end());
    it->second = std::move(path);
  }
  return it->second;
}

bool ClockConverter::ToTraceTime(uint32_t clock, int64_t ts_ns, int64_t* out) {
  if (clock == trace_clock_) {
    *out = ts_ns;
    return true;
  }
  const Path& path = PathFrom(clock);
  if (path.empty()) return false;
  for (const Readings* r : path) {
    auto after = std::upper_bound(r->begin(), r->end(), std::pair<int64_t, int64_t>{ts_ns, INT64_MAX});
    const auto& [from_ns, to_ns] = after == r->begin() ? r->front() : *(after - 1);
    ts_ns = ts_ns - from_ns + to_ns;
  }
  *out = ts_ns;
  return true;
}

//-----------------------------------------------------------------------------
// Sequence clocks
//-----------------------------------------------------------------------------

void SequenceClocks::Reset(const ClockSnapshot& snapshot, uint32_t trace_clock) {
  clocks_.clear();
  const ClockReading* base = nullptr;
  for (const ClockReading& r : snapshot.clocks) {
    if (IsSequenceClock(r.clock_id)) continue;
    if (base == nullptr || r.clock_id == trace_clock) base = &r;
  }
  if (base == nullptr) return;  // nothing to anchor on: the clocks stay unknown
  for (const ClockReading& r : snapshot.clocks) {
    if (!IsSequenceClock(r.clock_id)) continue;
    Clock c;
    c.id = r.clock_id;
    c.is_incremental = r.is_incremental;
    c.unit_ns = r.unit_multiplier_ns;
    c.snapshot_value = r.timestamp;
    c.last_value = r.timestamp;
    c.base_clock = base->clock_id;
    c.base_ns = static_cast<int64_t>(base->timestamp * base->unit_multiplier_ns);
    clocks_.push_back(c);
  }
}

void SequenceClocks::RestartIncremental() {
  for (Clock& c : clocks_) c.last_value = c.snapshot_value;
}

bool SequenceClocks::ToGlobal(uint32_t clock, uint64_t raw, uint32_t* base_clock, int64_t* out_ns) {
  for (Clock& c : clocks_) {
    if (c.id != clock) continue;
    uint64_t value = raw;
    if (c.is_incremental) value = c.last_value += raw;
    // Unsigned wrap-around gives the right signed difference for values
    // before the snapshot too.
    *out_ns = c.base_ns + static_cast<int64_t>((value - c.snapshot_value) * c.unit_ns);
    *base_clock = c.base_clock;
    return true;
  }
  return false;
}

}  // namespace stepline::loaders::perfetto
