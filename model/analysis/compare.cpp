// Compare and its building blocks; see compare.h.
//
// [SECTION] Sides and step alignment
// [SECTION] Summary rows
// [SECTION] Ops diff
// [SECTION] Compare
#include "model/analysis/compare.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <tuple>

#include "model/analysis/step_stats.h"

namespace stepline::analysis {
namespace {

DurNs MeanOf(DurNs total, size_t n) { return n == 0 ? 0 : total / static_cast<DurNs>(n); }

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] Sides and step alignment
//-----------------------------------------------------------------------------

bool IsCutStep(std::span<const TimeNs> start_ns, std::span<const DurNs> dur_ns, size_t i, TimeRange trace_span) {
  const size_t n = start_ns.size();
  if (i >= n || (i != 0 && i + 1 != n)) return false;
  if (!trace_span.empty()) {
    if (i == 0 && start_ns[i] <= trace_span.start_ns) return true;
    if (i + 1 == n && start_ns[i] + dur_ns[i] >= trace_span.end_ns) return true;
    return false;
  }
  // No span: a first or last step much shorter than the typical step was
  // probably cut. One step has nothing to compare with.
  if (n < 2) return false;
  std::vector<DurNs> sorted(dur_ns.begin(), dur_ns.end());
  std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(n / 2), sorted.end());
  const DurNs median = sorted[n / 2];
  return 2 * dur_ns[i] < median;
}

int FirstFullStep(std::span<const TimeNs> start_ns, std::span<const DurNs> dur_ns, TimeRange trace_span) {
  if (start_ns.empty()) return -1;
  for (size_t i = 0; i < start_ns.size(); ++i) {
    if (!IsCutStep(start_ns, dur_ns, i, trace_span)) return static_cast<int>(i);
  }
  return 0;
}

CompareSide MakeCompareSide(const CompareRun& run) {
  const TraceAnalysis& a = run.analysis;
  const DeviceAnalysis* primary = a.primary();
  CompareSide side;
  side.path = std::string(run.path);
  if (primary != nullptr) side.primary_device = primary->activity.name;
  if (primary != nullptr && primary->kind != DeviceKind::kGpu) {
    side.device_word = primary->kind == DeviceKind::kTpu ? "TPU" : "Device";
  }
  side.step_source = a.steps.source;
  side.steps = a.steps.steps.size();
  DurNs total_ns = 0;
  CategoryNs category_total{};
  CauseNs cause_total{};
  for (size_t k = 0; k < a.steps.steps.size(); ++k) {
    const Step& s = a.steps.steps[k];
    // The primary device's breakdown of the step; zeros without GPU activity.
    const CategoryNs breakdown = primary != nullptr ? primary->steps[k].category_ns : CategoryNs{};
    const CauseNs idle_by_cause = primary != nullptr ? primary->steps[k].idle_by_cause : CauseNs{};
    side.step_names.push_back(s.name);
    side.step_start_ns.push_back(s.start_ns);
    side.step_dur_ns.push_back(s.dur_ns);
    side.step_breakdown.push_back(breakdown);
    side.step_idle_by_cause.push_back(idle_by_cause);
    // On a cut file the figures use the steps before the cut, as `report` does.
    if (k >= a.SummedStepCount()) continue;
    total_ns += s.dur_ns;
    for (size_t c = 0; c < category_total.size(); ++c) category_total[c] += breakdown[c];
    for (size_t c = 0; c < cause_total.size(); ++c) cause_total[c] += idle_by_cause[c];
  }
  const size_t summed = std::min(a.SummedStepCount(), side.steps);
  side.step_mean_ns = MeanOf(total_ns, summed);
  for (size_t c = 0; c < category_total.size(); ++c) side.breakdown_mean[c] = MeanOf(category_total[c], summed);
  for (size_t c = 0; c < cause_total.size(); ++c) side.idle_by_cause_mean[c] = MeanOf(cause_total[c], summed);
  side.gpu_busy_percent = GpuBusyPercent(category_total);  // one definition with the window and `report`
  side.mfu_percent = a.efficiency.mfu_percent;
  side.samples_per_s = a.efficiency.samples_per_s;
  side.phases = a.phases;
  side.serving = HasServingPhases(a.phases);
  side.first_full_step = FirstFullStep(side.step_start_ns, side.step_dur_ns, run.trace.span());
  for (size_t k = 0; k < side.steps; ++k) {
    if (!IsCutStep(side.step_start_ns, side.step_dur_ns, k, run.trace.span())) {
      side.full_step_dur_ns.push_back(side.step_dur_ns[k]);
    }
  }
  return side;
}

