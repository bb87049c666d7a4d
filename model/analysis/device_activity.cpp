// Gathering each device's GPU activity and the launch index (see device_activity.h).
#include "model/analysis/device_activity.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace stepline::analysis {
namespace {

int32_t DeviceOfTrack(const Trace& trace, TrackId track) {
  const int32_t id = trace.tracks().device_id(track);
  if (id >= 0) return id;
  return trace.processes().device_id(trace.tracks().process(track));
}

bool ContainsWord(std::string_view name, std::string_view word) {
  for (size_t at = name.find(word); at != std::string_view::npos; at = name.find(word, at + 1)) {
    const bool left = at == 0 || !std::isalpha(static_cast<unsigned char>(name[at - 1]));
    const size_t end = at + word.size();
    const bool right = end == name.size() || !std::isalpha(static_cast<unsigned char>(name[end]));
    if (left && right) return true;
  }
  return false;
}

void SetIdentity(const Trace& trace, int32_t device_id, TrackId any_stream, DeviceActivity* d) {
  const StringId process_name = trace.processes().name(trace.tracks().process(any_stream));
  const std::string_view name = process_name.is_none() ? std::string_view() : trace.str(process_name);
  d->device_id = device_id;
  if (device_id < 0) {
    d->kind = DeviceKind::kUnknown;
    d->name = name.empty() ? std::string("GPU ?") : std::string(name);
    return;
  }
  d->kind = DeviceKindOfProcessName(name);
  d->name = DeviceLabel(d->kind, device_id, name);
}

// Fills kernel_busy, busy_first_kernel, the copy unions and the totals from ops.
void SummarizeOps(DeviceActivity* d) {
  std::vector<Interval> h2d, d2h;
  for (const DeviceOp& op : d->ops) {
    if (op.end_ns <= op.start_ns) continue;
    if (IsKernelLike(op.kind)) {
      d->kernel_ns += op.end_ns - op.start_ns;
      // ops are sorted by start, so a new busy interval starts with this kernel.
      if (!d->kernel_busy.empty() && op.start_ns <= d->kernel_busy.back().end_ns) {
        d->kernel_busy.back().end_ns = std::max(d->kernel_busy.back().end_ns, op.end_ns);
      } else {
        d->kernel_busy.push_back({op.start_ns, op.end_ns});
        d->busy_first_kernel.push_back(op.slice);
      }
    } else if (op.kind == GpuKind::kMemcpyH2D) {
      h2d.push_back({op.start_ns, op.end_ns});
    } else if (op.kind == GpuKind::kMemcpyD2H) {
      d2h.push_back({op.start_ns, op.end_ns});
    }
  }
  for (const Interval& i : d->kernel_busy) d->busy_ns += i.dur_ns();
  if (!d->kernel_busy.empty()) d->active_span = {d->kernel_busy.front().start_ns, d->kernel_busy.back().end_ns};
  d->h2d_busy = MergeIntervals(std::move(h2d));
  d->d2h_busy = MergeIntervals(std::move(d2h));
}

// Each stream's ops are one run already sorted by start (the slice table's
// order); merging runs pairwise is O(n log streams) instead of a full sort.
void MergeRuns(std::vector<DeviceOp>* ops, std::vector<size_t> begins) {
  auto by_start = [](const DeviceOp& a, const DeviceOp& b) { return a.start_ns < b.start_ns; };
  while (begins.size() > 1) {
    std::vector<size_t> merged;
    for (size_t r = 0; r < begins.size(); r += 2) {
      merged.push_back(begins[r]);
      if (r + 1 == begins.size()) break;
      const size_t end = r + 2 < begins.size() ? begins[r + 2] : ops->size();
      std::inplace_merge(ops->begin() + begins[r], ops->begin() + begins[r + 1], ops->begin() + end, by_start);
    }
    begins.swap(merged);
  }
}

}  // namespace

std::string_view DeviceKindName(DeviceKind kind) {
  switch (kind) {
    case DeviceKind::kGpu: return "gpu";
    case DeviceKind::kUnknown: return "unknown";
    case DeviceKind::kTpu: return "tpu";
    case DeviceKind::kOther: return "other";
  }
  return "?";
}

