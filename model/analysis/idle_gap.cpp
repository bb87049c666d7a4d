// GPU idle gaps and their causes ("Cause of a gap").
//
// [SECTION] Context and caches
// [SECTION] Weighing the launching thread's window
// [SECTION] The cause of one gap
// [SECTION] ComputeIdleGaps
//
// The cause rules, in order:
//   1. The kernel ending the gap is the first kernel of the next busy interval;
//      its launch call comes from the LaunchIndex (kLaunch flows).
//   1b. If that kernel is a node of a graph replay that began before the gap,
//      the cause is graph (the GPU runs the graph's dependencies).
//   2. If H2D (D2H) copies cover more than half the gap, the cause is
//      memcpy_h2d (memcpy_d2h).
//   3. If the launch call began after the gap began, the host was late. Weigh
//      what the launching thread did in the window [gap start, kernel start):
//      at each instant the innermost event whose name matches the pattern
//      table decides; an unmatched event defers to its nearest matching
//      ancestor, and is host_compute when it has none (the outermost unmatched
//      event is then the one blamed). Step markers, events wrapping the whole
//      step and "ignore" rows are transparent. The category with the largest
//      weight wins. With nothing in the window: sync if a sync call on that
//      thread ended within sync_proximity_ns before the gap, else other.
//      A launch call explains only the time it covers: when the launching
//      thread idled for longer than it launched, the process's other threads
//      are weighed the same way (rule 3b): input / host_compute work of
//      one thread covering most of the gap is the cause, else other.
//   4. Anything else is other.
//
// The window is weighed with one stack sweep over the thread's slices that
// overlap it. Rows are sorted by (start, longer first), so a parent precedes
// its children and the stack top is always the innermost open event: time
// between two consecutive boundaries belongs to the top's decider.
#include "model/analysis/idle_gap.h"

#include <algorithm>
#include <array>

#include "model/analysis/profiler_spans.h"

namespace stepline::analysis {
namespace {

//-----------------------------------------------------------------------------
// [SECTION] Context and caches
//-----------------------------------------------------------------------------

struct WindowWeights {
  std::array<DurNs, 6> by_category{};  // indexed by HostCategory
  DurNs covered_ns = 0;
  std::vector<BlamedEvent> deciders;
  void Clear() {
    by_category = {};
    covered_ns = 0;
    deciders.clear();
  }
};

// A host event open during the window sweep.
struct OpenEvent {
  TimeNs end_ns;
  uint32_t decider;  // the slice blamed for the time this event is innermost
  HostCategory category;
};

struct GapContext {
  GapContext(const Trace& t, const DeviceActivity& d, const StepSet& s, const IdleCauseTable& tb, const LaunchIndex& l,
             const IdleGapOptions& o)
      : trace(t),
        device(d),
        steps(s),
        table(tb),
        launches(l),
        options(o),
        markers(t),
        profiler_span(t),
        category_of_name(t.strings().size(), kUnknown),
        finger(t.tracks().size(), 0),
        h2d(d.h2d_busy),
        d2h(d.d2h_busy) {}

  // The host threads of `process`, made on first use (rule 3b only).
  const std::vector<TrackId>& ThreadsOf(ProcessId process) {
    if (threads_of_process.empty()) {
      threads_of_process.resize(trace.processes().size());
      for (size_t t = 0; t < trace.tracks().size(); ++t) {
        const TrackId track = TrackId::FromIndex(t);
        if (trace.tracks().kind(track) != TrackKind::kHostThread) continue;
        threads_of_process[trace.tracks().process(track).index()].push_back(track);
      }
    }
    return threads_of_process[process.index()];
  }

  HostCategory Classify(StringId name) {
    uint8_t& c = category_of_name[name.index()];
    if (c == kUnknown) c = static_cast<uint8_t>(table.Classify(trace.str(name)));
    return static_cast<HostCategory>(c);
  }

