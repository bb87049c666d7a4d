// Chrome JSON loader: GPU conventions of PyTorch/Kineto (every category
// generation) and of TensorBoard / TF / JAX trace-viewer JSON.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>

#include <fstream>
#include <iterator>

#include "loaders/byte_source.h"
#include "loaders/chrome_json/chrome_json_loader.h"
#include "loaders/chrome_json/kineto_conventions.h"
#include "export/chrome_json_writer.h"
#include "tests/support/file_bytes.h"
#include "tests/support/test_traces.h"

namespace stepline::loaders {
namespace {

Trace LoadGpu(std::string_view json, bool keep_args = true) {
  auto input = DecodeBytes(json, "gpu.json", nullptr);
  EXPECT_TRUE(input.ok());
  LoadOptions options;
  options.threads = 1;
  options.keep_args = keep_args;
  auto trace = LoadChromeJson(*input, "gpu.json", options, nullptr);
  EXPECT_TRUE(trace.ok()) << (trace.ok() ? "" : trace.error().ToString());
  if (!trace.ok()) return Trace();
  EXPECT_EQ(trace->CheckInvariants(), "");
  return std::move(trace).value();
}

size_t SliceNamed(const Trace& t, std::string_view name) {
  for (size_t i = 0; i < t.slices().size(); ++i) {
    if (t.str(t.slices().name()[i]) == name) return i;
  }
  ADD_FAILURE() << "no slice " << name;
  return 0;
}

struct Row {
  TrackKind kind;
  int32_t device;
  GpuKind gpu_kind;
};
Row RowOf(const Trace& t, std::string_view slice_name) {
  const size_t s = SliceNamed(t, slice_name);
  const TrackId track = t.slices().track()[s];
  return {t.tracks().kind(track), t.tracks().device_id(track), t.slices().gpu_kind()[s]};
}

std::set<std::pair<std::string, std::string>> LaunchLinkNames(const Trace& t) {
  std::set<std::pair<std::string, std::string>> links;
  for (size_t i = 0; i < t.flows().size(); ++i) {
    if (t.flows().kind()[i] != FlowKind::kLaunch) continue;
    links.emplace(t.str(t.slices().name()[t.flows().from()[i].index()]),
                  t.str(t.slices().name()[t.flows().to()[i].index()]));
  }
  return links;
}

std::string ReadTestData(const std::string& name) {
  std::string bytes = ::stepline::testing::ReadFileBytes(::stepline::testing::TestDataPath(name));
  EXPECT_FALSE(bytes.empty()) << name;
  return bytes;
}

// tests/data/chrome_kineto_gpu.json: current Kineto categories (and the
// pre-2022 "gpu_user_Annotation"), a cuda_sync row, a launch linked both by
// "correlation" and by an ac2g flow written f-before-s, an NCCL kernel on a
// second device; no M events and no deviceProperties, so rows are decided by
// the categories their events carry.

TEST(ChromeJsonGpuTest, KinetoDeviceCategoriesMakeGpuStreams) {
  const Trace t = LoadGpu(ReadTestData("chrome_kineto_gpu.json"));
  const Row gemm = RowOf(t, "void gemm<float>(int)");
  EXPECT_EQ(gemm.kind, TrackKind::kGpuStream);
  EXPECT_EQ(gemm.device, 0);
  EXPECT_EQ(gemm.gpu_kind, GpuKind::kKernel);
  EXPECT_EQ(RowOf(t, "Memcpy DtoH (Device -> Pinned)").gpu_kind, GpuKind::kMemcpyD2H);
  const Row memset = RowOf(t, "Memset (Device)");
  EXPECT_EQ(memset.gpu_kind, GpuKind::kMemset);
  EXPECT_EQ(memset.kind, TrackKind::kGpuStream);
  const Row nccl = RowOf(t, "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*)");
  EXPECT_EQ(nccl.gpu_kind, GpuKind::kCollective);
  EXPECT_EQ(nccl.device, 1);
  EXPECT_EQ(RowOf(t, "Context Sync").kind, TrackKind::kGpuStream);
  EXPECT_EQ(RowOf(t, "Context Sync").gpu_kind, GpuKind::kNone);
  const Row host = RowOf(t, "aten::mm");
  EXPECT_EQ(host.kind, TrackKind::kHostThread);
  EXPECT_EQ(host.gpu_kind, GpuKind::kNone);
  EXPECT_EQ(RowOf(t, "cudaLaunchKernel").kind, TrackKind::kHostThread);
  // The device-side copy of the step (pre-2022 spelling of the category).
  size_t gpu_steps = 0;
  for (size_t i = 0; i < t.slices().size(); ++i) {
    if (t.str(t.slices().name()[i]) != "ProfilerStep#5") continue;
    const TrackId track = t.slices().track()[i];
    if (t.tracks().kind(track) == TrackKind::kGpuStream) {
      ++gpu_steps;
      EXPECT_EQ(t.slices().gpu_kind()[i], GpuKind::kNone);
    }
  }
  EXPECT_EQ(gpu_steps, 1u);
  for (size_t i = 0; i < t.processes().size(); ++i) {
    const ProcessId p = ProcessId::FromIndex(i);
    const int64_t pid = t.processes().pid(p);
    EXPECT_EQ(t.processes().device_id(p), pid == 100 ? -1 : static_cast<int32_t>(pid)) << pid;
  }
  // The correlation pair and the ac2g flow give one launch link per kernel.
  EXPECT_EQ(LaunchLinkNames(t),
            (std::set<std::pair<std::string, std::string>>{{"cudaLaunchKernel", "void gemm<float>(int)"},
                                                           {"cudaMemcpyAsync", "Memcpy DtoH (Device -> Pinned)"}}));
  EXPECT_TRUE(t.diagnostics().empty());
}

TEST(ChromeJsonGpuTest, KinetoConventionsHoldWithoutArgs) {
  const Trace t = LoadGpu(ReadTestData("chrome_kineto_gpu.json"), /*keep_args=*/false);
  // Only the trace-level metadata (schemaVersion) keeps its args.
  EXPECT_EQ(t.args().size(), 1u);
  for (size_t i = 0; i < t.slices().size(); ++i) EXPECT_TRUE(t.slices().arg_set()[i].is_none());
  EXPECT_EQ(RowOf(t, "void gemm<float>(int)").gpu_kind, GpuKind::kKernel);
  EXPECT_EQ(LaunchLinkNames(t).size(), 2u);
}

TEST(ChromeJsonGpuTest, OldKinetoCategoriesAndStringStreams) {
  const Trace t = LoadGpu(R"json({"schemaVersion":1,"traceEvents":[
    {"ph":"X","cat":"Operator","name":"aten::conv2d","pid":9,"tid":"509646592","ts":1,"dur":50},
    {"ph":"X","cat":"Runtime","name":"cudaLaunchKernel","pid":9,"tid":"509646592","ts":2,"dur":3,"args":{"correlation":31255}},
    {"ph":"s","id":31255,"pid":9,"tid":509646592,"ts":2,"cat":"async","name":"launch"},
    {"ph":"f","id":31255,"pid":0,"tid":"stream 7","ts":10,"cat":"async","name":"launch","bp":"e"},
    {"ph":"X","cat":"Kernel","name":"cudnn::wgrad","pid":0,"tid":"stream 7","ts":10,"dur":4,"args":{"correlation":31255}},
    {"ph":"X","cat":"Memcpy","name":"Memcpy HtoD (Pageable -> Device)","pid":0,"tid":"stream 7","ts":20,"dur":1},
    {"ph":"X","cat":"Memset","name":"Memset (Device)","pid":0,"tid":"stream 7","ts":30,"dur":1},
    {"ph":"M","name":"process_labels","pid":0,"tid":0,"args":{"labels":"GPU 0"}}]})json");
  const Row kernel = RowOf(t, "cudnn::wgrad");
  EXPECT_EQ(kernel.kind, TrackKind::kGpuStream);
  EXPECT_EQ(kernel.device, 0);
  EXPECT_EQ(kernel.gpu_kind, GpuKind::kKernel);
  EXPECT_EQ(t.tracks().tid(t.slices().track()[SliceNamed(t, "cudnn::wgrad")]), 7);
  EXPECT_EQ(RowOf(t, "Memcpy HtoD (Pageable -> Device)").gpu_kind, GpuKind::kMemcpyH2D);
  EXPECT_EQ(RowOf(t, "Memset (Device)").gpu_kind, GpuKind::kMemset);
  EXPECT_EQ(LaunchLinkNames(t), (std::set<std::pair<std::string, std::string>>{{"cudaLaunchKernel", "cudnn::wgrad"}}));
  EXPECT_EQ(t.flows().size(), 1u);  // the "async"/"launch" flow is the same link
}

