// The findings of findings.h, from a Report and its trace (for slice ids).
#include "model/analysis/findings.h"

#include <algorithm>
#include <cstdio>

#include "model/analysis/headline_record.h"
#include "model/gpu_kind.h"

namespace stepline::analysis {
namespace {

// Names in evidence lines are cut: the slice id leads to the full one.
std::string Short(std::string_view name) {
  constexpr size_t kMax = 48;
  return name.size() <= kMax ? std::string(name) : std::string(name.substr(0, kMax - 3)) + "...";
}

std::string Percent(double p) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%", p);
  return text;
}

// The kernel that ends a gap: a kernel-like slice on a stream of the gap's
// device starting exactly at the gap's end (gaps end where a kernel starts).
SliceId KernelAt(const Trace& trace, int32_t device_id, TimeNs ts) {
  const TrackTable& tracks = trace.tracks();
  for (size_t t = 0; t < tracks.size(); ++t) {
    const TrackId track = TrackId::FromIndex(t);
    if (tracks.kind(track) != TrackKind::kGpuStream || tracks.device_id(track) != device_id) continue;
    const auto starts = trace.TrackSliceStarts(track);
    const size_t base = tracks.ranges(track).slice_begin;
    for (auto it = std::lower_bound(starts.begin(), starts.end(), ts); it != starts.end() && *it == ts; ++it) {
      const size_t row = base + static_cast<size_t>(it - starts.begin());
      if (IsKernelLike(trace.slices().gpu_kind()[row])) return SliceId::FromIndex(row);
    }
  }
  return SliceId::None();
}

// The slice that marks a step: same start, duration and name, on any track.
SliceId StepSlice(const Trace& trace, const ReportStep& step) {
  const TrackTable& tracks = trace.tracks();
  const SliceTable& s = trace.slices();
  for (size_t t = 0; t < tracks.size(); ++t) {
    const TrackId track = TrackId::FromIndex(t);
    const auto starts = trace.TrackSliceStarts(track);
    const size_t base = tracks.ranges(track).slice_begin;
    for (auto it = std::lower_bound(starts.begin(), starts.end(), step.start_ns);
         it != starts.end() && *it == step.start_ns; ++it) {
      const size_t row = base + static_cast<size_t>(it - starts.begin());
      if (s.dur_ns()[row] == step.dur_ns && trace.str(s.name()[row]) == step.name) return SliceId::FromIndex(row);
    }
  }
  return SliceId::None();
}

// The longest gaps of the primary device matching `cause` (any when null).
std::vector<FindingEvidence> GapEvidence(const Trace& trace, const Report& r, const TimeCategory* category) {
  std::vector<const ReportGap*> gaps;
  for (const ReportGap& g : r.gaps) {
    if (static_cast<int>(g.device) != r.primary_device_index) continue;
    if (category != nullptr && IdleCategory(g.cause) != *category) continue;
    gaps.push_back(&g);
  }
  std::stable_sort(gaps.begin(), gaps.end(), [](const ReportGap* a, const ReportGap* b) { return a->dur_ns > b->dur_ns; });
  if (gaps.size() > kEvidencePerFinding) gaps.resize(kEvidencePerFinding);
  std::vector<FindingEvidence> out;
  for (const ReportGap* g : gaps) {
    FindingEvidence e;
    e.what = std::string(IdleCauseName(g->cause)) + " gap";
    const auto events = r.CauseEvents(*g);
    if (!events.empty()) e.what += ", host " + Short(events.front().name);
    if (!g->next_kernel.empty()) e.what += ", before " + Short(g->next_kernel);
    e.start_ns = g->start_ns;
    e.dur_ns = g->dur_ns;
    e.slice = KernelAt(trace, r.devices[g->device].device_id, g->start_ns + g->dur_ns);
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace

std::vector<Finding> ComputeFindings(const Trace& trace, const Report& r) {
  std::vector<Finding> out;
  const auto add = [&out](Finding f) {
    f.id = "F" + std::to_string(out.size() + 1);
    out.push_back(std::move(f));
  };
  // Shares of the primary device's step-time breakdown, so a finding's
  // figure is the one the breakdown table shows.
  DurNs step_ns = 0;
  for (const DurNs ns : r.breakdown_total) step_ns += ns;
  if (r.primary_device_index >= 0 && step_ns > 0) {
    const DeviceReport& device = r.devices[static_cast<size_t>(r.primary_device_index)];
    for (int c = static_cast<int>(TimeCategory::kIdleInput); c < kTimeCategoryCount; ++c) {
      const auto category = static_cast<TimeCategory>(c);
      const double share = 100.0 * static_cast<double>(r.breakdown_total[size_t(c)]) / static_cast<double>(step_ns);
      if (share < kIdleCauseSharePercent) continue;
      const std::string name(TimeCategoryName(category));  // "idle_input", ...
      Finding f;
      f.rule = name;
      f.title = device.name + " is idle (" + name + ") for " + Percent(share) + " of step time";
      f.threshold = ">= " + Percent(kIdleCauseSharePercent) + " of step time";
      f.value = share;
      f.value_text = Percent(share);
      f.evidence = GapEvidence(trace, r, &category);
      add(std::move(f));
    }
    if (r.gpu_busy_percent < kLowBusyPercent) {
      Finding f;
      f.rule = "low_gpu_busy";
      // The busy figure as the window's headline prints it.
      const std::string busy = HeadlineTextAt("findings", ComputeHeadline(r), HeadlineFigure::kDeviceBusy);
      f.title = device.name + " runs kernels for only " + busy + " of step time";
      f.threshold = "< " + Percent(kLowBusyPercent) + " of step time";
      f.value = r.gpu_busy_percent;
      f.value_text = busy;
      f.evidence = GapEvidence(trace, r, nullptr);
      add(std::move(f));
    }
  }
  for (const ReportOutlierStep& o : r.outlier_steps) {
    if (o.step >= r.steps.size()) continue;
    const ReportStep& step = r.steps[o.step];
    Finding f;
    f.rule = "outlier_step";
    f.title = "step " + o.name + " is " + std::to_string(o.excess_ns / 1000) + " us longer than the typical step" +
              (o.cause.empty() ? "" : ", mostly " + std::string(o.cause));
    f.threshold = "dur > " + std::to_string(r.outlier_threshold_ns / 1000) + " us (outlier threshold)";
    f.value = static_cast<double>(o.excess_ns);
    f.value_text = std::to_string(o.excess_ns / 1000) + " us excess";
    f.evidence.push_back({"step " + step.name, step.start_ns, step.dur_ns, StepSlice(trace, step)});
    add(std::move(f));
  }
  return out;
}

}  // namespace stepline::analysis
