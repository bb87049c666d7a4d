// The efficiency analysis on the planted `efficiency` demo trace
// (demo/demo_efficiency.h): FLOPs, MFU, memory-bound time, exposed
// communication, launch figures and samples/s equal the planted truth.
#include <gtest/gtest.h>

#include "demo/demo_efficiency.h"
#include "loaders/load.h"
#include "model/analysis/compare.h"
#include "model/analysis/report.h"
#include "model/analysis/trace_analysis.h"

namespace stepline::analysis {
namespace {

struct EffTestRun {
  Trace trace;
  TraceAnalysis analysis;
};

EffTestRun EffTestLoad(const demo::EfficiencyDemoOptions& o, const EfficiencyOptions& eo = {}) {
  auto loaded = loaders::LoadBytes(demo::EfficiencyDemoJson(o), "efficiency.json");
  EXPECT_TRUE(static_cast<bool>(loaded));
  EffTestRun run{std::move(loaded.value()), {}};
  AnalysisOptions options;
  options.efficiency = eo;
  run.analysis = ComputeAnalysis(run.trace, options);
  return run;
}

const ReportOp* EffTestOp(const Report& r, std::string_view name) {
  for (const ReportOp& o : r.ops) {
    if (o.name == name) return &o;
  }
  return nullptr;
}

TEST(EfficiencyTest, PlantedTraceGivesExactFlopsAndMfu) {
  demo::EfficiencyDemoOptions o;
  EfficiencyOptions eo;
  eo.batch_size = 32;
  const EffTestRun run = EffTestLoad(o, eo);
  const demo::EfficiencyDemoTruth truth = demo::EfficiencyDemoTruthOf(o);
  const EfficiencyAnalysis& e = run.analysis.efficiency;
  ASSERT_EQ(run.analysis.steps.steps.size(), static_cast<size_t>(o.steps));
  EXPECT_EQ(e.device_name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(e.peak_dtype, "bf16");
  EXPECT_EQ(e.peak_source, PeakSource::kTable);
  EXPECT_DOUBLE_EQ(e.peak_tflops, 989.4);
  EXPECT_DOUBLE_EQ(e.model_flops, truth.flops_per_step * o.steps);
  const double tflops = truth.flops_per_step / (static_cast<double>(truth.step_ns) * 1e3);
  EXPECT_DOUBLE_EQ(e.achieved_tflops, tflops);
  EXPECT_DOUBLE_EQ(e.mfu_percent, 100.0 * tflops / 989.4);
  for (const StepEfficiency& s : e.steps) {
    EXPECT_DOUBLE_EQ(s.flops, truth.flops_per_step);
    EXPECT_DOUBLE_EQ(s.mfu_percent, 100.0 * tflops / 989.4);
    EXPECT_EQ(s.kernels, truth.kernels_per_step);
    EXPECT_EQ(s.launch_ns, truth.launch_ns_per_step);
    EXPECT_EQ(s.kernel_ns, truth.kernel_ns_per_step);
    EXPECT_EQ(s.memory_bound_ns, truth.memory_bound_ns_per_step);
    EXPECT_EQ(s.collective_ns, truth.collective_ns_per_step);
    EXPECT_EQ(s.exposed_ns, truth.exposed_ns_per_step);
    EXPECT_DOUBLE_EQ(s.samples_per_s, 32 / 0.01);
  }
  EXPECT_DOUBLE_EQ(e.flops_known_percent, 100.0 * static_cast<double>(truth.flops_known_kernel_ns_per_step) /
                                              static_cast<double>(truth.all_kernel_ns_per_step));
  EXPECT_EQ(e.collective_ns_per_step, truth.collective_ns_per_step);
  EXPECT_EQ(e.exposed_ns_per_step, truth.exposed_ns_per_step);
  EXPECT_DOUBLE_EQ(e.overlap_percent, truth.overlap_percent);
  EXPECT_DOUBLE_EQ(e.kernels_per_step, static_cast<double>(truth.kernels_per_step));
  EXPECT_EQ(e.launch_ns_per_step, truth.launch_ns_per_step);
  EXPECT_EQ(e.launch_delay_p50_ns, truth.launch_delay_p50_ns);
  EXPECT_EQ(e.launch_delay_p90_ns, truth.launch_delay_p90_ns);
  EXPECT_DOUBLE_EQ(e.short_kernel_percent, truth.short_kernel_percent);
  EXPECT_FALSE(e.launch_bound);  // most kernels outlast their launch calls
  EXPECT_DOUBLE_EQ(e.memory_bound_percent(), 100.0 * static_cast<double>(truth.memory_bound_ns_per_step) /
                                                 static_cast<double>(truth.kernel_ns_per_step));
  EXPECT_EQ(e.batch_size, 32);
  EXPECT_DOUBLE_EQ(e.samples_per_s, 32 / 0.01);

  const Report r = ResolveReport(run.trace, run.analysis);
  const ReportOp* linear = EffTestOp(r, "aten::linear");
  ASSERT_NE(linear, nullptr);
  EXPECT_DOUBLE_EQ(linear->flops, 2.0 * 64 * 128 * 1024 * 4096 * o.steps);
  // Its GPU time is the GEMM it launched (through addmm): 2000 us per step.
  EXPECT_DOUBLE_EQ(linear->achieved_tflops, 2.0 * 64 * 128 * 1024 * 4096 / (2'000'000.0 * 1e3));
  EXPECT_EQ(linear->bound, OpBound::kCompute);
  const ReportOp* addmm = EffTestOp(r, "aten::addmm");
  ASSERT_NE(addmm, nullptr);
  EXPECT_DOUBLE_EQ(addmm->flops, linear->flops);  // listed per name; counted once in the model's FLOPs
  // Arithmetic intensity (docs/efficiency.md): FLOPs over the inputs and the
  // output at bf16's 2 bytes. linear: X [64,128,1024], W [4096,1024], bias
  // [4096], output [8192,4096]; its addmm: bias [4096], [8192,1024],
  // [1024,4096] and the same output: the same bytes.
  const double bytes = 2.0 * (64 * 128 * 1024 + 4096 * 1024 + 4096 + 8192.0 * 4096);
  EXPECT_DOUBLE_EQ(linear->intensity, 2.0 * 64 * 128 * 1024 * 4096 / bytes);
  EXPECT_NEAR(linear->intensity, 744.661, 0.001);
  EXPECT_DOUBLE_EQ(addmm->intensity, 2.0 * 8192 * 1024 * 4096 / bytes);
  const ReportOp* mm = EffTestOp(r, "aten::mm");
  ASSERT_NE(mm, nullptr);
  EXPECT_LT(mm->intensity, 0);  // no shapes: no bytes, unknown
  EXPECT_LT(mm->flops, 0);  // no shapes: unknown, not 0
  EXPECT_LT(mm->achieved_tflops, 0);
  const ReportOp* add = EffTestOp(r, "aten::add_");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->bound, OpBound::kMemory);
}

TEST(EfficiencyTest, DeviceMissingFromTheTableLeavesMfuUnknown) {
  demo::EfficiencyDemoOptions o;
  o.device_name = "NVIDIA Imaginary X1";
  const EffTestRun run = EffTestLoad(o);
  const EfficiencyAnalysis& e = run.analysis.efficiency;
  EXPECT_EQ(e.device_name, "NVIDIA Imaginary X1");
  EXPECT_LT(e.peak_tflops, 0);
  EXPECT_EQ(e.peak_source, PeakSource::kNone);
  EXPECT_LT(e.mfu_percent, 0);
  EXPECT_LT(e.steps.front().mfu_percent, 0);
  EXPECT_GT(e.achieved_tflops, 0);  // FLOPs and time are still known
  // --peak-tflops gives it one.
  EfficiencyOptions eo;
  eo.peak_tflops = 100;
  const EffTestRun with_peak = EffTestLoad(o, eo);
  EXPECT_EQ(with_peak.analysis.efficiency.peak_source, PeakSource::kOption);
  EXPECT_DOUBLE_EQ(with_peak.analysis.efficiency.mfu_percent, with_peak.analysis.efficiency.achieved_tflops);
}

TEST(EfficiencyTest, OpsWithoutShapesHaveUnknownFlops) {
  demo::EfficiencyDemoOptions o;
  o.shapes = false;
  const EffTestRun run = EffTestLoad(o);
  const EfficiencyAnalysis& e = run.analysis.efficiency;
  EXPECT_FALSE(e.any_flops);
  EXPECT_LT(e.achieved_tflops, 0);
  EXPECT_LT(e.mfu_percent, 0);
  EXPECT_DOUBLE_EQ(e.flops_known_percent, 0);
  EXPECT_LT(e.steps.front().flops, 0);  // unknown, not 0
  EXPECT_LT(e.steps.front().mfu_percent, 0);
  EXPECT_EQ(e.peak_dtype, "");  // no input types: no dtype, so no table peak
  // The time figures do not need FLOPs.
  EXPECT_EQ(e.exposed_ns_per_step, demo::EfficiencyDemoTruthOf(o).exposed_ns_per_step);
}

TEST(EfficiencyTest, RecordedFlopsArgIsUsed) {
  demo::EfficiencyDemoOptions o;
  o.recorded_flops = true;
  const EffTestRun run = EffTestLoad(o);
  const demo::EfficiencyDemoTruth truth = demo::EfficiencyDemoTruthOf(o);
  EXPECT_DOUBLE_EQ(run.analysis.efficiency.model_flops, truth.flops_per_step * o.steps);
  const Report r = ResolveReport(run.trace, run.analysis);
  EXPECT_DOUBLE_EQ(EffTestOp(r, "aten::mm")->flops, 2147483648.0 * o.steps);
  EXPECT_LT(EffTestOp(r, "aten::mm")->intensity, 0);  // recorded FLOPs, no shapes: bytes unknown
}

TEST(EfficiencyTest, CompareHasAnMfuRowOnlyWhenBothRunsHaveOne) {
  const EffTestRun a = EffTestLoad({});
  demo::EfficiencyDemoOptions slower;
  slower.recorded_flops = true;  // more FLOPs in the same step time: a higher MFU
  const EffTestRun b = EffTestLoad(slower);
  const Comparison c = Compare(CompareRun{a.trace, a.analysis, "a"}, CompareRun{b.trace, b.analysis, "b"});
  const SummaryRow* mfu = nullptr;
  for (const SummaryRow& row : c.summary) {
    if (row.label == "MFU") mfu = &row;
  }
  ASSERT_NE(mfu, nullptr);
  EXPECT_DOUBLE_EQ(mfu->a, a.analysis.efficiency.mfu_percent);
  EXPECT_DOUBLE_EQ(mfu->b, b.analysis.efficiency.mfu_percent);
  EXPECT_DOUBLE_EQ(mfu->delta, mfu->b - mfu->a);
  EXPECT_EQ(ChangeOf(*mfu), Change::kImprovement);
  demo::EfficiencyDemoOptions unknown;
  unknown.device_name = "NVIDIA Imaginary X1";
  const EffTestRun u = EffTestLoad(unknown);
  const Comparison without = Compare(CompareRun{a.trace, a.analysis, "a"}, CompareRun{u.trace, u.analysis, "u"});
  for (const SummaryRow& row : without.summary) EXPECT_NE(row.label, "MFU");
}

// samples/s: a run row only when both runs have a batch size, higher is better.
TEST(EfficiencyTest, CompareHasASamplesRowOnlyWithBothBatchSizes) {
  EfficiencyOptions batch32, batch64;
  batch32.batch_size = 32;
  batch64.batch_size = 64;
  const EffTestRun a = EffTestLoad({}, batch32);
  const EffTestRun b = EffTestLoad({}, batch64);
  const EffTestRun none = EffTestLoad({});
  const Comparison c = Compare(CompareRun{a.trace, a.analysis, "a"}, CompareRun{b.trace, b.analysis, "b"});
  const SummaryRow* samples = nullptr;
  for (const SummaryRow& row : c.summary) {
    if (row.label == "samples/s") samples = &row;
  }
  ASSERT_NE(samples, nullptr);
  EXPECT_EQ(samples->group, SummaryGroup::kRun);
  EXPECT_EQ(samples->unit, SummaryUnit::kPerSecond);
  EXPECT_DOUBLE_EQ(samples->a, 32 / 0.01);  // the demo's steps are 10 ms
  EXPECT_DOUBLE_EQ(samples->b, 64 / 0.01);
  EXPECT_DOUBLE_EQ(samples->delta, 3200);
  EXPECT_EQ(ChangeOf(*samples), Change::kImprovement);
  const Comparison half = Compare(CompareRun{a.trace, a.analysis, "a"}, CompareRun{none.trace, none.analysis, "n"});
  for (const SummaryRow& row : half.summary) EXPECT_NE(row.label, "samples/s");
}

}  // namespace
}  // namespace stepline::analysis