//-----------------------------------------------------------------------------
// [SECTION] Summary rows
//-----------------------------------------------------------------------------

double DeltaPercent(double a, double b) {
  if (a == 0) return b == 0 ? 0 : std::numeric_limits<double>::quiet_NaN();
  return 100.0 * (b - a) / a;
}

Change ChangeOf(const SummaryRow& row) {
  if (row.delta == 0 || row.sense == Sense::kNeutral) return Change::kNone;
  const bool went_down = row.delta < 0;
  return went_down == (row.sense == Sense::kLowerIsBetter) ? Change::kImprovement : Change::kRegression;
}

namespace {

SummaryRow MakeRow(SummaryGroup group, std::string_view label, SummaryUnit unit, Sense sense, double a, double b) {
  SummaryRow row;
  row.group = group;
  row.label = std::string(label);
  row.unit = unit;
  row.sense = sense;
  row.a = a;
  row.b = b;
  row.delta = b - a;
  row.delta_percent = DeltaPercent(a, b);
  return row;
}

}  // namespace

std::vector<SummaryRow> BuildSummaryRows(const CompareSide& a, const CompareSide& b) {
  std::vector<SummaryRow> rows;
  // A different step count is not better or worse: it is what was captured.
  rows.push_back(
      MakeRow(SummaryGroup::kRun, "steps", SummaryUnit::kCount, Sense::kNeutral, double(a.steps), double(b.steps)));
  const bool by_phase = a.serving && b.serving;
  if (!by_phase) {
    rows.push_back(MakeRow(SummaryGroup::kRun, "mean step", SummaryUnit::kNs, Sense::kLowerIsBetter,
                           double(a.step_mean_ns), double(b.step_mean_ns)));
  }
  // Labelled by device kind ("TPU busy"), as the window's tiles are; two kinds: "device busy".
  const std::string busy = (a.device_word == b.device_word ? a.device_word : std::string("device")) + " busy";
  rows.push_back(MakeRow(SummaryGroup::kRun, busy, SummaryUnit::kPercent, Sense::kHigherIsBetter,
                         a.gpu_busy_percent, b.gpu_busy_percent));
  // MFU only when both runs have one (FLOPs, time and a peak): an unknown is not 0.
  if (a.mfu_percent >= 0 && b.mfu_percent >= 0) {
    rows.push_back(MakeRow(SummaryGroup::kRun, "MFU", SummaryUnit::kPercent, Sense::kHigherIsBetter, a.mfu_percent,
                           b.mfu_percent));
  }
  // samples/s only when both runs have a batch size (--batch-size, or the window's setting).
  if (a.samples_per_s >= 0 && b.samples_per_s >= 0) {
    rows.push_back(MakeRow(SummaryGroup::kRun, "samples/s", SummaryUnit::kPerSecond, Sense::kHigherIsBetter,
                           a.samples_per_s, b.samples_per_s));
  }
  if (by_phase) AddPhaseSummaryRows(ComparePhases(a.phases, b.phases), &rows);
  // Less time in any category, kernels included, is a shorter step.
  for (int c = 0; c < kTimeCategoryCount; ++c) {
    rows.push_back(MakeRow(SummaryGroup::kBreakdown, TimeCategoryName(static_cast<TimeCategory>(c)), SummaryUnit::kNs,
                           Sense::kLowerIsBetter, double(a.breakdown_mean[size_t(c)]),
                           double(b.breakdown_mean[size_t(c)])));
  }
  for (int c = 0; c < kIdleCauseCount; ++c) {
    rows.push_back(MakeRow(SummaryGroup::kIdleByCause, IdleCauseName(static_cast<IdleCause>(c)), SummaryUnit::kNs,
                           Sense::kLowerIsBetter, double(a.idle_by_cause_mean[size_t(c)]),
                           double(b.idle_by_cause_mean[size_t(c)])));
  }
  return rows;
}

