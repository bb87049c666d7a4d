// A step is never dropped. Generated 12-step traces whose
// consecutive ProfilerStep#N markers overlap by 1 ns (rounded timestamps), by
// 1 us, and by half a step (pipelined), and a Steps row that overlaps the same
// way: every marker is a step with its recorded extent, the windows split each
// overlap where the later step begins, and the breakdown sums exactly to the
// span of all steps, its compute equal to the kernel time in that span.
#include <gtest/gtest.h>

#include <string>

#include "model/analysis/report.h"
#include "tests/support/synthetic_trace.h"

namespace stepline::analysis {
namespace {

using testing::SyntheticTrace;
using testing::Us;

constexpr int kSteps = 12;
constexpr DurNs kStepNs = Us(100);

struct Built {
  Trace trace;
  std::vector<TimeNs> starts;
  DurNs kernel_ns = 0;  // summed kernel time, all inside [first start, last end)
};

// Step k starts at k * (kStepNs - overlap_of(k)) cumulatively; each step runs
// one 30 us kernel starting 10 us into it (kernels never overlap each other,
// since every overlap here is at most half a step).
template <typename Overlap>
Built Make(Overlap overlap_of, bool steps_row) {
  SyntheticTrace b;
  b.Thread("main");
  Built out;
  TimeNs t = Us(1000);
  for (int k = 0; k < kSteps; ++k) {
    out.starts.push_back(t);
    if (steps_row) {
      b.Device(0).StepsRow(std::to_string(k), t, kStepNs);
    } else {
      b.Thread("main").Slice("ProfilerStep#" + std::to_string(k), t, kStepNs);
    }
    t += kStepNs - overlap_of(k);
  }
  for (int k = 0; k < kSteps; ++k) {
    b.Device(0).Kernel(7, out.starts[k] + Us(10), Us(30), "gemm");
    out.kernel_ns += Us(30);
  }
  out.trace = b.Build();
  return out;
}

void ExpectEveryMarkerIsAStep(const Built& built, DurNs expected_max_overlap, uint32_t expected_overlaps) {
  const TraceAnalysis a = ComputeAnalysis(built.trace);
  ASSERT_EQ(a.steps.steps.size(), static_cast<size_t>(kSteps)) << StepSourceName(a.steps.source);
  EXPECT_EQ(a.steps.overlap_count, expected_overlaps);
  EXPECT_EQ(a.steps.max_overlap_ns, expected_max_overlap);
  const TimeNs span_start = built.starts.front(), span_end = built.starts.back() + kStepNs;
  DurNs windows = 0;
  for (int k = 0; k < kSteps; ++k) {
    const Step& s = a.steps.steps[k];
    EXPECT_EQ(s.start_ns, built.starts[k]) << "step " << k;
    EXPECT_EQ(s.dur_ns, kStepNs) << "step " << k;  // recorded extent kept
    const TimeNs next = k + 1 < kSteps ? built.starts[k + 1] : span_end;
    EXPECT_EQ(s.window_end_ns(), std::min(next, s.end_ns())) << "step " << k;
    windows += s.window_dur_ns;
  }
  EXPECT_EQ(windows, span_end - span_start);
  ASSERT_NE(a.primary(), nullptr);
  DurNs breakdown = 0;
  for (int k = 0; k < kSteps; ++k) {
    DurNs step_sum = 0;
    for (DurNs v : a.primary()->steps[k].category_ns) step_sum += v;
    EXPECT_EQ(step_sum, a.steps.steps[k].window_dur_ns) << "step " << k;
    breakdown += step_sum;
  }
  EXPECT_EQ(breakdown, span_end - span_start);
  EXPECT_EQ(At(a.primary()->breakdown_total, TimeCategory::kCompute), built.kernel_ns);

  // The report keeps the recorded extent and adds the window.
  const Report r = ResolveReport(built.trace, a);
  ASSERT_EQ(r.steps.size(), static_cast<size_t>(kSteps));
  EXPECT_EQ(r.steps[3].dur_ns, kStepNs);
  EXPECT_EQ(r.steps[3].window_dur_ns, a.steps.steps[3].window_dur_ns);
  EXPECT_EQ(r.steps_overlap_count, expected_overlaps);
  EXPECT_NE(r.step_source_sentence.find("12 "), std::string::npos) << r.step_source_sentence;
}

TEST(StepOverlapTest, OneNanosecondOverlapOnceInAWhileKeepsAllTwelve) {
  // Steps 2, 5 and 8 overlap the next by 1 ns; the rest touch.
  const Built b = Make([](int k) { return k % 3 == 2 ? DurNs{1} : DurNs{0}; }, false);
  ExpectEveryMarkerIsAStep(b, 1, 3);
}

TEST(StepOverlapTest, OneMicrosecondOverlapEveryStep) {
  const Built b = Make([](int) { return Us(1); }, false);
  ExpectEveryMarkerIsAStep(b, Us(1), kSteps - 1);
}

TEST(StepOverlapTest, PipelinedStepsOverlapByHalfAStep) {
  const Built b = Make([](int) { return kStepNs / 2; }, false);
  ExpectEveryMarkerIsAStep(b, kStepNs / 2, kSteps - 1);
}

TEST(StepOverlapTest, PipelinedStepsRowKeepsEveryStep) {
  const Built b = Make([](int) { return kStepNs / 2; }, true);
  ExpectEveryMarkerIsAStep(b, kStepNs / 2, kSteps - 1);
}

TEST(StepOverlapTest, NestedStepWindowsStillCoverTheUnion) {
  // A step inside a longer one: the outer's window ends where the inner
  // begins, the inner's runs to the outer's end, so the union is covered once.
  std::vector<Step> steps = {{"outer", 0, 100, SliceId::None()}, {"inner", 10, 20, SliceId::None()}};
  StepSet set;
  FinishSteps(steps, &set);
  ASSERT_EQ(set.steps.size(), 2u);
  EXPECT_EQ(set.steps[0].window_dur_ns, 10);
  EXPECT_EQ(set.steps[1].window_end_ns(), 100);
  EXPECT_EQ(set.overlap_count, 1u);
  EXPECT_EQ(set.max_overlap_ns, 90);
}

TEST(StepOverlapTest, SeparateStepsKeepTheirOwnWindows) {
  StepSet set;
  FinishSteps({{"b", 50, 10, SliceId::None()}, {"a", 0, 10, SliceId::None()}, {"zero", 30, 0, SliceId::None()}}, &set);
  ASSERT_EQ(set.steps.size(), 2u);  // a marker of no duration is not a step
  EXPECT_EQ(set.steps[0].name, "a");
  EXPECT_EQ(set.steps[0].window_dur_ns, 10);
  EXPECT_EQ(set.steps[1].window_dur_ns, 10);
  EXPECT_EQ(set.overlap_count, 0u);
}

}  // namespace
}  // namespace stepline::analysis
