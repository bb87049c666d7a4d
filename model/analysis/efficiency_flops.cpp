// FLOPs of one op from its recorded args or its shapes (efficiency_flops.h);
// the formulas are documented in docs/efficiency.md, "FLOPs".
#include "model/analysis/efficiency_flops.h"

#include <algorithm>
#include <charconv>
#include <system_error>

#include "model/ascii_case.h"
#include "model/text_format.h"

namespace stepline::analysis {
namespace {

bool FlopsNameIn(std::string_view name, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// Case-insensitive substring test for kernel and op name heuristics.
bool FlopsContains(std::string_view text, std::string_view word) {
  if (word.size() > text.size()) return false;
  for (size_t i = 0; i + word.size() <= text.size(); ++i) {
    size_t k = 0;
    while (k < word.size() && AsciiLower(text[i + k]) == word[k]) ++k;
    if (k == word.size()) return true;
  }
  return false;
}

void FlopsSkipSpace(std::string_view t, size_t* i) {
  while (*i < t.size() && (t[*i] == ' ' || t[*i] == '\n' || t[*i] == '\t')) ++(*i);
}

double Product(const std::vector<int64_t>& d, size_t begin, size_t end) {
  double p = 1;
  for (size_t i = begin; i < end && i < d.size(); ++i) p *= static_cast<double>(d[i]);
  return p;
}

// "[1, 2]" or "1" -> ints; false when the text is no int list.
bool IntList(std::string_view text, std::vector<int64_t>* out) {
  out->clear();
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '[' || c == ']' || c == ',' || c == ' ') {
      ++i;
      continue;
    }
    int64_t v = 0;
    const auto [ptr, ec] = std::from_chars(text.data() + i, text.data() + text.size(), v);
    if (ec != std::errc()) return false;
    out->push_back(v);
    i = static_cast<size_t>(ptr - text.data());
  }
  return !out->empty();
}

// Concrete input `k` as a bool: 1 true, 0 false, -1 absent or not a bool.
int ConcreteBool(const std::vector<std::string>& concrete, size_t k) {
  if (k >= concrete.size()) return -1;
  if (concrete[k] == "True" || concrete[k] == "true") return 1;
  if (concrete[k] == "False" || concrete[k] == "false") return 0;
  return -1;
}

// Per spatial dim from a concrete list that may hold one value for all dims.
bool SpatialParam(const std::vector<std::string>& concrete, size_t k, size_t dims, std::vector<int64_t>* out) {
  if (k >= concrete.size() || !IntList(concrete[k], out)) return false;
  if (out->size() == 1) out->assign(dims, (*out)[0]);
  return out->size() == dims;
}

// The convolution forward: 2 x output elements x (in channels / groups) x
// kernel elements, with the output's spatial size from stride, padding and
// dilation. Weight [Cout, Cin/groups, k...] (transposed: [Cin, Cout/groups, k...]).
double ConvForwardFlops(const InputShape& in, const InputShape& w, const std::vector<std::string>& concrete,
                        size_t stride_at, size_t padding_at, size_t dilation_at, int transposed) {
  if (!in.tensor || !w.tensor || in.dims.size() < 3 || w.dims.size() != in.dims.size()) return -1;
  const size_t spatial = in.dims.size() - 2;
  const double kernel = Product(w.dims, 2, w.dims.size());
  if (transposed == 1) {
    // Every input element meets every kernel element of its group's outputs.
    return 2.0 * Product(in.dims, 0, in.dims.size()) * static_cast<double>(w.dims[1]) * kernel;
  }
  if (transposed < 0) return -1;
  std::vector<int64_t> stride, padding, dilation;
  if (!SpatialParam(concrete, stride_at, spatial, &stride) || !SpatialParam(concrete, dilation_at, spatial, &dilation)) {
    return -1;
  }
  const bool same = padding_at < concrete.size() && concrete[padding_at] == "same";
  const bool valid = padding_at < concrete.size() && concrete[padding_at] == "valid";
  if (!same && !valid && !SpatialParam(concrete, padding_at, spatial, &padding)) return -1;
  double out_elems = static_cast<double>(in.dims[0]) * static_cast<double>(w.dims[0]);
  for (size_t s = 0; s < spatial; ++s) {
    const int64_t size = in.dims[2 + s];
    int64_t out = size;  // "same": the input's size
    if (!same) {
      const int64_t pad = valid ? 0 : padding[s];
      if (stride[s] <= 0) return -1;
      out = (size + 2 * pad - dilation[s] * (w.dims[2 + s] - 1) - 1) / stride[s] + 1;
    }
    if (out <= 0) return -1;
    out_elems *= static_cast<double>(out);
  }
  return 2.0 * out_elems * static_cast<double>(w.dims[1]) * kernel;
}

// Attention: QK^T and PV, 2·B·H·Sq·Sk·(D + Dv); causal halves it. `bshd`:
// the layout is [B, S, H, D] (the _flash/_efficient_attention ops), else [B, H, S, D].
double AttentionFlops(const std::vector<InputShape>& dims, size_t q_at, bool bshd, int causal) {
  if (causal < 0 || dims.size() < q_at + 3) return -1;
  const InputShape &q = dims[q_at], &k = dims[q_at + 1], &v = dims[q_at + 2];
  if (!q.tensor || !k.tensor || !v.tensor || q.dims.size() != 4 || k.dims.size() != 4 || v.dims.size() != 4) return -1;
  const size_t s_at = bshd ? 1 : 2, h_at = bshd ? 2 : 1;
  const double flops = 2.0 * static_cast<double>(q.dims[0]) * static_cast<double>(q.dims[h_at]) *
                       static_cast<double>(q.dims[s_at]) * static_cast<double>(k.dims[s_at]) *
                       static_cast<double>(q.dims[3] + v.dims[3]);
  return causal == 1 ? flops / 2 : flops;
}

double MatmulFlops(std::string_view op, const std::vector<InputShape>& d) {
  const auto is = [&](size_t k, size_t rank) { return k < d.size() && d[k].tensor && d[k].dims.size() == rank; };
  if (op == "aten::mm" || op == "aten::_scaled_mm") {
    if (!is(0, 2) || !is(1, 2)) return -1;
    return 2.0 * Product(d[0].dims, 0, 2) * static_cast<double>(d[1].dims[1]);
  }
  if (op == "aten::addmm") {
    if (!is(1, 2) || !is(2, 2)) return -1;
    return 2.0 * Product(d[1].dims, 0, 2) * static_cast<double>(d[2].dims[1]);
  }
  if (op == "aten::bmm") {
    if (!is(0, 3) || !is(1, 3)) return -1;
    return 2.0 * Product(d[0].dims, 0, 3) * static_cast<double>(d[1].dims[2]);
  }
  if (op == "aten::baddbmm") {
    if (!is(1, 3) || !is(2, 3)) return -1;
    return 2.0 * Product(d[1].dims, 0, 3) * static_cast<double>(d[2].dims[2]);
  }
  if (op == "aten::linear") {
    // input [..., K], weight [N, K]: every leading row meets every output feature.
    if (d.size() < 2 || !d[0].tensor || d[0].dims.empty() || !is(1, 2)) return -1;
    return 2.0 * Product(d[0].dims, 0, d[0].dims.size()) * static_cast<double>(d[1].dims[0]);
  }
  if (op == "aten::matmul") {
    if (d.size() < 2 || !d[0].tensor || !d[1].tensor || d[0].dims.empty() || d[1].dims.empty()) return -1;
    const std::vector<int64_t>&a = d[0].dims, &b = d[1].dims;
    const double k = static_cast<double>(a.back());
    const double m = a.size() >= 2 ? static_cast<double>(a[a.size() - 2]) : 1;
    const double n = b.size() >= 2 ? static_cast<double>(b.back()) : 1;
    // Batch: the broadcast of both leading dims.
    const size_t ab = a.size() > 2 ? a.size() - 2 : 0, bb = b.size() > 2 ? b.size() - 2 : 0;
    double batch = 1;
    for (size_t i = 0; i < std::max(ab, bb); ++i) {
      const int64_t x = i < ab ? a[ab - 1 - i] : 1, y = i < bb ? b[bb - 1 - i] : 1;
      batch *= static_cast<double>(std::max(x, y));
    }
    return 2.0 * batch * m * k * n;
  }
  return -1;
}

}  // namespace

