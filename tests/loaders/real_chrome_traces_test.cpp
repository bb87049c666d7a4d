// Every real Chrome-JSON / Kineto trace in ../shared/traces, loaded with
// loaders::LoadFile and checked against facts counted independently from the
// raw events (tests/data/real_trace_facts/: count_facts.py and its facts.tsv).
//
// [SECTION] The facts table (one row per trace; a new trace is one more row)
// [SECTION] Per-trace test: load once, compare every fact
// [SECTION] Table hygiene: kFacts == facts.tsv, and every JSON trace of MANIFEST.tsv has a row
//
// Conventions (../shared/docs/trace-formats.md section 2.6; count_facts.py spells them out):
// * kernels = GpuKind::kKernel + kCollective slices: NCCL/RCCL kernels are kernels,
//   gpu_user_annotation slices are not. Per device = device_id of the slice's track
//   (Kineto: pid = device id).
// * Copy direction comes from the name ("Memcpy HtoD (Pageable -> Device)").
// * gpu_side_rows: kGpuStream tracks = every (pid, tid) holding a GPU-side Kineto
//   event (kernel, memcpy, memset, gpu_user_annotation, cuda_sync, cuda_event), so
//   the "Device 0" row (tid -1) holding only device-wide cuda_sync events counts;
//   so do MTIA's device queues (mtia_ccp_events on process "MTIA 17", rows
//   "Stream 101".. with args.stream). gpu_streams: those holding kernels/copies/memsets.
//   The MTIA queue events are device activity by name (pe_exe, merge,
//   remote: kernels; dma_request: copies; event_record / event_wait: not activity).
// * Steps: ProfilerStep#N on host rows. Newer Kineto copies each step onto the GPU
//   row as a gpu_user_annotation; that copy is the same step seen from the device,
//   so analysis::TraceSummary::steps must not count it (the name-prefix count over
//   all slices does: steps_host + steps_gpu_annotation).
// * Launch links (FlowKind::kLaunch): the distinct (launch call, target) pairs that
//   are RIGHT: a host runtime/driver call and each GPU-side event with the same
//   `correlation` arg (activities, and cuda_sync / MTIA queue events), plus the
//   ac2g-family s/f flows (chained in time order, s first at equal times: Kineto
//   writes every f before its s) whose two ends do not carry different correlation ids. In hta/trace_diff_*
//   an ac2g "s" shares its timestamp with a zero-length cudaFuncSetAttribute /
//   cudaPeekAtLastError nested in the launch, so binding it by time picks the wrong
//   call (63 and 10 pairs): no launch flow may join two correlation ids.
//   cudaGraphLaunch kernels and ROCm memsets have a correlation but no flow.
//   launched_activities = GPU activities (GpuKind != kNone) with an incoming link.
//   -1 would mean "two launch calls share a correlation id": none today.
// * generic_flows: other s/t/f flows, one per hop, chained by (cat, name, id) in time
//   order, deduplicated per (from, to). Chaining in file order loses most of them.
// * Unmatched begins/ends count B/E, async b/e and legacy S/F; S/F matched in time
//   order (catapult/multiple_input_latency writes many F before their S).
#include <gtest/gtest.h>

#include <cctype>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <map>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "loaders/load.h"
#include "loaders/trace_builder.h"
#include "model/analysis/trace_summary.h"
#include "tests/support/test_traces.h"
#include "tests/support/trace_facts.h"