TEST(ChromeJsonGpuTest, ProcessLabelsNameTheDevice) {
  const Trace t = LoadGpu(R"([
    {"ph":"X","cat":"kernel","name":"k","pid":3,"tid":7,"ts":1,"dur":1},
    {"ph":"M","name":"process_labels","pid":3,"args":{"labels":"GPU 5"}}])");
  EXPECT_EQ(RowOf(t, "k").device, 5);
}

// tests/data/chrome_tensorboard_gpu.json: TensorBoard / TF trace-viewer JSON
// (trace-formats.md 2.4). All arg values are strings, device
// processes are "/device:GPU:n" (here with a host prefix), names come last.

TEST(ChromeJsonGpuTest, TensorBoardStreamsAndDerivedRows) {
  const Trace t = LoadGpu(ReadTestData("chrome_tensorboard_gpu.json"));
  const Row sgemm = RowOf(t, "volta_sgemm_128x64_nn");
  EXPECT_EQ(sgemm.kind, TrackKind::kGpuStream);
  EXPECT_EQ(sgemm.device, 0);
  EXPECT_EQ(sgemm.gpu_kind, GpuKind::kKernel);
  EXPECT_EQ(RowOf(t, "ncclKernel_AllReduce_RING").gpu_kind, GpuKind::kCollective);
  EXPECT_EQ(RowOf(t, "MemcpyH2D").gpu_kind, GpuKind::kMemcpyH2D);
  EXPECT_EQ(RowOf(t, "MemcpyOther").gpu_kind, GpuKind::kMemcpyD2H);  // memcpy_details say device -> pinned
  EXPECT_EQ(RowOf(t, "MemcpyP2P").gpu_kind, GpuKind::kMemcpyOther);
  EXPECT_EQ(RowOf(t, "Memset 1").gpu_kind, GpuKind::kMemset);
  for (const char* derived : {"1", "fusion.1", "fusion.2"}) {
    const Row r = RowOf(t, derived);
    EXPECT_EQ(r.kind, TrackKind::kGpuDerived) << derived;
    EXPECT_EQ(r.device, 0) << derived;
    EXPECT_EQ(r.gpu_kind, GpuKind::kNone) << derived;
  }
  const Row host = RowOf(t, "cuLaunchKernel");
  EXPECT_EQ(host.kind, TrackKind::kHostThread);
  EXPECT_EQ(LaunchLinkNames(t),
            (std::set<std::pair<std::string, std::string>>{{"cuLaunchKernel", "volta_sgemm_128x64_nn"}}));
  // Sub-microsecond times survive: 120.000001 us.
  EXPECT_EQ(t.slices().start_ns()[SliceNamed(t, "volta_sgemm_128x64_nn")], 120000);
  EXPECT_EQ(t.slices().dur_ns()[SliceNamed(t, "volta_sgemm_128x64_nn")], 5500);
  EXPECT_TRUE(t.diagnostics().empty());
}