  static constexpr uint8_t kUnknown = 0xFF;
  const Trace& trace;
  const DeviceActivity& device;
  const StepSet& steps;
  const IdleCauseTable& table;
  const LaunchIndex& launches;
  const IdleGapOptions& options;
  StepMarkerMatcher markers;
  ProfilerSpanFilter profiler_span;
  std::vector<uint8_t> category_of_name;  // per StringId; kUnknown until classified
  std::vector<DeviceOp> copies;           // the device's H2D and D2H copies, by start
  std::vector<TimeNs> copies_max_end;     // running max of copies[..i].end_ns
  std::vector<uint32_t> chain_scratch;    // reused by every WindowSweep (no allocation per gap)
  std::vector<uint32_t> finger;           // per track: the last FirstAtOrAfter answer, as an offset
  CoverageCursor h2d, d2h;                // copy coverage; gaps are classified in time order
  std::vector<OpenEvent> stack_scratch;   // reused by every WindowSweep
  WindowWeights weights;                  // the last window's weights
  std::vector<std::vector<TrackId>> threads_of_process;  // per ProcessId; empty until ThreadsOf
};

// The first row of `track` starting at or after t. Gaps are visited in time
// order, so the search gallops forward from the previous answer instead of
// bisecting the whole (often huge, cold) thread each time.
uint32_t FirstAtOrAfter(GapContext* ctx, TrackId track, TimeNs t) {
  const auto& r = ctx->trace.tracks().ranges(track);
  std::span<const TimeNs> starts = ctx->trace.TrackSliceStarts(track);
  uint32_t& f = ctx->finger[track.index()];
  const size_t n = starts.size();
  size_t lo = f, hi = n;
  if (lo > 0 && starts[lo - 1] >= t) {
    lo = 0;  // moved backwards: plain bisection
  } else {
    // Every row before lo starts before t; probe lo, lo+1, lo+3, lo+7, ...
    hi = lo;
    for (size_t step = 1; hi < n && starts[hi] < t; step *= 2) {
      lo = hi + 1;
      hi = lo + step;
    }
    hi = std::min(hi, n);
  }
  f = static_cast<uint32_t>(std::lower_bound(starts.begin() + lo, starts.begin() + hi, t) - starts.begin());
  return r.slice_begin + f;
}

TimeNs EndOf(const Trace& trace, uint32_t i) { return trace.slices().start_ns()[i] + trace.slices().dur_ns()[i]; }

//-----------------------------------------------------------------------------
// [SECTION] Weighing the launching thread's window
//-----------------------------------------------------------------------------

class WindowSweep {
 public:
  WindowSweep(GapContext* ctx, TimeRange window, const Step* step)
      : ctx_(ctx), window_(window), step_(step), stack_(ctx->stack_scratch), weights_(ctx->weights) {
    stack_.clear();
    weights_.Clear();
  }

  // Fills ctx->weights.
  void Run(TrackId track) {
    const Trace& trace = ctx_->trace;
    const auto& r = trace.tracks().ranges(track);
    const uint32_t first = FirstAtOrAfter(ctx_, track, window_.start_ns);
    // Events open at the window's start: the last row starting before it and
    // its ancestors that are still running, visited outermost first.
    std::vector<uint32_t>& chain = ctx_->chain_scratch;
    chain.clear();
    if (first > r.slice_begin) {
      for (SliceId cur(first - 1); !cur.is_none(); cur = trace.slices().parent()[cur.index()]) {
        if (EndOf(trace, cur.value) > window_.start_ns) chain.push_back(cur.value);
      }
    }
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) Visit(*it);
    for (uint32_t i = first; i < r.slice_end && trace.slices().start_ns()[i] < window_.end_ns; ++i) Visit(i);
    while (!stack_.empty()) Pop();
  }

 private:
  using Open = OpenEvent;

  bool IsTransparent(uint32_t i, HostCategory category) {
    // Markers by name; a marker named otherwise (a step_num arg only) is the
    // step itself or wraps it, and the whole-step test below catches it.
    if (category == HostCategory::kIgnore || ctx_->markers.IsMarkerName(SliceId(i))) return true;
    if (ctx_->profiler_span(i)) return true;  // the profiler's own trace-wide span
    const TimeNs start = ctx_->trace.slices().start_ns()[i];
    return step_ != nullptr && start <= step_->start_ns && EndOf(ctx_->trace, i) >= step_->end_ns();
  }

  // Gives [cursor_, to) to the innermost open event.
  void Advance(TimeNs to) {
    if (to <= cursor_) return;
    if (!stack_.empty()) Credit(stack_.back(), to - cursor_);
    cursor_ = to;
  }