namespace stepline {
namespace {

using testing::CountModelFacts;
using testing::FormatKernelsPerDevice;
using testing::ModelFacts;

// [SECTION] The facts table ----------------------------------------------------

struct RealTraceFacts {
  const char* path;  // relative to the shared traces dir
  int64_t slices;    // X + B events; -1 when the trace has async phases or X without dur
  uint64_t kernels;
  int64_t kernel_ns;
  const char* kernels_per_device;  // "device=count/ns ..." ascending device
  uint64_t memcpy_h2d, memcpy_d2h, memcpy_d2d, memcpy_other, memsets;
  uint64_t gpu_side_rows;  // TrackKind::kGpuStream tracks
  uint64_t gpu_streams;    // ... of them holding a GPU activity
  uint64_t devices;        // distinct device ids of GPU activities
  uint64_t steps_host, steps_gpu_annotation;
  int64_t launch_links;  // kLaunch flows; -1 = not stated (see the file comment)
  uint64_t launched_activities;
  uint64_t generic_flows;
  // Diagnostics kUnmatchedBegin / kUnmatchedEnd: B/E, async b/e and legacy S/F
  // (S/F matched in time order: Catapult's traces write many F before their S).
  uint64_t unmatched_begin, unmatched_end;
};

// Copied from facts.tsv (FactsTableMatchesTsv keeps them equal). Kernel counts and
// ns of every Kineto trace were re-checked with a regex over the raw text; copy,
// memset, step and stream counts spot-checked with grep; the launch mismatches by
// reading the events (see the file comment).
// clang-format off
constexpr RealTraceFacts kFacts[] = {
    // path
    //  slices, kernels, kernel_ns, per_device, h2d, d2h, d2d, other, memsets, gpu_side_rows, gpu_streams, devices,
    //  steps_host, steps_gpu_annotation, launch_links, launched_activities, generic_flows, unmatched_begin,
    //  unmatched_end
    {"catapult/flow.json",  // 3 B never closed
     1625, 0, 0, "", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 420, 3, 0},
    {"catapult/fuchsia_trace.json.gz",  // 540 s-t-t-t-f chains = 2160 hops
     -1, 0, 0, "", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2160, 0, 0},
    {"catapult/multiple_input_latency.json",  // 33 S never finished, 2 F without S
     -1, 0, 0, "", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 903, 33, 2},
    {"catapult/perf_sampling_trace_with_trace_events.json.gz",  // 18 X without dur
     -1, 0, 0, "", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 107, 8, 0},
    {"hta/amd_trace_mi250_minitoy_train_ROCm6_2_kineto.json.gz",
     113, 14, 110881, "2=14/110881", 2, 0, 0, 0, 0, 1, 1, 1, 2, 1, 16, 16, 4, 0, 0},
    {"hta/cpu_only_rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz",
     16, 0, 0, "", 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0},
    // alexnet: 98 activity + 41 cuda_sync links. One ac2g s sits at the ts of two zero-length
    // calls (cudaStreamWaitEvent, cudaEventRecord); binding by time may pick the wrong one.
    {"hta/critical_path_alexnet_benchmark_result_2869224_1695835535_trace.json.gz",
     868, 79, 10692000, "0=79/10692000", 16, 0, 0, 0, 3, 3, 2, 1, 0, 0, 139, 98, 0, 0, 0},
    {"hta/critical_path_cuda_event_sync_event_sync_trace.json.gz",
     33, 4, 49000, "0=4/49000", 0, 1, 0, 0, 0, 2, 1, 1, 1, 0, 9, 5, 0, 0, 0},
    {"hta/critical_path_cuda_event_sync_multi_stream_event_sync_trace.json.gz",
     57, 3, 369000, "0=3/369000", 0, 0, 0, 0, 3, 4, 3, 1, 0, 0, 11, 6, 0, 0, 0},
    {"hta/critical_path_end_to_end_simple_add_output_overlaid_critical_path_trace.json.gz",
     838, 79, 10728000, "0=79/10728000", 16, 0, 0, 0, 3, 3, 2, 1, 0, 0, 139, 98, 192, 0, 0},
    {"hta/critical_path_simple_add_benchmark_result_493459_1694039959_trace.json.gz",
     838, 79, 10728000, "0=79/10728000", 16, 0, 0, 0, 3, 3, 2, 1, 0, 0, 139, 98, 0, 0, 0},
    {"hta/cupti_profiler_benchmark_result_924719_1679055439_trace.json.gz",  // no s/f id pair completes
     2324, 0, 0, "", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"hta/df_index_resolver_df_index_resolver.json.gz",
     123379, 19370, 977859000, "1=19370/977859000", 0, 0, 2040, 0, 880, 2, 2, 1, 5, 0, 22290, 22290, 0, 0, 0},
    {"hta/execution_trace_benchmark_simple_add_trace.json.gz",
     56, 4, 16000, "0=4/16000", 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 4, 4, 0, 0, 0},
    {"hta/mtia_inference_trace_mtia_inference_rank_0.json.gz",  // 991 queue links + 175 ac2g to queue calls
     14179, 97, 414085123, "17=97/414085123", 0, 0, 0, 877, 0, 12, 12, 1, 0, 0, 1166, 730, 0, 0, 0},
    {"hta/nccl_parser_config_nccl_data.json.gz",
     26933, 2700, 162532340, "0=2700/162532340", 0, 0, 960, 0, 114, 2, 2, 1, 3, 0, 3774, 3774, 543, 0, 0},
    {"hta/ns_resolution_trace_rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz",
     45420, 4350, 468153602, "0=4350/468153602", 0, 0, 1600, 0, 145, 1, 1, 1, 5, 0, 6095, 6095, 905, 0, 0},
    {"hta/rank_non_gpu_rank_non_gpu.json.gz",
     2467, 0, 0, "", 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0},
    {"hta/trace_diff_control_control.json.gz",  // 63 ac2g s bound to the wrong call by time
     74937, 8568, 446813000, "3=8568/446813000", 150, 60, 18, 0, 654, 4, 4, 1, 6, 0, 9450, 9450, 0, 0, 0},
    {"hta/trace_diff_test_test.json.gz",  // 10 wrong ac2g s; cudaGraphLaunch kernels only by correlation
     68324, 9876, 801858000, "1=9876/801858000", 151, 60, 4645, 0, 900, 4, 4, 1, 6, 0, 15018, 15018, 0, 0, 0},
    {"hta/trace_file_list_inference_rank_1.json.gz",
     13, 4, 30000, "0=4/30000", 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 4, 4, 0, 0, 0},
    {"hta/trace_filter_sampled_rank-0.json.gz",  // no flow events: launch links by correlation only
     4811, 1154, 606519000, "0=1154/606519000", 24, 8, 8, 0, 10, 5, 5, 1, 2, 0, 1204, 1204, 0, 0, 0},
    {"hta/triton_example_triton_example.json.gz",  // launched by cuda_driver cuLaunchKernel
     8, 1, 1760, "0=1/1760", 0, 0, 0, 0, 0, 1, 1, 1, 1, 0, 1, 1, 0, 0, 0},
    {"hta/with_gpu_user_annotation_step_based_trace_2543932.json.gz",
     984, 130, 290000, "0=130/290000", 10, 0, 0, 0, 0, 1, 1, 1, 0, 0, 140, 140, 0, 0, 0},
    {"kineto/resnet50_autograd_api_num_workers_0__worker0.pt.trace.json.gz",  // tids "stream 7", "1441273664"
     59423, 9329, 973041000, "0=9329/973041000", 16, 0, 322, 0, 466, 13, 13, 1, 0, 0, 10133, 10133, 0, 0, 0},
    {"kineto/resnet50_num_workers_0__worker0.2021-02.pt.trace.json.gz",
     54320, 9564, 640354000, "0=9564/640354000", 12, 0, 0, 0, 439, 1, 1, 1, 6, 0, 9282, 9282, 0, 0, 0},
    {"speedscope/Chrome116_Trace-20230603T221323.json",
     -1, 0, 0, "", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 13, 0, 0},
    {"tracelens/h100_bert-small-uncased.json.gz",
     2060, 60, 307197, "0=60/307197", 0, 1, 0, 0, 0, 1, 1, 1, 1, 1, 61, 61, 0, 0, 0},
    {"tracelens/h100_google_owlv2-large-patch14-ensemble.json.gz",
     104159, 4330, 551451628, "0=4330/551451628", 25, 55, 5, 0, 750, 1, 1, 1, 1, 1, 5165, 5165, 0, 0, 0},
    {"tracelens/mi210_gpu_only_trace.json.gz",
     1194, 562, 5343422, "1=562/5343422", 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 562, 562, 0, 0, 0},
    {"tracelens/mi300_resnet_act_checkpoint.json.gz",  // 81 hipMemsetAsync links by correlation only
     49208, 2995, 97255826, "2=2995/97255826", 0, 0, 550, 0, 108, 2, 2, 1, 3, 3, 2685, 2685, 213, 0, 0},
    {"tracelens/sglang_Qwen3-8B_prefilldecode.json.gz",
     58712, 527, 492773592, "9=527/492773592", 2, 0, 5, 0, 0, 2, 2, 1, 0, 0, 534, 534, 0, 0, 0},
    {"tracelens/torch_compile_triton_trace.json.gz",
     115, 12, 12549021, "2=12/12549021", 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 12, 12, 0, 0, 0},
    {"tracelens/vllm_decode_full_graph_capture_rank_0.pt.trace.json.gz",
     126861, 7, 19633, "2=7/19633", 1, 0, 2, 0, 0, 1, 1, 1, 0, 0, 10, 10, 0, 0, 0},
};
// clang-format on

// gtest prints a failing parameter with this (instead of its bytes).
void PrintTo(const RealTraceFacts& facts, std::ostream* os) { *os << facts.path; }

std::string ParamName(const ::testing::TestParamInfo<RealTraceFacts>& info) {
  std::string name;
  for (const char* p = info.param.path; *p; ++p) name += std::isalnum(static_cast<unsigned char>(*p)) ? *p : '_';
  return name;
}

// [SECTION] Per-trace test -----------------------------------------------------

class RealChromeTraceTest : public ::testing::TestWithParam<RealTraceFacts> {};

TEST_P(RealChromeTraceTest, MatchesHandCountedFacts) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  const RealTraceFacts& want = GetParam();
  auto loaded = loaders::LoadFile(testing::SharedTracePath(want.path));
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const Trace& trace = *loaded;
  EXPECT_EQ(trace.CheckInvariants(), "");
  EXPECT_EQ(trace.info().format, "chrome-json");

