// EventImporter post-pass (see event_importer.h): runs once every event is
// in, because M events that name processes and threads may come last.
#include <algorithm>
#include <thread>
#include <utility>
#include <vector>

#include "loaders/chrome_json/event_importer.h"
#include "loaders/chrome_json/stable_sort_runs.h"
#include "model/worker_thread.h"

namespace stepline::loaders {

void EventImporter::Finish() {
  if (track_flags_.size() < builder_->trace().tracks().size())
    track_flags_.resize(builder_->trace().tracks().size(), 0);
  ReplayAsync();
  LinkFlows();  // and, meanwhile, NameTracksAndDevices()
  LinkFlowV2();
  StoreMetadata();
}

// The part of the post-pass that neither reads nor writes flows: track and
// process names, devices, stream kinds, launch/activity correlations. It
// writes tracks, processes, gpu_kind and the builder's launch links, and
// only reads the slices' tracks and the correlations, as the correlation
// table's builder does at the same time (LinkFlows).
void EventImporter::NameTracksAndDevices() {
  NameStringKeys();
  AssignDevices();
  ClassifyTensorBoardStreams();
  LinkCorrelations();
}

void EventImporter::ReplayAsync() {
  std::stable_sort(async_events_.begin(), async_events_.end(),
                   [](const AsyncEvent& a, const AsyncEvent& b) { return a.ts_ns < b.ts_ns; });
  for (const AsyncEvent& a : async_events_) {
    switch (a.ph) {
      case 'b':
      case 'S': builder_->BeginSlice(a.track, a.ts_ns, a.name, a.category, a.args, a.offset); break;
      case 'e':
      case 'F': builder_->EndSlice(a.track, a.ts_ns, a.args, a.offset); break;
      default: builder_->AddInstant({a.track, a.ts_ns, a.name, a.category, a.args}); break;  // n, T, p
    }
  }
  async_events_.clear();
  async_events_.shrink_to_fit();
}

namespace {

// Below this, a second thread costs more than it saves.
constexpr size_t kParallelFlowEvents = 1 << 16;

}  // namespace

// Flows chain per (id, category, name), in time order; at equal times s
// before t before f (the FlowPhase order), then input order (stable sorts).
bool EventImporter::FlowChainOrder(const FlowEvent& a, const FlowEvent& b) {
  if (a.id != b.id) return a.id < b.id;
  if (a.category != b.category) return a.category < b.category;
  if (a.name != b.name) return a.name < b.name;
  return a.ts_ns != b.ts_ns ? a.ts_ns < b.ts_ns : a.phase < b.phase;
}

bool EventImporter::SameChain(const FlowEvent& a, const FlowEvent& b) {
  return a.id == b.id && a.category == b.category && a.name == b.name;
}

// The post-pass is the serial tail of a load (first open speed),
// and on a Kineto or TensorBoard trace launch flows are most of it: sorting
// them and building the correlation table. With two threads, a second one
// builds the table and sorts half the launch flows while this one sorts the
// other half and the generic flows, then does NameTracksAndDevices() (it
// waited idle for the table before: ~40 ms of a 413 MB demo's load, seen
// with perf).
void EventImporter::LinkFlows() {
  GrowArray<FlowEvent>& launch = launch_flow_events_;
  const bool parallel = threads_ > 1 && launch.size() >= kParallelFlowEvents;
  const auto half = static_cast<std::ptrdiff_t>(parallel ? launch.size() / 2 : launch.size());
  CorrelationTable table;
  {
    WorkerThread helper;
    if (parallel) {
      helper = WorkerThread([&] {
        table = BuildCorrelationTable();
        StableSortRuns(launch.begin() + half, launch.end(), FlowChainOrder);
      });
    }
    StableSortRuns(launch.begin(), launch.begin() + half, FlowChainOrder);
    StableSortRuns(flow_events_.begin(), flow_events_.end(), FlowChainOrder);
    for (const FlowEvent& f : flow_events_) {
      builder_->AddFlowEvent(f.phase, f.id, f.category, f.name, f.track, f.ts_ns, f.bind_enclosing, FlowKind::kGeneric,
                             f.offset);
    }
    flow_events_.release();
    NameTracksAndDevices();
    if (helper.joinable()) helper.join();
  }
  if (parallel) {
    // Both halves are stable-sorted and std::inplace_merge takes the first
    // half's element on ties, so the result is one stable sort's.
    if (FlowChainOrder(launch[half], launch[half - 1])) {  // else the halves are in order already
      std::inplace_merge(launch.begin(), launch.begin() + half, launch.end(), FlowChainOrder);
    }
  } else if (!launch.empty()) {
    table = BuildCorrelationTable();
  }
  LinkLaunchFlows(launch, table);
  // Spent: freed on another thread while this one finishes the load.
  release_.Drop(launch, table, correlations_);
}

CorrelationTable EventImporter::BuildCorrelationTable() const {
  CorrelationTable table;
  const auto& slice_track = builder_->trace().slices().track();
  table.Build(correlations_.size(), [&](size_t i) {
    const PendingCorrelation& c = correlations_[i];
    return CorrelationTable::Entry{slice_track[c.slice.index()].value, c.correlation, c.slice};
  });
  return table;
}

// What linking a run of launch-flow chains found: launch flows between two
// known slices, the other flows, and the chains that did not pair up.
struct LinkedLaunchChains {
  enum class Problem : uint8_t { kRestarted, kNoStart, kNeverEnded };
  struct Unmatched {
    uint64_t offset;
    uint64_t id;
    Problem what;
  };
  GrowArray<FlowTable::LaunchFlow> launch;
  std::vector<FlowTable::Pending> pending;
  std::vector<Unmatched> problems;
};

// Pairs the chains of `events` (whole chains only); reads nothing but its
// arguments, so two runs of chains link on two threads.
void EventImporter::LinkLaunchChains(std::span<const FlowEvent> events, const CorrelationTable& table,
                                     LinkedLaunchChains* out) {
  using Problem = LinkedLaunchChains::Problem;
  auto endpoint = [&](const FlowEvent& f) {
    const SliceId slice = table.Find(f.track.value, f.id);
    if (!slice.is_none()) return FlowEndpoint::OfSlice(slice);
    if (f.phase == TraceBuilder::FlowPhase::kEnd && !f.bind_enclosing) return FlowEndpoint::Next(f.track, f.ts_ns);
    return FlowEndpoint::Enclosing(f.track, f.ts_ns);
  };
  // About one flow per two events (s, f), nearly all of them between two
  // slices found by correlation; sized once rather than doubled from empty.
  out->launch.reserve(events.size() / 2 + 1);
  for (size_t begin = 0; begin < events.size();) {
    size_t end = begin + 1;
    while (end < events.size() && SameChain(events[end], events[begin])) ++end;
    const FlowEvent* open = nullptr;
    FlowEndpoint from;
    for (size_t k = begin; k < end; ++k) {
      const FlowEvent& f = events[k];
      if (f.phase == TraceBuilder::FlowPhase::kStart) {
        if (open != nullptr) out->problems.push_back({open->offset, f.id, Problem::kRestarted});
        open = &f;
        from = endpoint(f);
        continue;
      }
      if (open == nullptr) {
        out->problems.push_back({f.offset, f.id, Problem::kNoStart});
        continue;
      }
      const FlowEndpoint to = endpoint(f);
      if (from.binding == FlowEndpoint::Binding::kSlice && to.binding == FlowEndpoint::Binding::kSlice) {
        out->launch.push_back({from.slice, to.slice, f.name, f.category, f.id});
      } else {
        FlowTable::Pending p;
        p.from = from;
        p.to = to;
        p.kind = FlowKind::kLaunch;
        p.name = f.name;
        p.category = f.category;
        p.flow_id = f.id;
        p.byte_offset = f.offset;
        out->pending.push_back(p);
      }
      if (f.phase == TraceBuilder::FlowPhase::kStep) {
        open = &f;
        from = to;
      } else {
        open = nullptr;
      }
    }
    if (open != nullptr) out->problems.push_back({open->offset, open->id, Problem::kNeverEnded});
    begin = end;
  }
}

// Launch flows (ac2g and older spellings) carry the correlation id as their
// id: an end binds to the slice of its track with that correlation when there
// is one, not to whatever encloses its time. Binding by time picks the wrong
// call when a zero-length call (cudaPeekAtLastError) nested in the launch
// shares the flow's timestamp. Without such a slice, ends bind like any flow.
// `events` come grouped per (category, name, id), each group in time order.
// Past kParallelFlowEvents, the chains are linked in two runs on two threads
// (the lookups miss the cache: ~250 ms of the 4.16 GB demo's serial tail).
void EventImporter::LinkLaunchFlows(std::span<const FlowEvent> events, const CorrelationTable& table) {
  if (events.empty()) return;
  size_t split = events.size();
  if (threads_ > 1 && events.size() >= kParallelFlowEvents) {
    split = events.size() / 2;  // at a chain's start
    while (split < events.size() && SameChain(events[split], events[split - 1])) ++split;
  }
  LinkedLaunchChains first, second;
  {
    WorkerThread helper;
    if (split < events.size()) helper = WorkerThread([&] { LinkLaunchChains(events.subspan(split), table, &second); });
    LinkLaunchChains(events.first(split), table, &first);
    if (helper.joinable()) helper.join();
  }
  FlowTable& flows = builder_->trace().mutable_flows();
  flows.AddLaunchFlows(std::move(first.launch));
  flows.AddLaunchFlows(std::move(second.launch));
  for (const FlowTable::Pending& p : first.pending) builder_->AddFlow(p);
  for (const FlowTable::Pending& p : second.pending) builder_->AddFlow(p);
  // Problems are formatted only when recorded (Kineto traces have tens of
  // thousands of "f" without "s" after the profiler dropped their launches),
  // and reported in input order, in the builder's words for the other flows.
  std::vector<LinkedLaunchChains::Unmatched>& problems = first.problems;
  problems.insert(problems.end(), second.problems.begin(), second.problems.end());
  std::stable_sort(problems.begin(), problems.end(),
                   [](const auto& a, const auto& b) { return a.offset < b.offset; });
  using Problem = LinkedLaunchChains::Problem;
  for (const LinkedLaunchChains::Unmatched& u : problems) {
    if (builder_->diag().count(DiagCode::kUnmatchedFlow) >= Diagnostics::kMaxDetailsPerCode) {
      builder_->diag().Record(DiagCode::kUnmatchedFlow, u.offset, {});  // counted; details are kept for the first few
      continue;
    }
    const char* what = u.what == Problem::kRestarted ? " started again before it ended"
                       : u.what == Problem::kNoStart ? " continues with no start"
                                                     : " never ended";
    Diag(DiagCode::kUnmatchedFlow, u.offset, "flow " + std::to_string(u.id) + what);
  }
}

// Flow v2: an X with bind_id + flow_out starts (or, with flow_in too,
// continues) a flow that the next X in time with the same bind_id and
// flow_in ends. File order does not matter.
void EventImporter::LinkFlowV2() {
  std::stable_sort(flow_v2_.begin(), flow_v2_.end(), [](const FlowV2& a, const FlowV2& b) {
    return a.bind_id != b.bind_id ? a.bind_id < b.bind_id : a.ts_ns < b.ts_ns;
  });
  for (size_t i = 0; i < flow_v2_.size(); ++i) {
    const FlowV2& cur = flow_v2_[i];
    const bool has_next = i + 1 < flow_v2_.size() && flow_v2_[i + 1].bind_id == cur.bind_id;
    const bool has_prev = i > 0 && flow_v2_[i - 1].bind_id == cur.bind_id;
    if (cur.in && !(has_prev && flow_v2_[i - 1].out)) {
      Diag(DiagCode::kUnmatchedFlow, cur.offset,
           "flow_in with bind_id " + std::to_string(cur.bind_id) + " has no flow_out before it");
    }
    if (!cur.out) continue;
    if (!has_next || !flow_v2_[i + 1].in) {
      Diag(DiagCode::kUnmatchedFlow, cur.offset,
           "flow_out with bind_id " + std::to_string(cur.bind_id) + " never ends");
      continue;
    }
    FlowTable::Pending p;
    p.from = FlowEndpoint::OfSlice(cur.slice);
    p.to = FlowEndpoint::OfSlice(flow_v2_[i + 1].slice);
    p.kind = FlowKind::kGeneric;
    p.flow_id = cur.bind_id;
    p.byte_offset = flow_v2_[i + 1].offset;
    builder_->AddFlow(p);
  }
}

void EventImporter::NameStringKeys() {
  for (const auto& [pid, name] : string_pids_) {
    if (builder_->ProcessName(pid).is_none()) builder_->SetProcessName(pid, builder_->trace().str(name), 0);
  }
  TrackTable& tracks = builder_->trace().mutable_tracks();
  for (const auto& [track, name] : string_tids_) {
    if (tracks.name(track).is_none()) tracks.set_name(track, name);
  }
}

// Kineto: a thread track holding device-side categories is a GPU stream of
// the device whose pid it is (process_labels "GPU n" wins when present).
// TensorBoard: threads of a "/device:GPU:n" process are streams or derived
// rows by their names.
void EventImporter::AssignDevices() {
  Trace& trace = builder_->trace();
  const ProcessTable& processes = trace.processes();
  std::vector<int32_t> tb_device(processes.size(), -1);
  for (size_t i = 0; i < processes.size(); ++i) {
    const ProcessId p = ProcessId::FromIndex(i);
    const int64_t pid = processes.pid(p);
    tb_device[i] = DeviceFromProcessName(trace.strings().Get(processes.name(p)));
    if (tb_device[i] >= 0) builder_->SetProcessDevice(pid, tb_device[i]);
    if (auto it = label_devices_.find(pid); it != label_devices_.end()) builder_->SetProcessDevice(pid, it->second);
  }
  const TrackTable& tracks = trace.tracks();
  for (size_t i = 0; i < tracks.size(); ++i) {
    const TrackId t = TrackId::FromIndex(i);
    if (tracks.kind(t) != TrackKind::kHostThread) continue;
    const ProcessId p = tracks.process(t);
    const int64_t pid = processes.pid(p);
    if (track_flags_[i] & kHasDeviceEvents) {
      int32_t device = processes.device_id(p);
      if (device < 0 && pid >= 0 && pid <= INT32_MAX) {
        device = static_cast<int32_t>(pid);
        builder_->SetProcessDevice(pid, device);
      }
      builder_->SetTrackKind(t, TrackKind::kGpuStream, device);
    } else if (tb_device[p.index()] >= 0) {
      const TrackKind kind = TensorBoardRowKind(trace.strings().Get(tracks.name(t)));
      if (kind == TrackKind::kHostThread) continue;
      builder_->SetTrackKind(t, kind, tb_device[p.index()]);
      if (kind == TrackKind::kGpuStream) track_flags_[i] |= kIsTensorBoardStream;
    }
  }
}

void EventImporter::ClassifyTensorBoardStreams() {
  if (std::none_of(track_flags_.begin(), track_flags_.end(), [](uint8_t f) { return f & kIsTensorBoardStream; }))
    return;
  SliceTable& slices = builder_->trace().mutable_slices();
  const StringPool& strings = builder_->trace().strings();
  std::vector<uint8_t> kind_by_name;  // GpuKind + 1 by name id; 0 = not classified yet
  for (size_t i = 0; i < slices.size(); ++i) {
    const SliceId s = SliceId::FromIndex(i);
    if (!(track_flags_[slices.track()[i].index()] & kIsTensorBoardStream) || slices.gpu_kind()[i] != GpuKind::kNone) {
      continue;
    }
    const StringId name = slices.name()[i];
    if (kind_by_name.size() <= name.index()) kind_by_name.resize(name.index() + 1, 0);
    uint8_t& cached = kind_by_name[name.index()];
    if (cached == 0) cached = static_cast<uint8_t>(1 + static_cast<uint8_t>(TensorBoardGpuKind(strings.Get(name))));
    slices.set_gpu_kind(s, static_cast<GpuKind>(cached - 1));
  }
  for (const auto& [slice, kind] : memcpy_details_) {
    if (track_flags_[slices.track()[slice.index()].index()] & kIsTensorBoardStream) slices.set_gpu_kind(slice, kind);
  }
}

// A correlated slice on a GPU row is an activity; on a host row it is a
// launch when it is a Kineto runtime call or carries TensorBoard's
// correlation_id (host-side CUPTI API events).
void EventImporter::LinkCorrelations() {
  const Trace& trace = builder_->trace();
  for (const PendingCorrelation& c : correlations_) {
    const TrackId track = trace.slices().track()[c.slice.index()];
    if (trace.tracks().kind(track) == TrackKind::kGpuStream) {
      builder_->NoteDeviceActivity(c.correlation, c.slice);
    } else if (c.source != CorrelationSource::kKinetoDevice) {
      builder_->NoteLaunch(c.correlation, c.slice);
    }
  }
}

void EventImporter::StoreMetadata() {
  TraceInfo& info = builder_->trace().mutable_info();
  info.metadata = builder_->AddArgs(metadata_);
  if (has_base_time_) info.wall_clock_origin_ns = base_time_ns_;
}

}  // namespace stepline::loaders