  void Pop() {
    Advance(stack_.back().end_ns);
    stack_.pop_back();
  }

  void Visit(uint32_t i) {
    const Trace& trace = ctx_->trace;
    const TimeNs start = std::max(trace.slices().start_ns()[i], window_.start_ns);
    TimeNs end = std::min(EndOf(trace, i), window_.end_ns);
    while (!stack_.empty() && stack_.back().end_ns <= start) Pop();
    Advance(start);
    if (end <= start) return;
    const HostCategory category = ctx_->Classify(trace.slices().name()[i]);
    if (IsTransparent(i, category)) return;
    Open open{end, i, category};
    if (!stack_.empty()) open.end_ns = std::min(end, stack_.back().end_ns);  // clip partial overlaps
    if (category == HostCategory::kNone) {
      if (stack_.empty()) {
        open.category = HostCategory::kHostCompute;  // outermost unmatched: blamed itself
      } else {
        open.decider = stack_.back().decider;
        open.category = stack_.back().category;
      }
    }
    stack_.push_back(open);
  }

  void Credit(const Open& open, DurNs ns) {
    weights_.by_category[static_cast<size_t>(open.category)] += ns;
    weights_.covered_ns += ns;
    auto& d = weights_.deciders;
    for (auto it = d.rbegin(); it != d.rend(); ++it) {
      if (it->slice.value == open.decider) {
        it->overlap_ns += ns;
        return;
      }
    }
    d.push_back({SliceId(open.decider), ns, open.category});
  }

