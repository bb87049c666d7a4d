// The built-in demo scenarios: the bottlenecks of the classic TensorFlow
// profiler case study (a segmentation CNN, batch 64, ~100 samples/s on one
// V100), each with its per-step parameters and the diagnosis it must get.
// Data only; demo_generator turns a scenario into a Trace.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace stepline::demo {

// Naming convention of the generated trace.
enum class DemoStyle : uint8_t {
  kTensorFlow = 0,  // TensorBoard/XProf: /host:CPU, /device:GPU:0, "Stream #14(Compute)", Steps row
  kPyTorch,         // Kineto: ProfilerStep#N, aten:: ops, cudaLaunchKernel, pid = device, tid = stream
};
std::string_view DemoStyleName(DemoStyle style);  // "tensorflow", "pytorch"
std::optional<DemoStyle> ParseDemoStyle(std::string_view name);

// Why the GPU sat idle: the closed list of the analysis.
// kGraph (inside a CUDA graph replay) is in the list to keep the analysis's
// order; no scenario replays a graph (demo_graphs.h plants those).
enum class DemoIdleCause : uint8_t { kInput = 0, kMemcpyH2D, kMemcpyD2H, kSync, kLaunch, kHostCompute, kGraph, kOther };
inline constexpr int kDemoIdleCauseCount = 8;
std::string_view DemoIdleCauseName(DemoIdleCause cause);  // "input", "memcpy_h2d", ... as in the report

// Per-step behaviour. Durations are microseconds at the stated batch; the
// generator adds seeded jitter to each.
struct DemoScenarioParams {
  int batch = 64;                     // kernel work scales with batch / 64 (3 us floor)
  int records_per_batch = 64;         // records the reader thread reads per batch
  double read_us_per_record = 300;    // reader thread, one record at a time
  double map_us_per_sample = 17'500;  // decode + augment one kept sample on a map worker
  double assemble_us = 10'000;        // batching on map worker 0 while the others wait
  double input_mb = 201;              // host -> device bytes per step (MB, 1e6 bytes)
  double callback_us = 3'000;         // on_train_batch_end host work after each step
  bool item_after_every_op = false;   // a blocking .item() / .numpy() after every op
  bool output_conv_11x11 = false;     // an 11x11 conv (64 -> 64 channels) on the output
  double leak_mb_per_step = 0;        // bytes (MB, 1e6) each step keeps alive for good (the loss list)
  int checkpoint_every = 0;           // every Nth marked step (step_num % N == 0) saves a checkpoint; 0 never
  double checkpoint_us = 0;           // the save, on the main thread at the step's end (GPU idle meanwhile)
};

struct DemoScenarioInfo {
  std::string_view name;                // CLI name, e.g. "input-bound"
  std::string_view summary;             // one line for `stepline demo --list`
  std::string_view expected_diagnosis;  // as the issue states it
  bool compute_bound;                   // true: idle is small, no cause dominates
  DemoIdleCause dominant_idle_cause;    // the cause with most idle time (when !compute_bound,
                                        // and still the largest one when compute_bound)
  DemoScenarioParams params;
};

// All scenarios, in the order `--list` prints them. The table in
// demo_scenarios.cpp documents each one's numbers.
std::span<const DemoScenarioInfo> DemoScenarios();
const DemoScenarioInfo* FindDemoScenario(std::string_view name);  // nullptr when unknown

}  // namespace stepline::demo
