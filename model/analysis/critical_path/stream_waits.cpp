// BuildStreamWaits (stream_waits.h). Which op an event covers, and which op
// first waits on it, both come from launch order: a stream runs its ops in
// the order they were enqueued, so along a stream the launch calls' starts
// rise. An op with no recorded launch counts as enqueued at its own start.
#include "model/analysis/critical_path/stream_waits.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>

namespace stepline::analysis {
namespace {

// How far past the ops that started before an instant a stream's queue is
// searched for ops enqueued before it but run later.
constexpr uint32_t kQueueScan = 4096;

class WaitReader {
 public:
  WaitReader(const Trace& trace, const LaunchIndex& launches)
      : trace_(trace), s_(trace.slices()), launches_(launches) {}

  StreamWaits Read(StringId cuda_sync);

 private:
  bool IsGpuOp(uint32_t i) const { return s_.gpu_kind()[i] != GpuKind::kNone; }
  TimeNs Enqueued(uint32_t op) const {
    const SliceId launch = launches_.LaunchOf(SliceId(op));
    return launch.is_none() ? s_.start_ns()[op] : s_.start_ns()[launch.index()];
  }
  int64_t IntArg(uint32_t slice, StringId key) const {
    ArgValue v;
    int64_t out = -1;
    if (key.is_none() || !trace_.args().Find(s_.arg_set()[slice], key, &v) || !v.ToInt64(&out)) return -1;
    return out;
  }
  // The last GPU op of `stream` enqueued before t; UINT32_MAX none.
  uint32_t LastEnqueuedBefore(TrackId stream, TimeNs t) const;
  // The first GPU op of `stream` enqueued after t; UINT32_MAX none.
  uint32_t FirstEnqueuedAfter(TrackId stream, TimeNs t) const;
  uint32_t FirstStartingAtOrAfter(TrackId stream, TimeNs t) const {
    const auto& r = trace_.tracks().ranges(stream);
    const TimeNs* first = s_.start_ns().data() + r.slice_begin;
    return r.slice_begin + static_cast<uint32_t>(std::lower_bound(first, first + (r.slice_end - r.slice_begin), t) - first);
  }
  TrackId Stream(int32_t device, int64_t tid) const {
    const auto it = streams_.find(Key(device, tid));
    return it == streams_.end() ? TrackId::None() : it->second;
  }
  static uint64_t Key(int32_t device, int64_t tid) {
    return (static_cast<uint64_t>(static_cast<uint32_t>(device)) << 32) ^ static_cast<uint64_t>(tid);
  }