  GapContext* ctx_;
  TimeRange window_;
  const Step* step_;
  TimeNs cursor_ = window_.start_ns;
  std::vector<Open>& stack_;
  WindowWeights& weights_;
};

// A sync call on `track` ended in [t - proximity, t]. Candidates: the last
// rows starting before t and the ancestors of the very last one.
bool SyncEndedNear(GapContext* ctx, TrackId track, TimeNs t) {
  const Trace& trace = ctx->trace;
  const auto& r = trace.tracks().ranges(track);
  const uint32_t first = FirstAtOrAfter(ctx, track, t);
  auto is_near_sync = [&](uint32_t i) {
    const TimeNs end = EndOf(trace, i);
    return end <= t && end >= t - ctx->options.sync_proximity_ns &&
           ctx->Classify(trace.slices().name()[i]) == HostCategory::kSync;
  };
  constexpr uint32_t kLookBack = 16;
  for (uint32_t i = first; i > r.slice_begin && first - i < kLookBack; --i) {
    if (is_near_sync(i - 1)) return true;
  }
  if (first == r.slice_begin) return false;
  for (SliceId cur = trace.slices().parent()[first - 1]; !cur.is_none(); cur = trace.slices().parent()[cur.index()]) {
    if (is_near_sync(cur.value)) return true;
  }
  return false;
}

//-----------------------------------------------------------------------------
// [SECTION] The cause of one gap
//-----------------------------------------------------------------------------

void BlameCopies(GapContext* ctx, IdleGap* gap, GpuKind kind) {
  const auto& c = ctx->copies;
  size_t end = static_cast<size_t>(
      std::lower_bound(c.begin(), c.end(), gap->end_ns, [](const DeviceOp& op, TimeNs t) { return op.start_ns < t; }) -
      c.begin());
  const TimeRange range{gap->start_ns, gap->end_ns};
  for (size_t i = end; i-- > 0 && ctx->copies_max_end[i] > gap->start_ns;) {
    if (c[i].kind != kind || c[i].end_ns <= gap->start_ns) continue;
    gap->cause_events.push_back({c[i].slice, range.OverlapNs({c[i].start_ns, c[i].end_ns}), HostCategory::kNone});
  }
}

void KeepLargest(std::vector<BlamedEvent>* events, size_t max_events) {
  std::sort(events->begin(), events->end(), [](const BlamedEvent& a, const BlamedEvent& b) {
    return a.overlap_ns != b.overlap_ns ? a.overlap_ns > b.overlap_ns : a.slice < b.slice;
  });
  if (events->size() > max_events) events->resize(max_events);
}

// Rule 3b: the other host threads of the launching thread's process, weighed
// over the gap like the launching thread. The one category (input or
// host_compute) of one thread that covers most of the gap is the
// cause, its events blamed; else the gap is `other` and nothing is blamed.
void BlameOtherThreads(GapContext* ctx, IdleGap* gap, TrackId launch_thread, const Step* step) {
  const TimeRange range{gap->start_ns, gap->end_ns};
  HostCategory best = HostCategory::kNone;
  DurNs best_ns = 0;
  std::vector<BlamedEvent> best_events;
  for (TrackId t : ctx->ThreadsOf(ctx->trace.tracks().process(launch_thread))) {
    if (t == launch_thread) continue;
    WindowSweep(ctx, range, step).Run(t);
    const WindowWeights& w = ctx->weights;
    // Work only: a thread blocked in a sync call waits like the device does.
    for (HostCategory c : {HostCategory::kInput, HostCategory::kHostCompute}) {
      if (w.by_category[static_cast<size_t>(c)] <= best_ns) continue;
      best = c;
      best_ns = w.by_category[static_cast<size_t>(c)];
      best_events.clear();
      for (const BlamedEvent& e : w.deciders) {
        if (e.category == c) best_events.push_back(e);
      }
    }
  }
  gap->cause = IdleCause::kOther;
  if (2 * best_ns <= range.duration_ns()) return;
  gap->cause = HostCategoryCause(best);
  gap->cause_events = std::move(best_events);
  KeepLargest(&gap->cause_events, ctx->options.max_cause_events);
}

void ClassifyGap(GapContext* ctx, IdleGap* gap) {
  const Trace& trace = ctx->trace;
  const TimeRange range{gap->start_ns, gap->end_ns};
  if (!gap->next_kernel.is_none()) {
    gap->launch = ctx->launches.LaunchOf(gap->next_kernel);
    if (!gap->launch.is_none()) {
      gap->launch_delay_ns =
          trace.slices().start_ns()[gap->next_kernel.index()] - trace.slices().start_ns()[gap->launch.index()];
    }
  }
  // Rule 1b: inside a graph replay (the kernel ending the gap is a node of a
  // replay that began before the gap) the GPU runs the graph's dependencies:
  // the host queued the whole graph at once, so no host event explains it.
  if (!gap->next_kernel.is_none()) {
    const int32_t replay = ctx->launches.graphs.ReplayOf(gap->next_kernel);
    if (replay >= 0 && ctx->launches.graphs.replays[static_cast<size_t>(replay)].start_ns < gap->start_ns) {
      gap->cause = IdleCause::kGraph;
      return;
    }
  }
  // Rule 2: copies running for most of the gap.
  const DurNs h2d = ctx->h2d.CoveredNs(range), d2h = ctx->d2h.CoveredNs(range);
  if (static_cast<double>(std::max(h2d, d2h)) > ctx->options.copy_share * static_cast<double>(range.duration_ns())) {
    gap->cause = h2d >= d2h ? IdleCause::kMemcpyH2D : IdleCause::kMemcpyD2H;
    BlameCopies(ctx, gap, h2d >= d2h ? GpuKind::kMemcpyH2D : GpuKind::kMemcpyD2H);
    KeepLargest(&gap->cause_events, ctx->options.max_cause_events);
    return;
  }
  // Rule 3: the host was late.
  if (gap->launch.is_none() || trace.slices().start_ns()[gap->launch.index()] <= gap->start_ns) return;  // rule 4
  const TrackId thread = trace.slices().track()[gap->launch.index()];
  const Step* step = gap->step >= 0 ? &ctx->steps.steps[gap->step] : nullptr;
  WindowSweep(ctx, range, step).Run(thread);
  const WindowWeights& w = ctx->weights;
  if (w.covered_ns == 0) {
    gap->cause = SyncEndedNear(ctx, thread, gap->start_ns) ? IdleCause::kSync : IdleCause::kOther;
    return;
  }
  HostCategory best = HostCategory::kInput;
  for (HostCategory c : {HostCategory::kSync, HostCategory::kLaunch, HostCategory::kHostCompute}) {
    if (w.by_category[static_cast<size_t>(c)] > w.by_category[static_cast<size_t>(best)]) best = c;
  }
  // Rule 3b: a launch call explains only the time it covers. When the
  // launching thread idled for longer than it launched, what held the host
  // up happened elsewhere: ask the process's other threads.
  const DurNs launch_ns = w.by_category[static_cast<size_t>(HostCategory::kLaunch)];
  if (best == HostCategory::kLaunch && range.duration_ns() - w.covered_ns > launch_ns) {
    BlameOtherThreads(ctx, gap, thread, step);
    return;
  }
  gap->cause = HostCategoryCause(best);
  for (const BlamedEvent& e : w.deciders) {
    if (e.category == best) gap->cause_events.push_back(e);
  }
  KeepLargest(&gap->cause_events, ctx->options.max_cause_events);
}

//-----------------------------------------------------------------------------
// [SECTION] ComputeIdleGaps
//-----------------------------------------------------------------------------

// The idle intervals of the device before cause assignment: the holes of
// kernel_busy inside the active span, plus edge idle inside steps.
IdleGap MakeGap(TimeNs start, TimeNs end, bool in_active_span, SliceId next_kernel) {
  IdleGap g;
  g.start_ns = start;
  g.end_ns = end;
  g.in_active_span = in_active_span;
  g.next_kernel = next_kernel;
  return g;
}

std::vector<IdleGap> IdleIntervals(const DeviceActivity& d, const StepSet& steps) {
  std::vector<IdleGap> gaps;
  const auto& busy = d.kernel_busy;
  const bool has_steps = !steps.steps.empty();
  const TimeNs steps_start = has_steps ? steps.steps.front().start_ns : 0;
  const TimeNs steps_end = has_steps ? steps.steps.back().window_end_ns() : 0;
  if (busy.empty()) {
    if (has_steps) gaps.push_back(MakeGap(steps_start, steps_end, false, SliceId::None()));
    return gaps;
  }
  if (has_steps && steps_start < busy.front().start_ns) {
    gaps.push_back(MakeGap(steps_start, busy.front().start_ns, false, d.busy_first_kernel.front()));
  }
  for (size_t k = 1; k < busy.size(); ++k) {
    gaps.push_back(MakeGap(busy[k - 1].end_ns, busy[k].start_ns, true, d.busy_first_kernel[k]));
  }
  if (has_steps && steps_end > busy.back().end_ns) {
    gaps.push_back(MakeGap(busy.back().end_ns, steps_end, false, SliceId::None()));
  }
  return gaps;
}

// Sets each gap's step: the step it overlaps most (gaps and steps both sorted).
void AssignSteps(const StepSet& steps, std::vector<IdleGap>* gaps) {
  const auto& s = steps.steps;
  size_t k = 0;
  for (IdleGap& g : *gaps) {
    while (k < s.size() && s[k].window_end_ns() <= g.start_ns) ++k;
    DurNs best = 0;
    for (size_t j = k; j < s.size() && s[j].start_ns < g.end_ns; ++j) {
      const DurNs overlap = TimeRange{g.start_ns, g.end_ns}.OverlapNs({s[j].start_ns, s[j].window_end_ns()});
      if (overlap > best) {
        best = overlap;
        g.step = static_cast<int32_t>(j);
      }
    }
  }
}

}  // namespace

std::vector<IdleGap> ComputeIdleGaps(const Trace& trace, const DeviceActivity& device, const StepSet& steps,
                                     const IdleCauseTable& table, const LaunchIndex& launches,
                                     const IdleGapOptions& options) {
  std::vector<IdleGap> gaps = IdleIntervals(device, steps);
  if (gaps.empty()) return gaps;
  AssignSteps(steps, &gaps);
  GapContext ctx(trace, device, steps, table, launches, options);
  for (const DeviceOp& op : device.ops) {
    if (op.kind == GpuKind::kMemcpyH2D || op.kind == GpuKind::kMemcpyD2H) {
      ctx.copies.push_back(op);
      ctx.copies_max_end.push_back(
          std::max(op.end_ns, ctx.copies_max_end.empty() ? op.end_ns : ctx.copies_max_end.back()));
    }
  }
  for (IdleGap& g : gaps) ClassifyGap(&ctx, &g);
  return gaps;
}

}  // namespace stepline::analysis
