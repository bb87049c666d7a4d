// ComputeHeadline and the one formatting of each headline figure (headline.h).
#include "model/analysis/headline.h"

#include <algorithm>
#include <cstdio>

#include "model/analysis/memory_analysis.h"
#include "model/analysis/report.h"
#include "model/text_format.h"

namespace stepline::analysis {
namespace {

std::string Percent1(double percent) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", percent);
  return buf;
}

// The cause chart's figures: inside steps the breakdown (idle by cause, and
// copy time with no kernel under its copy cause, never under Input; other
// copies and memsets under Other); without steps the active span's gaps,
// which count warm-up and teardown too.
CauseNs ChartCauses(const Report& r, const DeviceReport* dev, bool in_steps) {
  if (!in_steps) return r.idle_by_cause;
  CauseNs out{};
  const CategoryNs& b = dev->breakdown_total;
  At(out, IdleCause::kInput) = At(b, TimeCategory::kIdleInput);
  At(out, IdleCause::kSync) = At(b, TimeCategory::kIdleSync);
  At(out, IdleCause::kLaunch) = At(b, TimeCategory::kIdleLaunch);
  At(out, IdleCause::kHostCompute) = At(b, TimeCategory::kIdleHostCompute);
  At(out, IdleCause::kGraph) = At(b, TimeCategory::kIdleGraph);
  At(out, IdleCause::kMemcpyH2D) = At(b, TimeCategory::kMemcpyH2D);
  At(out, IdleCause::kMemcpyD2H) = At(b, TimeCategory::kMemcpyD2H);
  At(out, IdleCause::kOther) =
      At(b, TimeCategory::kIdleOther) + At(b, TimeCategory::kMemcpyOther) + At(b, TimeCategory::kMemset);
  return out;
}

}  // namespace

std::string_view IdleCauseLabel(IdleCause cause) {
  static constexpr std::string_view kLabels[kIdleCauseCount] = {"Input", "Memcpy H2D", "Memcpy D2H", "Sync",
                                                                "Launch", "Host compute", "Graph", "Other"};
  return kLabels[static_cast<size_t>(cause)];
}

Headline ComputeHeadline(const Report& r) {
  Headline h;
  h.steps = r.steps.size();
  h.summed_steps = static_cast<size_t>(r.step_stats.count);
  h.mean_step_ns = r.step_stats.mean_ns;
  h.step_std_ns = h.summed_steps > 1 ? r.step_stats.sample_std_ns : 0;
  const DeviceReport* dev = r.primary_device_index >= 0 ? &r.devices[static_cast<size_t>(r.primary_device_index)]
                                                        : nullptr;
  if (dev != nullptr) {
    h.device_word = dev->kind == DeviceKind::kTpu ? "TPU" : dev->kind == DeviceKind::kOther ? "Device" : "GPU";
  }
  h.has_busy = dev != nullptr && r.step_stats.total_ns > 0;
  h.busy_percent = h.has_busy ? r.gpu_busy_percent : 0;
  h.idle_in_steps = dev != nullptr && !r.steps.empty();
  h.idle_by_cause = ChartCauses(r, dev, h.idle_in_steps);
  // The top cause is of idle time: device copies and memsets the chart adds
  // under Other are waits for a copy (XLA copy-done), not idle.
  CauseNs idle = h.idle_by_cause;
  DurNs whole = 0;
  if (h.idle_in_steps) {
    const CategoryNs& b = dev->breakdown_total;
    At(idle, IdleCause::kOther) = At(b, TimeCategory::kIdleOther);
    for (DurNs ns : b) whole += ns;
  } else if (dev != nullptr) {
    whole = dev->active_span.duration_ns();
  }
  int best = static_cast<int>(IdleCause::kOther);
  for (int c = 0; c < kIdleCauseCount; ++c) {
    if (idle[static_cast<size_t>(c)] > idle[static_cast<size_t>(best)]) best = c;
  }
  h.top_idle_cause = static_cast<IdleCause>(best);
  h.top_idle_ns = idle[static_cast<size_t>(best)];
  // "TPU busy 100.0%" beside "top idle cause: Other" read as a contradiction:
  // no cause is named for idle time that prints as 0.0% of the time.
  const bool shows = whole > 0 && 1000.0 * static_cast<double>(h.top_idle_ns) >= 0.5 * static_cast<double>(whole);
  h.has_top_idle_cause = h.top_idle_ns > 0 && shows;
  h.most_blamed = std::string(r.top_blamed_event);
  h.most_blamed_ns = r.top_blamed_ns;
  if (!r.memory.empty()) {
    h.has_memory = true;
    h.memory_pool = r.memory.front().name;
    h.memory_peak_bytes = r.memory.front().peak_allocated_bytes;
  }
  const EfficiencyAnalysis& e = r.efficiency;
  h.has_mfu = e.mfu_percent >= 0;
  h.mfu_percent = h.has_mfu ? e.mfu_percent : 0;
  const std::string peak = e.peak_tflops < 0 ? std::string()
                                             : text::FormatFixed(e.peak_tflops, 1) + " TFLOP/s " + e.peak_dtype +
                                                   " peak (" + e.peak_datasheet + ")";
  if (h.has_mfu) {
    h.mfu_detail = text::FormatFixed(e.achieved_tflops, 2) + " TFLOP/s achieved of " + peak + "; FLOPs known for " +
                   text::FormatFixed(e.flops_known_percent, 1) + "% of GPU time";
  } else if (!e.any_flops) {
    h.mfu_detail = "no op's FLOPs are known (record shapes, or with_flops=True)";
  } else {
    h.mfu_detail = "no peak for " + (e.device_name.empty() ? std::string("an unnamed device") : e.device_name) +
                   (e.peak_dtype.empty() ? std::string() : " (" + e.peak_dtype + ")") +
                   ": --peak-tflops gives one";
  }
  h.batch_size = e.batch_size;
  h.has_samples = e.samples_per_s >= 0;
  h.samples_per_s = h.has_samples ? e.samples_per_s : 0;
  return h;
}

