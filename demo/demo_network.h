// The model the demo "trains": the ops of one training step of a DeepLab-style
// segmentation CNN, in TensorFlow or PyTorch naming, each with the GPU kernels
// it launches and their cost at batch 64. Data only; no timing, no Trace.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "demo/demo_scenarios.h"

namespace stepline::demo {

struct DemoKernelSpec {
  std::string_view name;             // demangled kernel name (static storage)
  double base_us = 0;                // duration at batch 64 on a V100
  bool batch_scaled = true;          // false: cost independent of the batch (optimizer updates)
  std::array<int, 3> grid{1, 1, 1};  // at batch 64; scaled with the batch like the duration
  std::array<int, 3> block{256, 1, 1};
  int registers_per_thread = 32;
  int shared_memory_bytes = 0;
};

struct DemoOpSpec {
  std::string name;        // TF op ("model/conv2_block1_1_conv/Conv2D") or aten op / autograd node
  std::string inner_name;  // PyTorch: the op nested inside (aten::cudnn_convolution); "" for none
  std::vector<DemoKernelSpec> kernels;
};

// One step's ops in issue order: forward, loss, backward, optimizer.
struct DemoNetwork {
  std::vector<DemoOpSpec> ops;
  size_t optimizer_begin = 0;  // ops[optimizer_begin..] update the weights
  size_t kernel_count = 0;     // kernels per step
  double kernel_us_at_64 = 0;  // summed kernel time per step at batch 64
};

// `output_conv_11x11` adds the inefficient-op scenario's 11x11 conv before
// the logits; its forward kernel (implicit_convolve_sgemm) is the costliest
// kernel of the step.
DemoNetwork BuildDemoNetwork(DemoStyle style, bool output_conv_11x11);

// The 11x11 conv's forward kernel name (for tests of that scenario).
std::string_view DemoOutputConvKernelName();

}  // namespace stepline::demo