  const ModelFacts got = CountModelFacts(trace);
  const analysis::TraceSummary summary = analysis::ComputeTraceSummary(trace);
  if (want.slices >= 0) {
    EXPECT_EQ(got.slices, static_cast<uint64_t>(want.slices)) << "slices (X + B events)";
  }

  EXPECT_EQ(got.kernels, want.kernels) << "kernel + collective slices";
  EXPECT_EQ(summary.gpu_count[static_cast<size_t>(GpuKind::kKernel)] +
                summary.gpu_count[static_cast<size_t>(GpuKind::kCollective)],
            want.kernels)
      << "TraceSummary kernels";
  EXPECT_EQ(got.kernel_ns, want.kernel_ns) << "summed kernel dur_ns";
  EXPECT_EQ(FormatKernelsPerDevice(got.kernels_per_device), want.kernels_per_device) << "device=count/ns";
  EXPECT_EQ(summary.devices, want.devices) << "devices with GPU activity";

  EXPECT_EQ(got.memcpy_h2d, want.memcpy_h2d) << "HtoD copies";
  EXPECT_EQ(got.memcpy_d2h, want.memcpy_d2h) << "DtoH copies";
  EXPECT_EQ(got.memcpy_d2d, want.memcpy_d2d) << "DtoD copies";
  EXPECT_EQ(got.memcpy_other, want.memcpy_other) << "other copies";
  EXPECT_EQ(got.memsets, want.memsets) << "memsets";

