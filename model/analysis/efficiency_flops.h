// FLOPs of one op: recorded by the profiler (Kineto's `flops` arg with
// with_flops=True; XSpace's `model_flops` / `flops` stats of XLA ops), else
// estimated from the recorded shapes (Kineto's `Input Dims`, `Input type`,
// `Concrete Inputs`) for the matmul family, convolutions and attention.
// Every formula is in docs/efficiency.md ("FLOPs"). Unknown is -1, never 0.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/trace.h"

namespace stepline::analysis {

// Which formula an op name takes (the aten name, exactly).
enum class FlopFamily : uint8_t {
  kNone = 0,
  kMatmul,             // aten::mm, addmm, bmm, baddbmm, matmul, linear, _scaled_mm
  kConv,               // aten::convolution, _convolution, conv1d/2d/3d, cudnn_/miopen_convolution
  kConvBackward,       // aten::convolution_backward
  kAttention,          // scaled_dot_product_attention and its flash / efficient / cudnn forms
  kAttentionBackward,  // their backward ops
};
FlopFamily FlopFamilyOfName(std::string_view op_name);

// What bounds an op or kernel: matmul, convolution and attention are compute;
// elementwise, normalization, reduction, copy and embedding are memory;
// collectives and anything else unclassified.
enum class OpBound : uint8_t { kUnknown = 0, kCompute, kMemory };
std::string_view OpBoundName(OpBound b);  // "compute", "memory", "" unknown
OpBound BoundOfOpName(std::string_view op_name);      // host (framework) op names
OpBound BoundOfKernelName(std::string_view kernel_name);  // GPU kernel names

// One tensor input's dims; `tensor` false for scalars, lists of tensors and
// absent inputs (an empty Input Dims entry is a scalar or None).
struct InputShape {
  std::vector<int64_t> dims;
  bool tensor = false;
};
// Parses Kineto's `Input Dims` text ("[[1,141,512],[512,512],[]]"); false on bad text.
bool ParseInputDims(std::string_view text, std::vector<InputShape>* out);
// Parses a JSON array of strings (`Input type`, `Concrete Inputs`); false on bad text.
bool ParseStringArray(std::string_view text, std::vector<std::string>* out);

// "bf16", "fp16", "fp32", "fp64", "fp8", "int8" for a Kineto `Input type`
// ("c10::BFloat16", "c10::Half", "float", ...); "" for anything else.
std::string_view DtypeOfInputType(std::string_view input_type);

// FLOPs from shapes, -1 when the shapes (and concrete inputs) do not determine
// them. `concrete` may be empty (older traces): then ops that need a stride,
// padding or the causal flag are unknown.
double EstimateFlops(std::string_view op_name, const std::vector<InputShape>& dims,
                     const std::vector<std::string>& concrete);
// Bytes read and written by a matmul-family op (inputs and the output, once
// each), -1 unknown; for arithmetic intensity.
double EstimateMatmulBytes(std::string_view op_name, const std::vector<InputShape>& dims, int element_bytes);

// "12.35 GFLOP": three significant decimals in the largest unit under 1000;
// every view prints FLOPs through it.
std::string FormatFlops(double flops);

// The arg keys the estimate reads, looked up once per trace; all None when
// the trace records none of them (then no slice is visited).
struct FlopArgKeys {
  StringId flops, model_flops, input_dims, input_type, concrete_inputs;
  bool any() const { return !flops.is_none() || !model_flops.is_none() || !input_dims.is_none(); }
};
FlopArgKeys FindFlopArgKeys(const Trace& trace);

struct SliceFlops {
  double flops = -1;       // -1 unknown
  double bytes = -1;       // -1 unknown
  std::string_view dtype;  // "" unknown
  bool recorded = false;   // from the trace's own flops arg, not a shape estimate
};
// The FLOPs of slice `i` named `name` (family from FlopFamilyOfName).
SliceFlops ComputeSliceFlops(const Trace& trace, const FlopArgKeys& keys, uint32_t i, FlopFamily family);

}  // namespace stepline::analysis
