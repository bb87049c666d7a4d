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

#include <string>

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
    const SliceId launch = Host(start_us, end_us, "cudaLaunchKernel", true);
    const SliceId k = Add(stream_, kernel_start_us, kernel_end_us, kernel, kernel_, GpuKind::kKernel);
    b_.NoteLaunch(++correlation_, launch);
    b_.NoteDeviceActivity(correlation_, k);
  }
  Trace Finish() { return b_.Finish(); }

 private:
  static constexpr int64_t kHostPid = 100;
  SliceId Add(TrackId track, int64_t start_us, int64_t end_us, std::string_view name, StringId cat, GpuKind kind) {
    SliceTable::Row row;
    row.track = track;
    row.start_ns = Us(start_us);
    row.dur_ns = Us(end_us) - Us(start_us);
    row.name = b_.Intern(name);
    row.category = cat;
    row.gpu_kind = kind;
    return b_.AddSlice(row);
  }
  loaders::TraceBuilder b_;
  TrackId main_, stream_;
  StringId cpu_op_, runtime_, kernel_, annotation_;
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

Trace PlantedServingTrace(PlantedEngine engine) {
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
  for (int64_t i = 0; i < 5; ++i) step(10'000 + 2'000 * i, 2'000, name("DECODE", 4, 4, 0, 4));
  step(20'000, 4'000, name("MIXED", 6, 512, 2, 4));
  return p.Finish();
}

}  // namespace stepline::demo