// TensorBoard writes one "correlation_id" string per launch. Canonical
// decimal text is held as its number (ArgType::kDecimalString, no pool
// entry); any other text stays a string. Both link the launch, and both read
// and write back as the string the trace gave.
TEST(ChromeJsonGpuTest, TensorBoardCorrelationIdsAreHeldAsTheirDigits) {
  const Trace t = LoadGpu(R"json({"traceEvents":[
    {"ph":"M","name":"process_name","pid":1,"args":{"name":"/device:GPU:0"}},
    {"ph":"M","name":"process_name","pid":7,"args":{"name":"/host:CPU"}},
    {"ph":"M","name":"thread_name","pid":1,"tid":14,"args":{"name":"Stream #14(Compute)"}},
    {"ph":"X","pid":7,"tid":1,"ts":1,"dur":2,"name":"cuLaunchKernel","args":{"correlation_id":"11253","group_id":"0"}},
    {"ph":"X","pid":7,"tid":1,"ts":4,"dur":2,"name":"cuLaunchKernel","args":{"correlation_id":"007"}},
    {"ph":"X","pid":7,"tid":1,"ts":7,"dur":2,"name":"cuLaunchKernel","args":{"correlation_id":"18446744073709551615"}},
    {"ph":"X","pid":7,"tid":1,"ts":10,"dur":2,"name":"other","args":{"correlation_id":"x1"}},
    {"ph":"X","pid":1,"tid":14,"ts":20,"dur":5,"name":"kernel_a","args":{"correlation_id":"11253"}},
    {"ph":"X","pid":1,"tid":14,"ts":30,"dur":5,"name":"kernel_b","args":{"correlation_id":"7"}},
    {"ph":"X","pid":1,"tid":14,"ts":40,"dur":5,"name":"kernel_c","args":{"correlation_id":"18446744073709551615"}}
  ]})json");
  const StringId key = t.strings().Find("correlation_id");
  ASSERT_FALSE(key.is_none());
  const auto value_of = [&](int64_t ts_us) {
    ArgValue v;
    for (size_t i = 0; i < t.slices().size(); ++i) {
      if (t.slices().start_ns()[i] != ts_us * 1000) continue;
      EXPECT_TRUE(t.args().Find(t.slices().arg_set()[i], key, &v)) << ts_us;
      return v;
    }
    ADD_FAILURE() << "no slice at " << ts_us << " us";
    return v;
  };
  EXPECT_EQ(value_of(1).type, ArgType::kDecimalString);
  EXPECT_EQ(value_of(1).as_uint(), 11253u);
  EXPECT_EQ(value_of(7).type, ArgType::kDecimalString);
  EXPECT_EQ(value_of(7).as_uint(), UINT64_MAX);
  EXPECT_EQ(value_of(4).type, ArgType::kString);  // "007" is not what 7 prints
  EXPECT_EQ(t.str(value_of(4).as_string()), "007");
  EXPECT_EQ(t.str(value_of(10).as_string()), "x1");
  EXPECT_TRUE(t.strings().Find("11253").is_none());  // not interned
  // "007" and "7" name the same launch, as before.
  EXPECT_EQ(LaunchLinkNames(t), (std::set<std::pair<std::string, std::string>>{
                                {"cuLaunchKernel", "kernel_a"}, {"cuLaunchKernel", "kernel_b"}, {"cuLaunchKernel", "kernel_c"}}));
  const std::string json = exports::ChromeJsonText(t);
  EXPECT_NE(json.find(R"("args":{"correlation_id":"11253","group_id":"0"})"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("args":{"correlation_id":"18446744073709551615"})"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("args":{"correlation_id":"007"})"), std::string::npos) << json;
}

