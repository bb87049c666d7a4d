// Headline figures: the few numbers every view leads with (steps, mean step
// and its spread, device busy and idle, top idle cause, most blamed event,
// memory peak). Computed once here from the Report and formatted by one
// function, so the overview tiles, the narrow summary line, the text report
// and the exports cannot disagree (the window once showed "GPU busy 59.5%"
// in its narrow summary, a figure of its own, beside 54.9% everywhere else).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "model/analysis/time_category.h"
#include "model/time.h"

namespace stepline::analysis {

struct Report;

enum class HeadlineFigure : uint8_t {
  kSteps = 0,
  kMeanStep,      // mean ± sample std (the mean alone with one step)
  kDeviceBusy,    // GpuBusyPercent: share of the summed step time with a kernel running
  kDeviceIdle,    // 100 - busy: no kernel running (copies included)
  kTopIdleCause,  // the cause with the most idle time; none when nothing is idle
  kMostBlamed,    // TopBlamedEvent
  kMemoryPeak,    // the first memory pool's peak allocated
  kStepMean,      // the mean step time alone: table cells (compare summary, ranks table)
  kMfu,           // EfficiencyAnalysis::mfu_percent: model FLOPs / step time / the device's peak
  kSamplesPerS,   // EfficiencyAnalysis::samples_per_s: batch size / mean step time; none without a batch size
};
inline constexpr int kHeadlineFigureCount = 10;  // every HeadlineFigure
// The figures a table of them lists (CSV, the SQLite export), in order:
// kStepMean is kMeanStep's table-cell form, not a figure of its own.
inline constexpr HeadlineFigure kHeadlineTableFigures[] = {
    HeadlineFigure::kSteps,        HeadlineFigure::kMeanStep,   HeadlineFigure::kDeviceBusy,
    HeadlineFigure::kDeviceIdle,   HeadlineFigure::kTopIdleCause, HeadlineFigure::kMostBlamed,
    HeadlineFigure::kMemoryPeak,   HeadlineFigure::kMfu,        HeadlineFigure::kSamplesPerS};

struct Headline {
  size_t steps = 0;
  // The steps the mean and spread are over: all of them, or on a cut file
  // those before the cut (Report::SummedStepCount); none: no mean is shown.
  size_t summed_steps = 0;
  DurNs mean_step_ns = 0, step_std_ns = 0;  // std only with more than one summed step
  std::string device_word = "GPU";          // "GPU", "TPU", "Device": the primary device's kind
  bool has_busy = false;                    // a primary device and step time
  double busy_percent = 0;
  // The cause behind the most idle time: inside steps (the breakdown's idle
  // categories and host copies with no kernel; device copies are waits, not
  // idle) when there are steps, else over the active span. None when its
  // share of that time prints as 0.0%.
  bool has_top_idle_cause = false;
  bool idle_in_steps = false;
  IdleCause top_idle_cause = IdleCause::kOther;
  DurNs top_idle_ns = 0;
  CauseNs idle_by_cause{};  // what the cause chart draws: no-kernel time, device copies under Other
  std::string most_blamed;  // "" none
  DurNs most_blamed_ns = 0;
  bool has_memory = false;
  std::string memory_pool;
  int64_t memory_peak_bytes = 0;
  bool has_mfu = false;  // FLOPs, time and a peak are known
  double mfu_percent = 0;
  std::string mfu_detail;  // the tooltip: achieved TFLOP/s, the peak and its source; why unknown otherwise
  bool has_samples = false;  // a batch size and step time: samples/s is known
  double samples_per_s = 0;
  int64_t batch_size = 0;    // 0: none set
};

Headline ComputeHeadline(const Report& report);
// A rank's figures in the ranks view: its steps and mean step time (no
// spread: a rank's summary keeps the summed step time, not each step).
Headline RankHeadline(int64_t steps, DurNs step_mean_ns);

// The figure's label, with the device's word: "steps", "TPU busy".
std::string HeadlineLabel(const Headline& h, HeadlineFigure figure);
// The figure as every view prints it: "12", "105.2 ms ± 1.300 ms", "54.9%",
// "Input", "aten::copy_", "2.8 GB", "1234.5" (samples/s); "-" when the trace has none.
std::string HeadlineText(const Headline& h, HeadlineFigure figure);
// "Input", "Memcpy H2D", ...: an idle cause as views name it.
std::string_view IdleCauseLabel(IdleCause cause);

}  // namespace stepline::analysis