FlopFamily FlopFamilyOfName(std::string_view n) {
  if (FlopsNameIn(n, {"aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm", "aten::matmul", "aten::linear",
                      "aten::_scaled_mm"})) {
    return FlopFamily::kMatmul;
  }
  if (FlopsNameIn(n, {"aten::convolution", "aten::_convolution", "aten::conv1d", "aten::conv2d", "aten::conv3d",
                      "aten::cudnn_convolution", "aten::miopen_convolution", "aten::cudnn_convolution_transpose",
                      "aten::miopen_convolution_transpose"})) {
    return FlopFamily::kConv;
  }
  if (n == "aten::convolution_backward") return FlopFamily::kConvBackward;
  if (FlopsNameIn(n, {"aten::scaled_dot_product_attention", "aten::_scaled_dot_product_flash_attention",
                      "aten::_scaled_dot_product_efficient_attention", "aten::_scaled_dot_product_cudnn_attention",
                      "aten::_flash_attention_forward"})) {
    return FlopFamily::kAttention;
  }
  if (FlopsNameIn(n, {"aten::_scaled_dot_product_flash_attention_backward",
                      "aten::_scaled_dot_product_efficient_attention_backward",
                      "aten::_scaled_dot_product_cudnn_attention_backward", "aten::_flash_attention_backward"})) {
    return FlopFamily::kAttentionBackward;
  }
  return FlopFamily::kNone;
}