  EXPECT_EQ(got.gpu_stream_tracks, want.gpu_side_rows) << "kGpuStream tracks (rows of GPU-side events)";
  EXPECT_EQ(got.gpu_stream_tracks_with_activity, want.gpu_streams) << "kGpuStream tracks holding GPU activity";

  // TraceSummary::steps is the report's step count; host
  // ProfilerStep#N markers, when there are some, are those steps.
  if (want.steps_host > 0) {
    EXPECT_EQ(summary.steps, want.steps_host) << "TraceSummary::steps (host ProfilerStep#N)";
  }
  EXPECT_EQ(got.host_step_slices, want.steps_host) << "ProfilerStep# slices on host rows";
  EXPECT_EQ(got.step_slices, want.steps_host + want.steps_gpu_annotation) << "ProfilerStep# slices, any row";

  if (want.launch_links >= 0) {
    EXPECT_EQ(got.launch_flows, static_cast<uint64_t>(want.launch_links)) << "kLaunch flows";
  }
  EXPECT_EQ(got.launched_activities, want.launched_activities) << "GPU activities with a launch link";
  EXPECT_EQ(got.launch_correlation_mismatches, 0u) << "kLaunch flows joining different correlation ids";
  if (want.launched_activities > 0) {
    // Otherwise the mismatch check above would pass for want of args.
    EXPECT_GT(got.launch_correlation_checked, 0u) << "no launch flow has `correlation` on both ends";
  }
  EXPECT_EQ(got.generic_flows, want.generic_flows) << "generic flow hops";

