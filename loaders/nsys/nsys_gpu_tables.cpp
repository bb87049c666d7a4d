// NsysReader: the device-side CUPTI tables (kernels, copies, memsets,
// synchronization) become slices on "Stream N" tracks of "GPU N", named and
// with the args Kineto gives the same activities, so the analysis and the
// kernel stats read them the same way.
#include <array>
#include <map>

#include "loaders/gpu_classify.h"
#include "loaders/nsys/nsys_reader.h"

namespace stepline::loaders::nsys {
namespace {

// ENUM_CUDA_MEMCPY_OPER (CUPTI copyKind), in Kineto's spelling.
std::string_view CopyKindName(int64_t kind) {
  switch (kind) {
    case 1: return "HtoD";
    case 2: return "DtoH";
    case 3: return "HtoA";
    case 4: return "AtoH";
    case 5: return "AtoA";
    case 6: return "AtoD";
    case 7: return "DtoA";
    case 8: return "DtoD";
    case 9: return "HtoH";
    case 10: return "PtoP";
    default: return "Unknown";
  }
}

// The direction rule: 1 HtoD, 2 DtoH, 8 DtoD, everything else (peer,
// array, unified memory, unknown) "other".
GpuKind CopyKindGpuKind(int64_t kind) {
  switch (kind) {
    case 1: return GpuKind::kMemcpyH2D;
    case 2: return GpuKind::kMemcpyD2H;
    case 8: return GpuKind::kMemcpyD2D;
    default: return GpuKind::kMemcpyOther;
  }
}

// ENUM_CUDA_MEM_KIND (srcKind, dstKind, memKind).
std::string_view MemKindName(int64_t kind) {
  switch (kind) {
    case 0: return "Pageable";
    case 1: return "Pinned";
    case 2: return "Device";
    case 3: return "Array";
    case 4: return "Managed";
    case 5: return "Device Static";
    case 6: return "Managed Static";
    default: return "Unknown";
  }
}

// ENUM_CUPTI_SYNC_TYPE.
std::string_view SyncTypeName(int64_t type) {
  switch (type) {
    case 1: return "Event sync";
    case 2: return "Stream wait sync";
    case 3: return "Stream sync";
    case 4: return "Context sync";
    default: return "Synchronization";
  }
}

struct Dim3Cache {
  std::map<std::array<int64_t, 3>, StringId> text;
  std::array<int64_t, 3> last_value{-1, -1, -1};
  StringId last;
  StringId Get(TraceBuilder& b, const std::array<int64_t, 3>& v) {
    if (v == last_value) return last;  // consecutive kernels mostly share a shape
    last_value = v;
    auto [it, inserted] = text.try_emplace(v);
    if (inserted)
      it->second =
          b.Intern("[" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", " + std::to_string(v[2]) + "]");
    last = it->second;
    return it->second;
  }
};

}  // namespace

void NsysReader::ReadKernels() {
  NsysTable* table = Table("CUPTI_ACTIVITY_KIND_KERNEL");
  if (!table) return;
  NsysTable t = *table;
  const int start = t.Want({"start"}), end = t.Want({"end"});
  const int device = t.Want({"deviceId", "device"}), stream = t.Want({"streamId", "stream"});
  const int corr = t.Want({"correlationId", "correlation"}), gpid = t.Want({"globalPid"});
  const int demangled = t.Want({"demangledName"}), short_name = t.Want({"shortName"});
  const int mangled = t.Want({"mangledName", "name"});
  const int grid[3] = {t.Want({"gridX"}), t.Want({"gridY"}), t.Want({"gridZ"})};
  const int block[3] = {t.Want({"blockX"}), t.Want({"blockY"}), t.Want({"blockZ"})};
  const int regs = t.Want({"registersPerThread"});
  const int static_shared = t.Want({"staticSharedMemory"}), dynamic_shared = t.Want({"dynamicSharedMemory"});
  // CUDA graph nodes (NULL, or 0 in CUPTI, outside graphs): as Kineto names them.
  const int graph_id = t.Want({"graphId"}), graph_node_id = t.Want({"graphNodeId"});
  if (start == NsysTable::kAbsent || end == NsysTable::kAbsent) {
    builder_.diag().Record(DiagCode::kMissingField, Diagnostics::kNoOffset,
                           t.name() + " has no start/end columns; skipped");
    return;
  }
  const StringId category = builder_.Intern("kernel");
  const StringId k_device = builder_.Intern("device"), k_stream = builder_.Intern("stream");
  const StringId k_corr = builder_.Intern("correlation"), k_grid = builder_.Intern("grid");
  const StringId k_block = builder_.Intern("block"), k_regs = builder_.Intern("registers per thread");
  const StringId k_shared = builder_.Intern("shared memory");
  const StringId k_graph = builder_.Intern("graph id"), k_graph_node = builder_.Intern("graph node id");
  Dim3Cache grids, blocks;
  std::vector<int8_t> kind_of_name;  // by StringId index: 0 unknown, 1 kernel, 2 collective
  std::vector<Arg> args;
  ForEachRowInTimeOrder(t, "", [&](const sqlite::Query& row) {
    SliceTable::Row slice;
    if (!ActivityTimes(t, row, start, end, &slice)) return;
    const auto dev = static_cast<int32_t>(IntOr(row, device, -1));
    const int64_t stream_id = IntOr(row, stream, 0);
    slice.track = StreamTrack(dev, stream_id, false);
    StringId name = TextOrId(row, demangled);
    if (name.is_none()) name = TextOrId(row, short_name);
    if (name.is_none()) name = TextOrId(row, mangled);
    slice.name = name;
    slice.category = category;
    if (kind_of_name.size() <= name.index()) kind_of_name.resize(name.index() + 1024, 0);
    int8_t& known = kind_of_name[name.index()];
    if (known == 0) known = ClassifyKernelName(builder_.trace().str(name)) == GpuKind::kCollective ? 2 : 1;
    slice.gpu_kind = known == 2 ? GpuKind::kCollective : GpuKind::kKernel;
    const int64_t correlation = IntOr(row, corr, 0);
    if (options_.keep_args) {
      args.clear();
      args.push_back({k_device, ArgValue::Int(dev)});
      args.push_back({k_stream, ArgValue::Int(stream_id)});
      if (corr != NsysTable::kAbsent) args.push_back({k_corr, ArgValue::Int(correlation)});
      if (grid[0] != NsysTable::kAbsent)
        args.push_back({k_grid, ArgValue::Json(grids.Get(builder_, {IntOr(row, grid[0], 1), IntOr(row, grid[1], 1),
                                                                    IntOr(row, grid[2], 1)}))});
      if (block[0] != NsysTable::kAbsent)
        args.push_back({k_block, ArgValue::Json(blocks.Get(builder_, {IntOr(row, block[0], 1), IntOr(row, block[1], 1),
                                                                      IntOr(row, block[2], 1)}))});
      if (regs != NsysTable::kAbsent) args.push_back({k_regs, ArgValue::Int(IntOr(row, regs, 0))});
      if (static_shared != NsysTable::kAbsent || dynamic_shared != NsysTable::kAbsent)
        args.push_back({k_shared, ArgValue::Int(IntOr(row, static_shared, 0) + IntOr(row, dynamic_shared, 0))});
      if (const int64_t g = IntOr(row, graph_id, 0); g > 0) {
        args.push_back({k_graph, ArgValue::Int(g)});
        if (const int64_t n = IntOr(row, graph_node_id, 0); n > 0) args.push_back({k_graph_node, ArgValue::Int(n)});
      }
      slice.arg_set = builder_.AddArgs(args);
    }
    const SliceId id = builder_.AddSlice(slice);
    if (correlation != 0)
      builder_.NoteDeviceActivity(CorrelationKey(PidOfGlobalTid(IntOr(row, gpid, 0)), correlation), id);
  });
}

// Copies and memsets share everything but their names and kinds.
void NsysReader::ReadCopyLike(const std::string& table_name, bool is_memset) {
  NsysTable* table = Table(table_name);
  if (!table) return;
  NsysTable t = *table;
  const int start = t.Want({"start"}), end = t.Want({"end"});
  const int device = t.Want({"deviceId", "device"}), stream = t.Want({"streamId", "stream"});
  const int corr = t.Want({"correlationId", "correlation"}), gpid = t.Want({"globalPid"});
  const int bytes = t.Want({"bytes"});
  const int copy_kind = is_memset ? NsysTable::kAbsent : t.Want({"copyKind"});
  const int src_kind = is_memset ? NsysTable::kAbsent : t.Want({"srcKind"});
  const int dst_kind = is_memset ? NsysTable::kAbsent : t.Want({"dstKind"});
  const int mem_kind = is_memset ? t.Want({"memKind", "memoryKind"}) : NsysTable::kAbsent;
  if (start == NsysTable::kAbsent || end == NsysTable::kAbsent) {
    builder_.diag().Record(DiagCode::kMissingField, Diagnostics::kNoOffset,
                           t.name() + " has no start/end columns; skipped");
    return;
  }
  const StringId category = builder_.Intern(is_memset ? "gpu_memset" : "gpu_memcpy");
  const StringId k_device = builder_.Intern("device"), k_stream = builder_.Intern("stream");
  const StringId k_corr = builder_.Intern("correlation"), k_bytes = builder_.Intern("bytes");
  std::map<std::array<int64_t, 3>, StringId> names;  // (copyKind, srcKind, dstKind) or (memKind, -1, -1)
  std::vector<Arg> args;
  ForEachRowInTimeOrder(t, "", [&](const sqlite::Query& row) {
    SliceTable::Row slice;
    if (!ActivityTimes(t, row, start, end, &slice)) return;
    const auto dev = static_cast<int32_t>(IntOr(row, device, -1));
    const int64_t stream_id = IntOr(row, stream, 0);
    slice.track = StreamTrack(dev, stream_id, false);
    const std::array<int64_t, 3> key =
        is_memset
            ? std::array<int64_t, 3>{IntOr(row, mem_kind, -1), -1, -1}
            : std::array<int64_t, 3>{IntOr(row, copy_kind, 0), IntOr(row, src_kind, -1), IntOr(row, dst_kind, -1)};
    auto [it, inserted] = names.try_emplace(key);
    if (inserted) {
      // Kineto's names: "Memcpy HtoD (Pageable -> Device)", "Memset (Device)".
      it->second = is_memset ? builder_.Intern("Memset (" + std::string(MemKindName(key[0])) + ")")
                             : builder_.Intern("Memcpy " + std::string(CopyKindName(key[0])) + " (" +
                                               std::string(MemKindName(key[1])) + " -> " +
                                               std::string(MemKindName(key[2])) + ")");
    }
    slice.name = it->second;
    slice.category = category;
    slice.gpu_kind = is_memset ? GpuKind::kMemset : CopyKindGpuKind(key[0]);
    const int64_t correlation = IntOr(row, corr, 0);
    if (options_.keep_args) {
      args.clear();
      args.push_back({k_device, ArgValue::Int(dev)});
      args.push_back({k_stream, ArgValue::Int(stream_id)});
      if (corr != NsysTable::kAbsent) args.push_back({k_corr, ArgValue::Int(correlation)});
      if (bytes != NsysTable::kAbsent) args.push_back({k_bytes, ArgValue::Int(IntOr(row, bytes, 0))});
      slice.arg_set = builder_.AddArgs(args);
    }
    const SliceId id = builder_.AddSlice(slice);
    if (correlation != 0)
      builder_.NoteDeviceActivity(CorrelationKey(PidOfGlobalTid(IntOr(row, gpid, 0)), correlation), id);
  });
}

void NsysReader::ReadMemcpys() { ReadCopyLike("CUPTI_ACTIVITY_KIND_MEMCPY", false); }
void NsysReader::ReadMemsets() { ReadCopyLike("CUPTI_ACTIVITY_KIND_MEMSET", true); }

void NsysReader::ReadSynchronization() {
  NsysTable* table = Table("CUPTI_ACTIVITY_KIND_SYNCHRONIZATION");
  if (!table) return;
  NsysTable t = *table;
  const int start = t.Want({"start"}), end = t.Want({"end"});
  const int device = t.Want({"deviceId", "device"}), stream = t.Want({"streamId", "stream"});
  const int type = t.Want({"syncType", "deprecatedSyncType"});
  if (start == NsysTable::kAbsent || end == NsysTable::kAbsent) return;
  const StringId category = builder_.Intern("cuda_sync");
  std::map<int64_t, StringId> names;
  ForEachRowInTimeOrder(t, "", [&](const sqlite::Query& row) {
    SliceTable::Row slice;
    if (!ActivityTimes(t, row, start, end, &slice)) return;
    const auto dev = static_cast<int32_t>(IntOr(row, device, -1));
    slice.track = StreamTrack(dev, IntOr(row, stream, 0), true);
    const int64_t sync_type = IntOr(row, type, 0);
    auto [it, inserted] = names.try_emplace(sync_type);
    if (inserted) it->second = builder_.Intern(SyncTypeName(sync_type));
    slice.name = it->second;
    slice.category = category;
    builder_.AddSlice(slice);
  });
}

bool NsysReader::ActivityTimes(const NsysTable& t, const sqlite::Query& row, int start, int end, SliceTable::Row* slice) {
  if (row.IsNull(start)) {
    builder_.diag().Record(DiagCode::kMissingField, Diagnostics::kNoOffset,
                           t.name() + ": a row without start; skipped");
    return false;
  }
  slice->start_ns = row.Int(start);
  const int64_t end_ns = row.IsNull(end) ? slice->start_ns : row.Int(end);
  slice->dur_ns = end_ns - slice->start_ns;
  if (slice->dur_ns < 0) {
    builder_.diag().Record(
        DiagCode::kNegativeDuration, Diagnostics::kNoOffset,
        t.name() + ": end " + std::to_string(end_ns) + " before start " + std::to_string(slice->start_ns));
    slice->dur_ns = 0;
  }
  return true;
}

}  // namespace stepline::loaders::nsys
