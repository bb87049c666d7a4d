// The rocprofv3 JSON loader on documents written here: agents to devices,
// kernel symbols to names, queues to tracks, copy directions from agent
// types, HIP calls linked to dispatches by correlation id, roctx ranges as
// host slices and steps, and cut or malformed documents.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "loaders/load.h"
#include "loaders/rocprof/rocprof_loader.h"
#include "model/analysis/step_set.h"

namespace stepline::loaders {
namespace {

std::string Record(int64_t start, int64_t end, int64_t tid, int64_t corr, const std::string& extra) {
  return "{\"size\": 184, \"thread_id\": " + std::to_string(tid) +
         ", \"correlation_id\": {\"internal\": " + std::to_string(corr) +
         ", \"external\": 0}, \"start_timestamp\": " + std::to_string(start) +
         ", \"end_timestamp\": " + std::to_string(end) + extra + "}";
}

std::string Dispatch(int64_t start, int64_t end, int64_t corr, int agent, int queue, int kernel) {
  return Record(
      start, end, 77, corr,
      ", \"kind\": 11, \"operation\": 2, \"dispatch_info\": {\"agent_id\": {\"handle\": " + std::to_string(agent) +
          "}, \"queue_id\": {\"handle\": " + std::to_string(queue) + "}, \"kernel_id\": " + std::to_string(kernel) +
          ", \"group_segment_size\": 256, \"workgroup_size\": {\"x\": 256, \"y\": 1, \"z\": 1},"
          " \"grid_size\": {\"x\": 4096, \"y\": 2, \"z\": 1}}");
}

// One process: a CPU agent (10) and two GPU agents (11, 12).
std::string Document() {
  std::string hip_ops = "[\"hipApiName\", \"hipLaunchKernel\", \"hipMemcpyAsync\"]";
  std::string s = R"({"rocprofiler-sdk-tool": [{
 "metadata": {"pid": 908, "command": ["/usr/bin/python3", "-u", "/work/train.py"]},
 "agents": [{"id": {"handle": 10}, "type": 1, "name": "AMD EPYC", "product_name": "AMD EPYC"},
            {"id": {"handle": 11}, "type": 2, "name": "gfx950", "product_name": "AMD Instinct MI350X", "logical_node_type_id": 0},
            {"id": {"handle": 12}, "type": 2, "name": "gfx950", "product_name": "AMD Instinct MI350X", "logical_node_type_id": 1}],
 "strings": {"buffer_records": [{"kind": "NONE", "operations": []}, {"kind": "HSA_CORE_API", "operations": ["hsa_init"]},
   {"kind": "HIP_RUNTIME_API", "operations": )" +
                  hip_ops + R"(},
   {"kind": "MARKER_CORE_API", "operations": ["roctxMarkA", "roctxRangePushA", "roctxRangePop"]}],
   "marker_api": [{"key": 50, "value": "train_step"}, {"key": 51, "value": "train_step"}, {"key": 52, "value": "train_step"},
                  {"key": 53, "value": "ckpt"}]},
 "kernel_symbols": [{"kernel_id": 1, "kernel_name": "gemm_kernel.kd", "formatted_kernel_name": "gemm_kernel"},
                    {"kernel_id": 2, "kernel_name": "ncclDevKernel_AllReduce.kd", "formatted_kernel_name": ""}],
 "buffer_records": {
  "kernel_dispatch": [)" +
                  Dispatch(1100, 1500, 1, 11, 16, 1) + ", " + Dispatch(1600, 1700, 2, 11, 17, 2) + ", " +
                  Dispatch(5100, 5200, 3, 12, 16, 1) + R"(],
  "memory_copy": [)" +
                  Record(2000, 2100, 77, 4,
                         ", \"src_agent_id\": {\"handle\": 10}, \"dst_agent_id\": {\"handle\": 11}, \"bytes\": 64") +
                  ", " +
                  Record(2200, 2300, 77, 5,
                         ", \"src_agent_id\": {\"handle\": 11}, \"dst_agent_id\": {\"handle\": 10}, \"bytes\": 64") +
                  ", " +
                  Record(2400, 2500, 77, 6,
                         ", \"src_agent_id\": {\"handle\": 11}, \"dst_agent_id\": {\"handle\": 12}, \"bytes\": 64") +
                  R"(],
  "hip_api": [)" + Record(1000, 1050, 77, 1, ", \"kind\": 2, \"operation\": 1") +
                  ", " + Record(1060, 1080, 77, 2, ", \"kind\": 2, \"operation\": 1") + ", " +
                  Record(1090, 1095, 78, 3, ", \"kind\": 2, \"operation\": 1") + ", " +
                  Record(1990, 1999, 77, 4, ", \"kind\": 2, \"operation\": 2") + R"(],
  "hsa_api": [], "rccl_api": [],
  "marker_api": [)" +
                  Record(900, 1900, 77, 50, ", \"kind\": 3, \"operation\": 1") + ", " +
                  Record(2000, 3000, 77, 51, ", \"kind\": 3, \"operation\": 1") + ", " +
                  Record(3100, 5300, 77, 52, ", \"kind\": 3, \"operation\": 1") + ", " +
                  Record(3200, 3200, 77, 53, ", \"kind\": 3, \"operation\": 0") + R"(],
  "memory_allocation": [{"size": 1}]
 }}]})";
  return s;
}