TEST(ChromeJsonGpuTest, ConventionHelpers) {
  EXPECT_TRUE(ClassifyCategory("gpu_user_Annotation").device_side);
  EXPECT_EQ(ClassifyCategory("KERNEL").kind, KinetoCategory::kKernel);
  EXPECT_TRUE(ClassifyCategory("cuda_sync").device_side);
  EXPECT_EQ(ClassifyCategory("cuda_sync").kind, KinetoCategory::kOther);
  EXPECT_FALSE(ClassifyCategory("cuda_runtime").device_side);
  EXPECT_TRUE(IsLaunchFlow("ac2g", "ac2g"));
  EXPECT_TRUE(IsLaunchFlow("async_cpu_to_gpu", "async_gpu"));
  EXPECT_TRUE(IsLaunchFlow("async", "launch"));
  EXPECT_FALSE(IsLaunchFlow("async", "other"));
  EXPECT_FALSE(IsLaunchFlow("fwdbwd", "fwdbwd"));
  EXPECT_EQ(DeviceFromProcessName("/device:GPU:12"), 12);
  EXPECT_EQ(DeviceFromProcessName("host /device:GPU:3 (pid 7)"), 3);
  EXPECT_EQ(DeviceFromProcessName("/host:CPU"), -1);
  EXPECT_EQ(DeviceFromProcessLabels("GPU 2"), 2);
  EXPECT_EQ(DeviceFromProcessLabels("CPU"), -1);
  EXPECT_EQ(TensorBoardRowKind("Stream #7(MemcpyH2D,Compute)"), TrackKind::kGpuStream);
  EXPECT_EQ(TensorBoardRowKind("XLA Modules"), TrackKind::kGpuDerived);
  EXPECT_EQ(TensorBoardRowKind("Framework Ops - from #14"), TrackKind::kGpuDerived);
  EXPECT_EQ(TensorBoardRowKind("_counters_"), TrackKind::kHostThread);
  EXPECT_EQ(MemcpyDetailsKind("kind_src:host kind_dst:device size:4"), GpuKind::kMemcpyH2D);
  EXPECT_EQ(MemcpyDetailsKind("size:4"), GpuKind::kNone);
}

}  // namespace
}  // namespace stepline::loaders
