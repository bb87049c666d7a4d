// AddMemoryReport: the analysis' memory table and memory analysis, resolved
// for the report (names of ops become string_views).
#include "model/analysis/memory_report.h"

#include <optional>
#include <utility>
#include <vector>

#include "model/analysis/memory_analysis.h"
#include "model/analysis/report.h"
#include "model/analysis/trace_analysis.h"
#include "model/memory_table.h"
#include "model/page_prefault.h"
#include "model/trace.h"

namespace stepline::analysis {
namespace {
constexpr size_t kMinPrefaultRows = 1 << 20;
}  // namespace

void AddMemoryReport(const Trace& trace, const TraceAnalysis& trace_analysis, Report* report) {
  const MemoryTable& table = trace_analysis.memory_table;
  const MemoryAnalysis& analysis = trace_analysis.memory;
  size_t rows = 0;
  for (const MemoryPool& pool : table.pools) rows += pool.allocations.size();
  report->allocations.reserve(rows);
  // A memory snapshot has millions: their pages are faulted in on another
  // core while this one fills them (model/page_prefault.h).
  std::optional<PagePrefaulter> prefault;
  if (rows >= kMinPrefaultRows) {
    prefault.emplace(std::vector<std::pair<const void*, size_t>>{
        {report->allocations.data(), report->allocations.capacity() * sizeof(ReportAllocation)}});
  }
  for (const MemoryPoolAnalysis& a : analysis.pools) {
    const MemoryPool& pool = table.pools[a.pool];
    ReportMemory m;
    m.name = pool.name;
    m.peak_allocated_bytes = a.peak_allocated_bytes;
    m.peak_reserved_bytes = a.peak_reserved_bytes;
    m.peak_ts_ns = a.peak_ts_ns;
    m.relative = pool.relative;
    m.allocations = pool.alloc_events;
    m.frees = pool.free_events;
    m.unmatched_frees = pool.unmatched_frees;
    m.never_freed = pool.never_freed;
    m.ooms = pool.ooms.size();
    m.growth_per_step_bytes = a.growth_per_step_bytes;
    m.capacity_bytes = pool.capacity_bytes;
    m.attributed = pool.addressed;
    for (const MemoryOpShare& op : a.allocated_by_op) m.allocated_bytes += op.bytes;
    for (size_t i = 0; i < a.allocated_by_op.size() && i < kTopAtPeak; ++i) {
      const MemoryOpShare& op = a.allocated_by_op[i];
      m.allocated_by_op.push_back({trace.str(op.op), op.bytes, op.count});
    }
    for (size_t i = 0; i < a.live_at_peak.size() && i < kTopAtPeak; ++i) {
      m.top_at_peak.push_back({trace.str(a.live_at_peak[i].op), a.live_at_peak[i].bytes, a.live_at_peak[i].count});
    }
    const uint32_t index = static_cast<uint32_t>(report->memory.size());
    for (const MemoryAllocation& row : pool.allocations) {
      report->allocations.push_back({index, trace.str(row.op_name), row.addr, row.bytes, row.alloc_ns, row.free_ns});
    }
    report->memory.push_back(std::move(m));
  }
}

}  // namespace stepline::analysis