Trace MustLoadRocprof(const std::string& text) {
  auto r = LoadBytes(text, "results.json");
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().ToString());
  if (!r.ok()) return Trace();
  EXPECT_EQ(r->CheckInvariants(), "");
  return std::move(r).value();
}

SliceId RocprofSlice(const Trace& t, std::string_view name) {
  for (size_t i = 0; i < t.slices().size(); ++i)
    if (t.str(t.slices().name()[i]) == name) return SliceId(static_cast<uint32_t>(i));
  return SliceId::None();
}

TEST(RocprofLoaderTest, SniffedByItsFirstKey) {
  EXPECT_EQ(SniffFormat("{\"rocprofiler-sdk-tool\": [{\"metadata\": {}}]}"), Format::kRocprofJson);
  EXPECT_EQ(SniffFormat("\n  { \n \"rocprofiler-sdk-tool\":["), Format::kRocprofJson);
  EXPECT_EQ(SniffFormat("{\"traceEvents\": [], \"rocprofiler-sdk-tool\": []}"), Format::kChromeJson);
  EXPECT_EQ(SniffFormat(std::string("SQLite format 3\0\x10\x00", 18)), Format::kNsysSqlite);
  EXPECT_EQ(FormatName(Format::kRocprofJson), "rocprof-json");
  EXPECT_EQ(FormatName(Format::kNsysSqlite), "nsys-sqlite");
}

TEST(RocprofLoaderTest, DispatchesCopiesAndApiCalls) {
  const Trace t = MustLoadRocprof(Document());
  EXPECT_EQ(t.info().format, "rocprof-json");
  std::map<GpuKind, int> kinds;
  for (size_t i = 0; i < t.slices().size(); ++i) ++kinds[t.slices().gpu_kind()[i]];
  EXPECT_EQ(kinds[GpuKind::kKernel], 2);
  EXPECT_EQ(kinds[GpuKind::kCollective], 1);
  EXPECT_EQ(kinds[GpuKind::kMemcpyH2D], 1);
  EXPECT_EQ(kinds[GpuKind::kMemcpyD2H], 1);
  EXPECT_EQ(kinds[GpuKind::kMemcpyOther], 1);  // GPU 0 -> GPU 1: peer to peer
  // kernel_id -> formatted name, else kernel_name without ".kd".
  const SliceId gemm = RocprofSlice(t, "gemm_kernel");
  ASSERT_FALSE(gemm.is_none());
  EXPECT_FALSE(RocprofSlice(t, "ncclDevKernel_AllReduce").is_none());
  const TrackId queue = t.slices().track()[gemm.index()];
  EXPECT_EQ(t.tracks().kind(queue), TrackKind::kGpuStream);
  EXPECT_EQ(t.tracks().device_id(queue), 0);
  EXPECT_EQ(t.str(t.tracks().name(queue)), "Queue 16");
  EXPECT_EQ(t.str(t.processes().name(t.tracks().process(queue))), "GPU 0 (AMD Instinct MI350X)");
  ArgValue v;
  ASSERT_TRUE(t.args().Find(t.slices().arg_set()[gemm.index()], t.strings().Find("grid"), &v));
  EXPECT_EQ(t.str(v.as_string()), "[4096, 2, 1]");
  // The second GPU's dispatch on its own device.
  std::set<int32_t> devices;
  for (size_t i = 0; i < t.slices().size(); ++i)
    if (t.slices().gpu_kind()[i] != GpuKind::kNone) devices.insert(t.tracks().device_id(t.slices().track()[i]));
  EXPECT_EQ(devices, (std::set<int32_t>{0, 1}));
  // HIP calls on their threads of process 908, named from strings, linked by correlation id.
  const SliceId launch = RocprofSlice(t, "hipLaunchKernel");
  ASSERT_FALSE(launch.is_none());
  const TrackId host = t.slices().track()[launch.index()];
  EXPECT_EQ(t.tracks().kind(host), TrackKind::kHostThread);
  EXPECT_EQ(t.processes().pid(t.tracks().process(host)), 908);
  EXPECT_EQ(t.str(t.processes().name(t.tracks().process(host))), "train.py (908)");
  int launches = 0;
  for (size_t i = 0; i < t.flows().size(); ++i) launches += t.flows().kind()[i] == FlowKind::kLaunch;
  EXPECT_EQ(launches, 4);  // three dispatches and the H2D copy
  EXPECT_EQ(t.diagnostics().count(DiagCode::kUnsupportedFeature), 1u);
}

