// Efficiency: how much of the device's peak the run uses and where the rest
// goes. Model FLOPs per op (efficiency_flops.h) over step time against the
// device's dense peak (efficiency_peaks.h) give MFU; beside it the
// memory-bound share of kernel time, the collectives' exposed time, the
// launch overhead, and samples/s. Definitions: docs/efficiency.md.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/analysis/device_activity.h"
#include "model/analysis/efficiency_flops.h"
#include "model/analysis/step_set.h"
#include "model/trace.h"

namespace stepline::analysis {

struct EfficiencyOptions {
  double peak_tflops = 0;   // > 0: --peak-tflops, overrides the table
  std::string peak_dtype;   // "": the dominant matmul dtype of the trace
  int64_t batch_size = 0;   // > 0: --batch-size, samples per step
  bool operator==(const EfficiencyOptions&) const = default;
};
// The dtypes a peak may be asked for (--peak-dtype, the window's setting).
inline constexpr std::string_view kPeakDtypes[] = {"bf16", "fp16", "fp32", "tf32", "fp8", "fp64", "int8"};

enum class PeakSource : uint8_t { kNone = 0, kTable, kOption, kTrace };
std::string_view PeakSourceName(PeakSource s);  // "table", "option", "trace", "" none

// One op name's FLOPs (host ops and GPU slices apart: `device`).
struct OpFlops {
  StringId name;
  bool device = false;
  double flops = 0;        // summed over its instances with known FLOPs
  uint64_t known = 0;      // instances with known FLOPs
  DurNs gpu_ns = 0;        // GPU time of those instances: the kernels they launched (or their own)
  double bytes = 0;        // summed over the instances whose bytes are known
  uint64_t bytes_known = 0;
  double achieved_tflops() const { return gpu_ns > 0 ? flops / (static_cast<double>(gpu_ns) * 1e3) : -1; }
  double intensity() const { return bytes_known == known && bytes > 0 ? flops / bytes : -1; }  // FLOP/byte
};

struct StepEfficiency {
  double flops = 0;             // model FLOPs of the ops that start in the step; -1 when no op's are known
  double achieved_tflops = 0;   // flops / step time; -1 unknown
  double mfu_percent = -1;      // -1: no peak
  DurNs kernel_ns = 0;          // summed compute kernel durations starting in the step
  DurNs memory_bound_ns = 0;    // of those, kernels classed memory-bound
  DurNs collective_ns = 0;      // union of collective kernel time in the step window
  DurNs exposed_ns = 0;         // of it, the part with no compute kernel running
  uint64_t kernels = 0;         // kernels (compute and collective) starting in the step
  DurNs launch_ns = 0;          // summed durations of their launch calls on the host
  double samples_per_s = -1;    // -1: no batch size
};

struct BoundTime {
  StringId name;  // kernel name
  DurNs ns = 0;
};

struct EfficiencyAnalysis {
  // Device and peak.
  std::string device_name;      // "" unknown
  std::string peak_dtype;       // the dtype the peak is for; "" unknown
  double peak_tflops = -1;      // -1 unknown: MFU unknown
  PeakSource peak_source = PeakSource::kNone;
  std::string peak_datasheet;   // the table row's source, or what else gave the peak
  // FLOPs and MFU over the steps (the whole trace without steps).
  bool any_flops = false;       // some op's FLOPs are known
  double model_flops = 0;
  double flops_known_percent = -1;  // share of kernel time under ops with known FLOPs; -1 no kernels
  double achieved_tflops = -1;      // -1 no FLOPs or no time
  double mfu_percent = -1;          // -1 unknown
  std::vector<StepEfficiency> steps;  // one per TraceAnalysis::steps entry
  std::vector<OpFlops> ops;           // sorted by (name, device)
  // Memory-bound kernel time.
  DurNs kernel_ns = 0, memory_bound_ns = 0;
  std::vector<BoundTime> top_memory_bound;  // kernel names, most time first (up to 5)
  std::vector<StringId> kernel_bound_names;  // the primary device's kernel names, sorted...
  std::vector<OpBound> kernel_bound;         // ...and their bound, parallel
  // Communication, per step (means over the steps).
  DurNs collective_ns_per_step = 0, exposed_ns_per_step = 0;
  double overlap_percent = -1;  // -1: no collective time
  // Launch overhead.
  double kernels_per_step = 0;
  DurNs launch_ns_per_step = 0;
  DurNs launch_delay_p50_ns = -1, launch_delay_p90_ns = -1;  // kernel start - launch call start
  double short_kernel_percent = -1;  // kernels shorter than their launch call; -1 none linked
  bool launch_bound = false;
  std::string launch_verdict;  // one sentence with the evidence and the recommendation; "" none
  // Throughput.
  int64_t batch_size = 0;
  double samples_per_s = -1;

  double memory_bound_percent() const {
    return kernel_ns > 0 ? 100.0 * static_cast<double>(memory_bound_ns) / static_cast<double>(kernel_ns) : -1;
  }
  // The FLOPs of one op row; null when none of its instances has known FLOPs.
  const OpFlops* FindOp(StringId name, bool device) const;
  OpBound KernelBound(StringId kernel_name) const;
};

struct TraceAnalysis;
struct LaunchIndex;
// Model FLOPs utilisation, percent: `flops` in `ns` against a peak of
// `peak_tflops`; -1 without a peak or a time.
double MfuPercent(double flops, DurNs ns, double peak_tflops);

// Reads the analysis' steps and devices (primary device) and the launch links.
EfficiencyAnalysis ComputeEfficiency(const Trace& trace, const TraceAnalysis& analysis, const LaunchIndex& launches,
                                     const EfficiencyOptions& options);

// The name of device `device_id` as the trace records it: Kineto
// deviceProperties, Nsight TARGET_INFO_GPU ("gpu N name"), XSpace
// device_type_string, or the "(name)" of its process ("GPU 0 (AMD Instinct MI300X)"). "" unknown.
std::string FindDeviceName(const Trace& trace, int32_t device_id);

}  // namespace stepline::analysis
