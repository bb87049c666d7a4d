// GenerateDemo: a scenario (demo_scenarios.h) becomes a finalized Trace,
// built through loaders/trace_builder exactly like a real loader, plus the
// ground truth planted in it, so tests can hold the analysis to exact answers.
//
// The trace is a small discrete-event simulation of a training loop: a main
// thread that dequeues a batch, copies it to the GPU, launches every kernel of
// the step (demo_network.h), syncs on the loss and runs a callback; an input
// pipeline (one reader thread, four map workers, two batches of prefetch);
// and one GPU with a compute stream and copy streams. A kernel starts when it
// has been launched, its stream is free, and (first kernel of a step) the
// input copy has landed. Every duration gets a seeded jitter (our own
// SplitMix64, identical on every platform).
//
// The profile window opens near the end of step 0 (its tail is in the trace
// without its step marker) and closes after the first ops of step N+1, so
// every step's GPU idle time lies between two kernels, as in a real capture.
//
// Host events carry the names the idle-cause table classifies:
//   input        IteratorGetNext, tf_data_iterator_get_next,
//                enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__
//   sync         cuStreamSynchronize, cuMemcpyDtoH_v2 (blocking copy),
//                cudaStreamSynchronize, aten::item, aten::_local_scalar_dense
//   launch       cuLaunchKernel, cudaLaunchKernel, cuMemcpyHtoDAsync_v2, cudaMemcpyAsync
//   step marker  "train" (TF, arg step_num) and ProfilerStep#N: never counted
//   host_compute everything else (ops, on_train_batch_end, Tensor.numpy, ...)
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "demo/demo_scenarios.h"
#include "model/result.h"
#include "model/trace.h"

namespace stepline::demo {

struct DemoOptions {
  std::string scenario = "input-bound";
  DemoStyle style = DemoStyle::kTensorFlow;
  int steps = 10;             // complete, marked steps in the trace (>= 1)
  int scale = 1;              // multiplies the steps, and so every event count (>= 1)
  uint64_t seed = 1;          // same seed, same trace
  bool compute_truth = true;  // fill DemoTruth (costs time on very large traces)
};

inline constexpr int kDemoMaxSteps = 20'000;  // steps * scale: ~65 M slices, ~10 GB in memory

// What one step contains by construction. Times are ns.
struct DemoStepTruth {
  int64_t step_num = 0;  // "train" step_num / ProfilerStep#N / Steps row name
  TimeNs start_ns = 0;   // the step marker's extent (host marker = Steps row)
  DurNs dur_ns = 0;
  // Breakdown by the analysis' priority: kernel time first, then copies not
  // under a kernel, the rest is idle. kernel + h2d + d2h + idle == dur.
  DurNs kernel_ns = 0;      // union of kernels inside the step
  DurNs memcpy_h2d_ns = 0;  // H2D copy time inside the step with no kernel running
  DurNs memcpy_d2h_ns = 0;  // D2H copy time with no kernel and no H2D copy running
  DurNs idle_ns = 0;
  // No-kernel time inside the step (copies included) by the cause of the gap
  // it belongs to, per the idle-cause rules (docs/analysis.md) applied to the planted events; a gap
  // crossing a step boundary counts in both steps with one cause. Sums to
  // dur - kernel.
  std::array<DurNs, kDemoIdleCauseCount> gap_ns_by_cause{};
  // What the main thread did (sums of its host events inside the step).
  DurNs input_wait_ns = 0;   // in the iterator / DataLoader __next__
  DurNs launch_call_ns = 0;  // in kernel launch calls
  DurNs sync_call_ns = 0;    // in blocking syncs / blocking copies
  DurNs callback_ns = 0;     // in on_train_batch_end
  DurNs checkpoint_ns = 0;   // in the checkpoint save (scenario `checkpoint`); > 0 marks a planted outlier step
};

struct DemoTruth {
  std::vector<DemoStepTruth> steps;
  double map_worker_busy_fraction = 0;                       // over the marked steps, mean of the four map workers
  std::array<DurNs, kDemoIdleCauseCount> gap_ns_by_cause{};  // summed over steps
  // GPU 0 memory: the planted growth of the allocated level per
  // step, and the highest level of an event inside the profile window.
  int64_t memory_growth_per_step_bytes = 0;
  int64_t memory_peak_allocated_bytes = 0;
  DemoIdleCause DominantGapCause() const;                    // largest entry of gap_ns_by_cause
};

struct DemoOutput {
  Trace trace;
  DemoTruth truth;  // empty when !options.compute_truth
};

// Fails (with a message naming the valid choices) on an unknown scenario or
// out-of-range steps/scale. Never throws.
Result<DemoOutput, std::string> GenerateDemo(const DemoOptions& options);

// The trace alone (the viewer's default input).
Result<Trace, std::string> GenerateDemoTrace(const DemoOptions& options);

// "baseline, small-batch, ..." for error messages.
std::string DemoScenarioNameList();

}  // namespace stepline::demo