void AddPhaseSummaryRows(std::span<const PhaseCompareRow> phases, std::vector<SummaryRow>* rows) {
  for (const PhaseCompareRow& p : phases) {
    const std::string name(StepPhaseName(p.phase));
    // A phase only one run has is listed, but is no better or worse.
    const bool both = p.steps_a > 0 && p.steps_b > 0;
    rows->push_back(MakeRow(SummaryGroup::kPhase, name + " mean step", SummaryUnit::kNs,
                            both ? Sense::kLowerIsBetter : Sense::kNeutral, double(p.step_mean_a_ns),
                            double(p.step_mean_b_ns)));
    if (p.tokens_per_s_a >= 0 && p.tokens_per_s_b >= 0) {
      rows->push_back(MakeRow(SummaryGroup::kPhase, name + " tokens/s", SummaryUnit::kRate, Sense::kHigherIsBetter,
                              p.tokens_per_s_a, p.tokens_per_s_b));
    }
    if (p.mfu_percent_a >= 0 && p.mfu_percent_b >= 0) {
      rows->push_back(MakeRow(SummaryGroup::kPhase, name + " MFU", SummaryUnit::kPercent, Sense::kHigherIsBetter,
                              p.mfu_percent_a, p.mfu_percent_b));
    }
  }
}

//-----------------------------------------------------------------------------
// [SECTION] Ops diff
//-----------------------------------------------------------------------------

std::string_view PresenceName(Presence p) {
  switch (p) {
    case Presence::kBoth: return "both";
    case Presence::kOnlyA: return "only_a";
    case Presence::kOnlyB: return "only_b";
  }
  return "both";
}

void SortByAbsDelta(std::vector<OpDiffRow>* rows) {
  // |delta| as unsigned: |INT64_MIN| does not fit a DurNs.
  auto magnitude = [](DurNs d) { return d < 0 ? uint64_t(0) - uint64_t(d) : uint64_t(d); };
  std::sort(rows->begin(), rows->end(), [&](const OpDiffRow& x, const OpDiffRow& y) {
    const uint64_t mx = magnitude(x.delta_ns), my = magnitude(y.delta_ns);
    if (mx != my) return mx > my;
    return std::tie(x.name, x.kind) < std::tie(y.name, y.kind);
  });
}

std::vector<OpDiffRow> DiffOps(const StringPool& a_names, std::span<const OpStat> a, size_t a_steps,
                               const StringPool& b_names, std::span<const OpStat> b, size_t b_steps,
                               bool normalize_names) {
  struct Merged {
    OpDiffRow row;
    bool in_a = false, in_b = false;
    std::set<std::string_view> raw_names;  // over both runs: the same name in A and B counts once
  };
  std::map<std::pair<std::string, OpKind>, Merged> by_key;
  auto add = [&](const StringPool& pool, const OpStat& op, bool is_a) {
    const std::string_view raw = pool.Get(op.name);
    std::string name = normalize_names ? NormalizeOpName(raw) : std::string(raw);
    Merged& m = by_key[{std::move(name), op.kind}];
    m.row.kind = op.kind;
    m.raw_names.insert(raw);
    (is_a ? m.in_a : m.in_b) = true;
    (is_a ? m.row.a_names : m.row.b_names).push_back(op.name);
    (is_a ? m.row.a_count : m.row.b_count) += op.count;
    (is_a ? m.row.a_total_ns : m.row.b_total_ns) += op.total_ns;
  };
  for (const OpStat& op : a) add(a_names, op, true);
  for (const OpStat& op : b) add(b_names, op, false);

  const double a_divisor = double(std::max<size_t>(a_steps, 1));
  const double b_divisor = double(std::max<size_t>(b_steps, 1));
  std::vector<OpDiffRow> rows;
  rows.reserve(by_key.size());
  for (auto& [key, m] : by_key) {
    OpDiffRow& row = m.row;
    row.name = key.first;
    row.delta_ns = row.b_total_ns - row.a_total_ns;
    row.delta_per_step_ns = double(row.b_total_ns) / b_divisor - double(row.a_total_ns) / a_divisor;
    row.presence = m.in_a && m.in_b ? Presence::kBoth : (m.in_a ? Presence::kOnlyA : Presence::kOnlyB);
    row.merged_names = static_cast<uint32_t>(m.raw_names.size());
    rows.push_back(std::move(row));
  }
  SortByAbsDelta(&rows);
  return rows;
}

