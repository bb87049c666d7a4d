// The scenario table. Every number here is a per-step parameter of the
// simulation in demo_generator.cpp; the comment above each scenario gives
// what it produces (seed 1, both styles agree within 1%), and
// tests/loaders/demo_generator_test.cpp holds each to its range.
//
// Common to all (demo_network.cpp): a DeepLab-style segmentation CNN (ResNet-50
// backbone + ASPP head, 60 conv layers with batch norm, Adam), whose kernels
// take 598 ms of V100 time per step at batch 64: 1,138 kernels from 599 TF
// ops (539 aten ops in PyTorch style), launched from the main thread at
// ~26 us per launch call (CUPTI tracing on).
// The input pipeline has one reader thread and four map workers with a
// prefetch buffer of two batches; the main thread copies each batch to the GPU
// at 12.5 GB/s (pinned) and syncs on the loss at the end of each step.
#include "demo/demo_scenarios.h"

#include <array>
#include <string>

#include "demo/demo_generator.h"  // DemoScenarioNameList

namespace stepline::demo {
namespace {

DemoScenarioParams Baseline() { return {}; }

constexpr std::string_view kExpectComputeBound = "compute-bound";

const std::array<DemoScenarioInfo, 10>& Table() {
  static const std::array<DemoScenarioInfo, 10> table = [] {
    std::array<DemoScenarioInfo, 10> t{};
    // 0.62 s/step, GPU 96.4% busy. The idle left: the 16 ms input copy at
    // the step start (2.6%) and 1.5-3.5 us between back-to-back kernels.
    t[0] = {"baseline",
            "healthy: input prefetched, the GPU busy ~96% of the step",
            kExpectComputeBound,
            true,
            DemoIdleCause::kMemcpyH2D,
            Baseline()};
    // batch 2: 38 ms/step, GPU 63% busy. Kernels of 3-90 us, mostly
    // shorter than the 26 us launch calls feeding them: launch calls fill 79%
    // of the step and 19% of it is GPU idle waiting on them.
    t[1] = {"small-batch",
            "batch 2: many tiny kernels; the host spends most of the step in launch calls",
            "idle dominated by kernel launch overhead",
            false,
            DemoIdleCause::kLaunch,
            Baseline()};
    t[1].params.batch = 2;
    t[1].params.input_mb = 201.0 / 32;
    // 640 records read per batch (9 of 10 filtered out): the reader needs
    // 2.9 s per batch; the main thread waits 78.7% of each step in the
    // iterator, the GPU is busy 20.5%.
    t[2] = {"input-bound",
            "9 of 10 records dropped in the input pipeline; the main thread waits ~78% in the iterator",
            "idle dominated by input",
            false,
            DemoIdleCause::kInput,
            Baseline()};
    t[2].params.records_per_batch = 640;
    t[2].params.read_us_per_record = 4'550;
    // A 96 ms map per sample: 16 samples per worker = 1.54 s per batch plus
    // 50 ms batching. The map workers are 96% busy, a step takes 1.6 s, the
    // main thread waits 61% of it, the GPU is busy 37%.
    t[3] = {"preprocessing",
            "a heavy map op keeps the input threads ~96% busy; the GPU waits on the iterator",
            "idle dominated by input; host input threads saturated",
            false,
            DemoIdleCause::kInput,
            Baseline()};
    t[3].params.map_us_per_sample = 96'000;
    t[3].params.assemble_us = 50'000;
    // 10x the input: a 160 ms H2D copy (21% of the step) at the start of
    // each 0.77 s step; the GPU is busy 78%.
    t[4] = {"h2d-copy",
            "the input is 10x larger; each step's MemcpyH2D grows and compute waits for it",
            "idle dominated by H2D copies",
            false,
            DemoIdleCause::kMemcpyH2D,
            Baseline()};
    t[4].params.input_mb = 2010;
    // An 11x11 conv on the output: ~350 ms more GPU work, 0.97 s/step, GPU
    // 97.7% busy; its 130 ms forward kernel is the costliest of the step.
    t[5] = {"inefficient-op",
            "an 11x11 conv on the output becomes the most expensive GPU op",
            "compute-bound; that op leads the op stats",
            true,
            DemoIdleCause::kMemcpyH2D,
            Baseline()};
    t[5].params.output_conv_11x11 = true;
    // 0.8 s of on_train_batch_end after each step: 1.41 s/step, the GPU
    // idle 58% of it.
    t[6] = {"post-processing",
            "an on_train_batch_end callback runs ~0.8 s of host work; GPU idle half the step",
            "idle dominated by host compute in that callback",
            false,
            DemoIdleCause::kHostCompute,
            Baseline()};
    t[6].params.callback_us = 800'000;
    // A blocking .item() after each of the ~600 ops: the host cannot run
    // ahead and every op waits ~90 us for the sync to return. 0.70 s/step,
    // GPU 86% busy, 11% of the step idle on syncs.
    t[7] = {"sync",
            "the loop calls .item() after every op and blocks on the GPU",
            "idle dominated by host synchronization",
            false,
            DemoIdleCause::kSync,
            Baseline()};
    t[7].params.item_after_every_op = true;
    // The baseline's timing, but each step appends its loss (and the graph it
    // keeps alive) to a list: GPU 0's allocated level grows 128 MB per step
    //. Every scenario records memory events; only this one grows.
    t[8] = {"memory-leak",
            "each step appends its loss tensor to a list: GPU memory grows 128 MB per step",
            "memory grows every step",
            true,
            DemoIdleCause::kMemcpyH2D,
            Baseline()};
    t[8].params.leak_mb_per_step = 128;
    // The baseline, but every 4th step (step_num 4, 8, ...) saves a
    // checkpoint on the training thread: a 400 ms save (torch.save / TF
    // CheckpointManager.save) with the GPU idle, so those steps take ~1.02 s
    // against ~0.62 s (outlier steps). Over 10 steps the GPU
    // waits on host work 11% of the time.
    t[9] = {"checkpoint",
            "every 4th step saves a checkpoint on the training thread; the GPU idles ~0.4 s in those steps",
            "steps 4, 8, ... are outliers, slowed by the checkpoint save",
            false,
            DemoIdleCause::kHostCompute,
            Baseline()};
    t[9].params.checkpoint_every = 4;
    t[9].params.checkpoint_us = 400'000;
    return t;
  }();
  return table;
}

}  // namespace

std::string_view DemoStyleName(DemoStyle style) { return style == DemoStyle::kPyTorch ? "pytorch" : "tensorflow"; }

std::optional<DemoStyle> ParseDemoStyle(std::string_view name) {
  if (name == "tensorflow" || name == "tf") return DemoStyle::kTensorFlow;
  if (name == "pytorch" || name == "torch") return DemoStyle::kPyTorch;
  return std::nullopt;
}

std::string_view DemoIdleCauseName(DemoIdleCause cause) {
  static constexpr std::array<std::string_view, kDemoIdleCauseCount> kNames = {
      "input", "memcpy_h2d", "memcpy_d2h", "sync", "launch", "host_compute", "graph", "other"};
  return kNames[static_cast<size_t>(cause)];
}

std::span<const DemoScenarioInfo> DemoScenarios() { return Table(); }

const DemoScenarioInfo* FindDemoScenario(std::string_view name) {
  for (const DemoScenarioInfo& s : Table()) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

std::string DemoScenarioNameList() {
  std::string out;
  for (const DemoScenarioInfo& s : DemoScenarios()) {
    if (!out.empty()) out += ", ";
    out += s.name;
  }
  return out;
}

}  // namespace stepline::demo
