// Memory-bound time, exposed communication, launch overhead and throughput
// per step (efficiency_time.h). Definitions: docs/efficiency.md.
#include "model/analysis/efficiency_time.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "model/analysis/trace_analysis.h"
#include "model/text_format.h"

namespace stepline::analysis {
namespace {

// The step whose window holds `t`, -1 none; `cursor` walks forward for sorted queries.
int StepOf(const std::vector<Step>& steps, TimeNs t, size_t* cursor) {
  if (*cursor < steps.size() && t < steps[*cursor].start_ns) *cursor = 0;  // a backwards query
  while (*cursor < steps.size() && t >= steps[*cursor].window_end_ns()) ++*cursor;
  if (*cursor < steps.size() && t >= steps[*cursor].start_ns) return static_cast<int>(*cursor);
  return -1;
}

DurNs Percentile(std::vector<DurNs>* v, double q) {
  if (v->empty()) return -1;
  // Nearest rank: the smallest value with at least q of the values at or below it.
  const size_t rank = static_cast<size_t>(std::ceil(q * static_cast<double>(v->size())));
  const size_t k = rank == 0 ? 0 : rank - 1;
  std::nth_element(v->begin(), v->begin() + static_cast<std::ptrdiff_t>(k), v->end());
  return (*v)[k];
}

std::string Micros(DurNs ns) { return text::FormatDuration(ns); }

void LaunchVerdict(EfficiencyAnalysis* e, DurNs kernel_ns_per_step) {
  if (e->short_kernel_percent < 0 || e->kernels_per_step <= 0) return;
  // Launch-bound: most kernels finish before their launch call returns and the
  // host spends at least as long launching as the GPU spends running them.
  e->launch_bound = e->short_kernel_percent >= 50 && e->launch_ns_per_step >= kernel_ns_per_step;
  if (!e->launch_bound) return;
  const double per_kernel = static_cast<double>(e->launch_ns_per_step) / e->kernels_per_step;
  e->launch_verdict =
      "Launch-bound: " + text::FormatFixed(e->kernels_per_step, 0) + " kernels per step, " +
      text::FormatFixed(e->short_kernel_percent, 1) + "% of them shorter than their launch call; the host spends " +
      Micros(e->launch_ns_per_step) + " per step launching (" + Micros(static_cast<DurNs>(per_kernel)) +
      " each) against " + Micros(kernel_ns_per_step) +
      " of kernel time. Capture the step in a CUDA graph (torch.compile(mode=\"reduce-overhead\")) to replay its " +
      text::FormatFixed(e->kernels_per_step, 0) + " launches as one, or fuse the small kernels (torch.compile).";
}

}  // namespace

std::vector<Interval> IntersectIntervals(const std::vector<Interval>& a, const std::vector<Interval>& b) {
  std::vector<Interval> out;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const TimeNs lo = std::max(a[i].start_ns, b[j].start_ns), hi = std::min(a[i].end_ns, b[j].end_ns);
    if (lo < hi) out.push_back({lo, hi});
    if (a[i].end_ns < b[j].end_ns) {
      ++i;
    } else {
      ++j;
    }
  }
  return out;
}

