// PlaneReader: one XPlane into the TraceBuilder.
//
// [SECTION] Plane fields and metadata
// [SECTION] Lines and tracks
// [SECTION] Events
//
// Call flow: Read() -> WalkPlaneFields() (spans only) -> ReadMetadata() (stat
// entries, then event entries, which refer to stats) -> ReadPlaneStats() ->
// ReadLine() per line, which takes the line's decoded chunks from the
// LinePipeline (xline_decoder.h) -> AppendEvent() per event ->
// AssignLineSortOrder().
#include "loaders/xspace/xplane_reader.h"

#include <algorithm>

#include "model/sl_assert.h"
#include "model/xla_op.h"

namespace stepline::loaders::xspace {
namespace {

// pids follow the TSL trace-viewer mapping (trace-formats.md 1.10) so a
// trace.json.gz exported from the same profile lines up: devices at 1 + n,
// the host at 701, other planes at 501 + their id.
constexpr int64_t kHostPid = 701;
constexpr int64_t kOtherPlanePidBase = 501;
constexpr int64_t kFallbackPidBase = 100000;  // when the preferred pid is taken

int64_t FloorDiv1000(int64_t ps) { return ps >= 0 ? ps / 1000 : -((-(ps + 1)) / 1000) - 1; }

std::string Quoted(std::string_view s) { return "\"" + std::string(s.substr(0, 80)) + "\""; }

}  // namespace

PlaneReader::PlaneReader(SpaceState* state, PlaneSpan span, size_t plane_index)
    : state_(state),
      builder_(*state->builder),
      span_(span),
      plane_index_(plane_index),
      meta_(state->builder, state->options.keep_args) {}

bool PlaneReader::Fail(LoadError* error, const WireError& wire, const std::string& where) {
  *error = LoadError{LoadErrorCode::kProtobufInvalid, state_->path, wire.offset, LoadError::kNoOffset,
                     "XSpace.planes[" + std::to_string(plane_index_) + "]" +
                         (plane_name_.empty() ? "" : " " + Quoted(plane_name_)) + where + ": " + wire.what};
  return false;
}

bool PlaneReader::Read(LoadError* error) {
  if (!WalkPlaneFields(error)) return false;
  class_ = ClassifyPlane(plane_name_, plane_id_);
  if (!ReadMetadata(error)) return false;
  if (!ReadPlaneStats(error)) return false;
  for (size_t i = 0; i < lines_.size(); ++i) {
    if (state_->progress && state_->progress->cancel.load(std::memory_order_relaxed)) {
      *error = LoadError{LoadErrorCode::kCancelled, state_->path, OffsetOf(lines_[i].data), LoadError::kNoOffset,
                         "cancelled"};
      return false;
    }
    if (!ReadLine(i, error)) return false;
  }
  AssignLineSortOrder();
  if (class_.kind == PlaneKind::kGpu && !stream_activity_) {
    for (const auto& [slice, kind] : xla_ops_) builder_.trace().mutable_slices().set_gpu_kind(slice, kind);
  }
  return true;
}

//-----------------------------------------------------------------------------
// [SECTION] Plane fields and metadata
//-----------------------------------------------------------------------------

bool PlaneReader::WalkPlaneFields(LoadError* error) {
  const char* begin = state_->input + span_.offset;
  WireReader reader(begin, begin + span_.size, span_.offset);
  WireField f;
  while (!reader.done()) {
    if (!reader.Next(&f)) return Fail(error, reader.error(), "");
    if (f.type == WireType::kVarint && f.number == 1) plane_id_ = static_cast<int64_t>(f.value);
    if (f.type != WireType::kLen) continue;
    const Span span{f.payload, f.payload_size};
    switch (f.number) {
      case 2: plane_name_ = PayloadView(f); break;
      case 3: lines_.push_back(span); break;
      case 4: event_md_.push_back(span); break;
      case 5: stat_md_.push_back(span); break;
      case 6: plane_stats_.push_back(span); break;
      default: break;
    }
  }
  return true;
}

bool PlaneReader::ReadMetadata(LoadError* error) {
  for (const Span& s : stat_md_) {
    if (!meta_.AddStatEntry(s.data, s.size, OffsetOf(s.data), state_->path, error)) return false;
  }
  // /host:metadata holds one Hlo Proto blob per XLA program and no timeline:
  // nothing refers to its event metadata, so count it instead of parsing it.
  if (class_.kind == PlaneKind::kMetadataOnly) {
    if (!event_md_.empty()) {
      state_->metadata_args.push_back(Arg{builder_.Intern(std::string(plane_name_) + "/programs"),
                                          ArgValue::Uint(event_md_.size())});
    }
    return true;
  }
  for (const Span& s : event_md_) {
    if (!meta_.AddEventEntry(s.data, s.size, OffsetOf(s.data), state_->path, error)) return false;
  }
  return true;
}

// Plane stats (GPU capabilities, Task Environment times, ...) become trace
// metadata keyed "<plane name>/<stat name>".
bool PlaneReader::ReadPlaneStats(LoadError* error) {
  for (size_t i = 0; i < plane_stats_.size(); ++i) {
    const Span& s = plane_stats_[i];
    RawStat stat;
    WireError wire;
    if (!DecodeStat(s.data, s.size, OffsetOf(s.data), &stat, &wire)) {
      return Fail(error, wire, ".stats[" + std::to_string(i) + "]");
    }
    const PlaneMetadata::StatMeta* sm = meta_.FindStat(stat.metadata_id);
    const std::string_view stat_name = sm ? builder_.trace().str(sm->name) : std::string_view();
    ArgValue value;
    if (!meta_.StatValue(stat, &value)) continue;
    state_->metadata_args.push_back(
        Arg{builder_.Intern(std::string(plane_name_) + "/" + std::string(stat_name)), value});
    const bool is_int = value.type == ArgType::kInt || value.type == ArgType::kUint;
    if (class_.kind == PlaneKind::kTaskEnv && stat_name == "profile_start_time" && is_int) {
      state_->has_profile_start = true;
      state_->profile_start_ns = value.as_int();
    }
  }
  return true;
}

void PlaneReader::StartProcess() {
  if (process_started_) return;
  process_started_ = true;
  int64_t pid = kOtherPlanePidBase + plane_id_;
  if (class_.kind == PlaneKind::kHostCpu) pid = kHostPid;
  if (class_.kind == PlaneKind::kGpu || class_.kind == PlaneKind::kTpu) pid = 1 + int64_t{class_.device_id};
  if (state_->used_pids.count(pid)) pid = kFallbackPidBase + static_cast<int64_t>(plane_index_);
  while (state_->used_pids.count(pid)) ++pid;
  state_->used_pids.insert(pid);
  pid_ = pid;
  if (class_.kind == PlaneKind::kHostCpu) state_->host_pid = pid;
  builder_.SetProcessName(pid, meta_.CheckUtf8(plane_name_, span_.offset), span_.offset);
  if (class_.device_id >= 0) builder_.SetProcessDevice(pid, class_.device_id);
}

//-----------------------------------------------------------------------------
// [SECTION] Lines and tracks
//-----------------------------------------------------------------------------

bool PlaneReader::ReadLine(size_t line_index, LoadError* error) {
  LineInfo line;
  const std::string where = ".lines[" + std::to_string(line_index) + "]";
  for (bool first = true;; first = false) {
    LineChunk* chunk = state_->lines->Next();
    SL_ASSERT(chunk && chunk->plane_index == plane_index_ && chunk->line_index == line_index &&
              "the pipeline walks the same bytes in the same order");
    if (chunk->failed) {
      const bool in_event = chunk->failed_event != UINT64_MAX;
      return Fail(error, chunk->error,
                  where + (in_event ? " " + Quoted(chunk->header.name) + ".events[" +
                                          std::to_string(chunk->failed_event) + "]"
                                    : ""));
    }
    if (first) {
      line.header = chunk->header;
      line.kind = ClassifyLine(class_.kind, line.header.name, line.header.id);
      line.is_xla_ops = line.kind == LineKind::kDerived && IsXlaOpsLineName(line.header.name);
      if (line.kind == LineKind::kDerived && IsStepsLineName(line.header.name)) state_->saw_steps_line = true;
      if (line.header.event_count > 0) {  // an empty line is no track (XProf hides them too)
        state_->min_line_timestamp_ns = std::min(state_->min_line_timestamp_ns, line.header.timestamp_ns);
        StartProcess();
        OpenTrack(&line);
      }
    }
    for (const DecodedEvent& event : chunk->events) {
      AppendEvent(line, event, std::span<const RawStat>(chunk->stats).subspan(event.stat_begin,
                                                                               event.stat_end - event.stat_begin));
    }
    const bool last = chunk->last;
    if (state_->progress) state_->progress->bytes_done.store(chunk->end_offset, std::memory_order_relaxed);
    state_->lines->Release(chunk);
    if (last) return true;
    if (state_->progress && state_->progress->cancel.load(std::memory_order_relaxed)) {
      *error = LoadError{LoadErrorCode::kCancelled, state_->path, chunk->end_offset, LoadError::kNoOffset, "cancelled"};
      return false;
    }
  }
}

void PlaneReader::OpenTrack(LineInfo* line) {
  if (line->kind == LineKind::kCounters) return;  // one counter track per series, made per event
  const LineHeader& h = line->header;
  const std::string_view shown = h.display_name.empty() ? h.name : h.display_name;
  line->track = builder_.ThreadTrack(pid_, h.id);
  builder_.SetThreadName(pid_, h.id, meta_.CheckUtf8(shown, h.offset), h.offset);
  if (line->kind == LineKind::kStream) builder_.SetTrackKind(line->track, TrackKind::kGpuStream, class_.device_id);
  if (line->kind == LineKind::kDerived) builder_.SetTrackKind(line->track, TrackKind::kGpuDerived, class_.device_id);
  // Row order: display_id, else id. Device planes compare them as uint32 like
  // the trace viewer's tid, so streams come before the derived rows
  // (0xDEADBEEF + k) and those keep XProf's order (Steps first).
  const int64_t key = h.display_id != 0 ? h.display_id : h.id;
  const bool is_device = class_.kind == PlaneKind::kGpu || class_.kind == PlaneKind::kTpu;
  const uint64_t primary = is_device ? static_cast<uint32_t>(key) : static_cast<uint64_t>(key) ^ (uint64_t{1} << 63);
  sort_keys_.push_back(SortKey{primary, h.id, line->track});
}

void PlaneReader::AssignLineSortOrder() {
  std::stable_sort(sort_keys_.begin(), sort_keys_.end(), [](const SortKey& a, const SortKey& b) {
    return a.primary != b.primary ? a.primary < b.primary : a.id < b.id;
  });
  TrackTable& tracks = builder_.trace().mutable_tracks();
  for (size_t i = 0; i < sort_keys_.size(); ++i) tracks.set_sort_index(sort_keys_[i].track, static_cast<int32_t>(i));
}

//-----------------------------------------------------------------------------
// [SECTION] Events
//-----------------------------------------------------------------------------

void PlaneReader::AppendEvent(const LineInfo& line, const DecodedEvent& event, std::span<const RawStat> stats) {
  if (!event.has_time) {
    if (state_->aggregated_events++ == 0) state_->aggregated_first_offset = event.offset;
    return;
  }
  // start_ps = timestamp_ns * 1000 + offset_ps would overflow int64 for epoch
  // timestamps, so split it: start_ns = timestamp_ns + floor(offset_ps / 1000)
  // and end_ns = timestamp_ns + floor((offset_ps + duration_ps) / 1000), i.e.
  // both ends are floored to the ns and dur_ns = end_ns - start_ns.
  int64_t dur_ps = event.duration_ps;
  if (dur_ps < 0) {
    builder_.diag().Record(DiagCode::kNegativeDuration, event.offset,
                           "duration_ps " + std::to_string(dur_ps) + " clamped to 0");
    dur_ps = 0;
  }
  int64_t end_ps, start_ns, end_ns;
  if (__builtin_add_overflow(event.offset_ps, dur_ps, &end_ps) ||
      __builtin_add_overflow(line.header.timestamp_ns, FloorDiv1000(event.offset_ps), &start_ns) ||
      __builtin_add_overflow(line.header.timestamp_ns, FloorDiv1000(end_ps), &end_ns)) {
    builder_.diag().Record(DiagCode::kOutOfRange, event.offset, "event time overflows int64 ns; event skipped");
    return;
  }
  const uint32_t md_index = meta_.FindEventIndex(event.metadata_id);
  const PlaneMetadata::EventMeta* md = md_index == UINT32_MAX ? nullptr : &meta_.event(md_index);
  StatFacts facts = md ? md->facts : StatFacts{};
  args_.clear();
  if (md && state_->options.keep_args) {
    const auto md_args = meta_.args(*md);
    args_.assign(md_args.begin(), md_args.end());
  }
  for (const RawStat& stat : stats) meta_.ApplyEventStat(stat, &args_, &facts);
  StringId name = md ? md->name : StringId::None();
  if (facts.has_step_name) name = meta_.InternChecked(facts.step_name, event.offset);  // trace-formats.md 1.4 rule 4

  if (line.kind == LineKind::kCounters) {
    const TrackId counter = builder_.CounterTrack(pid_, builder_.trace().str(name));
    builder_.AddCounter(counter, start_ns, facts.number);
    return;
  }
  const ArgSetId arg_set = args_.empty() ? ArgSetId::None() : builder_.AddArgs(args_);
  // A host event with no duration is an instant, unless a launch flow must
  // start from it (flows attach to slices).
  if (line.kind == LineKind::kHost && dur_ps == 0 && !facts.has_correlation_id) {
    builder_.AddInstant(InstantTable::Row{line.track, start_ns, name, StringId::None(), arg_set});
    return;
  }
  SliceTable::Row row;
  row.track = line.track;
  row.start_ns = start_ns;
  row.dur_ns = end_ns - start_ns;
  row.name = name;
  row.arg_set = arg_set;
  if (line.kind == LineKind::kStream) {
    row.gpu_kind = ClassifyStreamEvent(line, md_index, name, facts);
    stream_activity_ = stream_activity_ || row.gpu_kind != GpuKind::kNone;
  }
  const bool xla_op = line.kind == LineKind::kDerived && line.is_xla_ops && row.dur_ns > 0;
  const GpuKind xla_kind = xla_op ? ClassifyXlaOp(builder_.trace().str(name), facts.hlo_category) : GpuKind::kNone;
  if (xla_op && class_.kind == PlaneKind::kTpu) row.gpu_kind = xla_kind;
  const SliceId slice = builder_.AddSlice(row);
  if (xla_op && class_.kind == PlaneKind::kGpu) xla_ops_.emplace_back(slice, xla_kind);
  if (facts.has_correlation_id) {
    if (line.kind == LineKind::kHost && class_.kind == PlaneKind::kHostCpu) builder_.NoteLaunch(facts.correlation_id, slice);
    if (line.kind == LineKind::kStream) builder_.NoteDeviceActivity(facts.correlation_id, slice);
  }
  if (class_.kind == PlaneKind::kHostCpu && row.dur_ns > 0 && (facts.has_step_num || IsStepMarkerName(md_index, name))) {
    NoteHostStepMarker(line.track, start_ns, row.dur_ns, facts, name);
  }
}

// IsHostStepMarkerName(name), cached per event metadata when `name` is the
// metadata's own (a step_name stat can replace it): host planes repeat a few
// thousand names over millions of events.
bool PlaneReader::IsStepMarkerName(uint32_t md_index, StringId name) {
  if (md_index == UINT32_MAX || meta_.event(md_index).name != name) {
    return IsHostStepMarkerName(builder_.trace().str(name));
  }
  if (step_name_cache_.empty()) step_name_cache_.assign(meta_.event_count(), 2);
  uint8_t& cached = step_name_cache_[md_index];
  if (cached == 2) cached = IsHostStepMarkerName(builder_.trace().str(name)) ? 1 : 0;
  return cached == 1;
}

GpuKind PlaneReader::ClassifyStreamEvent(const LineInfo& line, uint32_t md_index, StringId name,
                                         const StatFacts& facts) {
  DeviceEventFacts device{builder_.trace().str(name), line.header.name, facts.memcpy_details, facts.has_memcpy_details,
                          facts.has_memset_details, facts.has_memory_details};
  const bool by_name_only = !facts.has_memcpy_details && !facts.has_memset_details && !facts.has_memory_details &&
                            !facts.has_step_name && md_index != UINT32_MAX && line.header.name != "CUPTI overhead";
  if (!by_name_only) return ClassifyDeviceEvent(device);
  if (name_kind_cache_.empty()) name_kind_cache_.assign(meta_.event_count(), kGpuKindCount);
  uint8_t& cached = name_kind_cache_[md_index];
  if (cached == kGpuKindCount) cached = static_cast<uint8_t>(ClassifyDeviceEvent(device));
  return static_cast<GpuKind>(cached);
}

// Step markers as XProf's step analysis sees them (trace-formats.md 1.9):
// named train*/test*/TraceContext* without '/', or carrying step_num. The
// step's name follows the grouping rule: graph_type or the event name, then
// step_num / iter_num; an explicit step_name wins. The caller has checked
// that the event is a marker (IsStepMarkerName or step_num).
void PlaneReader::NoteHostStepMarker(TrackId track, TimeNs start_ns, DurNs dur_ns, const StatFacts& facts,
                                     StringId name) {
  const std::string_view shown = builder_.trace().str(name);
  StringId step_name = name;
  if (!facts.has_step_name && (facts.has_step_num || facts.has_iter_num)) {
    std::string text(facts.graph_type.empty() ? shown : facts.graph_type);
    text += ' ';
    text += std::to_string(facts.has_step_num ? facts.step_num : facts.iter_num);
    step_name = builder_.Intern(text);
  }
  state_->host_markers.push_back(HostStepMarker{track, start_ns, dur_ns, step_name});
}

}  // namespace stepline::loaders::xspace