  EXPECT_EQ(trace.diagnostics().count(DiagCode::kUnmatchedBegin), want.unmatched_begin) << "B, b, S never ended";
  EXPECT_EQ(trace.diagnostics().count(DiagCode::kUnmatchedEnd), want.unmatched_end) << "E, e, F with nothing open";
  EXPECT_EQ(trace.diagnostics().count(DiagCode::kNegativeDuration), 0u) << "no trace has an X with dur < 0";
}

INSTANTIATE_TEST_SUITE_P(SharedTraces, RealChromeTraceTest, ::testing::ValuesIn(kFacts), ParamName);

// The counting helper itself, on a hand-built trace: without this, a helper
// that always answered 0 would make the mismatch and step checks above vacuous.
TEST(RealChromeTraceFactsTest, CountModelFactsSeesWrongLaunchLinksAndGpuStepCopies) {
  loaders::TraceBuilder b("test");
  const StringId corr_key = b.Intern("correlation");
  auto corr = [&](int64_t v) {
    const Arg a{corr_key, ArgValue::Int(v)};
    return b.AddArgs({&a, 1});
  };
  const TrackId host = b.ThreadTrack(100, 100);
  const TrackId stream = b.ThreadTrack(0, 7);
  b.SetTrackKind(stream, TrackKind::kGpuStream, /*device_id=*/0);
  b.AddSlice({host, 0, 1000, b.Intern("ProfilerStep#3"), StringId::None(), ArgSetId::None(), GpuKind::kNone});
  const SliceId launch =
      b.AddSlice({host, 10, 6, b.Intern("cudaLaunchKernel"), StringId::None(), corr(5), GpuKind::kNone});
  const SliceId other =
      b.AddSlice({host, 10, 0, b.Intern("cudaFuncSetAttribute"), StringId::None(), corr(4), GpuKind::kNone});
  b.AddSlice({stream, 0, 900, b.Intern("ProfilerStep#3"), StringId::None(), ArgSetId::None(), GpuKind::kNone});
  const SliceId kernel = b.AddSlice({stream, 20, 9, b.Intern("k"), StringId::None(), corr(5), GpuKind::kKernel});
  b.AddSlice({stream, 40, 3, b.Intern("Memcpy HtoD"), StringId::None(), ArgSetId::None(), GpuKind::kMemcpyH2D});
  b.NoteLaunch(5, launch);
  b.NoteDeviceActivity(5, kernel);
  FlowTable::Pending wrong;
  wrong.from = FlowEndpoint::OfSlice(other);
  wrong.to = FlowEndpoint::OfSlice(kernel);
  wrong.kind = FlowKind::kLaunch;
  b.AddFlow(wrong);
  const Trace trace = b.Finish();
  ASSERT_EQ(trace.CheckInvariants(), "");

  const ModelFacts f = CountModelFacts(trace);
  EXPECT_EQ(f.kernels, 1u);
  EXPECT_EQ(FormatKernelsPerDevice(f.kernels_per_device), "0=1/9");
  EXPECT_EQ(f.memcpy_h2d, 1u);
  EXPECT_EQ(f.gpu_stream_tracks, 1u);
  EXPECT_EQ(f.gpu_stream_tracks_with_activity, 1u);
  EXPECT_EQ(f.step_slices, 2u);
  EXPECT_EQ(f.host_step_slices, 1u);
  EXPECT_EQ(f.launch_flows, 2u);
  EXPECT_EQ(f.launched_activities, 1u);
  EXPECT_EQ(f.launch_correlation_checked, 2u);
  EXPECT_EQ(f.launch_correlation_mismatches, 1u);
}

// [SECTION] Table hygiene ------------------------------------------------------

// Rows of a TSV file with a header line, as column name -> value.
std::vector<std::map<std::string, std::string>> ReadTsv(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::map<std::string, std::string>> rows;
  std::vector<std::string> header;
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream cells_in(line);
    for (std::string cell; std::getline(cells_in, cell, '\t');) cells.push_back(cell);
    if (header.empty()) {
      header = cells;
      continue;
    }
    std::map<std::string, std::string>& row = rows.emplace_back();
    for (size_t i = 0; i < header.size() && i < cells.size(); ++i) row[header[i]] = cells[i];
  }
  return rows;
}

