// The backward walk of critical_path.h. The walk is at one place at a time:
// a host thread at time t, or a GPU op, and each move records the segment
// [b, t] it passed and sets t = b, so the segments tile [step start, path end]
// with no gap and no overlap (stretches with no recorded holder are idle).
// Every move strictly lowers t or moves from a host call to the GPU op it
// waited for (which lowers t next), so the walk ends.
#include "model/analysis/critical_path/critical_path.h"

#include <algorithm>

#include "model/analysis/critical_path/stream_waits.h"

namespace stepline::analysis {
namespace {

PathKind GpuPathKind(GpuKind k) {
  if (k == GpuKind::kKernel) return PathKind::kGpu;
  if (k == GpuKind::kCollective) return PathKind::kCollective;
  return PathKind::kCopy;
}

class PathWalker {
 public:
  PathWalker(const Trace& trace, const CriticalPathInput& input, const StreamWaits& waits)
      : trace_(trace),
        s_(trace.slices()),
        input_(input),
        waits_(waits),
        host_kind_(trace.strings().size(), -1),
        max_moves_(4 * trace.slices().size() + 16) {}

  CriticalPath Walk(const Step& step);

 private:
  TimeNs End(uint32_t i) const { return s_.start_ns()[i] + s_.dur_ns()[i]; }
  bool IsGpuOp(uint32_t i) const { return s_.gpu_kind()[i] != GpuKind::kNone && s_.dur_ns()[i] > 0; }
  PathKind HostKind(uint32_t slice);
  // The last slice of `track` starting before t; UINT32_MAX none.
  uint32_t LastStartingBefore(TrackId track, TimeNs t) const;
  // The same on the host thread being walked: t only falls while the walk
  // stays on one thread, so a cursor stepping back from the last answer
  // replaces most bisections (one slice or two per move).
  uint32_t HostLastStartingBefore(TrackId track, TimeNs t);
  // The GPU op of `track` that ends last at or before `hi` (among the few
  // last to start before it), ending after `lo`; UINT32_MAX none.
  uint32_t LastGpuEndOnStream(TrackId track, TimeNs lo, TimeNs hi) const;
  uint32_t LastGpuEnd(TimeNs lo, TimeNs hi) const;
  // The GPU op a synchronizing call ending at t waited for; UINT32_MAX none.
  uint32_t WaitedBySync(uint32_t call, TimeNs t) const;
  void Add(SliceId slice, TimeNs b, TimeNs t, PathKind kind) {
    if (t > b) out_.push_back(PathSegment{slice, b, t - b, kind});
  }

