// TraceBuilder: shared loader work (see trace_builder.h).
#include "loaders/trace_builder.h"

#include <algorithm>
#include <string>

namespace stepline::loaders {

TraceBuilder::TraceBuilder(std::string format) { trace_.mutable_info().format = std::move(format); }

//-----------------------------------------------------------------------------
// Processes and tracks
//-----------------------------------------------------------------------------

ProcessId TraceBuilder::Process(int64_t pid) {
  auto [it, inserted] = process_by_pid_.try_emplace(pid);
  if (inserted) {
    ProcessTable::Row row;
    row.pid = pid;
    it->second = trace_.mutable_processes().Append(row);
  }
  return it->second;
}

void TraceBuilder::SetProcessName(int64_t pid, std::string_view name, uint64_t byte_offset) {
  const ProcessId p = Process(pid);
  ProcessTable& processes = trace_.mutable_processes();
  const StringId id = Intern(name);
  const StringId old = processes.name(p);
  if (!old.is_none() && old != id) {
    diag().Record(DiagCode::kDuplicateMetadata, byte_offset,
                  "process " + std::to_string(pid) + " renamed from \"" + std::string(trace_.str(old)) + "\" to \"" +
                      std::string(name) + "\"");
  }
  processes.set_name(p, id);
}

void TraceBuilder::SetProcessSortIndex(int64_t pid, int32_t sort_index) {
  trace_.mutable_processes().set_sort_index(Process(pid), sort_index);
}

void TraceBuilder::SetProcessDevice(int64_t pid, int32_t device_id) {
  trace_.mutable_processes().set_device_id(Process(pid), device_id);
}

StringId TraceBuilder::ProcessName(int64_t pid) const {
  auto it = process_by_pid_.find(pid);
  return it == process_by_pid_.end() ? StringId::None() : trace_.processes().name(it->second);
}

TrackId TraceBuilder::ThreadTrack(int64_t pid, int64_t tid) {
  auto [it, inserted] = thread_tracks_.try_emplace(PidTid{pid, tid});
  if (inserted) {
    TrackTable::Row row;
    row.kind = TrackKind::kHostThread;
    row.process = Process(pid);
    row.tid = tid;
    it->second = AddTrack(row);
  }
  return it->second;
}

void TraceBuilder::SetThreadName(int64_t pid, int64_t tid, std::string_view name, uint64_t byte_offset) {
  const TrackId t = ThreadTrack(pid, tid);
  TrackTable& tracks = trace_.mutable_tracks();
  const StringId id = Intern(name);
  const StringId old = tracks.name(t);
  if (!old.is_none() && old != id) {
    diag().Record(DiagCode::kDuplicateMetadata, byte_offset,
                  "thread " + std::to_string(pid) + "/" + std::to_string(tid) + " renamed from \"" +
                      std::string(trace_.str(old)) + "\" to \"" + std::string(name) + "\"");
  }
  tracks.set_name(t, id);
}

void TraceBuilder::SetThreadSortIndex(int64_t pid, int64_t tid, int32_t sort_index) {
  trace_.mutable_tracks().set_sort_index(ThreadTrack(pid, tid), sort_index);
}

void TraceBuilder::SetTrackKind(TrackId track, TrackKind kind, int32_t device_id) {
  TrackTable& tracks = trace_.mutable_tracks();
  tracks.set_kind(track, kind);
  tracks.set_device_id(track, device_id);
}

TrackId TraceBuilder::AsyncTrack(int64_t pid, StringId key, uint64_t id, StringId display_name) {
  auto [it, inserted] = async_tracks_.try_emplace(AsyncKey{pid, key.value, id});
  if (inserted) {
    TrackTable::Row row;
    row.kind = TrackKind::kAsync;
    row.process = Process(pid);
    row.tid = static_cast<int64_t>(id);
    row.name = display_name;
    row.category = key;
    // Async rows sort after the process's threads, in creation order.
    row.sort_index = INT32_MAX / 2 + static_cast<int32_t>(std::min<size_t>(async_tracks_.size(), INT32_MAX / 4));
    it->second = AddTrack(row);
  }
  return it->second;
}

TrackId TraceBuilder::CounterTrack(int64_t pid, std::string_view series_name, StringId category) {
  std::string key = std::to_string(pid);
  key.push_back('\0');
  key.append(series_name);
  auto [it, inserted] = counter_tracks_.try_emplace(std::move(key));
  if (inserted) {
    TrackTable::Row row;
    row.kind = TrackKind::kCounter;
    row.process = Process(pid);
    row.name = Intern(series_name);
    row.category = category;
    it->second = AddTrack(row);
  }
  return it->second;
}

TrackId TraceBuilder::MarkerTrack(int64_t pid) {
  auto [it, inserted] = marker_tracks_.try_emplace(pid);
  if (inserted) {
    if (pid == kGlobalPid && ProcessName(pid).is_none()) SetProcessName(pid, "Global", 0);
    TrackTable::Row row;
    row.kind = TrackKind::kMarkers;
    row.process = Process(pid);
    row.name = Intern(pid == kGlobalPid ? "Global markers" : "Markers");
    row.sort_index = INT32_MIN;  // markers sit on top of their process
    it->second = AddTrack(row);
  }
  return it->second;
}

//-----------------------------------------------------------------------------
// Events
//-----------------------------------------------------------------------------

SliceId TraceBuilder::BeginSlice(TrackId track, TimeNs ts_ns, StringId name, StringId category, ArgSetId args,
                                 uint64_t byte_offset) {
  SliceTable::Row row;
  row.track = track;
  row.start_ns = ts_ns;
  row.dur_ns = 0;
  row.name = name;
  row.category = category;
  row.arg_set = args;
  const SliceId id = AddSlice(row);
  if (open_slices_.size() <= track.index()) open_slices_.resize(track.index() + 1);
  open_slices_[track.index()].push_back({id, byte_offset});
  return id;
}

SliceId TraceBuilder::EndSlice(TrackId track, TimeNs ts_ns, ArgSetId end_args, uint64_t byte_offset) {
  if (open_slices_.size() <= track.index() || open_slices_[track.index()].empty()) {
    diag().Record(DiagCode::kUnmatchedEnd, byte_offset, "end at " + std::to_string(ts_ns) + " ns with no open begin");
    return SliceId::None();
  }
  const OpenSlice open = open_slices_[track.index()].back();
  open_slices_[track.index()].pop_back();
  SliceTable& slices = trace_.mutable_slices();
  const TimeNs start = slices.start_ns()[open.slice.index()];
  if (ts_ns < start) {
    diag().Record(DiagCode::kNegativeDuration, byte_offset,
                  "end at " + std::to_string(ts_ns) + " ns before its begin at " + std::to_string(start) + " ns");
    ts_ns = start;
  }
  slices.set_dur_ns(open.slice, ts_ns - start);
  if (!end_args.is_none()) {
    // Merge: B's args then E's (E wins on lookup order for readers that take
    // the last value; Find() returns the first, so put E's first).
    const ArgTable& args = trace_.args();
    std::vector<Arg> merged;
    for (ArgSetId set : {end_args, slices.arg_set()[open.slice.index()]}) {
      if (set.is_none()) continue;
      for (uint32_t r = args.set_begin(set); r < args.set_end(set); ++r) {
        merged.push_back({args.key()[r], args.value(r)});
      }
    }
    slices.set_arg_set(open.slice, AddArgs(merged));
  }
  return open.slice;
}

void TraceBuilder::AddFlowEvent(FlowPhase phase, uint64_t id, StringId category, StringId name, TrackId track,
                                TimeNs ts_ns, bool bind_enclosing_end, FlowKind kind, uint64_t byte_offset) {
  const FlowKey key{category.value, name.value, id};
  const FlowEndpoint here = (phase == FlowPhase::kEnd && !bind_enclosing_end) ? FlowEndpoint::Next(track, ts_ns)
                                                                              : FlowEndpoint::Enclosing(track, ts_ns);
  auto it = open_flows_.find(key);
  if (phase == FlowPhase::kStart) {
    if (it != open_flows_.end()) {
      diag().Record(DiagCode::kUnmatchedFlow, it->second.byte_offset,
                    "flow " + std::to_string(id) + " started again before it ended");
    }
    open_flows_[key] = OpenFlow{here, kind, byte_offset};
    return;
  }
  if (it == open_flows_.end()) {
    diag().Record(DiagCode::kUnmatchedFlow, byte_offset, "flow " + std::to_string(id) + " continues with no start");
    return;
  }
  FlowTable::Pending p;
  p.from = it->second.from;
  p.to = here;
  p.kind = it->second.kind;
  p.name = name;
  p.category = category;
  p.flow_id = id;
  p.byte_offset = byte_offset;
  AddFlow(p);
  if (phase == FlowPhase::kStep) {
    it->second.from = FlowEndpoint::Enclosing(track, ts_ns);
    it->second.byte_offset = byte_offset;
  } else {
    open_flows_.erase(it);
  }
}

void TraceBuilder::NoteLaunch(uint64_t correlation_id, SliceId launch) {
  launch_links_.NoteLaunch(correlation_id, launch);
}

void TraceBuilder::NoteDeviceActivity(uint64_t correlation_id, SliceId activity) {
  launch_links_.NoteActivity(correlation_id, activity);
}

//-----------------------------------------------------------------------------
// Finish
//-----------------------------------------------------------------------------

Trace TraceBuilder::Finish() {
  // Close slices still open: end them at the last time seen on their track.
  SliceTable& slices = trace_.mutable_slices();
  const bool any_open = std::any_of(open_slices_.begin(), open_slices_.end(), [](const auto& v) { return !v.empty(); });
  std::vector<TimeNs> track_last(any_open ? trace_.tracks().size() : 0, INT64_MIN);
  for (size_t i = 0; any_open && i < slices.size(); ++i) {
    TimeNs& last = track_last[slices.track()[i].index()];
    last = std::max(last, slices.start_ns()[i] + slices.dur_ns()[i]);
  }
  for (size_t t = 0; t < open_slices_.size(); ++t) {
    for (const OpenSlice& open : open_slices_[t]) {
      const TimeNs start = slices.start_ns()[open.slice.index()];
      slices.set_dur_ns(open.slice, std::max<TimeNs>(0, track_last[t] - start));
      diag().Record(DiagCode::kUnmatchedBegin, open.byte_offset,
                    "\"" + std::string(trace_.str(slices.name()[open.slice.index()])) + "\" never ended");
    }
  }
  open_slices_.clear();
  for (const auto& [key, open] : open_flows_) {
    diag().Record(DiagCode::kUnmatchedFlow, open.byte_offset, "flow " + std::to_string(key.id) + " never ended");
  }
  open_flows_.clear();
  if (const uint64_t refused = trace_.strings().overflowed(); refused > 0) {
    diag().Add(DiagCode::kLimitReached, refused, Diagnostics::kNoOffset,
               "more than " + std::to_string(StringPool::kMaxStrings) + " distinct strings or " +
                   std::to_string(StringPool::kMaxBytes >> 30) + " GiB of string bytes; " + std::to_string(refused) +
                   " new names, categories or values were replaced by \"" + std::string(StringPool::kOverflowText) +
                   "\"");
  }
  // A launch flow event (Kineto ac2g: id == correlation id) starts at the
  // launch call itself when that call is known. Binding it by time instead
  // can pick a zero-length runtime call nested at the same timestamp
  // (cudaFuncSetAttribute inside cudaLaunchKernel).
  launch_links_.Index();
  FlowTable& flows = trace_.mutable_flows();
  flows.ResolvePendingFrom(FlowKind::kLaunch, [&](uint64_t flow_id, FlowEndpoint* from) {
    const SliceId launch = launch_links_.LaunchOf(flow_id);
    if (!launch.is_none()) *from = FlowEndpoint::OfSlice(launch);
  });
  flows.AddLaunchLinks(launch_links_.Links());
  release_.Drop(launch_links_);
  trace_.Finalize();
  return std::move(trace_);
}

}  // namespace stepline::loaders
