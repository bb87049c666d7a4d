// RenderStageImporter: GPU render stage events and their host correlations
// (see render_stages.h).
#include "loaders/perfetto/render_stages.h"

#include <algorithm>
#include <limits>
#include <string>

#include "loaders/chrome_json/kineto_conventions.h"
#include "loaders/perfetto/perfetto_fields.h"
#include "loaders/proto_wire/wire_reader.h"

namespace stepline::loaders::perfetto {
namespace {

// The processes holding render stage queues: far above real pids, so a
// trace that also has a Kineto-style "GPU N" process keeps both apart.
constexpr int64_t kRenderStagePidBase = int64_t{1} << 40;

bool StartsWithIgnoringCase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; };
    if (lower(s[i]) != prefix[i]) return false;
  }
  return true;
}

// What a render stage does: a Kineto-style stage name ("Kernel", "Memcpy",
// "gpu_memset") says it; else copies and memsets by the event's name; any
// other stage is GPU work, a kernel (or a collective, by its name).
GpuKind RenderStageKind(std::string_view stage, std::string_view name) {
  const CategoryTraits traits = ClassifyCategory(stage);
  if (traits.kind == KinetoCategory::kGpuAnnotation) return GpuKind::kNone;
  if (traits.device_side) {
    const GpuKind kind = KinetoGpuKind(traits.kind, name);
    if (kind != GpuKind::kNone) return kind;
  }
  if (StartsWithIgnoringCase(name, "memcpy")) return ClassifyMemcpyName(name);
  if (StartsWithIgnoringCase(name, "memset")) return GpuKind::kMemset;
  return ClassifyKernelName(name);
}

}  // namespace

bool RenderStageImporter::ApplySpecification(std::string_view bytes, uint64_t offset, SequenceState* seq,
                                             uint64_t* error_offset, const char** what) {
  WireReader reader(bytes.data(), bytes.data() + bytes.size(), offset);
  WireField f;
  uint64_t iid = 0;
  GpuSpecification spec;
  while (!reader.done()) {
    if (!reader.Next(&f)) {
      *error_offset = reader.error().offset;
      *what = reader.error().what;
      return false;
    }
    if (f.number == 1 && f.type == WireType::kVarint) iid = f.value;
    if (f.number == 2 && f.type == WireType::kLen) spec.name = builder_->Intern(PayloadView(f));
    if (f.number == 3 && f.type == WireType::kLen) spec.description = builder_->Intern(PayloadView(f));
    if (f.number == 4 && f.type == WireType::kVarint) spec.category = static_cast<uint32_t>(f.value);
  }
  if (iid != 0) seq->gpu_specs[iid] = spec;  // iid 0 means "not set"
  return true;
}

bool RenderStageImporter::ReadLegacySpecifications(std::string_view bytes, uint64_t offset, uint64_t* error_offset,
                                                   const char** what) {
  namespace rs = render_stage_field;
  WireReader reader(bytes.data(), bytes.data() + bytes.size(), offset);
  WireField f;
  while (!reader.done()) {
    if (!reader.Next(&f)) {
      *error_offset = reader.error().offset;
      *what = reader.error().what;
      return false;
    }
    if (f.type != WireType::kLen || (f.number != rs::kSpecHwQueue && f.number != rs::kSpecStage)) continue;
    WireReader d(f.payload, f.payload + f.payload_size, reader.OffsetOf(f.payload));
    WireField n;
    StringId name;
    while (!d.done()) {
      if (!d.Next(&n)) {
        *error_offset = d.error().offset;
        *what = d.error().what;
        return false;
      }
      if (n.number == 1 && n.type == WireType::kLen) name = builder_->Intern(PayloadView(n));
    }
    (f.number == rs::kSpecHwQueue ? legacy_queues_ : legacy_stages_).push_back(name);
  }
  return true;
}

StringId RenderStageImporter::SpecName(const SequenceState& seq, bool has_iid, uint64_t iid, bool has_legacy,
                                       uint64_t legacy_id, const std::vector<StringId>& legacy,
                                       std::string_view fallback, uint64_t offset, const GpuSpecification** spec) {
  *spec = nullptr;
  if (has_iid) {
    auto it = seq.gpu_specs.find(iid);
    if (it != seq.gpu_specs.end() && !it->second.name.is_none()) {
      *spec = &it->second;
      return it->second.name;
    }
    unknown_spec_.Note(offset);
    return builder_->Intern(std::string(fallback) + " " + std::to_string(iid));
  }
  if (has_legacy) {
    if (legacy_id < legacy.size() && !legacy[legacy_id].is_none()) return legacy[legacy_id];
    return builder_->Intern(std::string(fallback) + " " + std::to_string(legacy_id));
  }
  return StringId::None();
}

