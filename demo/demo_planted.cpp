// The planted traces of demo_planted.h. Times are microseconds from 0.
//
// Critical paths, traced backward from each step's end (critical_path.h):
//  1 input   [0, 1000): the DataLoader call 0-700, a launch 700-710, gemm on
//            the GPU 710-900, cudaDeviceSynchronize 710-905 (returns 5 after
//            gemm), optimizer.step 905-1000. Path: host 700 + 95, launch 10,
//            gpu 190, sync 5.
//  2 compute [1000, 2000): two launches 1000-1010, 1010-1020; kernels
//            1010-1500 and 1500-1990 back to back; a sync 1020-1995;
//            optimizer.step 1995-2000. Path: host 5, sync 5, gpu 490 + 490
//            (the second kernel waited for the first, not its launch), launch 10.
//  3 launch  [2000, 3000): 49 launches of 20, each kernel (5) starting as
//            its launch returns; a sync 2980-2990 (kernel 48 ends 2985);
//            zero_grad 2990-3000. Path: host 10, sync 5, gpu 5, launch 980.
//  4 sync    [3000, 4000): ten rounds of 100: launch 10, kernel 10 (starts
//            at the launch's end), cudaStreamSynchronize returning 60 after
//            the kernel, loss.item 20. Path: host 200, launch 100, gpu 100, sync 600.
#include "demo/demo_planted.h"

#include <initializer_list>
#include <string>
#include <variant>
#include <vector>

#include "loaders/trace_builder.h"

namespace stepline::demo {
namespace {

constexpr TimeNs Us(int64_t us) { return us * 1000; }

class PlantedBuilder {
 public:
  PlantedBuilder() : b_("kineto-json") {
    b_.SetProcessName(kHostPid, "python", 0);
    main_ = b_.ThreadTrack(kHostPid, 1);
    b_.SetThreadName(kHostPid, 1, "python main", 0);
    b_.SetProcessName(0, "GPU 0", 0);
    b_.SetProcessDevice(0, 0);
    stream_ = b_.ThreadTrack(0, 7);
    b_.SetTrackKind(stream_, TrackKind::kGpuStream, 0);
    b_.SetThreadName(0, 7, "stream 7", 0);
    cpu_op_ = b_.Intern("cpu_op");
    runtime_ = b_.Intern("cuda_runtime");
    kernel_ = b_.Intern("kernel");
    annotation_ = b_.Intern("user_annotation");
    cuda_sync_ = b_.Intern("cuda_sync");
  }
  SliceId Host(int64_t start_us, int64_t end_us, std::string_view name, bool runtime = false) {
    return Add(main_, start_us, end_us, name, runtime ? runtime_ : cpu_op_, GpuKind::kNone);
  }
  void Marker(int64_t start_us, int64_t end_us, std::string_view name) {
    Add(main_, start_us, end_us, name, annotation_, GpuKind::kNone);
  }
  // A launch call and the kernel it launches.
  void Launch(int64_t start_us, int64_t end_us, int64_t kernel_start_us, int64_t kernel_end_us,
              std::string_view kernel) {
    LaunchOn(stream_, start_us, end_us, kernel_start_us, kernel_end_us, kernel);
  }
  // The waits of stream_waits.h: a second stream, the device-wide row that
  // holds Event Sync rows, cudaEventRecord calls and Kineto's cuda_sync rows.
  TrackId SecondStream() {
    if (stream2_.is_none()) {
      stream2_ = b_.ThreadTrack(0, 8);
      b_.SetTrackKind(stream2_, TrackKind::kGpuStream, 0);
      b_.SetThreadName(0, 8, "stream 8", 0);
    }
    return stream2_;
  }
  void LaunchOn(TrackId stream, int64_t start_us, int64_t end_us, int64_t kernel_start_us, int64_t kernel_end_us,
                std::string_view kernel) {
    const SliceId launch = Host(start_us, end_us, "cudaLaunchKernel", true);
    const SliceId k = Add(stream, kernel_start_us, kernel_end_us, kernel, kernel_, GpuKind::kKernel);
    b_.NoteLaunch(++correlation_, launch);
    b_.NoteDeviceActivity(correlation_, k);
  }
  // A cudaEventRecord call; returns its correlation.
  int64_t RecordEvent(int64_t start_us, int64_t end_us) {
    const int64_t correlation = static_cast<int64_t>(++correlation_);
    Add(main_, start_us, end_us, "cudaEventRecord", runtime_, GpuKind::kNone, Args({{"correlation", correlation}}));
    return correlation;
  }
  // A runtime call and the cuda_sync row CUPTI gives it: `stream` is the
  // waiting / synchronized stream (-1: none), `on_stream` and `record` the
  // event's stream and its record call's correlation (-1: none).
  void SyncCall(int64_t start_us, int64_t end_us, std::string_view call, std::string_view sync_kind, int64_t stream,
                int64_t on_stream, int64_t record) {
    const SliceId host = Host(start_us, end_us, call, true);
    const int64_t correlation = static_cast<int64_t>(++correlation_);
    TrackId row = stream == 7 ? stream_ : stream == 8 ? SecondStream() : DeviceRow();
    const SliceId sync = Add(row, start_us, start_us + 1, sync_kind, cuda_sync_, GpuKind::kNone,
                             Args({{"cuda_sync_kind", b_.Intern(sync_kind)},
                                   {"wait_on_stream", on_stream},
                                   {"wait_on_cuda_event_record_corr_id", record},
                                   {"stream", stream},
                                   {"correlation", correlation}}));
    b_.NoteLaunch(static_cast<uint64_t>(correlation), host);
    b_.NoteDeviceActivity(static_cast<uint64_t>(correlation), sync);
  }
  Trace Finish() { return b_.Finish(); }