std::string_view OpBoundName(OpBound b) {
  switch (b) {
    case OpBound::kCompute: return "compute";
    case OpBound::kMemory: return "memory";
    case OpBound::kUnknown: break;
  }
  return "";
}

OpBound BoundOfOpName(std::string_view n) {
  if (FlopFamilyOfName(n) != FlopFamily::kNone) return OpBound::kCompute;
  if (FlopsContains(n, "backward") &&
      (FlopsContains(n, "mm") || FlopsContains(n, "conv") || FlopsContains(n, "attention"))) {
    return OpBound::kCompute;  // MmBackward0, ConvolutionBackward0, ...: the autograd nodes of compute ops
  }
  if (!n.starts_with("aten::")) return OpBound::kUnknown;
  for (std::string_view w : {"add", "mul", "sub", "div", "relu", "gelu", "silu", "sigmoid", "tanh", "exp", "pow",
                             "norm", "softmax", "sum", "mean", "max", "min", "copy", "clone", "cat", "stack",
                             "embedding", "index", "gather", "scatter", "fill", "zero", "where", "dropout",
                             "masked", "cumsum", "sort", "topk", "to", "contiguous", "neg", "rsqrt", "sqrt"}) {
    if (FlopsContains(n.substr(6), w)) return OpBound::kMemory;
  }
  return OpBound::kUnknown;
}

OpBound BoundOfKernelName(std::string_view n) {
  for (std::string_view w : {"nccl", "rccl", "allreduce", "all_reduce", "allgather", "reducescatter", "alltoall"}) {
    if (FlopsContains(n, w)) return OpBound::kUnknown;  // communication, not compute or memory
  }
  for (std::string_view w : {"gemm", "cutlass", "cublas", "xmma", "wgmma", "hmma", "matmul", "conv", "implicit_",
                             "winograd", "fmha", "flash", "attention", "attn", "cudnn", "miopen", "_mm_", "dot"}) {
    if (FlopsContains(n, w)) return OpBound::kCompute;
  }
  for (std::string_view w : {"elementwise", "vectorized", "reduce", "norm", "softmax", "copy", "cat", "embedding",
                             "index", "gather", "scatter", "fill", "unrolled", "pointwise", "triton_poi", "triton_red",
                             "transpose", "dropout", "memcpy", "memset"}) {
    if (FlopsContains(n, w)) return OpBound::kMemory;
  }
  return OpBound::kUnknown;
}

bool ParseInputDims(std::string_view t, std::vector<InputShape>* out) {
  out->clear();
  size_t i = 0;
  FlopsSkipSpace(t, &i);
  if (i >= t.size() || t[i] != '[') return false;
  ++i;
  while (true) {
    FlopsSkipSpace(t, &i);
    if (i >= t.size()) return false;
    if (t[i] == ']') return true;
    if (t[i] == ',') {
      ++i;
      continue;
    }
    if (t[i] != '[') {  // a bare value (null, a number): not a tensor
      while (i < t.size() && t[i] != ',' && t[i] != ']') ++i;
      out->push_back({});
      continue;
    }
    ++i;
    InputShape shape;
    shape.tensor = true;
    int depth = 1;
    while (i < t.size() && depth > 0) {
      const char c = t[i];
      if (c == '[') {
        ++depth;
        shape.tensor = false;  // a list of tensors
        ++i;
      } else if (c == ']') {
        --depth;
        ++i;
      } else if (c == ',' || c == ' ') {
        ++i;
      } else {
        int64_t v = 0;
        const auto [ptr, ec] = std::from_chars(t.data() + i, t.data() + t.size(), v);
        if (ec != std::errc()) return false;
        shape.dims.push_back(v);
        i = static_cast<size_t>(ptr - t.data());
      }
    }
    if (depth != 0) return false;
    if (!shape.tensor) shape.dims.clear();
    if (shape.dims.empty()) shape.tensor = false;  // a scalar or an absent input
    out->push_back(std::move(shape));
  }
}