  const Trace& trace_;
  const SliceTable& s_;
  const CriticalPathInput& input_;
  const StreamWaits& waits_;
  std::vector<int8_t> host_kind_;  // per StringId: -1 unknown, else PathKind
  size_t max_moves_;
  std::vector<PathSegment> out_;   // the current walk's segments, latest first
  TrackId cursor_track_ = TrackId::None();
  uint32_t cursor_ = UINT32_MAX;   // last HostLastStartingBefore answer on cursor_track_
  TimeNs cursor_t_ = INT64_MIN;    // and the t it answered
  std::vector<DurNs> name_ns_;     // per StringId: path time, for the top names (zeroed after use)
  std::vector<uint32_t> touched_;  // names with time in name_ns_
};

PathKind PathWalker::HostKind(uint32_t slice) {
  int8_t& k = host_kind_[s_.name()[slice].index()];
  if (k < 0) {
    const HostCategory c = input_.table->Classify(trace_.str(s_.name()[slice]));
    k = static_cast<int8_t>(c == HostCategory::kSync     ? PathKind::kSync
                            : c == HostCategory::kLaunch ? PathKind::kLaunch
                                                         : PathKind::kHost);
  }
  return static_cast<PathKind>(k);
}

uint32_t PathWalker::LastStartingBefore(TrackId track, TimeNs t) const {
  const auto& r = trace_.tracks().ranges(track);
  const TimeNs* first = s_.start_ns().data() + r.slice_begin;
  const TimeNs* last = s_.start_ns().data() + r.slice_end;
  const uint32_t n = static_cast<uint32_t>(std::lower_bound(first, last, t) - first);
  return n == 0 ? UINT32_MAX : r.slice_begin + n - 1;
}

uint32_t PathWalker::HostLastStartingBefore(TrackId track, TimeNs t) {
  constexpr int kSteps = 16;  // farther back than this: bisect
  if (track == cursor_track_ && cursor_ != UINT32_MAX && t <= cursor_t_) {
    const uint32_t begin = trace_.tracks().ranges(track).slice_begin;
    uint32_t i = cursor_;
    for (int n = 0; n < kSteps; ++n) {
      if (s_.start_ns()[i] < t) {
        cursor_ = i;
        cursor_t_ = t;
        return i;
      }
      if (i == begin) return UINT32_MAX;
      --i;
    }
  }
  cursor_track_ = track;
  cursor_ = LastStartingBefore(track, t);
  cursor_t_ = t;
  return cursor_;
}

uint32_t PathWalker::LastGpuEndOnStream(TrackId track, TimeNs lo, TimeNs hi) const {
  const uint32_t begin = trace_.tracks().ranges(track).slice_begin;
  uint32_t i = LastStartingBefore(track, hi);
  // Ops of a stream run one after another, so the op ending last before hi
  // is among the last few to start before it.
  for (int looked = 0; i != UINT32_MAX && looked < 8; ++looked) {
    if (IsGpuOp(i) && End(i) <= hi) return End(i) > lo ? i : UINT32_MAX;
    if (i == begin) break;
    --i;
  }
  return UINT32_MAX;
}

uint32_t PathWalker::LastGpuEnd(TimeNs lo, TimeNs hi) const {
  uint32_t best = UINT32_MAX;
  for (TrackId stream : input_.streams) {
    const uint32_t i = LastGpuEndOnStream(stream, lo, hi);
    if (i != UINT32_MAX && (best == UINT32_MAX || End(i) > End(best))) best = i;
  }
  return best;
}

uint32_t PathWalker::WaitedBySync(uint32_t call, TimeNs t) const {
  const TimeNs lo = s_.start_ns()[call];
  if (const uint32_t named = waits_.CallWaitsFor(call); named != UINT32_MAX) {
    return End(named) > lo && End(named) <= t ? named : UINT32_MAX;
  }
  if (const TrackId stream = waits_.CallStream(call); !stream.is_none()) return LastGpuEndOnStream(stream, lo, t);
  return LastGpuEnd(lo, t);
}

CriticalPath PathWalker::Walk(const Step& step) {
  CriticalPath path;
  const TimeNs ws = step.start_ns;
  const TimeNs we = step.window_end_ns();
  path.start_ns = ws;
  out_.clear();
  // Where the step ends: the marker's host thread, or the GPU op ending last.
  TrackId host = TrackId::None();
  TimeNs t = ws;
  if (!step.slice.is_none() && trace_.tracks().kind(s_.track()[step.slice.index()]) == TrackKind::kHostThread) {
    host = s_.track()[step.slice.index()];
    t = std::min(End(step.slice.index()), we);
  }
  uint32_t gpu = LastGpuEnd(ws, we);
  TimeNs gpu_end = gpu == UINT32_MAX ? INT64_MIN : End(gpu);
  for (TrackId stream : input_.streams) {  // an op still running at the window's end holds it
    const uint32_t i = LastStartingBefore(stream, we);
    if (i != UINT32_MAX && IsGpuOp(i) && End(i) > we) {
      gpu = i;
      gpu_end = we;
      break;
    }
  }
  // A tie goes to the GPU: work still running when the host's marker closes
  // is what the step waits for (the host ran ahead).
  if (gpu != UINT32_MAX && gpu_end >= t) {
    t = gpu_end;
  } else {
    gpu = UINT32_MAX;
  }
  const TimeNs path_end = t;
  for (size_t moves = 0; t > ws && moves < max_moves_; ++moves) {
    if (gpu != UINT32_MAX) {  // on a GPU op, t within it
      const TimeNs start = s_.start_ns()[gpu];
      Add(SliceId(gpu), std::max(start, ws), t, GpuPathKind(s_.gpu_kind()[gpu]));
      t = std::max(start, ws);
      if (t <= ws) break;
      // Its predecessors: the op before it on its stream, and its launch.
      uint32_t prev = UINT32_MAX;
      const TrackId stream = s_.track()[gpu];
      const uint32_t begin = trace_.tracks().ranges(stream).slice_begin;
      for (uint32_t i = gpu; i > begin;) {
        --i;
        if (IsGpuOp(i)) {
          prev = i;
          break;
        }
      }
      const TimeNs prev_ready = prev == UINT32_MAX ? INT64_MIN : std::min(End(prev), start);
      const SliceId launch = input_.launches->LaunchOf(SliceId(gpu));
      TimeNs launch_ready = INT64_MIN;
      if (!launch.is_none() && trace_.tracks().kind(s_.track()[launch.index()]) == TrackKind::kHostThread) {
        launch_ready = std::min(End(launch.index()), start);
      }
      // And the ops of other streams it waits for through events (only
      // ops that started before it, so the walk keeps going back in time).
      uint32_t waited = UINT32_MAX;
      TimeNs wait_ready = INT64_MIN;
      for (const auto& [op, w] : waits_.WaitsOf(gpu)) {
        if (!IsGpuOp(w) || s_.start_ns()[w] >= start) continue;
        const TimeNs ready = std::min(End(w), start);
        if (ready > wait_ready) {
          wait_ready = ready;
          waited = w;
        }
      }
      // The latest-ready predecessor; ties go to the stream's own order, then
      // the event wait, then the launch.
      uint32_t next = prev;
      TimeNs next_ready = prev_ready;
      if (waited != UINT32_MAX && wait_ready > next_ready) {
        next = waited;
        next_ready = wait_ready;
      }
      if (launch_ready > next_ready && launch_ready > ws) {
        Add(SliceId::None(), launch_ready, t, PathKind::kIdle);
        t = launch_ready;
        host = s_.track()[launch.index()];
        gpu = UINT32_MAX;
      } else if (next != UINT32_MAX && next_ready > ws) {
        Add(SliceId::None(), next_ready, t, PathKind::kIdle);
        t = next_ready;
        gpu = next;
      } else {
        break;  // nothing recorded before it in the step
      }
      continue;
    }
    if (host.is_none()) break;
    // On a host thread at t: the deepest slice holding the instant before t.
    uint32_t i = HostLastStartingBefore(host, t);
    uint32_t holder = UINT32_MAX, ended = UINT32_MAX;
    for (uint32_t x = i; x != UINT32_MAX;) {
      if (End(x) >= t) {
        holder = x;
        break;
      }
      ended = x;
      const SliceId parent = s_.parent()[x];
      x = parent.is_none() ? UINT32_MAX : parent.index();
    }
    if (holder == UINT32_MAX) {  // the thread recorded nothing here
      const TimeNs b = ended == UINT32_MAX ? ws : std::max(End(ended), ws);
      Add(SliceId::None(), b, t, PathKind::kIdle);
      t = b;
      if (ended == UINT32_MAX) break;
      continue;
    }
    const PathKind kind = HostKind(holder);
    if (kind == PathKind::kSync && t == End(holder)) {
      // A synchronization returns when the GPU work it waits for ends: the
      // op its event covers, the last op of the stream it names, else the
      // last GPU op to end (a device synchronize waits for all of them).
      const uint32_t waited = WaitedBySync(holder, t);
      if (waited != UINT32_MAX) {
        Add(SliceId(holder), std::max(End(waited), ws), t, PathKind::kSync);
        t = std::max(End(waited), ws);
        gpu = waited;
        continue;
      }
    }
    const TimeNs b = std::max(ended == UINT32_MAX ? s_.start_ns()[holder] : End(ended), ws);
    Add(SliceId(holder), b, t, kind);
    t = b;
  }
  if (t > ws) Add(SliceId::None(), ws, t, PathKind::kIdle);
  // The segments in time order, copied once (out_ is reused by the next walk).
  // Neighbouring segments of one slice (split by a child that ended) stay
  // separate: the overlay draws each where it lies.
  path.segments.assign(out_.rbegin(), out_.rend());
  path.dur_ns = path_end - ws;
  if (name_ns_.empty()) name_ns_.assign(trace_.strings().size(), 0);
  path.slices.reserve(path.segments.size());
  for (const PathSegment& seg : path.segments) {
    path.by_kind_ns[static_cast<size_t>(seg.kind)] += seg.dur_ns;
    if (seg.slice.is_none()) continue;
    if (path.slices.empty() || path.slices.back() != seg.slice) path.slices.push_back(seg.slice);
    const uint32_t name = s_.name()[seg.slice.index()].index();
    if (name_ns_[name] == 0) touched_.push_back(name);
    name_ns_[name] += seg.dur_ns;  // segments are never empty, so a touched name is nonzero
  }
  path.top.reserve(touched_.size());
  for (uint32_t name : touched_) {
    path.top.emplace_back(StringId(name), name_ns_[name]);
    name_ns_[name] = 0;
  }
  touched_.clear();
  auto larger = [](const auto& a, const auto& b) { return a.second != b.second ? a.second > b.second : a.first.value < b.first.value; };
  const size_t keep = std::min(path.top.size(), kCriticalPathTop);
  std::partial_sort(path.top.begin(), path.top.begin() + static_cast<std::ptrdiff_t>(keep), path.top.end(), larger);
  path.top.resize(keep);
  return path;
}

}  // namespace

std::string_view PathKindName(PathKind k) {
  switch (k) {
    case PathKind::kHost: return "host";
    case PathKind::kLaunch: return "launch";
    case PathKind::kGpu: return "gpu";
    case PathKind::kSync: return "sync";
    case PathKind::kCopy: return "copy";
    case PathKind::kCollective: return "collective";
    case PathKind::kIdle: return "idle";
  }
  return "?";
}

std::vector<CriticalPath> ComputeCriticalPaths(const Trace& trace, const CriticalPathInput& input) {
  std::vector<CriticalPath> paths;
  if (input.steps == nullptr || input.launches == nullptr || input.table == nullptr) return paths;
  const StreamWaits waits = BuildStreamWaits(trace, *input.launches);
  PathWalker walker(trace, input, waits);
  paths.reserve(input.steps->steps.size());
  for (const Step& step : input.steps->steps) paths.push_back(walker.Walk(step));
  return paths;
}

}  // namespace stepline::analysis