TrackId RenderStageImporter::QueueTrack(int32_t gpu, StringId queue_name) {
  const uint64_t key = (static_cast<uint64_t>(static_cast<uint32_t>(gpu)) << 32) | queue_name.value;
  auto [it, inserted] = queue_tracks_.try_emplace(key);
  if (!inserted) return it->second;
  const int64_t pid = kRenderStagePidBase + gpu;
  const int64_t tid = ++queues_per_device_[gpu];
  if (tid == 1) {
    builder_->SetProcessName(pid, "GPU " + std::to_string(gpu), Diagnostics::kNoOffset);
    builder_->SetProcessDevice(pid, gpu);
    builder_->SetProcessSortIndex(pid, gpu);
  }
  it->second = builder_->ThreadTrack(pid, tid);
  builder_->SetTrackKind(it->second, TrackKind::kGpuStream, gpu);
  builder_->SetThreadName(pid, tid, builder_->trace().str(queue_name), Diagnostics::kNoOffset);
  builder_->SetThreadSortIndex(pid, tid, static_cast<int32_t>(tid));
  return it->second;
}

bool RenderStageImporter::Import(std::string_view bytes, uint64_t offset, uint64_t file_offset, TimeNs ts_ns,
                                 const SequenceState& seq, uint64_t* error_offset, const char** what) {
  namespace rs = render_stage_field;
  bool has_event_id = false, has_queue_iid = false, has_queue_id = false, has_stage_iid = false,
       has_stage_id = false, has_name = false, has_submission = false, has_context = false;
  uint64_t event_id = 0, duration = 0, queue_iid = 0, queue_id = 0, stage_iid = 0, stage_id = 0, name_iid = 0,
           submission = 0, context = 0;
  int32_t gpu = 0;
  std::string_view name;
  args_.clear();
  std::vector<std::pair<std::string_view, std::string_view>> extra;
  WireReader reader(bytes.data(), bytes.data() + bytes.size(), offset);
  WireField f;
  while (!reader.done()) {
    if (!reader.Next(&f)) {
      *error_offset = reader.error().offset;
      *what = reader.error().what;
      return false;
    }
    if (f.type == WireType::kVarint) {
      switch (f.number) {
        case rs::kEventId: has_event_id = true, event_id = f.value; break;
        case rs::kDuration: duration = f.value; break;
        case rs::kHwQueueIid: has_queue_iid = true, queue_iid = f.value; break;
        case rs::kHwQueueId: has_queue_id = true, queue_id = static_cast<uint32_t>(f.value); break;
        case rs::kStageIid: has_stage_iid = true, stage_iid = f.value; break;
        case rs::kStageId: has_stage_id = true, stage_id = static_cast<uint32_t>(f.value); break;
        case rs::kGpuId: gpu = static_cast<int32_t>(f.value); break;
        case rs::kNameIid: has_name = false, name_iid = f.value; break;
        case rs::kSubmissionId: has_submission = true, submission = f.value; break;
        case rs::kContext: has_context = true, context = f.value; break;
        default: break;
      }
      continue;
    }
    if (f.type != WireType::kLen) continue;
    if (f.number == rs::kName) {
      has_name = true;
      name = PayloadView(f);
      name_iid = 0;
    } else if (f.number == rs::kSpecifications) {
      if (!ReadLegacySpecifications(PayloadView(f), reader.OffsetOf(f.payload), error_offset, what)) return false;
    } else if (f.number == rs::kExtraData) {  // decoded with args off too: the same bytes fail the same way
      WireReader d(f.payload, f.payload + f.payload_size, reader.OffsetOf(f.payload));
      WireField e;
      std::string_view key, value;
      while (!d.done()) {
        if (!d.Next(&e)) {
          *error_offset = d.error().offset;
          *what = d.error().what;
          return false;
        }
        if (e.number == 1 && e.type == WireType::kLen) key = PayloadView(e);
        if (e.number == 2 && e.type == WireType::kLen) value = PayloadView(e);
      }
      if (!key.empty() && keep_args_) extra.emplace_back(key, value);
    }
  }
  if (!has_event_id) {
    missing_event_id_.Note(file_offset);
    return true;
  }
  if (gpu < 0) gpu = 0;
  const GpuSpecification* queue_spec = nullptr;
  const GpuSpecification* stage_spec = nullptr;
  StringId queue = SpecName(seq, has_queue_iid, queue_iid, has_queue_id, queue_id, legacy_queues_, "GPU queue",
                            file_offset, &queue_spec);
  if (queue.is_none()) queue = builder_->Intern("GPU queue 0");
  const StringId stage = SpecName(seq, has_stage_iid, stage_iid, has_stage_id, stage_id, legacy_stages_,
                                  "render stage", file_offset, &stage_spec);
  StringId slice_name = stage;
  if (has_name) {
    slice_name = builder_->Intern(name);
  } else if (name_iid != 0) {
    auto it = seq.event_names.find(name_iid);
    if (it != seq.event_names.end()) {
      slice_name = it->second;
    } else {
      unknown_spec_.Note(file_offset);
    }
  }
  const TrackId track = QueueTrack(gpu, queue);
  SliceTable::Row row;
  row.track = track;
  row.start_ns = ts_ns;
  const uint64_t room = static_cast<uint64_t>(std::numeric_limits<TimeNs>::max() - std::max<TimeNs>(ts_ns, 0));
  row.dur_ns = static_cast<DurNs>(std::min(duration, room));
  row.name = slice_name;
  row.category = stage;
  row.gpu_kind = RenderStageKind(builder_->trace().str(stage), builder_->trace().str(slice_name));
  if (keep_args_) {
    args_.push_back({builder_->Intern("event_id"), ArgValue::Uint(event_id)});
    if (has_submission) args_.push_back({builder_->Intern("submission_id"), ArgValue::Uint(submission)});
    if (has_context) args_.push_back({builder_->Intern("context"), ArgValue::Uint(context)});
    if (stage_spec != nullptr && !stage_spec->description.is_none()) {
      args_.push_back({builder_->Intern("description"), ArgValue::String(stage_spec->description)});
    }
    for (const auto& [key, value] : extra) {
      args_.push_back({builder_->Intern(key), ArgValue::String(builder_->Intern(value))});
    }
    row.arg_set = builder_->AddArgs(args_);
  }
  const SliceId slice = builder_->AddSlice(row);
  if (!gpu_by_event_id_.try_emplace(event_id, slice).second) duplicate_event_id_.Note(file_offset);
  return true;
}