TEST(RocprofLoaderTest, RoctxRangesAreHostSlicesAndSteps) {
  const Trace t = MustLoadRocprof(Document());
  int ranges = 0;
  for (size_t i = 0; i < t.slices().size(); ++i) ranges += t.str(t.slices().name()[i]) == "train_step";
  EXPECT_EQ(ranges, 3);
  ASSERT_EQ(t.instants().size(), 1u);
  EXPECT_EQ(t.str(t.instants().name()[0]), "ckpt");
  const analysis::StepSet steps = analysis::ComputeSteps(t);
  EXPECT_EQ(steps.source, analysis::StepSource::kRoctx);
  ASSERT_EQ(steps.steps.size(), 3u);
  EXPECT_EQ(steps.steps[2].start_ns, 3100);
  EXPECT_EQ(steps.steps[2].dur_ns, 2200);
}

TEST(RocprofLoaderTest, CutDocumentIsAnErrorAtTheEnd) {
  const std::string doc = Document();
  for (size_t cut : {doc.size() / 3, doc.size() / 2, doc.size() - 3}) {
    auto r = LoadBytes(doc.substr(0, cut), "cut.json");
    ASSERT_FALSE(r.ok()) << cut;
    EXPECT_EQ(r.error().code, LoadErrorCode::kJsonSyntax);
    EXPECT_EQ(r.error().byte_offset, cut) << r.error().ToString();
    EXPECT_NE(r.error().message.find("truncated"), std::string::npos) << r.error().message;
  }
}

TEST(RocprofLoaderTest, EveryPrefixIsAnErrorOrATraceNeverACrash) {
  const std::string doc = Document();
  for (size_t cut = 0; cut < doc.size(); cut += 7) {
    auto r = LoadRocprofJsonBytes(doc.substr(0, cut), "cut.json");
    if (r.ok()) {
      EXPECT_EQ(r->CheckInvariants(), "") << cut;
    } else {
      EXPECT_FALSE(r.error().message.empty()) << cut;
    }
  }
}

TEST(RocprofLoaderTest, WrongShapesAreClearErrorsOrDiagnostics) {
  auto r = LoadRocprofJsonBytes("{\"rocprofiler-sdk-tool\": {\"metadata\": 1}}", "obj.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, LoadErrorCode::kJsonSchema);
  auto empty = LoadRocprofJsonBytes("{\"rocprofiler-sdk-tool\": [{\"metadata\": {\"pid\": 1}}]}", "empty.json");
  ASSERT_TRUE(empty.ok()) << empty.error().ToString();
  EXPECT_EQ(empty->diagnostics().count(DiagCode::kMissingField), 1u);
  // Records of the wrong type are skipped, not fatal.
  auto odd = LoadRocprofJsonBytes(
      "{\"rocprofiler-sdk-tool\": [{\"buffer_records\": {\"kernel_dispatch\": [1, {\"start_timestamp\": 5}],"
      " \"hip_api\": [\"x\", {\"end_timestamp\": 3}]}}, 7]}",
      "odd.json");
  ASSERT_TRUE(odd.ok()) << odd.error().ToString();
  EXPECT_EQ(odd->slices().size(), 0u);
  EXPECT_GT(odd->diagnostics().count(DiagCode::kMissingField), 0u);
}

}  // namespace
}  // namespace stepline::loaders