  const Trace& trace_;
  const SliceTable& s_;
  const LaunchIndex& launches_;
  std::unordered_map<uint64_t, TrackId> streams_;           // (device, stream number) -> track
  std::unordered_map<int64_t, uint32_t> record_calls_;      // correlation -> cudaEventRecord call
};

uint32_t WaitReader::LastEnqueuedBefore(TrackId stream, TimeNs t) const {
  const auto& r = trace_.tracks().ranges(stream);
  const uint32_t j = FirstStartingAtOrAfter(stream, t);
  uint32_t best = UINT32_MAX;
  for (uint32_t i = j; i > r.slice_begin;) {  // started before t, so enqueued before it
    --i;
    if (IsGpuOp(i)) {
      best = i;
      break;
    }
  }
  for (uint32_t i = j; i < r.slice_end && i - j < kQueueScan; ++i) {  // queued before t, ran later
    if (!IsGpuOp(i)) continue;
    if (Enqueued(i) >= t) break;
    best = i;
  }
  return best;
}

uint32_t WaitReader::FirstEnqueuedAfter(TrackId stream, TimeNs t) const {
  const auto& r = trace_.tracks().ranges(stream);
  const uint32_t j = FirstStartingAtOrAfter(stream, t);
  for (uint32_t i = j; i < r.slice_end && i - j < kQueueScan; ++i) {
    if (IsGpuOp(i) && Enqueued(i) > t) return i;
  }
  return UINT32_MAX;
}

StreamWaits WaitReader::Read(StringId cuda_sync) {
  StreamWaits out;
  const StringPool& strings = trace_.strings();
  const StringId kind_key = strings.Find("cuda_sync_kind");
  const StringId stream_key = strings.Find("stream");
  const StringId on_stream_key = strings.Find("wait_on_stream");
  const StringId record_key = strings.Find("wait_on_cuda_event_record_corr_id");
  const StringId correlation_key = strings.Find("correlation");
  const StringId wait_event = strings.Find("Stream Wait Event");
  const StringId event_sync = strings.Find("Event Sync");
  const StringId stream_sync = strings.Find("Stream Sync");
  const TrackTable& tracks = trace_.tracks();
  for (size_t t = 0; t < tracks.size(); ++t) {
    const TrackId track = TrackId::FromIndex(t);
    if (tracks.kind(track) == TrackKind::kGpuStream) streams_.emplace(Key(tracks.device_id(track), tracks.tid(track)), track);
  }
  // The record calls, by correlation: only needed when a wait names one.
  const StringId record_names[] = {strings.Find("cudaEventRecord"), strings.Find("cudaEventRecordWithFlags")};
  if (!record_key.is_none() && !correlation_key.is_none()) {
    for (uint32_t i = 0; i < s_.size(); ++i) {
      const StringId name = s_.name()[i];
      if (name.is_none() || (name != record_names[0] && name != record_names[1])) continue;
      if (tracks.kind(s_.track()[i]) != TrackKind::kHostThread) continue;
      const int64_t correlation = IntArg(i, correlation_key);
      if (correlation >= 0) record_calls_.emplace(correlation, i);
    }
  }
  for (size_t t = 0; t < tracks.size(); ++t) {
    const TrackId track = TrackId::FromIndex(t);
    if (tracks.kind(track) == TrackKind::kHostThread) continue;
    const auto& r = tracks.ranges(track);
    for (uint32_t i = r.slice_begin; i < r.slice_end; ++i) {
      if (IsGpuOp(i) || s_.category()[i] != cuda_sync) continue;
      const SliceId call = launches_.LaunchOf(SliceId(i));
      if (call.is_none()) continue;
      // The kind: the arg, else the event's name (they agree in Kineto's output).
      StringId kind = s_.name()[i];
      ArgValue v;
      if (!kind_key.is_none() && trace_.args().Find(s_.arg_set()[i], kind_key, &v) && v.type == ArgType::kString) {
        kind = v.as_string();
      }
      const int32_t device = tracks.device_id(track);
      if (kind == stream_sync) {
        const int64_t number = IntArg(i, stream_key);
        const TrackId named = number >= 0 ? Stream(device, number) : TrackId::None();
        if (!named.is_none()) out.call_streams.emplace_back(call.index(), named);
        continue;
      }
      if (kind != wait_event && kind != event_sync) continue;
      const TrackId recorded_on = Stream(device, IntArg(i, on_stream_key));
      const auto record = record_calls_.find(IntArg(i, record_key));
      if (recorded_on.is_none() || record == record_calls_.end()) continue;
      const uint32_t recorded = LastEnqueuedBefore(recorded_on, s_.start_ns()[record->second]);
      if (recorded == UINT32_MAX) continue;
      if (kind == event_sync) {
        out.call_waits.emplace_back(call.index(), recorded);
        continue;
      }
      const int64_t waiting_number = IntArg(i, stream_key);
      const TrackId waiting = waiting_number >= 0 ? Stream(device, waiting_number)
                              : tracks.kind(track) == TrackKind::kGpuStream ? track
                                                                            : TrackId::None();
      if (waiting.is_none() || waiting == recorded_on) continue;
      const uint32_t first = FirstEnqueuedAfter(waiting, s_.start_ns()[call.index()]);
      if (first != UINT32_MAX) out.op_waits.emplace_back(first, recorded);
    }
  }
  std::sort(out.op_waits.begin(), out.op_waits.end());
  std::sort(out.call_waits.begin(), out.call_waits.end());
  std::sort(out.call_streams.begin(), out.call_streams.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

}  // namespace

std::span<const std::pair<uint32_t, uint32_t>> StreamWaits::WaitsOf(uint32_t op) const {
  const auto lo = std::lower_bound(op_waits.begin(), op_waits.end(), std::make_pair(op, uint32_t{0}));
  auto hi = lo;
  while (hi != op_waits.end() && hi->first == op) ++hi;
  return {lo, hi};
}

uint32_t StreamWaits::CallWaitsFor(uint32_t call) const {
  const auto it = std::lower_bound(call_waits.begin(), call_waits.end(), std::make_pair(call, uint32_t{0}));
  return it != call_waits.end() && it->first == call ? it->second : UINT32_MAX;
}

TrackId StreamWaits::CallStream(uint32_t call) const {
  const auto it = std::lower_bound(call_streams.begin(), call_streams.end(), call,
                                   [](const auto& e, uint32_t c) { return e.first < c; });
  return it != call_streams.end() && it->first == call ? it->second : TrackId::None();
}

StreamWaits BuildStreamWaits(const Trace& trace, const LaunchIndex& launches) {
  const StringId cuda_sync = trace.strings().Find("cuda_sync");
  if (cuda_sync.is_none()) return {};
  return WaitReader(trace, launches).Read(cuda_sync);
}

}  // namespace stepline::analysis