void ComputeEfficiencyTimes(const Trace& trace, const TraceAnalysis& a, const LaunchIndex& launches,
                            const EfficiencyOptions& options, EfficiencyAnalysis* e) {
  const DeviceAnalysis* primary = a.primary();
  const std::vector<Step>& steps = a.steps.steps;
  e->batch_size = options.batch_size;
  if (primary == nullptr) return;
  const DeviceActivity& d = primary->activity;
  const SliceTable& s = trace.slices();
  const auto names = s.name();
  // Bound per kernel name, decided once per name (kUnseen until then): a
  // vector by name id, as a hash lookup per kernel showed on 10 M slices.
  constexpr uint8_t kUnseen = 0xFF;
  std::vector<uint8_t> bound_of(trace.strings().size(), kUnseen);
  std::unordered_map<uint32_t, DurNs> memory_ns_of;
  std::vector<Interval> collectives, compute;
  std::vector<DurNs> delays;
  uint64_t linked = 0, short_kernels = 0;
  const bool no_steps = steps.empty();
  size_t cursor = 0;
  for (const DeviceOp& op : d.ops) {
    if (!IsKernelLike(op.kind)) continue;
    const DurNs dur = op.end_ns - op.start_ns;
    (op.kind == GpuKind::kCollective ? collectives : compute).push_back({op.start_ns, op.end_ns});
    const int step = StepOf(steps, op.start_ns, &cursor);
    if (step < 0 && !no_steps) continue;
    StepEfficiency* se = step >= 0 ? &e->steps[static_cast<size_t>(step)] : nullptr;
    if (se != nullptr) ++se->kernels;
    const SliceId launch = launches.LaunchOf(op.slice);
    if (!launch.is_none()) {
      const DurNs launch_dur = s.dur_ns()[launch.index()];
      if (se != nullptr) se->launch_ns += launch_dur;
      delays.push_back(op.start_ns - s.start_ns()[launch.index()]);
      ++linked;
      if (dur < launch_dur) ++short_kernels;
    }
    if (op.kind != GpuKind::kKernel) continue;
    const StringId name = names[op.slice.index()];
    uint8_t& bound = bound_of[name.index()];
    if (bound == kUnseen) bound = static_cast<uint8_t>(BoundOfKernelName(trace.str(name)));
    e->kernel_ns += dur;
    if (se != nullptr) se->kernel_ns += dur;
    if (static_cast<OpBound>(bound) == OpBound::kMemory) {
      e->memory_bound_ns += dur;
      memory_ns_of[name.value] += dur;
      if (se != nullptr) se->memory_bound_ns += dur;
    }
  }
  for (size_t n = 0; n < bound_of.size(); ++n) {
    if (bound_of[n] == kUnseen) continue;
    e->kernel_bound_names.push_back(StringId::FromIndex(n));
    e->kernel_bound.push_back(static_cast<OpBound>(bound_of[n]));
  }
  for (const auto& [name, ns] : memory_ns_of) e->top_memory_bound.push_back({StringId(name), ns});
  std::sort(e->top_memory_bound.begin(), e->top_memory_bound.end(),
            [](const BoundTime& x, const BoundTime& y) { return x.ns != y.ns ? x.ns > y.ns : x.name < y.name; });
  if (e->top_memory_bound.size() > 5) e->top_memory_bound.resize(5);
  // Communication: the collectives' union, and its part under no compute kernel.
  const std::vector<Interval> coll = MergeIntervals(std::move(collectives));
  const std::vector<Interval> overlap = IntersectIntervals(coll, MergeIntervals(std::move(compute)));
  DurNs coll_total = 0, exposed_total = 0, launch_total = 0, step_ns = 0, kernel_total = 0;
  uint64_t kernels_total = 0;
  const auto add_window = [&](TimeRange range, StepEfficiency* se) {
    const DurNs c = CoveredNs(coll, range), o = CoveredNs(overlap, range);
    se->collective_ns = c;
    se->exposed_ns = c - o;
  };
  for (size_t i = 0; i < steps.size(); ++i) {
    StepEfficiency& se = e->steps[i];
    add_window(TimeRange{steps[i].start_ns, steps[i].window_end_ns()}, &se);
    coll_total += se.collective_ns;
    exposed_total += se.exposed_ns;
    launch_total += se.launch_ns;
    kernels_total += se.kernels;
    kernel_total += se.kernel_ns;
    step_ns += steps[i].dur_ns;
    if (options.batch_size > 0 && steps[i].dur_ns > 0) {
      se.samples_per_s = static_cast<double>(options.batch_size) / (static_cast<double>(steps[i].dur_ns) * 1e-9);
    }
  }
  const auto n = static_cast<DurNs>(steps.size());
  if (n > 0) {
    e->collective_ns_per_step = coll_total / n;
    e->exposed_ns_per_step = exposed_total / n;
    e->kernels_per_step = static_cast<double>(kernels_total) / static_cast<double>(n);
    e->launch_ns_per_step = launch_total / n;
    if (coll_total > 0) e->overlap_percent = 100.0 * static_cast<double>(coll_total - exposed_total) / static_cast<double>(coll_total);
    if (options.batch_size > 0 && step_ns > 0) {
      e->samples_per_s = static_cast<double>(options.batch_size) * static_cast<double>(n) / (static_cast<double>(step_ns) * 1e-9);
    }
  }
  if (linked > 0) e->short_kernel_percent = 100.0 * static_cast<double>(short_kernels) / static_cast<double>(linked);
  e->launch_delay_p50_ns = Percentile(&delays, 0.5);
  e->launch_delay_p90_ns = Percentile(&delays, 0.9);
  LaunchVerdict(e, n > 0 ? kernel_total / n : 0);
}

}  // namespace stepline::analysis
