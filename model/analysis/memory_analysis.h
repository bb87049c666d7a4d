// Memory analysis: per pool of a MemoryTable, the peak levels and
// when they happen, the allocations live at the peak grouped by operator, the
// level at each step boundary with its linear growth, and the two warnings.
// Pure functions of the table (and the steps); no I/O.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/analysis/step_set.h"
#include "model/memory_table.h"

namespace stepline::analysis {

struct MemoryOpShare {
  StringId op;        // 0 = no enclosing op known
  int64_t bytes = 0;  // summed size of its allocations live at the peak
  uint64_t count = 0;
};

struct MemoryPoolAnalysis {
  uint32_t pool = 0;                     // index into MemoryTable::pools
  int64_t peak_allocated_bytes = 0;      // max allocated level
  int64_t peak_reserved_bytes = -1;      // max reserved level; -1 not recorded
  TimeNs peak_ts_ns = 0;                 // first time the allocated peak is reached
  uint32_t peak_event = kNoMemoryEvent;  // its sample index
  // Empty when the pool is not `addressed`: allocations cannot be paired
  // with frees, so what is live at the peak is unknown.
  std::vector<MemoryOpShare> live_at_peak;  // by bytes descending, then op id
  int64_t live_known_bytes = 0;             // summed bytes of the allocations live at the peak
  uint64_t live_count = 0;
  // Summed sizes of every allocation made in the capture, by op (same
  // order): what a pool without addresses can still attribute.
  std::vector<MemoryOpShare> allocated_by_op;
  std::vector<int64_t> step_levels;  // allocated at each step start, then at the last step's end
  double growth_per_step_bytes = 0;  // least-squares slope of step_levels over their index
};

struct MemoryAnalysis {
  std::vector<MemoryPoolAnalysis> pools;  // one per MemoryTable pool, same order
};

struct MemoryOptions {
  double growth_warn_fraction = 0.01;  // warn when growth per step >= this share of the peak ...
  size_t growth_min_steps = 5;         // ... over at least this many steps
  double capacity_warn_fraction = 0.95;  // warn when the peak reserved reaches this share of capacity
};

// The level of `pool` right after every event at or before `ts` (the level
// before its first event when none is).
int64_t MemoryLevelAt(const MemoryPool& pool, TimeNs ts);

// Least-squares slope of y over x = 0, 1, ...; 0 with fewer than two points.
double LinearSlope(std::span<const int64_t> y);

MemoryAnalysis ComputeMemoryAnalysis(const MemoryTable& table, std::span<const Step> steps);

// Sentences for the report, e.g. "GPU 0 memory grows 48.0 MB per step: ...".
std::vector<std::string> MemoryRecommendations(const MemoryTable& table, const MemoryAnalysis& analysis,
                                               size_t step_count, const MemoryOptions& options = {});

// "48.0 MB", "2.0 GB", "512 B" (decimal units, as the sentences use).
std::string FormatMemoryBytes(double bytes);

}  // namespace stepline::analysis