std::vector<MemoryPeak> MemoryPeaks(const TraceAnalysis& analysis) {
  std::vector<MemoryPeak> peaks;
  for (const MemoryPoolAnalysis& m : analysis.memory.pools) {
    peaks.push_back({analysis.memory_table.pools[m.pool].name, m.peak_allocated_bytes, m.peak_reserved_bytes});
  }
  return peaks;
}

void AddMemorySummaryRows(std::span<const MemoryPeak> a, std::span<const MemoryPeak> b, std::vector<SummaryRow>* rows) {
  std::vector<std::string> names;
  for (const std::span<const MemoryPeak> r : {a, b}) {
    for (const MemoryPeak& m : r) {
      if (std::find(names.begin(), names.end(), m.pool) == names.end()) names.push_back(m.pool);
    }
  }
  const auto find = [](std::span<const MemoryPeak> r, const std::string& name) -> const MemoryPeak* {
    for (const MemoryPeak& m : r) {
      if (m.pool == name) return &m;
    }
    return nullptr;
  };
  for (const std::string& name : names) {
    const MemoryPeak* ma = find(a, name);
    const MemoryPeak* mb = find(b, name);
    const auto value = [](const MemoryPeak* m, int64_t MemoryPeak::*field) {
      return m == nullptr ? 0.0 : static_cast<double>(std::max<int64_t>(m->*field, 0));
    };
    rows->push_back(MakeRow(SummaryGroup::kMemory, name + " peak allocated", SummaryUnit::kBytes,
                            Sense::kLowerIsBetter, value(ma, &MemoryPeak::peak_allocated_bytes),
                            value(mb, &MemoryPeak::peak_allocated_bytes)));
    if ((ma && ma->peak_reserved_bytes >= 0) || (mb && mb->peak_reserved_bytes >= 0)) {
      rows->push_back(MakeRow(SummaryGroup::kMemory, name + " peak reserved", SummaryUnit::kBytes,
                              Sense::kLowerIsBetter, value(ma, &MemoryPeak::peak_reserved_bytes),
                              value(mb, &MemoryPeak::peak_reserved_bytes)));
    }
  }
}

//-----------------------------------------------------------------------------
// [SECTION] Compare
//-----------------------------------------------------------------------------

Comparison Compare(const CompareRun& a, const CompareRun& b, const CompareOptions& options) {
  Comparison c;
  c.a = MakeCompareSide(a);
  c.b = MakeCompareSide(b);
  c.summary = BuildSummaryRows(c.a, c.b);
  if (c.a.serving && c.b.serving) c.phases = ComparePhases(c.a.phases, c.b.phases);
  AddMemorySummaryRows(MemoryPeaks(a.analysis), MemoryPeaks(b.analysis), &c.summary);
  c.ops = DiffOps(a.trace.strings(), a.analysis.ops.ops, c.a.steps, b.trace.strings(), b.analysis.ops.ops, c.b.steps,
                  options.normalize_names);
  c.names_normalized = options.normalize_names;
  c.verdict = ComputeStepVerdict(c.a.full_step_dur_ns, c.b.full_step_dur_ns);
  return c;
}

Comparison Compare(const Trace& a, const Trace& b, const CompareOptions& options, std::string_view a_path,
                   std::string_view b_path) {
  const TraceAnalysis analysis_a = ComputeAnalysis(a, options.analysis);
  const TraceAnalysis analysis_b = ComputeAnalysis(b, options.analysis);
  return Compare(CompareRun{a, analysis_a, a_path}, CompareRun{b, analysis_b, b_path}, options);
}

}  // namespace stepline::analysis
