// EventImporter: phase semantics, batch by batch (see event_importer.h). The
// post-pass is in event_importer_finish.cpp.
//
// [SECTION] Batch plumbing: strings, keys, tracks, args
// [SECTION] Phase dispatch
// [SECTION] Slices, instants, counters
// [SECTION] Metadata, flows, async
#include "loaders/chrome_json/event_importer.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <limits>
#include <thread>

#include "model/string_pool.h"

namespace stepline::loaders {
namespace {

constexpr int64_t kStringKeyTag = int64_t{1} << 62;

std::string PhaseName(char ph) { return std::string("'") + ph + "'"; }

// The numeric value of an arg for counters and sort indexes; false when the
// arg is not a number or a numeric string.
bool ArgNumber(const RawArg& a, std::string_view text, double* out) {
  switch (a.type) {
    case ArgType::kInt: *out = static_cast<double>(static_cast<int64_t>(a.bits)); return true;
    case ArgType::kUint:
    case ArgType::kDecimalString: *out = static_cast<double>(a.bits); return true;
    case ArgType::kDouble: std::memcpy(out, &a.bits, sizeof *out); return true;
    case ArgType::kString: {
      while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
      const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
      return ec == std::errc() && end == text.data() + text.size() && !text.empty();
    }
    case ArgType::kBool:
    case ArgType::kJson: return false;
  }
  return false;
}

int32_t ClampToInt32(double v) {
  if (!(v == v)) return 0;  // NaN
  if (v >= static_cast<double>(INT32_MAX)) return INT32_MAX;
  if (v <= static_cast<double>(INT32_MIN)) return INT32_MIN;
  return static_cast<int32_t>(v);
}

}  // namespace

EventImporter::EventImporter(TraceBuilder* builder, const LoadOptions& options)
    : builder_(builder),
      keep_args_(options.keep_args),
      threads_(options.threads > 0 ? options.threads : static_cast<int>(std::thread::hardware_concurrency())),
      release_(threads_ > 1) {}

//-----------------------------------------------------------------------------
// [SECTION] Batch plumbing: strings, keys, tracks, args
//-----------------------------------------------------------------------------

StringId EventImporter::Global(uint32_t local) {
  uint32_t& g = remap_[local];
  if (g == UINT32_MAX) g = builder_->Intern(Text(local)).value;
  return StringId(g);
}

int64_t EventImporter::StringKey(uint32_t local) {
  const StringId g = Global(local);
  auto [it, inserted] = string_keys_.try_emplace(g.value, 0);
  if (inserted) it->second = kStringKeyTag | static_cast<int64_t>(StringPool::Hash(Text(local)) >> 2);
  return it->second;
}

int64_t EventImporter::Pid(const RawEvent& e) {
  if (!e.has(RawEvent::kPidIsString)) return e.pid;
  const int64_t key = StringKey(static_cast<uint32_t>(e.pid));
  if (named_pids_.insert(key).second) string_pids_.emplace_back(key, Global(static_cast<uint32_t>(e.pid)));
  return key;
}

int64_t EventImporter::Tid(const RawEvent& e) {
  return e.has(RawEvent::kTidIsString) ? StringKey(static_cast<uint32_t>(e.tid)) : e.tid;
}

TrackId EventImporter::Track(const RawEvent& e) {
  const int64_t pid = Pid(e);
  const int64_t tid = Tid(e);
  if (!last_track_.is_none() && pid == last_pid_ && tid == last_tid_) return last_track_;
  const TrackId track = builder_->ThreadTrack(pid, tid);
  if (track_flags_.size() <= track.index()) track_flags_.resize(track.index() + 1, 0);
  if (e.has(RawEvent::kTidIsString) && !(track_flags_[track.index()] & kNamedFromString)) {
    track_flags_[track.index()] |= kNamedFromString;
    string_tids_.emplace_back(track, Global(static_cast<uint32_t>(e.tid)));
  }
  last_pid_ = pid;
  last_tid_ = tid;
  last_track_ = track;
  return track;
}

ArgSetId EventImporter::Args(const RawEvent& e) {
  if (!keep_args_ || e.args_begin == e.args_end) return ArgSetId::None();
  ArgTable& table = builder_->trace().mutable_args();
  const ArgTable::Rows rows = table.AppendRows(e.args_end - e.args_begin);
  for (uint32_t i = e.args_begin, k = 0; i < e.args_end; ++i, ++k) {
    const RawArg& a = batch_->args[i];
    rows.Set(k, Global(a.key), a.type,
             (a.type == ArgType::kString || a.type == ArgType::kJson) ? Global(static_cast<uint32_t>(a.bits)).value
                                                                      : a.bits);
  }
  return table.EndSet();
}

const RawArg* EventImporter::FindArg(const RawEvent& e, uint32_t key) const {
  for (uint32_t i = e.args_begin; i < e.args_end; ++i) {
    if (batch_->args[i].key == key) return &batch_->args[i];
  }
  return nullptr;
}

CategoryTraits EventImporter::Traits(StringId category) {
  return category_traits_.Get(category, builder_->trace().strings());
}

GpuKind EventImporter::DeviceGpuKind(KinetoCategory kind, StringId name) {
  // Names repeat (kernels are long, copies few): classify each (category
  // kind, name) once. The cache keeps the kind it was computed for.
  if (gpu_kind_cache_.size() <= name.index()) gpu_kind_cache_.resize(name.index() + 1, 0);
  uint8_t& cached = gpu_kind_cache_[name.index()];
  const auto category_bits = static_cast<uint8_t>(static_cast<uint8_t>(kind) << 4);
  if (cached == 0 || (cached & 0xF0) != category_bits) {
    const GpuKind k = KinetoGpuKind(kind, builder_->trace().strings().Get(name));
    cached = static_cast<uint8_t>(category_bits | (static_cast<uint8_t>(k) + 1));
  }
  return static_cast<GpuKind>((cached & 0x0F) - 1);
}

bool EventImporter::RequireTs(const RawEvent& e) {
  if (e.has(RawEvent::kHasTs)) return true;
  Diag(DiagCode::kMissingField, e.offset, "a " + PhaseName(e.ph) + " event without \"ts\"; skipped");
  return false;
}

// Extrapolates the first batch to the whole input (+10%). Reserved capacity
// that is never touched costs address space, not resident memory.
void EventImporter::ReserveTables(const RawEventBatch& first) {
  reserved_ = true;
  const uint64_t batch_bytes = first.input_end - first.input_begin;
  if (input_bytes_ == 0 || batch_bytes == 0 || input_bytes_ < 2 * batch_bytes || first.events.empty()) return;
  const double scale = 1.1 * static_cast<double>(input_bytes_) / static_cast<double>(batch_bytes);
  size_t slices = 0, sets = 0;
  for (const RawEvent& e : first.events) {
    slices += e.ph == 'X' || e.ph == 'B';
    sets += e.args_end != e.args_begin;
  }
  builder_->trace().mutable_slices().Reserve(static_cast<size_t>(static_cast<double>(slices) * scale));
  if (keep_args_) {
    builder_->trace().mutable_args().Reserve(static_cast<size_t>(static_cast<double>(sets) * scale),
                                             static_cast<size_t>(static_cast<double>(first.args.size()) * scale));
  }
}

void EventImporter::Import(const RawEventBatch& batch) {
  if (!reserved_) ReserveTables(batch);
  batch_ = &batch;
  remap_.assign(batch.strings.size(), UINT32_MAX);
  remap_[0] = 0;
  for (const RawArg& a : batch.metadata) {
    Arg arg;
    arg.key = Global(a.key);
    arg.value.type = a.type;
    arg.value.bits =
        (a.type == ArgType::kString || a.type == ArgType::kJson) ? Global(static_cast<uint32_t>(a.bits)).value : a.bits;
    metadata_.push_back(arg);
    if (Text(a.key) == "baseTimeNanoseconds") {
      double v = 0;
      const std::string_view text = a.type == ArgType::kString ? Text(static_cast<uint32_t>(a.bits)) : "";
      if (a.type == ArgType::kInt || a.type == ArgType::kUint) {
        base_time_ns_ = static_cast<int64_t>(a.bits);
        has_base_time_ = true;
      } else if (ArgNumber(a, text, &v)) {
        base_time_ns_ = static_cast<int64_t>(v);
        has_base_time_ = true;
      }
    }
  }
  size_t p = 0;
  for (const RawEvent& e : batch.events) {
    while (p < batch.problems.size() && batch.problems[p].offset <= e.offset) {
      const RawProblem& problem = batch.problems[p++];
      Diag(problem.code, problem.offset, problem.detail);
    }
    ImportEvent(e);
  }
  for (; p < batch.problems.size(); ++p)
    Diag(batch.problems[p].code, batch.problems[p].offset, batch.problems[p].detail);
  events_imported_ += batch.events.size();
  batch_ = nullptr;
}

//-----------------------------------------------------------------------------
// [SECTION] Phase dispatch
//-----------------------------------------------------------------------------

void EventImporter::ImportEvent(const RawEvent& e) {
  if (e.ph != 'X' && e.ph != 'M') ++complete_tally_.other;
  switch (e.ph) {
    case 'X': return ImportComplete(e);
    case 'B': return ImportBegin(e);
    case 'E':
      if (RequireTs(e)) builder_->EndSlice(Track(e), e.ts_ns, Args(e), e.offset);
      return;
    case 'i':
    case 'I':
    case 'R': return ImportInstant(e);
    case 'C': return ImportCounter(e);
    case 'M': return ImportMetadata(e);
    case 's':
    case 't':
    case 'f': return ImportFlow(e);
    case 'b':
    case 'e':
    case 'n': return ImportAsync(e);
    case 'S':
    case 'T':
    case 'p':
    case 'F': return ImportLegacyAsync(e);
    case 'N':
    case 'O':
    case 'D':
      return Diag(DiagCode::kUnsupportedFeature, e.offset, "object event " + PhaseName(e.ph) + " not modeled; skipped");
    case 'P': return Diag(DiagCode::kUnsupportedFeature, e.offset, "sample event 'P' not modeled; skipped");
    case 'v':
    case 'V':
      return Diag(DiagCode::kUnsupportedFeature, e.offset, "memory dump " + PhaseName(e.ph) + " not modeled; skipped");
    case '(':
    case ')':
      return Diag(DiagCode::kUnsupportedFeature, e.offset,
                  "context event " + PhaseName(e.ph) + " not modeled; skipped");
    case 'c': return Diag(DiagCode::kUnsupportedFeature, e.offset, "clock sync event 'c' not modeled; skipped");
    default: break;
  }
  const std::string text = e.has(RawEvent::kBadPhase) ? std::string(Text(e.phase_text)) : std::string(1, e.ph);
  Diag(DiagCode::kUnknownPhase, e.offset, "unknown phase \"" + text.substr(0, 32) + "\"; skipped");
}

//-----------------------------------------------------------------------------
// [SECTION] Slices, instants, counters
//-----------------------------------------------------------------------------

void EventImporter::NoteSlice(const RawEvent& e, SliceId slice, TrackId track, CategoryTraits traits) {
  if (traits.device_side) track_flags_[track.index()] |= kHasDeviceEvents;
  if (e.has(RawEvent::kHasCorrelation)) {
    if (e.has(RawEvent::kCorrelationFromTb)) {
      correlations_.push_back({e.correlation, slice, CorrelationSource::kTensorBoard});
    } else if (traits.kind == KinetoCategory::kRuntime) {
      correlations_.push_back({e.correlation, slice, CorrelationSource::kKinetoRuntime});
    } else if (traits.device_side) {
      correlations_.push_back({e.correlation, slice, CorrelationSource::kKinetoDevice});
    }
  }
  if (e.has(RawEvent::kHasMemcpyDetails)) {
    const RawArg* details = FindArg(e, kStrMemcpyDetails);
    if (details != nullptr && details->type == ArgType::kString) {
      const GpuKind kind = MemcpyDetailsKind(Text(static_cast<uint32_t>(details->bits)));
      if (kind != GpuKind::kNone) memcpy_details_.emplace_back(slice, kind);
    }
  }
}

void EventImporter::ImportComplete(const RawEvent& e) {
  if (!RequireTs(e)) return;
  if (!e.has(RawEvent::kHasDur)) {
    return Diag(DiagCode::kMissingField, e.offset, "an 'X' event without \"dur\"; skipped");
  }
  DurNs dur = e.dur_ns;
  if (dur < 0) {
    Diag(DiagCode::kNegativeDuration, e.offset, "\"dur\" " + std::to_string(dur) + " ns is negative; clamped to 0");
    dur = 0;
  }
  if (dur > std::numeric_limits<int64_t>::max() - std::max<int64_t>(e.ts_ns, 0)) {
    return Diag(DiagCode::kOutOfRange, e.offset, "\"ts\" + \"dur\" is beyond the int64 nanosecond range; skipped");
  }
  complete_tally_.NoteComplete(e.ts_ns);
  const TrackId track = Track(e);
  SliceTable::Row row;
  row.track = track;
  row.start_ns = e.ts_ns;
  row.dur_ns = dur;
  row.name = Global(e.name);
  row.category = Global(e.cat);
  row.arg_set = Args(e);
  const CategoryTraits traits = Traits(row.category);
  if (traits.device_side) row.gpu_kind = DeviceGpuKind(traits.kind, row.name);
  const SliceId slice = builder_->AddSlice(row);
  NoteSlice(e, slice, track, traits);
  if (e.has(RawEvent::kHasBindId) && (e.has(RawEvent::kFlowIn) || e.has(RawEvent::kFlowOut))) {
    flow_v2_.push_back({e.bind_id, e.ts_ns, slice, e.offset, e.has(RawEvent::kFlowIn), e.has(RawEvent::kFlowOut)});
  }
}

void EventImporter::ImportBegin(const RawEvent& e) {
  if (!RequireTs(e)) return;
  const TrackId track = Track(e);
  const StringId name = Global(e.name);
  const StringId category = Global(e.cat);
  const SliceId slice = builder_->BeginSlice(track, e.ts_ns, name, category, Args(e), e.offset);
  const CategoryTraits traits = Traits(category);
  if (traits.device_side) builder_->trace().mutable_slices().set_gpu_kind(slice, DeviceGpuKind(traits.kind, name));
  NoteSlice(e, slice, track, traits);
}

void EventImporter::ImportInstant(const RawEvent& e) {
  if (!RequireTs(e)) return;
  InstantTable::Row row;
  if (e.scope == 'g')
    row.track = builder_->MarkerTrack(kGlobalPid);
  else if (e.scope == 'p')
    row.track = builder_->MarkerTrack(Pid(e));
  else
    row.track = Track(e);
  row.ts_ns = e.ts_ns;
  row.name = Global(e.name);
  row.category = Global(e.cat);
  row.arg_set = Args(e);
  builder_->AddInstant(row);
}

void EventImporter::ImportCounter(const RawEvent& e) {
  if (!RequireTs(e)) return;
  const int64_t pid = Pid(e);
  const StringId name = Global(e.name);
  for (uint32_t i = e.args_begin; i < e.args_end; ++i) {
    const RawArg& a = batch_->args[i];
    double value = 0;
    const std::string_view text = a.type == ArgType::kString ? Text(static_cast<uint32_t>(a.bits)) : "";
    if (!ArgNumber(a, text, &value)) continue;  // only numeric series are plotted
    const StringId key = Global(a.key);
    const CounterKey ck{pid, name.value, key.value, e.id, e.has(RawEvent::kHasId)};
    auto [it, inserted] = counter_tracks_.try_emplace(ck);
    if (inserted) {
      std::string series(builder_->trace().strings().Get(name));
      if (ck.has_id) series += "[" + std::to_string(e.id) + "]";
      const std::string_view key_text = Text(a.key);
      if (!key_text.empty()) series += " " + std::string(key_text);
      it->second = builder_->CounterTrack(pid, series, Global(e.cat));
    }
    builder_->AddCounter(it->second, e.ts_ns, value);
  }
}

//-----------------------------------------------------------------------------
// [SECTION] Metadata, flows, async
//-----------------------------------------------------------------------------

void EventImporter::ImportMetadata(const RawEvent& e) {
  const uint32_t what = e.name;
  if (what != kStrProcessName && what != kStrProcessLabels && what != kStrProcessSortIndex && what != kStrThreadName &&
      what != kStrThreadSortIndex) {
    return;  // num_cpus and others: not modeled
  }
  const int64_t pid = Pid(e);
  const uint32_t key = what == kStrProcessName || what == kStrThreadName ? kStrName
                       : what == kStrProcessLabels                       ? kStrLabels
                                                                         : kStrSortIndex;
  const RawArg* arg = FindArg(e, key);
  if (arg == nullptr) return;
  const std::string_view text = arg->type == ArgType::kString ? Text(static_cast<uint32_t>(arg->bits)) : "";
  if (key == kStrSortIndex) {
    double v = 0;
    if (!ArgNumber(*arg, text, &v)) return;
    if (what == kStrProcessSortIndex)
      builder_->SetProcessSortIndex(pid, ClampToInt32(v));
    else
      builder_->SetThreadSortIndex(pid, Tid(e), ClampToInt32(v));
    return;
  }
  if (arg->type != ArgType::kString) return;
  if (what == kStrProcessName) {
    builder_->SetProcessName(pid, text, e.offset);
  } else if (what == kStrThreadName) {
    const TrackId track = Track(e);  // also notes a string tid
    builder_->SetThreadName(pid, builder_->trace().tracks().tid(track), text, e.offset);
  } else if (const int32_t device = DeviceFromProcessLabels(text); device >= 0) {
    label_devices_[pid] = device;
  }
}

void EventImporter::ImportFlow(const RawEvent& e) {
  if (!RequireTs(e)) return;
  if (!e.has(RawEvent::kHasId)) {
    return Diag(DiagCode::kMissingField, e.offset, "a flow event " + PhaseName(e.ph) + " without \"id\"; skipped");
  }
  const StringId category = Global(e.cat);
  const StringId name = Global(e.name);
  const bool launch = IsLaunchFlow(builder_->trace().strings().Get(category), builder_->trace().strings().Get(name));
  const auto phase = e.ph == 's'   ? TraceBuilder::FlowPhase::kStart
                     : e.ph == 't' ? TraceBuilder::FlowPhase::kStep
                                   : TraceBuilder::FlowPhase::kEnd;
  (launch ? launch_flow_events_ : flow_events_).push_back(
                  {e.ts_ns, e.id, e.offset, category, name, Track(e), phase, e.has(RawEvent::kBindEnclosing)});
}

void EventImporter::ImportAsync(const RawEvent& e) {
  if (!RequireTs(e)) return;
  if (!e.has(RawEvent::kHasId)) {
    return Diag(DiagCode::kMissingField, e.offset, "an async event " + PhaseName(e.ph) + " without \"id\"; skipped");
  }
  const StringId name = Global(e.name);
  const StringId category = Global(e.cat);
  const TrackId track = builder_->AsyncTrack(Pid(e), category, e.id, name);
  async_events_.push_back({e.ts_ns, e.offset, track, name, category, Args(e), e.ph});
}

void EventImporter::ImportLegacyAsync(const RawEvent& e) {
  if (!RequireTs(e)) return;
  if (!e.has(RawEvent::kHasId)) {
    return Diag(DiagCode::kMissingField, e.offset, "an async event " + PhaseName(e.ph) + " without \"id\"; skipped");
  }
  // S/T/p/F match by name and id (Catapult); one track per pair. A step is
  // an instant named after args.step when given.
  const StringId name = Global(e.name);
  const TrackId track = builder_->AsyncTrack(Pid(e), name, e.id, name);
  StringId shown = name;
  if (e.ph == 'T' || e.ph == 'p') {
    const RawArg* step = FindArg(e, kStrStep);
    if (step != nullptr && step->type == ArgType::kString) shown = Global(static_cast<uint32_t>(step->bits));
  }
  async_events_.push_back({e.ts_ns, e.offset, track, shown, Global(e.cat), Args(e), e.ph});
}

}  // namespace stepline::loaders
