// SyntheticTrace: a small fluent builder of hand-made traces for analysis
// tests: host threads with nested slices, GPU streams with kernels and copies,
// launch calls linked to their GPU op by a FlowKind::kLaunch flow, args, and
// XProf-style "Steps" rows. It writes through the model API the loaders use.
//
//   Trace t = SyntheticTrace()
//                 .Thread("main").Slice("ProfilerStep#1", Us(0), Us(100))
//                 .Kernel(7, Us(10), Us(20), "gemm").LaunchedFrom("main", Us(5))
//                 .Build();
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/trace.h"

namespace stepline::testing {

constexpr TimeNs Us(int64_t us) { return us * 1000; }

class SyntheticTrace {
 public:
  SyntheticTrace();

  // Selects host thread `name` (created on first use, tids 1, 2, ...).
  SyntheticTrace& Thread(std::string_view name);
  // A slice on the current thread; nesting follows from the times.
  SyntheticTrace& Slice(std::string_view name, TimeNs start_ns, DurNs dur_ns);
  // Selects the device of later GPU ops and Steps rows (default 0).
  SyntheticTrace& Device(int32_t device_id);
  // A GPU op on stream `stream` of the current device.
  SyntheticTrace& Gpu(GpuKind kind, int64_t stream, TimeNs start_ns, DurNs dur_ns, std::string_view name);
  SyntheticTrace& Kernel(int64_t stream, TimeNs start_ns, DurNs dur_ns, std::string_view name = "kernel") {
    return Gpu(GpuKind::kKernel, stream, start_ns, dur_ns, name);
  }
  // A copy or memset named after its kind ("Memcpy HtoD", "Memset").
  SyntheticTrace& Copy(GpuKind kind, int64_t stream, TimeNs start_ns, DurNs dur_ns);
  // A launch call on host thread `thread` for the last GPU op, linked to it
  // by a kLaunch flow. The call nests in whatever covers it on that thread.
  SyntheticTrace& LaunchedFrom(std::string_view thread, TimeNs start_ns, DurNs dur_ns = 2'000,
                               std::string_view api = "cudaLaunchKernel");
  // A slice on the current device's "Steps" row (TrackKind::kGpuDerived).
  SyntheticTrace& StepsRow(std::string_view name, TimeNs start_ns, DurNs dur_ns);
  // Args of the last slice added.
  SyntheticTrace& Arg(std::string_view key, int64_t value);
  SyntheticTrace& ArgDouble(std::string_view key, double value);
  SyntheticTrace& ArgString(std::string_view key, std::string_view value);
  SyntheticTrace& ArgJson(std::string_view key, std::string_view json);

  size_t slice_count() const { return slices_.size(); }
  Trace Build();  // finalized; the builder is spent afterwards

 private:
  struct PendingArg {
    std::string key;
    ArgType type;
    int64_t i = 0;
    double d = 0;
    std::string s;
  };
  struct PendingSlice {
    TrackId track;
    TimeNs start_ns;
    DurNs dur_ns;
    std::string name;
    GpuKind kind;
    std::vector<PendingArg> args;
  };
  TrackId HostThread(std::string_view name);
  TrackId Stream(int32_t device, int64_t stream);
  ProcessId DeviceProcess(int32_t device);
  PendingSlice& Last();

  Trace trace_;
  ProcessId host_process_;
  std::map<std::string, TrackId, std::less<>> threads_;
  std::map<int32_t, ProcessId> device_processes_;
  std::map<std::pair<int32_t, int64_t>, TrackId> streams_;
  std::map<int32_t, TrackId> steps_rows_;
  TrackId current_thread_;
  int32_t current_device_ = 0;
  size_t last_gpu_op_ = SIZE_MAX;
  std::vector<PendingSlice> slices_;
  std::vector<std::pair<size_t, size_t>> launch_flows_;  // (launch slice, gpu slice) indices
};

}  // namespace stepline::testing
