// DemoEmitter: processes, tracks and slices of the demo trace in one style;
// see demo_emitter.h.
#include "demo/demo_emitter.h"

#include <string>

#include "model/sl_assert.h"

namespace stepline::demo {
namespace {

// TensorBoard JSON: /host:CPU is pid 701, GPU n is pid 1 + n; XProf's derived
// rows start at tid 0xDEADBEEF. Kineto: the host pid is the OS pid, a GPU's
// pid is its device id and a stream's tid its CUDA stream id.
constexpr int64_t kTfHostPid = 701, kTfGpuPid = 1, kTfStepsTid = 3735928559;
constexpr int64_t kPtHostPid = 84213, kPtGpuPid = 0;
constexpr int64_t kMainTid = 84213, kReaderTid = 84290, kFirstWorkerTid = 84291;
constexpr int64_t kTfStreamIds[3] = {14, 15, 16};
constexpr int64_t kPtComputeStream = 7;  // PyTorch's default stream carries copies too

}  // namespace

DemoEmitter::DemoEmitter(DemoStyle style, bool record_truth)
    : style_(style), record_truth_(record_truth), builder_("demo") {
  if (!is_tf()) {
    cats_ = {Intern("cpu_op"), Intern("user_annotation"), Intern("cuda_runtime"), Intern("kernel"),
             Intern("gpu_memcpy")};
  }
  CreateTracks();
  if (is_tf()) {
    mem_.alloc = Intern("MemoryAllocation");
    mem_.free = Intern("MemoryDeallocation");
    mem_.allocator = Intern("allocator_name");
    mem_.gpu0_bfc = Intern("GPU_0_bfc");
    mem_.bytes_allocated = Intern("bytes_allocated");
    mem_.bytes_reserved = Intern("bytes_reserved");
    mem_.bytes_available = Intern("bytes_available");
    mem_.allocation_bytes = Intern("allocation_bytes");
    mem_.x_addr = Intern("addr");
    mem_.tf_op = Intern("tf_op");
  } else {
    mem_.memory = Intern("[memory]");
    mem_.cat = Intern("cpu_instant_event");
    mem_.total_reserved = Intern("Total Reserved");
    mem_.total_allocated = Intern("Total Allocated");
    mem_.bytes = Intern("Bytes");
    mem_.addr = Intern("Addr");
    mem_.device_id = Intern("Device Id");
    mem_.device_type = Intern("Device Type");
  }
  if (!is_tf()) {
    const Arg meta[] = {
        {Intern("schemaVersion"), ArgValue::Int(1)},
        {Intern("deviceProperties"),
         ArgValue::Json(Intern("[{\"id\":0,\"name\":\"Tesla V100-SXM2-16GB\",\"totalGlobalMem\":16945512448,"
                               "\"computeMajor\":7,\"computeMinor\":0,\"maxThreadsPerBlock\":1024,"
                               "\"maxThreadsPerMultiprocessor\":2048,\"regsPerBlock\":65536,\"warpSize\":32,"
                               "\"sharedMemPerBlock\":49152,\"numSms\":80}]"))}};
    metadata_ = builder_.AddArgs(meta);
  }
}

Trace DemoEmitter::Finish() {
  Trace trace = builder_.Finish();
  trace.mutable_info().metadata = metadata_;
  return trace;
}

void DemoEmitter::CreateTracks() {
  const int64_t host_pid = is_tf() ? kTfHostPid : kPtHostPid;
  const int64_t gpu_pid = is_tf() ? kTfGpuPid : kPtGpuPid;
  builder_.SetProcessName(host_pid, is_tf() ? "/host:CPU" : "python", 0);
  builder_.SetProcessName(gpu_pid, is_tf() ? "/device:GPU:0" : "GPU 0", 0);
  builder_.SetProcessDevice(gpu_pid, 0);
  builder_.SetProcessSortIndex(gpu_pid, is_tf() ? 1 : 5'000'000);
  if (is_tf()) builder_.SetProcessSortIndex(host_pid, 701);

  auto host_thread = [&](int64_t tid, const std::string& tf_name, const std::string& pt_name) {
    TrackId t = builder_.ThreadTrack(host_pid, tid);
    builder_.SetThreadName(host_pid, tid, is_tf() ? tf_name : "thread " + std::to_string(tid) + " (" + pt_name + ")",
                           0);
    return t;
  };
  main_ = host_thread(kMainTid, "python", "python");
  reader_ = host_thread(kReaderTid, "tf_data_iterator_resource", "pt_data_reader");
  for (int w = 0; w < kDemoMapWorkers; ++w) {
    workers_[w] = host_thread(kFirstWorkerTid + w, "tf_data_private_threadpool", "pt_data_worker_" + std::to_string(w));
  }

  auto stream = [&](int64_t tid, const std::string& name) {
    TrackId t = builder_.ThreadTrack(gpu_pid, tid);
    builder_.SetThreadName(gpu_pid, tid, name, 0);
    builder_.SetTrackKind(t, TrackKind::kGpuStream, 0);
    return t;
  };
  if (is_tf()) {
    streams_[0] = stream(kTfStreamIds[0], "Stream #14(Compute)");
    streams_[1] = stream(kTfStreamIds[1], "Stream #15(MemcpyH2D)");
    streams_[2] = stream(kTfStreamIds[2], "Stream #16(MemcpyD2H)");
    steps_row_ = builder_.ThreadTrack(gpu_pid, kTfStepsTid);
    builder_.SetThreadName(gpu_pid, kTfStepsTid, "Steps", 0);
    builder_.SetTrackKind(steps_row_, TrackKind::kGpuDerived, 0);
  } else {
    streams_[0] = streams_[1] = streams_[2] = stream(kPtComputeStream, "stream 7");
  }
}

int8_t DemoEmitter::CauseFor(HostTag tag) const {
  switch (tag) {
    case HostTag::kStepMarker: return -1;
    case HostTag::kInput:
    case HostTag::kInputInner: return static_cast<int8_t>(DemoIdleCause::kInput);
    case HostTag::kSync:
    case HostTag::kSyncWrapper: return static_cast<int8_t>(DemoIdleCause::kSync);
    case HostTag::kLaunch:
    case HostTag::kCopyLaunch: return static_cast<int8_t>(DemoIdleCause::kLaunch);
    case HostTag::kCallback: return static_cast<int8_t>(DemoIdleCause::kHostCompute);
    case HostTag::kCheckpoint: return static_cast<int8_t>(DemoIdleCause::kHostCompute);
    case HostTag::kNone: break;
  }
  // No pattern matches: the nearest matching ancestor decides (step markers
  // do not count), else host_compute.
  if (!stack_.empty() && stack_.back().cause >= 0) return stack_.back().cause;
  return static_cast<int8_t>(DemoIdleCause::kHostCompute);
}

void DemoEmitter::Open(TimeNs start, StringId name, StringId cat, HostTag tag, std::span<const Arg> args) {
  const bool emitted = InWindow(start);
  const ArgSetId set = emitted && !args.empty() ? builder_.AddArgs(args) : ArgSetId();
  stack_.push_back({start, name, cat, set, tag, CauseFor(tag), emitted});
}

SliceId DemoEmitter::Close(TimeNs end) {
  SL_ASSERT(!stack_.empty() && "Close without Open");
  const OpenSlice s = stack_.back();
  stack_.pop_back();
  if (!s.emitted) return SliceId::None();
  if (record_truth_) {
    const size_t depth = stack_.size();
    if (records_.host_by_depth.size() <= depth) records_.host_by_depth.resize(depth + 1);
    records_.host_by_depth[depth].push_back({s.start, end, static_cast<uint16_t>(depth), s.cause, s.tag});
  }
  return builder_.AddSlice({main_, s.start, end - s.start, s.name, s.cat, s.args, GpuKind::kNone});
}

void DemoEmitter::PipelineSlice(DemoThread thread, TimeNs start, TimeNs end, StringId name, StringId cat) {
  if (!InWindow(start)) return;
  const int index = static_cast<int>(thread);
  const TrackId track = thread == DemoThread::kMain     ? main_
                        : thread == DemoThread::kReader ? reader_
                                                        : workers_[index - static_cast<int>(DemoThread::kWorker0)];
  if (record_truth_ && thread >= DemoThread::kWorker0) records_.worker_busy.push_back({start, end});
  builder_.AddSlice({track, start, end - start, name, cat, ArgSetId(), GpuKind::kNone});
}

SliceId DemoEmitter::GpuSlice(DemoStream stream, TimeNs start, TimeNs end, StringId name, StringId cat, GpuKind kind,
                              std::span<const Arg> args, TimeNs launch_start) {
  if (!InWindow(start)) return SliceId::None();
  if (record_truth_) {
    if (kind == GpuKind::kKernel) {
      records_.kernels.push_back({start, end, launch_start});
    } else {
      records_.copies.push_back({start, end, kind});
    }
  }
  const ArgSetId set = builder_.AddArgs(args);
  return builder_.AddSlice({streams_[static_cast<int>(stream)], start, end - start, name, cat, set, kind});
}

void DemoEmitter::StepsRow(TimeNs start, TimeNs end, int64_t step_num) {
  if (!is_tf() || !InWindow(start)) return;
  const std::string num = std::to_string(step_num);
  const Arg args[] = {{Intern("group_id"), ArgValue::String(Intern(num))}};
  builder_.AddSlice({steps_row_, start, end - start, Intern(num), StringId(), builder_.AddArgs(args), GpuKind::kNone});
}

void DemoEmitter::MemoryEvent(TimeNs ts, int64_t bytes, uint64_t addr, int64_t allocated, int64_t reserved,
                              StringId op) {
  if (!InWindow(ts)) return;
  const auto addr_value = ArgValue::Int(static_cast<int64_t>(addr));
  if (is_tf()) {
    const Arg args[] = {{mem_.allocator, ArgValue::String(mem_.gpu0_bfc)},
                        {mem_.bytes_reserved, ArgValue::Int(0)},
                        {mem_.bytes_allocated, ArgValue::Int(allocated)},
                        {mem_.bytes_available, ArgValue::Int(kGpuMemoryBytes - allocated)},
                        {mem_.allocation_bytes, ArgValue::Int(bytes < 0 ? -bytes : bytes)},
                        {mem_.x_addr, addr_value},
                        {mem_.tf_op, ArgValue::String(op)}};
    const size_t n = op.is_none() ? 6 : 7;
    builder_.AddInstant({main_, ts, bytes < 0 ? mem_.free : mem_.alloc, StringId(),
                         builder_.AddArgs(std::span<const Arg>(args, n))});
    return;
  }
  const Arg args[] = {{mem_.total_reserved, ArgValue::Int(reserved)}, {mem_.total_allocated, ArgValue::Int(allocated)},
                      {mem_.bytes, ArgValue::Int(bytes)},             {mem_.addr, addr_value},
                      {mem_.device_id, ArgValue::Int(0)},             {mem_.device_type, ArgValue::Int(1)}};
  builder_.AddInstant({main_, ts, mem_.memory, mem_.cat, builder_.AddArgs(args)});
}

}  // namespace stepline::demo