DeviceKind DeviceKindOfProcessName(std::string_view name) {
  if (name.find("/device:TPU:") != std::string_view::npos || ContainsWord(name, "TPU")) return DeviceKind::kTpu;
  if (name.find("/device:GPU:") != std::string_view::npos || ContainsWord(name, "GPU")) return DeviceKind::kGpu;
  for (std::string_view word : {"MTIA", "XPU", "HPU", "NPU", "IPU"}) {
    if (ContainsWord(name, word)) return DeviceKind::kOther;
  }
  if (name.starts_with("/device:")) return DeviceKind::kOther;  // /device:CUSTOM:0, /device:XLA_...:0
  return DeviceKind::kGpu;
}

std::string DeviceLabel(DeviceKind kind, int32_t device_id, std::string_view process_name) {
  const std::string n = std::to_string(device_id);
  if (kind == DeviceKind::kTpu) return "TPU " + n;
  if (kind != DeviceKind::kOther) return "GPU " + n;
  // "MTIA 17": a word and the ordinal, as Kineto names accelerator processes.
  const size_t space = process_name.find(' ');
  if (space != std::string_view::npos && process_name.substr(space + 1) == n) return std::string(process_name);
  return "Device " + n;
}

std::vector<DeviceActivity> ComputeDeviceActivity(const Trace& trace) {
  const SliceTable& s = trace.slices();
  std::map<int32_t, DeviceActivity> by_device;
  std::map<int32_t, std::vector<size_t>> run_begins;  // per device: where each stream's run starts in ops
  for (size_t t = 0; t < trace.tracks().size(); ++t) {
    const TrackId track = TrackId::FromIndex(t);
    const auto& r = trace.tracks().ranges(track);
    DeviceActivity* device = nullptr;
    for (uint32_t i = r.slice_begin; i < r.slice_end; ++i) {
      const GpuKind kind = s.gpu_kind()[i];
      if (kind == GpuKind::kNone) continue;
      if (device == nullptr) {
        const int32_t id = DeviceOfTrack(trace, track);
        device = &by_device[id];
        if (device->streams.empty()) SetIdentity(trace, id, track, device);
        device->streams.push_back(track);
        run_begins[id].push_back(device->ops.size());
      }
      const TimeNs start = s.start_ns()[i];
      device->ops.push_back({start, start + s.dur_ns()[i], SliceId(i), kind});
    }
  }
  std::vector<DeviceActivity> devices;
  for (auto& [id, d] : by_device) {
    MergeRuns(&d.ops, run_begins[id]);
    SummarizeOps(&d);
    devices.push_back(std::move(d));
  }
  // std::map orders -1 first; the unknown-device bucket goes last.
  if (!devices.empty() && devices.front().device_id < 0)
    std::rotate(devices.begin(), devices.begin() + 1, devices.end());
  return devices;
}

int PrimaryDeviceIndex(const std::vector<DeviceActivity>& devices) {
  int best = -1;
  for (size_t i = 0; i < devices.size(); ++i) {
    if (devices[i].kernel_ns <= 0) continue;
    if (best < 0 || devices[i].kernel_ns > devices[best].kernel_ns) best = static_cast<int>(i);
  }
  return best;
}

std::optional<int32_t> PrimaryDeviceId(const Trace& trace) {
  // The same sums as SummarizeOps's kernel_ns, per DeviceOfTrack.
  const SliceTable& s = trace.slices();
  std::map<int32_t, DurNs> kernel_ns;
  for (size_t t = 0; t < trace.tracks().size(); ++t) {
    const TrackId track = TrackId::FromIndex(t);
    const auto& r = trace.tracks().ranges(track);
    DurNs ns = 0;
    for (uint32_t i = r.slice_begin; i < r.slice_end; ++i) {
      if (IsKernelLike(s.gpu_kind()[i]) && s.dur_ns()[i] > 0) ns += s.dur_ns()[i];
    }
    if (ns > 0) kernel_ns[DeviceOfTrack(trace, track)] += ns;
  }
  // PrimaryDeviceIndex's order: ascending ids, the unknown device (-1) last;
  // the first of equals wins.
  std::optional<int32_t> best;
  DurNs best_ns = 0;
  auto consider = [&](int32_t id, DurNs ns) {
    if (ns > best_ns) {
      best = id;
      best_ns = ns;
    }
  };
  for (const auto& [id, ns] : kernel_ns) {
    if (id >= 0) consider(id, ns);
  }
  for (const auto& [id, ns] : kernel_ns) {
    if (id < 0) consider(id, ns);
  }
  return best;
}

