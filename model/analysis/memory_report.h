// The memory part of a Report: per pool its peaks, growth and the
// operators holding memory at the peak, plus the full allocation table for
// memory.csv. Names are string_views into the trace's StringPool.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/time.h"

namespace stepline {
class Trace;
}

namespace stepline::analysis {

struct ReportMemoryOp {
  std::string_view name;  // "" = no enclosing op
  int64_t bytes = 0;
  uint64_t count = 0;
};

struct ReportMemory {
  std::string name;                  // "GPU 0", "TPU 0", "CPU", or an allocator's name
  int64_t peak_allocated_bytes = 0;
  int64_t peak_reserved_bytes = -1;  // -1 = not recorded
  TimeNs peak_ts_ns = 0;
  bool relative = false;             // only Bytes recorded: levels from 0 at the capture start
  uint64_t allocations = 0, frees = 0;
  uint64_t unmatched_frees = 0, never_freed = 0;
  uint64_t ooms = 0;
  double growth_per_step_bytes = 0;
  int64_t capacity_bytes = -1;       // -1 = unknown
  // Allocations pair with frees by address ("addresses"), or not at all
  // ("none": unmatched_frees, never_freed and top_at_peak are unknown).
  bool attributed = true;
  std::vector<ReportMemoryOp> top_at_peak;  // at most kTopAtPeak rows; empty when !attributed
  std::vector<ReportMemoryOp> allocated_by_op;  // sizes allocated in the capture, at most kTopAtPeak rows
  int64_t allocated_bytes = 0;                  // summed over every op, not only those rows
};

struct ReportAllocation {
  uint32_t pool = 0;  // index into Report::memory
  std::string_view op;
  uint64_t addr = 0;
  int64_t bytes = 0;
  TimeNs alloc_ns = 0, free_ns = 0;  // kAllocBeforeCapture / kStillOpen when open
};

inline constexpr size_t kTopAtPeak = 10;

// The one line the window and the report print for a pool without addresses.
inline constexpr const char* kNoAttributionNote =
    "this trace records sizes without addresses, so what is live at the peak cannot be attributed";

struct Report;
struct TraceAnalysis;
// Fills report->memory and report->allocations from the analysis' memory
// table and memory analysis (its sentences are in analysis.recommendations).
void AddMemoryReport(const Trace& trace, const TraceAnalysis& analysis, Report* report);

}  // namespace stepline::analysis