bool ParseStringArray(std::string_view t, std::vector<std::string>* out) {
  out->clear();
  size_t i = 0;
  FlopsSkipSpace(t, &i);
  if (i >= t.size() || t[i] != '[') return false;
  ++i;
  while (true) {
    FlopsSkipSpace(t, &i);
    if (i >= t.size()) return false;
    if (t[i] == ']') return true;
    if (t[i] == ',') {
      ++i;
      continue;
    }
    if (t[i] != '"') {  // null or a number: kept as its text
      const size_t b = i;
      while (i < t.size() && t[i] != ',' && t[i] != ']') ++i;
      out->emplace_back(t.substr(b, i - b));
      continue;
    }
    ++i;
    std::string s;
    while (i < t.size() && t[i] != '"') {
      if (t[i] == '\\' && i + 1 < t.size()) ++i;
      s.push_back(t[i++]);
    }
    if (i >= t.size()) return false;
    ++i;
    out->push_back(std::move(s));
  }
}

std::string_view DtypeOfInputType(std::string_view t) {
  if (t == "c10::BFloat16") return "bf16";
  if (t == "c10::Half") return "fp16";
  if (t == "float") return "fp32";
  if (t == "double") return "fp64";
  if (t.starts_with("c10::Float8")) return "fp8";
  if (t == "signed char" || t == "int8") return "int8";
  return "";
}

double EstimateFlops(std::string_view op, const std::vector<InputShape>& d, const std::vector<std::string>& c) {
  switch (FlopFamilyOfName(op)) {
    case FlopFamily::kMatmul: return MatmulFlops(op, d);
    case FlopFamily::kConv: {
      if (d.size() < 2) return -1;
      // Argument positions differ by op (the aten schemas).
      if (op == "aten::convolution" || op == "aten::_convolution") return ConvForwardFlops(d[0], d[1], c, 3, 4, 5, ConcreteBool(c, 6));
      if (op == "aten::cudnn_convolution") return ConvForwardFlops(d[0], d[1], c, 3, 2, 4, 0);
      if (op == "aten::miopen_convolution") return ConvForwardFlops(d[0], d[1], c, 4, 3, 5, 0);
      if (op.ends_with("_transpose")) return ConvForwardFlops(d[0], d[1], c, 0, 0, 0, 1);
      return ConvForwardFlops(d[0], d[1], c, 3, 4, 5, 0);  // conv1d/2d/3d
    }
    case FlopFamily::kConvBackward: {
      // (grad_output, input, weight, bias_sizes, stride, padding, dilation,
      // transposed, output_padding, groups, output_mask): the forward's FLOPs
      // once for each gradient the mask asks for (input, weight).
      if (d.size() < 3 || !d[0].tensor || !d[1].tensor || !d[2].tensor || d[2].dims.size() < 3) return -1;
      const int transposed = ConcreteBool(c, 7);
      if (transposed < 0 || c.size() < 11) return -1;
      // output_mask "[True, True, False]": input, weight, bias; the bias adds no matmul work.
      int grads = 0, entry = 0;
      for (size_t at = 0; at < c[10].size() && entry < 2; ++at) {
        if (c[10][at] == ',') ++entry;
        if (c[10].compare(at, 4, "True") == 0) ++grads;
      }
      const double kernel = Product(d[2].dims, 2, d[2].dims.size());
      // Non-transposed: the forward's output is grad_output; transposed: the forward's input is `input`.
      const InputShape& fwd_side = transposed == 1 ? d[1] : d[0];
      const double fwd = 2.0 * Product(fwd_side.dims, 0, fwd_side.dims.size()) * static_cast<double>(d[2].dims[1]) * kernel;
      return fwd * grads;
    }
    case FlopFamily::kAttention: {
      if (op == "aten::scaled_dot_product_attention") return AttentionFlops(d, 0, false, ConcreteBool(c, 5));
      if (op == "aten::_scaled_dot_product_flash_attention") return AttentionFlops(d, 0, false, ConcreteBool(c, 4));
      if (op == "aten::_flash_attention_forward") return AttentionFlops(d, 0, true, ConcreteBool(c, 8));
      return AttentionFlops(d, 0, false, ConcreteBool(c, 6));  // efficient, cudnn
    }
    case FlopFamily::kAttentionBackward: {
      // Four matmuls (dV, dP, dQ, dK) against the forward's two: 2x. The
      // recomputed scores are not model FLOPs.
      const bool bshd = op == "aten::_flash_attention_backward";
      const size_t causal_at = 11;  // is_causal in all four schemas
      const double fwd = AttentionFlops(d, 1, bshd, ConcreteBool(c, causal_at));
      return fwd < 0 ? -1 : 2 * fwd;
    }
    case FlopFamily::kNone: break;
  }
  return -1;
}