Headline RankHeadline(int64_t steps, DurNs step_mean_ns) {
  Headline h;
  h.steps = static_cast<size_t>(std::max<int64_t>(0, steps));
  h.mean_step_ns = step_mean_ns;
  return h;
}

std::string HeadlineLabel(const Headline& h, HeadlineFigure figure) {
  switch (figure) {
    case HeadlineFigure::kSteps: return "steps";
    case HeadlineFigure::kMeanStep: return h.summed_steps > 1 ? "mean ± sample std step time" : "step time";
    case HeadlineFigure::kDeviceBusy: return h.device_word + " busy";
    case HeadlineFigure::kDeviceIdle: return h.device_word + " no-kernel time";
    case HeadlineFigure::kTopIdleCause: return "top idle cause";
    case HeadlineFigure::kMostBlamed: return "most blamed event (by idle time)";
    case HeadlineFigure::kMemoryPeak: return h.has_memory ? h.memory_pool + " memory peak" : "memory peak";
    case HeadlineFigure::kStepMean: return "mean step time";
    case HeadlineFigure::kMfu: return "MFU";
    case HeadlineFigure::kSamplesPerS: return "samples/s";
  }
  return "";
}

std::string HeadlineText(const Headline& h, HeadlineFigure figure) {
  switch (figure) {
    case HeadlineFigure::kSteps: return std::to_string(h.steps);
    case HeadlineFigure::kMeanStep:
      if (h.summed_steps == 0) return "-";
      // One step has no spread: the mean alone rather than "± 0 ns".
      return text::FormatDuration(h.mean_step_ns) +
             (h.summed_steps > 1 ? " \u00b1 " + text::FormatDuration(h.step_std_ns) : std::string());
    case HeadlineFigure::kDeviceBusy: return h.has_busy ? Percent1(h.busy_percent) : "-";
    case HeadlineFigure::kDeviceIdle: return h.has_busy ? Percent1(100.0 - h.busy_percent) : "-";
    case HeadlineFigure::kTopIdleCause:
      return h.has_top_idle_cause ? std::string(IdleCauseLabel(h.top_idle_cause)) : "-";
    case HeadlineFigure::kMostBlamed: return h.most_blamed.empty() ? "-" : h.most_blamed;
    case HeadlineFigure::kMemoryPeak:
      return h.has_memory ? FormatMemoryBytes(static_cast<double>(h.memory_peak_bytes)) : "-";
    case HeadlineFigure::kStepMean: return h.steps == 0 ? "-" : text::FormatDuration(h.mean_step_ns);
    case HeadlineFigure::kMfu: return h.has_mfu ? Percent1(h.mfu_percent) : "-";
    case HeadlineFigure::kSamplesPerS: return h.has_samples ? text::FormatFixed(h.samples_per_s, 1) : "-";
  }
  return "-";
}

}  // namespace stepline::analysis