void RenderStageImporter::NoteHostCorrelation(SliceId host, const TrackEventFields& event, uint64_t file_offset) {
  for (uint64_t id : event.gpu_submission_ids) correlations_.push_back({id, host, false, file_offset});
  for (uint64_t id : event.gpu_wait_ids) correlations_.push_back({id, host, true, file_offset});
}

void RenderStageImporter::Finish() {
  FlowTable& flows = builder_->trace().mutable_flows();
  const StringId wait_name = correlations_.empty() ? StringId::None() : builder_->Intern("gpu_wait");
  for (const Correlation& c : correlations_) {
    auto it = gpu_by_event_id_.find(c.event_id);
    if (it == gpu_by_event_id_.end()) {
      unmatched_ids_.Note(c.file_offset);
      continue;
    }
    if (!c.wait) {
      flows.AddLaunchLink(c.host, it->second, c.event_id);
      continue;
    }
    FlowTable::Pending wait;
    wait.from = FlowEndpoint::OfSlice(it->second);
    wait.to = FlowEndpoint::OfSlice(c.host);
    wait.name = wait_name;
    wait.flow_id = c.event_id;
    wait.byte_offset = c.file_offset;
    flows.AddPending(wait);
  }
  correlations_.clear();
  Diagnostics& d = builder_->diag();
  const auto add = [&](const Counted& c, DiagCode code, const char* detail) {
    if (c.count > 0) d.Add(code, c.count, c.first_offset, detail);
  };
  add(missing_event_id_, DiagCode::kMissingField, "GpuRenderStageEvents without an event_id skipped");
  add(duplicate_event_id_, DiagCode::kDuplicateMetadata,
      "GpuRenderStageEvents repeating an earlier event_id; correlations link the first");
  add(unknown_spec_, DiagCode::kMissingField,
      "GpuRenderStageEvent queue, stage or name iid not interned on its sequence; named by its number");
  add(unmatched_ids_, DiagCode::kUnmatchedFlow,
      "GPU correlation ids naming no GpuRenderStageEvent; no link drawn");
}

}  // namespace stepline::loaders::perfetto
