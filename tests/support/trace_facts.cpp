// Counting ModelFacts from a finalized Trace; see trace_facts.h.
#include "tests/support/trace_facts.h"

#include <map>
#include <string_view>
#include <unordered_set>

namespace stepline::testing {
namespace {

// The "correlation" arg of a slice as an integer; false when absent or not numeric.
bool Correlation(const Trace& trace, StringId key, SliceId slice, int64_t* out) {
  if (key.is_none() || slice.is_none()) return false;
  ArgValue v;
  return trace.args().Find(trace.slices().arg_set()[slice.index()], key, &v) && v.ToInt64(out);
}

void CountGpuKind(GpuKind kind, ModelFacts* f) {
  switch (kind) {
    case GpuKind::kMemcpyH2D: ++f->memcpy_h2d; break;
    case GpuKind::kMemcpyD2H: ++f->memcpy_d2h; break;
    case GpuKind::kMemcpyD2D: ++f->memcpy_d2d; break;
    case GpuKind::kMemcpyOther: ++f->memcpy_other; break;
    case GpuKind::kMemset: ++f->memsets; break;
    case GpuKind::kNone:
    case GpuKind::kKernel:
    case GpuKind::kCollective: break;  // kernels are counted per device by the caller
  }
}

}  // namespace

ModelFacts CountModelFacts(const Trace& trace) {
  ModelFacts f;
  const SliceTable& slices = trace.slices();
  const TrackTable& tracks = trace.tracks();
  f.slices = slices.size();

  std::map<int32_t, DeviceKernels> per_device;
  std::vector<bool> track_has_activity(tracks.size(), false);
  for (size_t i = 0; i < slices.size(); ++i) {
    const TrackId track = slices.track()[i];
    const TrackKind track_kind = tracks.kind(track);
    if (trace.str(slices.name()[i]).starts_with("ProfilerStep#")) {
      ++f.step_slices;
      f.host_step_slices += track_kind != TrackKind::kGpuStream && track_kind != TrackKind::kGpuDerived;
    }
    const GpuKind kind = slices.gpu_kind()[i];
    if (kind == GpuKind::kNone) continue;
    track_has_activity[track.index()] = true;
    if (IsKernelLike(kind)) {
      const int32_t device = tracks.device_id(track);
      DeviceKernels& d = per_device[device];
      d.device = device;
      ++d.count;
      d.ns += slices.dur_ns()[i];
      ++f.kernels;
      f.kernel_ns += slices.dur_ns()[i];
    } else {
      CountGpuKind(kind, &f);
    }
  }
  for (const auto& [device, d] : per_device) f.kernels_per_device.push_back(d);
  for (size_t t = 0; t < tracks.size(); ++t) {
    if (tracks.kind(TrackId::FromIndex(t)) != TrackKind::kGpuStream) continue;
    ++f.gpu_stream_tracks;
    f.gpu_stream_tracks_with_activity += track_has_activity[t];
  }

  const FlowTable& flows = trace.flows();
  const StringId correlation = trace.strings().Find("correlation");
  std::unordered_set<SliceId> launched;
  for (size_t i = 0; i < flows.size(); ++i) {
    if (flows.kind()[i] != FlowKind::kLaunch) {
      ++f.generic_flows;
      continue;
    }
    ++f.launch_flows;
    const SliceId from = flows.from()[i], to = flows.to()[i];
    if (slices.gpu_kind()[to.index()] != GpuKind::kNone) launched.insert(to);
    int64_t from_corr = 0, to_corr = 0;
    if (Correlation(trace, correlation, from, &from_corr) && Correlation(trace, correlation, to, &to_corr)) {
      ++f.launch_correlation_checked;
      f.launch_correlation_mismatches += from_corr != to_corr;
    }
  }
  f.launched_activities = launched.size();
  return f;
}

std::string FormatKernelsPerDevice(const std::vector<DeviceKernels>& devices) {
  std::string out;
  for (const DeviceKernels& d : devices) {
    if (!out.empty()) out += ' ';
    out += std::to_string(d.device) + '=' + std::to_string(d.count) + '/' + std::to_string(d.ns);
  }
  return out;
}

}  // namespace stepline::testing
