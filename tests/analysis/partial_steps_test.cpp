// A cut file: figures that need whole steps (memory growth per step, outlier
// steps) use only the steps that end before the cut, and are left out, with
// a note, when fewer than two remain. The cut is where the kernels stop: a
// Kineto file lists host ops before kernels, so a cut keeps the later steps'
// host ops and memory events without their kernels.
#include <gtest/gtest.h>

#include <string>

#include "loaders/load.h"
#include "model/analysis/report.h"
#include "model/analysis/trace_analysis.h"

namespace stepline::analysis {
namespace {

// Six 1 ms ProfilerSteps on the host, each leaking 1 MB (a [memory] event
// without a free), then one 0.8 ms kernel per step. `kernels` of them are
// written before the file is cut (no closing brackets).
std::string CutTrace(int kernels) {
  std::string out = R"({"traceEvents":[)";
  for (int k = 0; k < 6; ++k) {
    const int t0 = 1000 * k;
    out += R"({"ph":"X","cat":"cpu_op","name":"ProfilerStep#)" + std::to_string(k) +
           R"(","pid":1,"tid":1,"ts":)" + std::to_string(t0) + R"(,"dur":900},)";
    out += R"({"ph":"i","s":"t","name":"[memory]","pid":1,"tid":1,"ts":)" + std::to_string(t0 + 10) +
           R"(,"args":{"Device Type":1,"Device Id":0,"Bytes":1000000,"Addr":)" + std::to_string(4096 * (k + 1)) +
           "}},";
  }
  for (int k = 0; k < kernels; ++k) {
    out += R"({"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":)" + std::to_string(1000 * k + 50) +
           R"(,"dur":800,"args":{"device":0,"stream":7}},)";
  }
  out += R"({"ph":"X","cat":"kernel","name":"ge)";  // cut inside an event
  return out;
}

TEST(PartialStepsTest, GrowthUsesOnlyStepsBeforeTheCut) {
  // Four kernels read: step 3's ends before its step does, so nothing proves
  // step 3 whole; steps 0-2 end before the last kernel read.
  auto loaded = loaders::LoadBytes(CutTrace(4), "cut.json");
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const Trace& t = loaded.value();
  ASSERT_TRUE(t.diagnostics().has_data_loss());
  const TraceAnalysis a = ComputeAnalysis(t);
  ASSERT_EQ(a.steps.steps.size(), 6u);
  EXPECT_EQ(a.complete_steps, 3u);
  ASSERT_EQ(a.notes.size(), 1u);
  EXPECT_EQ(a.notes[0], "The file is cut: 3 of 6 steps end before the cut; step time, device busy and the "
                        "breakdown use those only; so do memory growth per step and outlier steps");
  ASSERT_EQ(a.memory.pools.size(), 1u);
  EXPECT_EQ(a.memory.pools[0].step_levels.size(), 4u);  // 3 step starts and the last one's end
  const Report r = ResolveReport(t, a);
  EXPECT_EQ(r.complete_steps, 3u);
  EXPECT_EQ(r.notes, a.notes);
}

TEST(PartialStepsTest, FewerThanTwoWholeStepsLeaveTheFiguresOut) {
  auto loaded = loaders::LoadBytes(CutTrace(2), "cut.json");
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const TraceAnalysis a = ComputeAnalysis(loaded.value());
  EXPECT_EQ(a.complete_steps, 1u);
  ASSERT_EQ(a.notes.size(), 1u);
  EXPECT_NE(a.notes[0].find("with fewer than two, memory growth per step and outlier steps are left out"),
            std::string::npos);
  EXPECT_EQ(a.memory.pools[0].growth_per_step_bytes, 0);
  EXPECT_TRUE(a.memory.pools[0].step_levels.empty());
  EXPECT_TRUE(a.outliers.steps.empty());
  for (const std::string& s : a.recommendations) EXPECT_EQ(s.find("per step"), std::string::npos) << s;
}

// Steps 3-5 have their host op but no kernel (never written): counted, they
// would halve device busy and call the run input-bound.
TEST(PartialStepsTest, BusyAndBreakdownUseOnlyStepsBeforeTheCut) {
  auto loaded = loaders::LoadBytes(CutTrace(4), "cut.json");
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const TraceAnalysis a = ComputeAnalysis(loaded.value());
  ASSERT_EQ(a.complete_steps, 3u);
  EXPECT_EQ(a.step_stats.count, 3u);
  EXPECT_EQ(a.step_stats.total_ns, 3 * 900'000);
  const DeviceAnalysis* d = a.primary();
  ASSERT_NE(d, nullptr);
  DurNs total = 0;
  for (DurNs ns : d->breakdown_total) total += ns;
  EXPECT_EQ(total, 3 * 900'000);
  EXPECT_EQ(At(d->breakdown_total, TimeCategory::kCompute), 3 * 800'000);
  const Report r = ResolveReport(loaded.value(), a);
  EXPECT_NEAR(r.gpu_busy_percent, 100.0 * 8 / 9, 1e-9);
  EXPECT_EQ(r.steps.size(), 6u);  // the steps are all listed; the figures keep to the first three
}

TEST(PartialStepsTest, AWholeFileUsesEveryStepAndHasNoNote) {
  std::string whole = CutTrace(6);
  whole.resize(whole.rfind(R"({"ph":"X","cat":"kernel","name":"ge)") - 1);  // drop the cut event and its comma
  whole += "]}";
  auto loaded = loaders::LoadBytes(whole, "whole.json");
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  ASSERT_FALSE(loaded.value().diagnostics().has_data_loss());
  const TraceAnalysis a = ComputeAnalysis(loaded.value());
  EXPECT_EQ(a.complete_steps, 6u);
  EXPECT_TRUE(a.notes.empty());
  EXPECT_NEAR(a.memory.pools[0].growth_per_step_bytes, 1e6, 1);
}

}  // namespace
}  // namespace stepline::analysis