// The C++ table is a copy of count_facts.py's output; a re-run of the script that
// changes a fact must change the table too (and the other way round).
TEST(RealChromeTraceFactsTest, FactsTableMatchesTsv) {
  const auto tsv = ReadTsv(testing::TestDataPath("real_trace_facts/facts.tsv"));
  ASSERT_FALSE(tsv.empty()) << "cannot read tests/data/real_trace_facts/facts.tsv";
  EXPECT_EQ(tsv.size(), std::size(kFacts)) << "one kFacts row per facts.tsv row";
  for (const auto& t : tsv) {
    const std::string& path = t.at("path");
    SCOPED_TRACE(path);
    const RealTraceFacts* row = nullptr;
    for (const RealTraceFacts& f : kFacts) row = path == f.path ? &f : row;
    ASSERT_NE(row, nullptr) << "no kFacts row";
    auto num = [&](const char* column) { return std::stoll(t.at(column)); };
    EXPECT_EQ(row->slices, num("slices_expected"));
    EXPECT_EQ(row->kernels, static_cast<uint64_t>(num("kernels")));
    EXPECT_EQ(row->kernel_ns, num("kernel_ns"));
    EXPECT_EQ(row->kernels_per_device, t.at("kernels_per_device"));
    EXPECT_EQ(row->memcpy_h2d, static_cast<uint64_t>(num("memcpy_h2d")));
    EXPECT_EQ(row->memcpy_d2h, static_cast<uint64_t>(num("memcpy_d2h")));
    EXPECT_EQ(row->memcpy_d2d, static_cast<uint64_t>(num("memcpy_d2d")));
    EXPECT_EQ(row->memcpy_other, static_cast<uint64_t>(num("memcpy_other")));
    EXPECT_EQ(row->memsets, static_cast<uint64_t>(num("memsets")));
    EXPECT_EQ(row->gpu_side_rows, static_cast<uint64_t>(num("gpu_side_rows")));
    EXPECT_EQ(row->gpu_streams, static_cast<uint64_t>(num("gpu_streams")));
    EXPECT_EQ(row->devices, static_cast<uint64_t>(num("devices")));
    EXPECT_EQ(row->steps_host, static_cast<uint64_t>(num("steps_host")));
    EXPECT_EQ(row->steps_gpu_annotation, static_cast<uint64_t>(num("steps_gpu_annotation")));
    EXPECT_EQ(row->launch_links, num("launch_links"));
    EXPECT_EQ(row->launched_activities, static_cast<uint64_t>(num("launched_activities")));
    EXPECT_EQ(row->generic_flows, static_cast<uint64_t>(num("generic_flow_pairs")));
    EXPECT_EQ(row->unmatched_begin, static_cast<uint64_t>(num("unmatched_begin")));
    EXPECT_EQ(row->unmatched_end, static_cast<uint64_t>(num("unmatched_end")));
    EXPECT_EQ(num("x_neg_dur"), 0) << "the per-trace test assumes no negative durations";
  }
}

// A JSON trace added to the shared folder without a facts row would go untested.
TEST(RealChromeTraceFactsTest, EveryJsonTraceInManifestHasFacts) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  const auto manifest = ReadTsv(testing::SharedTracePath("MANIFEST.tsv"));
  ASSERT_FALSE(manifest.empty()) << "cannot read MANIFEST.tsv";
  for (const auto& m : manifest) {
    const std::string& format = m.at("format");
    if (format != "chrome-json" && format != "kineto-json") continue;
    bool found = false;
    for (const RealTraceFacts& f : kFacts) found |= m.at("local_path") == f.path;
    EXPECT_TRUE(found) << m.at("local_path") << ": run count_facts.py and add its row to kFacts";
  }
}

}  // namespace
}  // namespace stepline
