// The `efficiency` demo: a small Kineto JSON trace whose model FLOPs, MFU,
// memory-bound share, exposed communication and launch figures are known
// exactly. Every step (10 ms, ProfilerStep#N) runs, on the main thread:
//   aten::linear [[64,128,1024],[4096,1024],[4096]] bf16 > aten::addmm > launch > an xmma GEMM (2000 us)
//   aten::mm without shapes (its FLOPs unknown; `recorded_flops` gives it a `flops` arg) > a GEMM (500 us)
//   aten::_scaled_dot_product_flash_attention q,k,v [8,16,512,64] bf16, causal > flash kernel (1000 us)
//   four aten::add_ > four 4 us elementwise kernels, each shorter than its 8 us launch call
//   record_param_comms > an NCCL all-reduce (2000 us on its own stream) of which a 500 us
//   elementwise kernel overlaps 500 us
// and the truth below is computed from those numbers, not measured.
#pragma once

#include <cstdint>
#include <string>

#include "model/time.h"

namespace stepline::demo {

struct EfficiencyDemoOptions {
  int steps = 4;
  std::string device_name = "NVIDIA H100 80GB HBM3";  // deviceProperties; a name not in the table: MFU unknown
  bool shapes = true;           // record Input Dims / Input type / Concrete Inputs
  bool recorded_flops = false;  // aten::mm carries a Kineto `flops` arg (with_flops=True)
};

struct EfficiencyDemoTruth {
  double flops_per_step = 0;        // model FLOPs of one step
  DurNs step_ns = 10'000'000;
  uint64_t kernels_per_step = 9;    // compute and collective
  DurNs launch_ns_per_step = 0;     // summed launch-call durations
  DurNs launch_delay_p50_ns = 0, launch_delay_p90_ns = 0;
  double short_kernel_percent = 0;  // of the 9 kernels
  DurNs kernel_ns_per_step = 0;     // compute kernels (not the collective)
  DurNs memory_bound_ns_per_step = 0;
  DurNs collective_ns_per_step = 0, exposed_ns_per_step = 0;
  double overlap_percent = 0;
  DurNs flops_known_kernel_ns_per_step = 0;  // kernel time under ops with known FLOPs
  DurNs all_kernel_ns_per_step = 0;          // compute + collective kernel time
};

// The trace as Kineto JSON text, and what the analysis must find in it.
std::string EfficiencyDemoJson(const EfficiencyDemoOptions& options);
EfficiencyDemoTruth EfficiencyDemoTruthOf(const EfficiencyDemoOptions& options);

}  // namespace stepline::demo