std::vector<Interval> MergeIntervals(std::vector<Interval> intervals) {
  std::sort(intervals.begin(), intervals.end(),
            [](const Interval& a, const Interval& b) { return a.start_ns < b.start_ns; });
  std::vector<Interval> merged;
  for (const Interval& i : intervals) {
    if (i.end_ns <= i.start_ns) continue;
    if (!merged.empty() && i.start_ns <= merged.back().end_ns) {
      merged.back().end_ns = std::max(merged.back().end_ns, i.end_ns);
    } else {
      merged.push_back(i);
    }
  }
  return merged;
}

DurNs CoveredNs(const std::vector<Interval>& merged, TimeRange range) {
  auto it = std::upper_bound(merged.begin(), merged.end(), range.start_ns,
                             [](TimeNs t, const Interval& i) { return t < i.end_ns; });
  DurNs covered = 0;
  for (; it != merged.end() && it->start_ns < range.end_ns; ++it) {
    covered += range.OverlapNs({it->start_ns, it->end_ns});
  }
  return covered;
}

DurNs CoverageCursor::CoveredNs(TimeRange range) {
  if (range.start_ns < last_start_ns_) {
    next_ = static_cast<size_t>(std::upper_bound(merged_.begin(), merged_.end(), range.start_ns,
                                                 [](TimeNs t, const Interval& i) { return t < i.end_ns; }) -
                                merged_.begin());
  }
  last_start_ns_ = range.start_ns;
  while (next_ < merged_.size() && merged_[next_].end_ns <= range.start_ns) ++next_;
  DurNs covered = 0;
  for (size_t i = next_; i < merged_.size() && merged_[i].start_ns < range.end_ns; ++i) {
    covered += range.OverlapNs({merged_[i].start_ns, merged_[i].end_ns});
  }
  return covered;
}

std::vector<StreamIdle> ComputeStreamIdle(const Trace& trace) {
  const SliceTable& s = trace.slices();
  std::vector<StreamIdle> out;
  for (size_t t = 0; t < trace.tracks().size(); ++t) {
    const TrackId track = TrackId::FromIndex(t);
    const auto& r = trace.tracks().ranges(track);
    StreamIdle stream;
    stream.stream = track;
    stream.device_id = DeviceOfTrack(trace, track);
    TimeNs covered_to = INT64_MIN;
    bool any = false;
    for (uint32_t i = r.slice_begin; i < r.slice_end; ++i) {
      if (s.gpu_kind()[i] == GpuKind::kNone) continue;
      const TimeNs start = s.start_ns()[i], end = start + s.dur_ns()[i];  // rows are sorted by start
      if (!any) stream.span = {start, end};
      any = true;
      stream.span.end_ns = std::max(stream.span.end_ns, end);
      if (start < covered_to) stream.has_overlap = true;
      stream.busy_ns += std::max<DurNs>(0, end - std::max(start, covered_to));
      covered_to = std::max(covered_to, end);
    }
    if (!any) continue;
    stream.idle_ns = stream.span.duration_ns() - stream.busy_ns;
    out.push_back(stream);
  }
  return out;
}

LaunchIndex BuildLaunchIndex(const Trace& trace) {
  LaunchIndex index;
  const FlowTable& f = trace.flows();
  index.launch_of.assign(trace.slices().size(), SliceId::None());
  for (size_t i = 0; i < f.size(); ++i) {
    if (f.kind()[i] != FlowKind::kLaunch) continue;
    SliceId& slot = index.launch_of[f.to()[i].index()];
    if (slot.is_none()) slot = f.from()[i];
  }
  index.graphs = ComputeGraphReplays(trace, index.launch_of);
  return index;
}

}  // namespace stepline::analysis
