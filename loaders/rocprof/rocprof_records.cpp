// RocprofImporter: rocprofv3 JSON records -> TraceBuilder (see rocprof_records.h).
//
// [SECTION] Field helpers
// [SECTION] Tables: agents, strings, kernel symbols
// [SECTION] Device records: kernel dispatches, memory copies
// [SECTION] Host records: API calls, roctx markers
#include "loaders/rocprof/rocprof_records.h"

#include "loaders/gpu_classify.h"

namespace stepline::loaders::rocprof {
namespace {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::object;

// =============================================================================
// [SECTION] Field helpers
// =============================================================================

// A number field (signed or unsigned), or `fallback` when absent / not a number.
int64_t Num(element e, int64_t fallback = 0) {
  int64_t i = 0;
  if (e.get_int64().get(i) == simdjson::SUCCESS) return i;
  uint64_t u = 0;
  if (e.get_uint64().get(u) == simdjson::SUCCESS) return static_cast<int64_t>(u);
  double d = 0;
  // A double outside int64's range (or NaN) has no integer value: converting it
  // is undefined behaviour (a fuzz finding), so it reads as absent.
  constexpr double kInt64Bound = 9223372036854775808.0;  // 2^63
  if (e.get_double().get(d) == simdjson::SUCCESS && d > -kInt64Bound && d < kInt64Bound) {
    return static_cast<int64_t>(d);
  }
  return fallback;
}
int64_t Num(object o, std::string_view key, int64_t fallback = 0) {
  element e;
  return o[key].get(e) == simdjson::SUCCESS ? Num(e, fallback) : fallback;
}
// {"handle": N} or a plain number.
int64_t Handle(object o, std::string_view key, int64_t fallback = -1) {
  element e;
  if (o[key].get(e) != simdjson::SUCCESS) return fallback;
  object inner;
  if (e.get_object().get(inner) == simdjson::SUCCESS) return Num(inner, "handle", fallback);
  return Num(e, fallback);
}
// correlation_id: {"internal": N, "external": M}, or a plain number.
uint64_t Correlation(object o) {
  element e;
  if (o["correlation_id"].get(e) != simdjson::SUCCESS) return 0;
  object inner;
  if (e.get_object().get(inner) == simdjson::SUCCESS) return static_cast<uint64_t>(Num(inner, "internal", 0));
  return static_cast<uint64_t>(Num(e, 0));
}
std::string_view Text(object o, std::string_view key) {
  std::string_view s;
  return o[key].get_string().get(s) == simdjson::SUCCESS ? s : std::string_view();
}
std::string Dim3Text(object o, std::string_view key) {
  object d;
  if (o[key].get_object().get(d) != simdjson::SUCCESS) return {};
  return "[" + std::to_string(Num(d, "x", 1)) + ", " + std::to_string(Num(d, "y", 1)) + ", " +
         std::to_string(Num(d, "z", 1)) + "]";
}

}  // namespace

RocprofImporter::RocprofImporter(TraceBuilder* builder, const LoadOptions& options, uint32_t entry_index)
    : builder_(*builder), options_(options), entry_index_(entry_index) {}

void RocprofImporter::Import(object entry) {
  object metadata;
  if (entry["metadata"].get_object().get(metadata) == simdjson::SUCCESS) {
    pid_ = Num(metadata, "pid", 0);
    array command;
    std::string_view program;
    if (metadata["command"].get_array().get(command) == simdjson::SUCCESS && command.size() > 0) {
      for (element arg : command) {
        std::string_view a;
        // "python3 -u train.py": the script says more than the interpreter.
        if (arg.get_string().get(a) == simdjson::SUCCESS && (program.empty() || a.ends_with(".py"))) program = a;
      }
    }
    if (const size_t slash = program.rfind('/'); slash != std::string_view::npos) program.remove_prefix(slash + 1);
    builder_.SetProcessName(
        pid_,
        program.empty() ? "Process " + std::to_string(pid_) : std::string(program) + " (" + std::to_string(pid_) + ")",
        Diagnostics::kNoOffset);
  }
  array agents;
  if (entry["agents"].get_array().get(agents) == simdjson::SUCCESS) ReadAgents(agents);
  object strings;
  if (entry["strings"].get_object().get(strings) == simdjson::SUCCESS) ReadStrings(strings);
  element symbols;
  if (entry["kernel_symbols"].get(symbols) == simdjson::SUCCESS) ReadKernelSymbols(symbols);

  object records;
  if (entry["buffer_records"].get_object().get(records) != simdjson::SUCCESS) {
    builder_.diag().Record(DiagCode::kMissingField, Diagnostics::kNoOffset,
                           "rocprofiler-sdk-tool entry without buffer_records");
    return;
  }
  array a;
  // Older rocprofv3 wrote "kernel_dispatches".
  if (records["kernel_dispatch"].get_array().get(a) == simdjson::SUCCESS ||
      records["kernel_dispatches"].get_array().get(a) == simdjson::SUCCESS)
    ReadDispatches(a);
  if (records["memory_copy"].get_array().get(a) == simdjson::SUCCESS) ReadCopies(a);
  array hip;
  const bool has_hip = records["hip_api"].get_array().get(hip) == simdjson::SUCCESS && hip.size() > 0;
  if (has_hip) ReadApiCalls(hip, "hip_api", true);
  // HSA calls run inside HIP calls; they launch only when HIP was not traced.
  if (records["hsa_api"].get_array().get(a) == simdjson::SUCCESS) ReadApiCalls(a, "hsa_api", !has_hip);
  if (records["rccl_api"].get_array().get(a) == simdjson::SUCCESS) ReadApiCalls(a, "rccl_api", false);
  if (records["marker_api"].get_array().get(a) == simdjson::SUCCESS) ReadMarkers(a);
  for (std::string_view other : {"memory_allocation", "scratch_memory", "rocdecode_api", "rocjpeg_api",
                                 "pc_sample_host_trap", "pc_sample_stochastic"}) {
    if (records[other].get_array().get(a) == simdjson::SUCCESS && a.size() > 0) {
      builder_.diag().Add(DiagCode::kUnsupportedFeature, a.size(), Diagnostics::kNoOffset,
                          std::string("rocprofv3 ") + std::string(other) + " records are not shown");
    }
  }
}

// =============================================================================
// [SECTION] Tables: agents, strings, kernel symbols
// =============================================================================

void RocprofImporter::ReadAgents(array agents) {
  int32_t next_gpu = 0;
  for (element e : agents) {
    object a;
    if (e.get_object().get(a) != simdjson::SUCCESS) continue;
    Agent agent;
    agent.type = static_cast<int>(Num(a, "type", 0));
    std::string_view product = Text(a, "product_name");
    agent.name = std::string(product.empty() ? Text(a, "name") : product);
    if (agent.type == 2) {
      // logical_node_type_id numbers the GPUs from 0, as HIP's device ids do.
      agent.device = static_cast<int32_t>(Num(a, "logical_node_type_id", next_gpu));
      ++next_gpu;
    }
    agents_[static_cast<uint64_t>(Handle(a, "id"))] = std::move(agent);
  }
}

void RocprofImporter::ReadStrings(object strings) {
  // buffer_records: [{kind, operations: [...]}], one entry per kind value in order.
  array kinds;
  if (strings["buffer_records"].get_array().get(kinds) == simdjson::SUCCESS) {
    for (element k : kinds) {
      std::vector<StringId> names;
      array ops;
      if (k["operations"].get_array().get(ops) == simdjson::SUCCESS) {
        for (element op : ops) {
          std::string_view s;
          names.push_back(op.get_string().get(s) == simdjson::SUCCESS ? builder_.Intern(s) : StringId::None());
        }
      }
      operations_.push_back(std::move(names));
    }
  }
  // marker_api: the roctx messages, [{key: correlation id, value: text}].
  array messages;
  if (strings["marker_api"].get_array().get(messages) == simdjson::SUCCESS) {
    for (element m : messages) {
      object o;
      if (m.get_object().get(o) != simdjson::SUCCESS) continue;
      std::string_view text = Text(o, "value");
      marker_messages_[static_cast<uint64_t>(Num(o, "key", 0))] = builder_.Intern(text);
    }
  }
}

void RocprofImporter::ReadKernelSymbols(element symbols) {
  auto read = [&](object s) {
    std::string_view name = Text(s, "formatted_kernel_name");
    if (name.empty()) name = Text(s, "kernel_name");
    if (name.ends_with(".kd")) name.remove_suffix(3);  // the code-object descriptor suffix
    kernel_names_[static_cast<uint64_t>(Num(s, "kernel_id", 0))] = builder_.Intern(name);
  };
  array list;
  object map;
  if (symbols.get_array().get(list) == simdjson::SUCCESS) {
    for (element e : list) {
      object s;
      if (e.get_object().get(s) == simdjson::SUCCESS) read(s);
    }
  } else if (symbols.get_object().get(map) == simdjson::SUCCESS) {
    for (auto field : map) {
      object s;
      if (field.value.get_object().get(s) == simdjson::SUCCESS) read(s);
    }
  }
}

StringId RocprofImporter::OperationName(int64_t kind, int64_t operation) {
  if (kind < 0 || static_cast<size_t>(kind) >= operations_.size()) return StringId::None();
  const std::vector<StringId>& ops = operations_[static_cast<size_t>(kind)];
  return operation >= 0 && static_cast<size_t>(operation) < ops.size() ? ops[static_cast<size_t>(operation)]
                                                                       : StringId::None();
}

const RocprofImporter::Agent* RocprofImporter::FindAgent(uint64_t handle) const {
  auto it = agents_.find(handle);
  return it == agents_.end() ? nullptr : &it->second;
}

TrackId RocprofImporter::HostTrack(int64_t tid) {
  const TrackId track = builder_.ThreadTrack(pid_, tid);
  if (builder_.trace().tracks().name(track).is_none())
    builder_.SetThreadName(pid_, tid, "Thread " + std::to_string(tid), Diagnostics::kNoOffset);
  return track;
}

TrackId RocprofImporter::DeviceTrack(const Agent& agent, int64_t queue, bool copies) {
  const uint64_t key = (static_cast<uint64_t>(static_cast<uint32_t>(agent.device)) << 33) |
                       ((static_cast<uint64_t>(queue) & 0xFFFFFFFFu) << 1) | (copies ? 1u : 0u);
  auto [it, inserted] = device_tracks_.try_emplace(key);
  if (inserted) {
    const int64_t pid = kDevicePidBase + agent.device;
    if (builder_.ProcessName(pid).is_none()) {
      builder_.SetProcessName(
          pid, "GPU " + std::to_string(agent.device) + (agent.name.empty() ? "" : " (" + agent.name + ")"),
          Diagnostics::kNoOffset);
      builder_.SetProcessDevice(pid, agent.device);
      builder_.SetProcessSortIndex(pid, agent.device);
    }
    const int64_t tid = copies ? (int64_t{1} << 32) : queue;
    it->second = builder_.ThreadTrack(pid, tid);
    builder_.SetTrackKind(it->second, TrackKind::kGpuStream, agent.device);
    builder_.SetThreadName(pid, tid, copies ? std::string("Memory copies") : "Queue " + std::to_string(queue),
                           Diagnostics::kNoOffset);
  }
  return it->second;
}

bool RocprofImporter::Times(object record, std::string_view table, SliceTable::Row* slice) {
  element start;
  if (record["start_timestamp"].get(start) != simdjson::SUCCESS) {
    builder_.diag().Record(DiagCode::kMissingField, Diagnostics::kNoOffset,
                           "rocprofv3 " + std::string(table) + " record without start_timestamp; skipped");
    return false;
  }
  slice->start_ns = Num(start);
  const int64_t end_ns = Num(record, "end_timestamp", slice->start_ns);
  slice->dur_ns = end_ns - slice->start_ns;
  if (slice->dur_ns < 0) {
    builder_.diag().Record(
        DiagCode::kNegativeDuration, Diagnostics::kNoOffset,
        "rocprofv3 " + std::string(table) + ": end before start at " + std::to_string(slice->start_ns));
    slice->dur_ns = 0;
  }
  return true;
}

// =============================================================================
// [SECTION] Device records: kernel dispatches, memory copies
// =============================================================================

void RocprofImporter::ReadDispatches(array records) {
  const StringId category = builder_.Intern("kernel");
  const StringId k_device = builder_.Intern("device"), k_queue = builder_.Intern("stream");
  const StringId k_corr = builder_.Intern("correlation"), k_grid = builder_.Intern("grid");
  const StringId k_block = builder_.Intern("block"), k_shared = builder_.Intern("shared memory");
  const StringId unknown_kernel = builder_.Intern("(unknown kernel)");
  std::unordered_map<uint32_t, GpuKind> kinds;  // by name
  std::vector<Arg> args;
  for (element e : records) {
    object r;
    object info;
    if (e.get_object().get(r) != simdjson::SUCCESS || r["dispatch_info"].get_object().get(info) != simdjson::SUCCESS) {
      builder_.diag().Record(DiagCode::kMissingField, Diagnostics::kNoOffset,
                             "kernel_dispatch record without dispatch_info; skipped");
      continue;
    }
    SliceTable::Row slice;
    if (!Times(r, "kernel_dispatch", &slice)) continue;
    const Agent* agent = FindAgent(static_cast<uint64_t>(Handle(info, "agent_id")));
    static const Agent kUnknownAgent{2, -1, ""};
    if (!agent || agent->type != 2) agent = &kUnknownAgent;
    const int64_t queue = Handle(info, "queue_id", 0);
    slice.track = DeviceTrack(*agent, queue, false);
    auto name = kernel_names_.find(static_cast<uint64_t>(Num(info, "kernel_id", -1)));
    slice.name = name != kernel_names_.end() ? name->second : unknown_kernel;
    slice.category = category;
    auto [kind, inserted] = kinds.try_emplace(slice.name.value);
    if (inserted) kind->second = ClassifyKernelName(builder_.trace().str(slice.name));
    slice.gpu_kind = kind->second;
    const uint64_t correlation = Correlation(r);
    if (options_.keep_args) {
      args.clear();
      args.push_back({k_device, ArgValue::Int(agent->device)});
      args.push_back({k_queue, ArgValue::Int(queue)});
      args.push_back({k_corr, ArgValue::Uint(correlation)});
      if (std::string grid = Dim3Text(info, "grid_size"); !grid.empty())
        args.push_back({k_grid, ArgValue::Json(builder_.Intern(grid))});
      if (std::string block = Dim3Text(info, "workgroup_size"); !block.empty())
        args.push_back({k_block, ArgValue::Json(builder_.Intern(block))});
      args.push_back({k_shared, ArgValue::Int(Num(info, "group_segment_size", 0))});
      slice.arg_set = builder_.AddArgs(args);
    }
    const SliceId id = builder_.AddSlice(slice);
    if (correlation != 0) builder_.NoteDeviceActivity(CorrelationKey(correlation), id);
  }
}

void RocprofImporter::ReadCopies(array records) {
  const StringId category = builder_.Intern("gpu_memcpy");
  const StringId k_bytes = builder_.Intern("bytes"), k_corr = builder_.Intern("correlation");
  std::vector<Arg> args;
  for (element e : records) {
    object r;
    if (e.get_object().get(r) != simdjson::SUCCESS) continue;
    SliceTable::Row slice;
    if (!Times(r, "memory_copy", &slice)) continue;
    const Agent* src = FindAgent(static_cast<uint64_t>(Handle(r, "src_agent_id")));
    const Agent* dst = FindAgent(static_cast<uint64_t>(Handle(r, "dst_agent_id")));
    const bool src_gpu = src && src->type == 2, dst_gpu = dst && dst->type == 2;
    // The direction comes from the agents' types, not from the operation name.
    std::string_view name = "CopyUnknown";
    slice.gpu_kind = GpuKind::kMemcpyOther;
    if (!src_gpu && dst_gpu) {
      name = "CopyHostToDevice";
      slice.gpu_kind = GpuKind::kMemcpyH2D;
    } else if (src_gpu && !dst_gpu && src && dst) {
      name = "CopyDeviceToHost";
      slice.gpu_kind = GpuKind::kMemcpyD2H;
    } else if (src_gpu && dst_gpu) {
      name = src->device == dst->device ? "CopyDeviceToDevice" : "CopyPeerToPeer";
      slice.gpu_kind = src->device == dst->device ? GpuKind::kMemcpyD2D : GpuKind::kMemcpyOther;
    }
    static const Agent kUnknownAgent{2, -1, ""};
    const Agent& device = dst_gpu ? *dst : (src_gpu ? *src : kUnknownAgent);
    slice.track = DeviceTrack(device, 0, true);
    slice.name = builder_.Intern(name);
    slice.category = category;
    const uint64_t correlation = Correlation(r);
    if (options_.keep_args) {
      args.clear();
      args.push_back({k_bytes, ArgValue::Int(Num(r, "bytes", 0))});
      args.push_back({k_corr, ArgValue::Uint(correlation)});
      slice.arg_set = builder_.AddArgs(args);
    }
    const SliceId id = builder_.AddSlice(slice);
    if (correlation != 0) builder_.NoteDeviceActivity(CorrelationKey(correlation), id);
  }
}

// =============================================================================
// [SECTION] Host records: API calls, roctx markers
// =============================================================================

void RocprofImporter::ReadApiCalls(array records, std::string_view category_name, bool is_launch_api) {
  const StringId category = builder_.Intern(category_name);
  const StringId k_corr = builder_.Intern("correlation");
  for (element e : records) {
    object r;
    if (e.get_object().get(r) != simdjson::SUCCESS) continue;
    SliceTable::Row slice;
    if (!Times(r, category_name, &slice)) continue;
    slice.track = HostTrack(Num(r, "thread_id", 0));
    slice.name = OperationName(Num(r, "kind", -1), Num(r, "operation", -1));
    slice.category = category;
    const uint64_t correlation = Correlation(r);
    if (options_.keep_args && correlation != 0) {
      const Arg arg{k_corr, ArgValue::Uint(correlation)};
      slice.arg_set = builder_.AddArgs({&arg, 1});
    }
    const SliceId id = builder_.AddSlice(slice);
    if (is_launch_api && correlation != 0) builder_.NoteLaunch(CorrelationKey(correlation), id);
  }
}

void RocprofImporter::ReadMarkers(array records) {
  const StringId category = builder_.Intern("roctx");
  for (element e : records) {
    object r;
    if (e.get_object().get(r) != simdjson::SUCCESS) continue;
    SliceTable::Row slice;
    if (!Times(r, "marker_api", &slice)) continue;
    const TrackId track = HostTrack(Num(r, "thread_id", 0));
    auto message = marker_messages_.find(Correlation(r));
    StringId name = message != marker_messages_.end() ? message->second : StringId::None();
    if (name.is_none()) name = OperationName(Num(r, "kind", -1), Num(r, "operation", -1));
    if (slice.dur_ns == 0) {  // roctxMarkA, or a range call recorded on its own
      builder_.AddInstant({track, slice.start_ns, name, category, ArgSetId::None()});
      continue;
    }
    slice.track = track;
    slice.name = name;
    slice.category = category;
    builder_.AddSlice(slice);
    marker_ranges_.push_back({track, slice.start_ns, slice.dur_ns, name});
  }
}

}  // namespace stepline::loaders::rocprof
