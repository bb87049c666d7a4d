// Idle-gap list logic: cause / minimum-duration filter, sort by every
// column, and the duration histogram, on a trace with known gaps.
#include "ui/idle_gaps_panel.h"

#include <gtest/gtest.h>

#include <memory>

#include "tests/support/synthetic_trace.h"
#include "ui/timeline/timeline_data.h"

namespace stepline::ui {
namespace {

using stepline::testing::SyntheticTrace;
using stepline::testing::Us;

// Gaps on stream 7: [110,420) input (IteratorGetNext), [520,525) other,
// [600,650) sync (cudaStreamSynchronize right before the launch of D).
std::shared_ptr<const TimelineData> GapsPanelData() {
  Trace t = SyntheticTrace()
                .Thread("main")
                .Slice("ProfilerStep#1", Us(0), Us(1000))
                .Slice("IteratorGetNext", Us(120), Us(280))
                .Slice("cudaStreamSynchronize", Us(600), Us(40))
                .Kernel(7, Us(10), Us(100), "A")
                .LaunchedFrom("main", Us(5))
                .Kernel(7, Us(420), Us(100), "B")
                .LaunchedFrom("main", Us(410))
                .Kernel(7, Us(525), Us(75), "C")
                .LaunchedFrom("main", Us(515))
                .Kernel(7, Us(650), Us(50), "D")
                .LaunchedFrom("main", Us(642))
                .Build();
  return std::make_shared<const TimelineData>(std::make_shared<const Trace>(std::move(t)));
}

constexpr uint32_t Bit(analysis::IdleCause c) { return 1u << static_cast<unsigned>(c); }
constexpr uint32_t kGapsPanelAllCauses = (1u << analysis::kIdleCauseCount) - 1;

TEST(IdleGapsPanelTest, FiltersByCauseAndMinimumDuration) {
  auto data = GapsPanelData();
  const AnalysisData& a = data->analysis;
  ASSERT_EQ(a.gaps.size(), 3u);
  EXPECT_EQ(FilterGaps(a, kGapsPanelAllCauses, 0).size(), 3u);
  EXPECT_EQ(FilterGaps(a, kGapsPanelAllCauses, Us(10)), (std::vector<uint32_t>{0, 2}));
  EXPECT_EQ(FilterGaps(a, Bit(analysis::IdleCause::kInput), 0), (std::vector<uint32_t>{0}));
  EXPECT_EQ(FilterGaps(a, Bit(analysis::IdleCause::kSync), 0), (std::vector<uint32_t>{2}));
  EXPECT_TRUE(FilterGaps(a, Bit(analysis::IdleCause::kLaunch), 0).empty());
  EXPECT_TRUE(FilterGaps(a, kGapsPanelAllCauses, Us(1000)).empty());
}

TEST(IdleGapsPanelTest, SortsByEveryColumnBothWays) {
  auto data = GapsPanelData();
  const AnalysisData& a = data->analysis;
  std::vector<uint32_t> rows = FilterGaps(a, kGapsPanelAllCauses, 0);
  SortGaps(*data->trace, a, GapColumn::kDuration, false, &rows);
  EXPECT_EQ(rows, (std::vector<uint32_t>{0, 2, 1}));  // 310, 50, 5 us
  SortGaps(*data->trace, a, GapColumn::kDuration, true, &rows);
  EXPECT_EQ(rows, (std::vector<uint32_t>{1, 2, 0}));
  SortGaps(*data->trace, a, GapColumn::kStart, true, &rows);
  EXPECT_EQ(rows, (std::vector<uint32_t>{0, 1, 2}));
  SortGaps(*data->trace, a, GapColumn::kCause, true, &rows);  // input < sync < other (enum order)
  EXPECT_EQ(rows, (std::vector<uint32_t>{0, 2, 1}));
  SortGaps(*data->trace, a, GapColumn::kBlamed, false, &rows);  // "cudaStreamSynchronize" > "IteratorGetNext" > ""
  EXPECT_EQ(rows, (std::vector<uint32_t>{2, 0, 1}));
  // One device, one step: ties fall back to start order, both directions reversed.
  SortGaps(*data->trace, a, GapColumn::kDevice, true, &rows);
  EXPECT_EQ(rows, (std::vector<uint32_t>{0, 1, 2}));
  SortGaps(*data->trace, a, GapColumn::kStep, false, &rows);
  EXPECT_EQ(rows, (std::vector<uint32_t>{2, 1, 0}));
}

TEST(IdleGapsPanelTest, HistogramCountsEveryListedGapOnLogBins) {
  auto data = GapsPanelData();
  const AnalysisData& a = data->analysis;
  const std::vector<uint32_t> rows = FilterGaps(a, kGapsPanelAllCauses, 0);
  const DurationHistogram h = ComputeDurationHistogram(a, rows, 4);
  ASSERT_EQ(h.counts.size(), 4u);
  ASSERT_EQ(h.edges.size(), 5u);
  EXPECT_EQ(h.counts[0] + h.counts[1] + h.counts[2] + h.counts[3], 3u);
  EXPECT_EQ(h.counts.front(), 1u);  // the 5 us bubble alone at the short end
  EXPECT_EQ(h.counts.back(), 1u);   // the 310 us stall alone at the long end
  EXPECT_LE(h.edges.front(), Us(5));
  EXPECT_GT(h.edges.back(), Us(310));
  EXPECT_TRUE(std::is_sorted(h.edges.begin(), h.edges.end()));
  EXPECT_TRUE(ComputeDurationHistogram(a, {}, 4).counts.empty());
}

}  // namespace
}  // namespace stepline::ui
