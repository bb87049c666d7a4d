// Peaks, live-at-peak by operator, growth per step and the memory warnings.
#include "model/analysis/memory_analysis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unordered_map>

namespace stepline::analysis {

int64_t MemoryLevelAt(const MemoryPool& pool, TimeNs ts) {
  const auto& s = pool.samples;
  if (s.empty()) return 0;
  auto it = std::upper_bound(s.begin(), s.end(), ts, [](TimeNs t, const MemorySample& x) { return t < x.ts_ns; });
  if (it == s.begin()) return s.front().allocated - s.front().bytes;  // before the first event
  return std::prev(it)->allocated;
}

double LinearSlope(std::span<const int64_t> y) {
  const size_t n = y.size();
  if (n < 2) return 0;
  // Centered sums in double: levels reach 1e11 bytes, n stays small.
  const double mean_x = (static_cast<double>(n) - 1) / 2;
  double mean_y = 0;
  for (int64_t v : y) mean_y += static_cast<double>(v);
  mean_y /= static_cast<double>(n);
  double sxy = 0, sxx = 0;
  for (size_t i = 0; i < n; ++i) {
    const double dx = static_cast<double>(i) - mean_x;
    sxy += dx * (static_cast<double>(y[i]) - mean_y);
    sxx += dx * dx;
  }
  return sxy / sxx;
}

namespace {

void FindPeak(const MemoryPool& pool, MemoryPoolAnalysis* out) {
  for (uint32_t i = 0; i < pool.samples.size(); ++i) {
    const MemorySample& s = pool.samples[i];
    if (out->peak_event == kNoMemoryEvent || s.allocated > out->peak_allocated_bytes) {
      out->peak_allocated_bytes = s.allocated;
      out->peak_ts_ns = s.ts_ns;
      out->peak_event = i;
    }
    if (s.reserved >= 0) out->peak_reserved_bytes = std::max(out->peak_reserved_bytes, s.reserved);
  }
}

void SortShares(std::vector<MemoryOpShare>* rows) {
  std::sort(rows->begin(), rows->end(), [](const MemoryOpShare& a, const MemoryOpShare& b) {
    return a.bytes != b.bytes ? a.bytes > b.bytes : a.op < b.op;
  });
}

// Adds `a` to its op's row of `rows` (row_of: op name -> row).
void AddShare(const MemoryAllocation& a, std::unordered_map<uint32_t, size_t>* row_of,
              std::vector<MemoryOpShare>* rows) {
  auto [it, inserted] = row_of->try_emplace(a.op_name.value, rows->size());
  if (inserted) rows->push_back({a.op_name, 0, 0});
  MemoryOpShare& row = (*rows)[it->second];
  row.bytes += a.bytes;
  ++row.count;
}

// Allocations whose alloc is at or before the peak event and whose free is
// after it. Only with addresses: without them no free closes an allocation,
// and counting every one as live invents memory (sums far above the peak).
void LiveAtPeak(const MemoryPool& pool, MemoryPoolAnalysis* out) {
  if (out->peak_event == kNoMemoryEvent || !pool.addressed) return;
  const uint32_t p = out->peak_event;
  std::unordered_map<uint32_t, size_t> row_of;
  for (const MemoryAllocation& a : pool.allocations) {
    const bool allocated = a.alloc_event == kNoMemoryEvent || a.alloc_event <= p;
    const bool freed = a.free_event != kNoMemoryEvent && a.free_event <= p;
    if (!allocated || freed) continue;
    AddShare(a, &row_of, &out->live_at_peak);
    out->live_known_bytes += a.bytes;
    ++out->live_count;
  }
  SortShares(&out->live_at_peak);
}

// Every allocation made in the capture (not the frees of earlier ones), by op.
void AllocatedByOp(const MemoryPool& pool, MemoryPoolAnalysis* out) {
  std::unordered_map<uint32_t, size_t> row_of;
  for (const MemoryAllocation& a : pool.allocations) {
    if (a.alloc_event != kNoMemoryEvent) AddShare(a, &row_of, &out->allocated_by_op);
  }
  SortShares(&out->allocated_by_op);
}

}  // namespace

MemoryAnalysis ComputeMemoryAnalysis(const MemoryTable& table, std::span<const Step> steps) {
  MemoryAnalysis out;
  out.pools.reserve(table.pools.size());
  for (uint32_t p = 0; p < table.pools.size(); ++p) {
    const MemoryPool& pool = table.pools[p];
    MemoryPoolAnalysis a;
    a.pool = p;
    FindPeak(pool, &a);
    LiveAtPeak(pool, &a);
    AllocatedByOp(pool, &a);
    if (!steps.empty() && !pool.samples.empty()) {
      a.step_levels.reserve(steps.size() + 1);
      for (const Step& s : steps) a.step_levels.push_back(MemoryLevelAt(pool, s.start_ns));
      a.step_levels.push_back(MemoryLevelAt(pool, steps.back().end_ns()));
      a.growth_per_step_bytes = LinearSlope(a.step_levels);
    }
    out.pools.push_back(std::move(a));
  }
  return out;
}

std::string FormatMemoryBytes(double bytes) {
  const double v = std::fabs(bytes);
  char buf[48];
  if (v >= 1e9) {
    std::snprintf(buf, sizeof buf, "%.1f GB", bytes / 1e9);
  } else if (v >= 1e6) {
    std::snprintf(buf, sizeof buf, "%.1f MB", bytes / 1e6);
  } else if (v >= 1e3) {
    std::snprintf(buf, sizeof buf, "%.1f kB", bytes / 1e3);
  } else {
    std::snprintf(buf, sizeof buf, "%.0f B", bytes);
  }
  return buf;
}

std::vector<std::string> MemoryRecommendations(const MemoryTable& table, const MemoryAnalysis& analysis,
                                               size_t step_count, const MemoryOptions& options) {
  std::vector<std::string> out;
  for (const MemoryPoolAnalysis& a : analysis.pools) {
    const MemoryPool& pool = table.pools[a.pool];
    if (step_count >= options.growth_min_steps && a.peak_allocated_bytes > 0 &&
        a.growth_per_step_bytes >= options.growth_warn_fraction * static_cast<double>(a.peak_allocated_bytes)) {
      out.push_back(pool.name + " memory grows " + FormatMemoryBytes(a.growth_per_step_bytes) +
                    " per step: something keeps tensors alive across steps, e.g. a list of losses that are not "
                    "`.item()`'d");
    }
    const int64_t held = a.peak_reserved_bytes >= 0 ? a.peak_reserved_bytes : a.peak_allocated_bytes;
    if (pool.capacity_bytes > 0 && !pool.relative &&
        static_cast<double>(held) >= options.capacity_warn_fraction * static_cast<double>(pool.capacity_bytes)) {
      const double percent = 100.0 * static_cast<double>(held) / static_cast<double>(pool.capacity_bytes);
      char pct[16];
      std::snprintf(pct, sizeof pct, "%.0f%%", std::floor(percent));
      out.push_back(pool.name + " reaches " + pct + " of its " +
                    FormatMemoryBytes(static_cast<double>(pool.capacity_bytes)) + ": a larger batch will not fit");
    }
  }
  return out;
}

}  // namespace stepline::analysis