 private:
  static constexpr int64_t kHostPid = 100;
  struct NamedArg {
    std::string_view key;
    std::variant<int64_t, StringId> value;
  };
  ArgSetId Args(std::initializer_list<NamedArg> named) {
    std::vector<Arg> args;
    for (const NamedArg& a : named) {
      const ArgValue v = std::holds_alternative<int64_t>(a.value) ? ArgValue::Int(std::get<int64_t>(a.value))
                                                                  : ArgValue::String(std::get<StringId>(a.value));
      args.push_back(Arg{b_.Intern(a.key), v});
    }
    return b_.AddArgs(args);
  }
  TrackId DeviceRow() {  // Kineto's "tid -1" row of device-wide cuda_sync events
    if (device_row_.is_none()) {
      device_row_ = b_.ThreadTrack(0, -1);
      b_.SetTrackKind(device_row_, TrackKind::kGpuStream, 0);
    }
    return device_row_;
  }
  SliceId Add(TrackId track, int64_t start_us, int64_t end_us, std::string_view name, StringId cat, GpuKind kind,
              ArgSetId args = ArgSetId::None()) {
    SliceTable::Row row;
    row.track = track;
    row.start_ns = Us(start_us);
    row.dur_ns = Us(end_us) - Us(start_us);
    row.name = b_.Intern(name);
    row.category = cat;
    row.gpu_kind = kind;
    row.arg_set = args;
    return b_.AddSlice(row);
  }
  loaders::TraceBuilder b_;
  TrackId main_, stream_, stream2_ = TrackId::None(), device_row_ = TrackId::None();
  StringId cpu_op_, runtime_, kernel_, annotation_, cuda_sync_;
  uint64_t correlation_ = 0;
};

}  // namespace

Trace PlantedCriticalPathTrace() {
  PlantedBuilder p;
  // 1: input-bound.
  p.Marker(0, 1000, "ProfilerStep#1");
  p.Host(0, 700, kPlantedPaths[0].top_host);
  p.Launch(700, 710, 710, 900, "gemm");
  p.Host(710, 905, "cudaDeviceSynchronize", true);
  p.Host(905, 1000, "optimizer.step");
  // 2: compute-bound.
  p.Marker(1000, 2000, "ProfilerStep#2");
  p.Launch(1000, 1010, 1010, 1500, "gemm");
  p.Launch(1010, 1020, 1500, 1990, "gemm");
  p.Host(1020, 1995, "cudaStreamSynchronize", true);
  p.Host(1995, 2000, "optimizer.step");
  // 3: launch-bound.
  p.Marker(2000, 3000, "ProfilerStep#3");
  for (int64_t i = 0; i < 49; ++i) p.Launch(2000 + 20 * i, 2020 + 20 * i, 2020 + 20 * i, 2025 + 20 * i, "add");
  p.Host(2980, 2990, "cudaDeviceSynchronize", true);
  p.Host(2990, 3000, "zero_grad");
  // 4: sync-bound.
  p.Marker(3000, 4000, "ProfilerStep#4");
  for (int64_t b = 3000; b < 4000; b += 100) {
    p.Launch(b, b + 10, b + 10, b + 20, "reduce");
    p.Host(b + 10, b + 80, "cudaStreamSynchronize", true);
    p.Host(b + 80, b + 100, "loss.item");
  }
  return p.Finish();
}

Trace PlantedStreamWaitTrace() {
  PlantedBuilder p;
  // 1: a kernel on stream 8 waits for an event recorded on stream 7.
  p.Marker(0, 1000, "ProfilerStep#1");
  p.Launch(0, 10, 10, 600, "producer");
  const int64_t record1 = p.RecordEvent(10, 15);
  p.SyncCall(15, 20, "cudaStreamWaitEvent", "Stream Wait Event", 8, 7, record1);
  p.LaunchOn(p.SecondStream(), 20, 30, 600, 900, "consumer");
  p.Launch(30, 40, 600, 902, "side");
  p.Host(40, 200, "host_work");
  p.SyncCall(200, 905, "cudaStreamSynchronize", "Stream Sync", 8, -1, -1);
  p.Host(905, 1000, kPlantedWaitPaths[0].top_host);
  // 2: cudaEventSynchronize on an event recorded after the producer.
  p.Marker(1000, 2000, "ProfilerStep#2");
  p.Launch(1000, 1010, 1010, 1400, "producer");
  const int64_t record2 = p.RecordEvent(1010, 1015);
  p.LaunchOn(p.SecondStream(), 1015, 1025, 1025, 1403, "other");
  p.SyncCall(1025, 1405, "cudaEventSynchronize", "Event Sync", -1, 7, record2);
  p.Host(1405, 2000, kPlantedWaitPaths[1].top_host);
  return p.Finish();
}

Trace PlantedServingTrace(PlantedEngine engine, int64_t decode_step_us) {
  PlantedBuilder p;
  auto name = [&](std::string_view mode, int64_t batch, int64_t tokens, int64_t context, int64_t generation) {
    if (engine == PlantedEngine::kSglang) {
      return "step[" + std::string(mode) + " bs=" + std::to_string(batch) + " toks=" + std::to_string(tokens) + "]";
    }
    return "execute_" + std::to_string(tokens) + "_context_" + std::to_string(context) + "(sq" +
           std::to_string(tokens) + ")_generation_" + std::to_string(generation) + "(sq" +
           std::to_string(generation) + ")";
  };
  auto step = [&](int64_t start_us, int64_t dur_us, const std::string& step_name) {
    p.Marker(start_us, start_us + dur_us, step_name);
    p.Launch(start_us, start_us + 5, start_us + 5, start_us + dur_us / 2, "attention");
  };
  step(0, 10'000, name("EXTEND", 4, 2048, 4, 0));
  for (int64_t i = 0; i < 5; ++i) step(10'000 + decode_step_us * i, decode_step_us, name("DECODE", 4, 4, 0, 4));
  step(10'000 + 5 * decode_step_us, 4'000, name("MIXED", 6, 512, 2, 4));
  return p.Finish();
}

}  // namespace stepline::demo