double EstimateMatmulBytes(std::string_view op, const std::vector<InputShape>& d, int element_bytes) {
  if (element_bytes <= 0 || FlopFamilyOfName(op) != FlopFamily::kMatmul) return -1;
  const double flops = MatmulFlops(op, d);
  if (flops < 0) return -1;
  // Inputs as recorded (the two operands; addmm/baddbmm's bias too) plus the
  // output, whose element count is flops / (2·K).
  double elems = 0;
  int64_t k = 0;
  const bool bias_first = op == "aten::addmm" || op == "aten::baddbmm";
  const size_t a_at = bias_first ? 1 : 0;
  for (size_t i = 0; i < d.size() && i < a_at + 3; ++i) {
    if (d[i].tensor) elems += Product(d[i].dims, 0, d[i].dims.size());
  }
  if (a_at < d.size() && d[a_at].tensor && !d[a_at].dims.empty()) k = d[a_at].dims.back();
  if (k <= 0) return -1;
  elems += flops / (2.0 * static_cast<double>(k));
  return elems * element_bytes;
}

std::string FormatFlops(double flops) {
  static constexpr const char* kUnits[] = {"FLOP", "kFLOP", "MFLOP", "GFLOP", "TFLOP", "PFLOP", "EFLOP"};
  int u = 0;
  while (flops >= 1000 && u < 6) {
    flops /= 1000;
    ++u;
  }
  return text::FormatFixed(flops, u == 0 ? 0 : 2) + " " + kUnits[u];
}

FlopArgKeys FindFlopArgKeys(const Trace& trace) {
  const StringPool& s = trace.strings();
  FlopArgKeys k;
  k.flops = s.Find("flops");
  k.model_flops = s.Find("model_flops");
  k.input_dims = s.Find("Input Dims");
  k.input_type = s.Find("Input type");
  k.concrete_inputs = s.Find("Concrete Inputs");
  return k;
}

SliceFlops ComputeSliceFlops(const Trace& trace, const FlopArgKeys& keys, uint32_t i, FlopFamily family) {
  SliceFlops out;
  const ArgSetId set = trace.slices().arg_set()[i];
  if (set.is_none()) return out;
  const ArgTable& args = trace.args();
  StringId dims_text, type_text, concrete_text;
  double recorded = -1, recorded_model = -1;
  for (uint32_t r = args.set_begin(set); r < args.set_end(set); ++r) {
    const StringId key = args.key()[r];
    if (key.is_none()) continue;
    const ArgValue v = args.value(r);
    const bool text = v.type == ArgType::kJson || v.type == ArgType::kString;
    if (key == keys.flops || key == keys.model_flops) {
      double x = -1;
      if (v.type == ArgType::kDouble) {
        x = v.as_double();
      } else if (int64_t n = 0; v.ToInt64(&n)) {
        x = static_cast<double>(n);
      }
      (key == keys.flops ? recorded : recorded_model) = x;
    } else if (key == keys.input_dims && text) {
      dims_text = v.as_string();
    } else if (key == keys.input_type && text) {
      type_text = v.as_string();
    } else if (key == keys.concrete_inputs && text) {
      concrete_text = v.as_string();
    }
  }
  std::vector<std::string> types;
  if (!type_text.is_none() && ParseStringArray(trace.str(type_text), &types)) {
    for (const std::string& t : types) {
      out.dtype = DtypeOfInputType(t);
      if (!out.dtype.empty()) break;
    }
  }
  // The model's FLOPs first (XLA's model_flops leaves out rematerialization).
  if (recorded_model > 0 || recorded > 0) {
    out.flops = recorded_model > 0 ? recorded_model : recorded;
    out.recorded = true;
  }
  if (family == FlopFamily::kNone || dims_text.is_none()) return out;
  std::vector<InputShape> dims;
  if (!ParseInputDims(trace.str(dims_text), &dims)) return out;
  std::vector<std::string> concrete;
  if (!concrete_text.is_none()) ParseStringArray(trace.str(concrete_text), &concrete);
  const std::string_view name = trace.str(trace.slices().name()[i]);
  if (!out.recorded) out.flops = EstimateFlops(name, dims, concrete);
  const int element_bytes = out.dtype == "fp32" ? 4 : out.dtype == "fp64" ? 8
                            : (out.dtype == "fp8" || out.dtype == "int8") ? 1
                            : out.dtype.empty() ? 0 : 2;
  out.bytes = EstimateMatmulBytes(name, dims, element_bytes);
  return out;
}

}  // namespace stepline::analysis
