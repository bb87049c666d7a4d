// ComputeEfficiency: model FLOPs, the peak, MFU per step and for the run, and
// per op name FLOPs with the GPU time they ran on (through the launch links).
// The time figures (memory-bound, communication, launch) are in
// efficiency_time.cpp.
#include "model/analysis/efficiency.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "model/analysis/efficiency_peaks.h"
#include "model/analysis/efficiency_time.h"
#include "model/analysis/trace_analysis.h"

namespace stepline::analysis {
namespace {

struct FlopSlice {
  uint32_t slice = 0;
  double flops = 0;
  double bytes = -1;
  std::string_view dtype;
  bool compute_family = false;  // matmul, conv or attention: the dtype vote counts it
  bool counted = false;         // no enclosing op has known FLOPs: it is part of the model's FLOPs
  DurNs gpu_ns = 0;
};

// The FLOP-bearing slices of the trace, in slice order.
std::vector<FlopSlice> CollectFlopSlices(const Trace& trace) {
  std::vector<FlopSlice> out;
  const FlopArgKeys keys = FindFlopArgKeys(trace);
  if (!keys.any()) return out;
  const bool recorded_keys = !keys.flops.is_none() || !keys.model_flops.is_none();
  const SliceTable& s = trace.slices();
  // Family by name id, looked up once per name: 0 unseen, else family + 1.
  std::vector<uint8_t> family_of(trace.strings().size(), 0);
  const auto names = s.name();
  const ArgSetColumn sets = s.arg_set();
  for (uint32_t i = 0; i < s.size(); ++i) {
    if (sets[i].is_none()) continue;
    const StringId n = names[i];
    uint8_t& f = family_of[n.index()];
    if (f == 0) f = static_cast<uint8_t>(FlopFamilyOfName(trace.str(n))) + 1;
    const auto family = static_cast<FlopFamily>(f - 1);
    if (family == FlopFamily::kNone && !recorded_keys) continue;
    const SliceFlops sf = ComputeSliceFlops(trace, keys, i, family);
    if (sf.flops < 0) continue;
    out.push_back(FlopSlice{i, sf.flops, sf.bytes, sf.dtype, family != FlopFamily::kNone});
  }
  return out;
}

// Marks the outermost FLOP slices as counted and gives every FLOP slice the
// GPU time of the kernels launched inside it. Returns the primary device's
// kernel time under some op with known FLOPs.
DurNs AttributeKernels(const Trace& trace, const DeviceActivity* device, const LaunchIndex& launches,
                       std::vector<FlopSlice>* flop_slices) {
  std::unordered_map<uint32_t, uint32_t> index_of;
  index_of.reserve(flop_slices->size() * 2);
  for (uint32_t k = 0; k < flop_slices->size(); ++k) index_of.emplace((*flop_slices)[k].slice, k);
  const auto parents = trace.slices().parent();
  for (FlopSlice& f : *flop_slices) {
    f.counted = true;
    for (SliceId p = parents[f.slice]; !p.is_none(); p = parents[p.index()]) {
      if (index_of.contains(static_cast<uint32_t>(p.index()))) {
        f.counted = false;
        break;
      }
    }
  }
  DurNs known_ns = 0;
  if (device == nullptr) return known_ns;
  for (const DeviceOp& op : device->ops) {
    if (!IsKernelLike(op.kind)) continue;
    const DurNs dur = op.end_ns - op.start_ns;
    bool known = false;
    if (auto self = index_of.find(static_cast<uint32_t>(op.slice.index())); self != index_of.end()) {
      (*flop_slices)[self->second].gpu_ns += dur;
      known = true;
    }
    // The launch call and every op enclosing it on the host thread.
    for (SliceId p = launches.LaunchOf(op.slice); !p.is_none(); p = parents[p.index()]) {
      if (auto it = index_of.find(static_cast<uint32_t>(p.index())); it != index_of.end()) {
        (*flop_slices)[it->second].gpu_ns += dur;
        known = true;
      }
    }
    if (known) known_ns += dur;
  }
  return known_ns;
}

void ResolvePeak(const Trace& trace, const EfficiencyOptions& options, const std::vector<FlopSlice>& flop_slices,
                 EfficiencyAnalysis* e) {
  // The dtype: as asked, else the one carrying the most matmul-family FLOPs.
  e->peak_dtype = options.peak_dtype;
  if (e->peak_dtype.empty()) {
    std::map<std::string_view, double> by_dtype;
    for (const FlopSlice& f : flop_slices) {
      if (f.counted && f.compute_family && !f.dtype.empty()) by_dtype[f.dtype] += f.flops;
    }
    double best = 0;
    for (const auto& [dtype, flops] : by_dtype) {
      if (flops > best) {
        best = flops;
        e->peak_dtype = std::string(dtype);
      }
    }
  }
  if (options.peak_tflops > 0) {
    e->peak_tflops = options.peak_tflops;
    e->peak_source = PeakSource::kOption;
    e->peak_datasheet = "--peak-tflops";
    return;
  }
  if (const DevicePeakRow* row = DevicePeakTable::Default().Find(e->device_name, e->peak_dtype)) {
    e->peak_tflops = row->dense_tflops;
    e->peak_source = PeakSource::kTable;
    e->peak_datasheet = row->source;
    return;
  }
  // XSpace records the chip's own peak on its plane (TPU profiles).
  const StringId key = trace.strings().Find("/device:TPU:0/peak_teraflops_per_second");
  ArgValue v;
  if (!key.is_none() && !trace.info().metadata.is_none() && trace.args().Find(trace.info().metadata, key, &v)) {
    const double peak = v.type == ArgType::kDouble ? v.as_double() : static_cast<double>(v.as_int());
    if (peak > 0) {
      e->peak_tflops = peak;
      e->peak_source = PeakSource::kTrace;
      e->peak_datasheet = "the trace's peak_teraflops_per_second";
    }
  }
}

}  // namespace

double MfuPercent(double flops, DurNs ns, double peak_tflops) {
  if (peak_tflops <= 0 || ns <= 0) return -1;
  return 100.0 * flops / (static_cast<double>(ns) * 1e3) / peak_tflops;
}

std::string_view PeakSourceName(PeakSource s) {
  switch (s) {
    case PeakSource::kTable: return "table";
    case PeakSource::kOption: return "option";
    case PeakSource::kTrace: return "trace";
    case PeakSource::kNone: break;
  }
  return "";
}

const OpFlops* EfficiencyAnalysis::FindOp(StringId name, bool device) const {
  const auto it = std::lower_bound(ops.begin(), ops.end(), std::make_pair(name, device), [](const OpFlops& o, const auto& key) {
    return std::make_pair(o.name, o.device) < key;
  });
  return it != ops.end() && it->name == name && it->device == device ? &*it : nullptr;
}

OpBound EfficiencyAnalysis::KernelBound(StringId kernel_name) const {
  const auto it = std::lower_bound(kernel_bound_names.begin(), kernel_bound_names.end(), kernel_name);
  return it != kernel_bound_names.end() && *it == kernel_name ? kernel_bound[it - kernel_bound_names.begin()]
                                                               : OpBound::kUnknown;
}

EfficiencyAnalysis ComputeEfficiency(const Trace& trace, const TraceAnalysis& a, const LaunchIndex& launches,
                                     const EfficiencyOptions& options) {
  EfficiencyAnalysis e;
  const DeviceAnalysis* primary = a.primary();
  const DeviceActivity* device = primary != nullptr ? &primary->activity : nullptr;
  if (device != nullptr) e.device_name = FindDeviceName(trace, device->device_id);
  std::vector<FlopSlice> flop_slices = CollectFlopSlices(trace);
  const DurNs known_ns = flop_slices.empty() ? 0 : AttributeKernels(trace, device, launches, &flop_slices);
  e.any_flops = !flop_slices.empty();
  ResolvePeak(trace, options, flop_slices, &e);
  if (device != nullptr && device->kernel_ns > 0) {
    e.flops_known_percent = 100.0 * static_cast<double>(known_ns) / static_cast<double>(device->kernel_ns);
  }
  // Per op name.
  const SliceTable& s = trace.slices();
  for (const FlopSlice& f : flop_slices) {
    OpFlops o;
    o.name = s.name()[f.slice];
    o.device = s.gpu_kind()[f.slice] != GpuKind::kNone;
    o.flops = f.flops;
    o.known = 1;
    o.gpu_ns = f.gpu_ns;
    o.bytes = f.bytes > 0 ? f.bytes : 0;
    o.bytes_known = f.bytes > 0 ? 1 : 0;
    e.ops.push_back(o);
  }
  std::sort(e.ops.begin(), e.ops.end(),
            [](const OpFlops& x, const OpFlops& y) { return std::make_pair(x.name, x.device) < std::make_pair(y.name, y.device); });
  size_t w = 0;
  for (size_t r = 0; r < e.ops.size(); ++r) {
    if (w > 0 && e.ops[w - 1].name == e.ops[r].name && e.ops[w - 1].device == e.ops[r].device) {
      OpFlops& o = e.ops[w - 1];
      o.flops += e.ops[r].flops;
      o.known += 1;
      o.gpu_ns += e.ops[r].gpu_ns;
      o.bytes += e.ops[r].bytes;
      o.bytes_known += e.ops[r].bytes_known;
    } else {
      e.ops[w++] = e.ops[r];
    }
  }
  e.ops.resize(w);
  // Per step: the counted FLOPs of the ops starting in the step's window.
  std::vector<std::pair<TimeNs, double>> counted;
  for (const FlopSlice& f : flop_slices) {
    if (f.counted) counted.emplace_back(s.start_ns()[f.slice], f.flops);
  }
  std::sort(counted.begin(), counted.end());
  const auto flops_in = [&](TimeNs begin, TimeNs end) {
    double sum = 0;
    for (auto it = std::lower_bound(counted.begin(), counted.end(), std::make_pair(begin, -1.0));
         it != counted.end() && it->first < end; ++it) {
      sum += it->second;
    }
    return sum;
  };
  const std::vector<Step>& steps = a.steps.steps;
  e.steps.resize(steps.size());
  DurNs step_ns = 0;
  for (size_t i = 0; i < steps.size(); ++i) {
    StepEfficiency& se = e.steps[i];
    step_ns += steps[i].dur_ns;
    // No op's FLOPs known: the step's are unknown (-1), not 0, and so its MFU.
    if (!e.any_flops) {
      se.flops = se.achieved_tflops = -1;
      continue;
    }
    se.flops = flops_in(steps[i].start_ns, steps[i].window_end_ns());
    se.achieved_tflops = steps[i].dur_ns > 0 ? se.flops / (static_cast<double>(steps[i].dur_ns) * 1e3) : -1;
    se.mfu_percent = MfuPercent(se.flops, steps[i].dur_ns, e.peak_tflops);
    e.model_flops += se.flops;
  }
  if (steps.empty()) {
    // No steps: the run is the primary device's active span.
    for (const auto& [start, flops] : counted) e.model_flops += flops;
    if (device != nullptr) step_ns = device->active_span.duration_ns();
  }
  if (e.any_flops && step_ns > 0) {
    e.achieved_tflops = e.model_flops / (static_cast<double>(step_ns) * 1e3);
    e.mfu_percent = MfuPercent(e.model_flops, step_ns, e.peak_tflops);
  }
  ComputeEfficiencyTimes(trace, a, launches, options, &e);
  return e;
}

}  // namespace stepline::analysis
