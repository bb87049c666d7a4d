// Clocks: turns a packet timestamp on any clock into ns on the trace clock,
// through the ClockSnapshots of the trace (trace-formats.md 3.7).
//
// Global clocks (BOOTTIME, MONOTONIC, ...) are linked by snapshots that read
// several of them at one instant; a conversion follows the shortest chain of
// such links and, per hop, uses the latest snapshot taken at or before the
// timestamp (the first one for earlier timestamps), so a clock pair that
// drifts apart (suspend) is followed piecewise. Sequence-scoped clocks
// (64..127) are defined by a snapshot on their own sequence that also reads a
// global clock; they may count in units other than ns and may be incremental
// (each timestamp a delta from the previous one on that clock, starting from
// the snapshot's reading, restarting at every incremental-state clear).
#pragma once

#include <cstdint>
#include <map>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace stepline::loaders::perfetto {

struct ClockReading {
  uint32_t clock_id = 0;
  uint64_t timestamp = 0;  // in the clock's own unit
  bool is_incremental = false;
  uint64_t unit_multiplier_ns = 1;
};

struct ClockSnapshot {
  std::vector<ClockReading> clocks;
  uint32_t primary_trace_clock = 0;  // 0 = not given
};

// Decodes a ClockSnapshot payload; false on malformed bytes (`error_offset`
// and `error` set; offsets count from `base_offset`).
bool ParseClockSnapshot(std::string_view bytes, uint64_t base_offset, ClockSnapshot* out, uint64_t* error_offset,
                        const char** error);

inline bool IsSequenceClock(uint32_t id) { return id >= 64 && id <= 127; }

class ClockConverter {
 public:
  // Records the global readings of one snapshot (sequence clocks ignored).
  void AddSnapshot(const ClockSnapshot& snapshot);
  void set_trace_clock(uint32_t id) {
    trace_clock_ = id;
    paths_.clear();
    last_path_ = nullptr;
  }
  uint32_t trace_clock() const { return trace_clock_; }

  // `ts_ns` on global clock `clock`, as ns on the trace clock. False when
  // no chain of snapshots links the two clocks.
  bool ToTraceTime(uint32_t clock, int64_t ts_ns, int64_t* out);

 private:
  using Readings = std::vector<std::pair<int64_t, int64_t>>;  // (from, to) at one instant, sorted by from
  using Path = std::vector<const Readings*>;                  // one link per hop, ending at the trace clock
  const Path& PathFrom(uint32_t clock);

  uint32_t trace_clock_ = 6;  // BOOTTIME unless a snapshot names another primary clock
  std::map<std::pair<uint32_t, uint32_t>, Readings> links_;  // node-based: Path pointers stay valid
  std::unordered_map<uint32_t, Path> paths_;                 // empty: no path (or same clock)
  uint32_t last_clock_ = UINT32_MAX;                          // one-entry cache: most packets share a clock
  const Path* last_path_ = nullptr;
};

// The sequence-scoped clocks of one sequence, from its latest snapshot.
class SequenceClocks {
 public:
  // Replaces the clocks with the sequence clocks of `snapshot`, anchored on
  // its trace-clock reading if it has one, else on its first global clock.
  void Reset(const ClockSnapshot& snapshot, uint32_t trace_clock);
  void Clear() { clocks_.clear(); }
  // Rewinds incremental clocks to their snapshot readings (incremental-state clear).
  void RestartIncremental();

  // Converts `raw` on sequence clock `clock` to ns on a global clock
  // (`*base_clock`). Advances an incremental clock. False if unknown.
  bool ToGlobal(uint32_t clock, uint64_t raw, uint32_t* base_clock, int64_t* out_ns);

 private:
  struct Clock {
    uint32_t id = 0;
    bool is_incremental = false;
    uint64_t unit_ns = 1;
    uint64_t snapshot_value = 0;  // reading at the snapshot, in units
    uint64_t last_value = 0;      // incremental clocks: running total, in units
    uint32_t base_clock = 0;      // the global clock read by the same snapshot
    int64_t base_ns = 0;          // its reading
  };
  std::vector<Clock> clocks_;
};

}  // namespace stepline::loaders::perfetto
