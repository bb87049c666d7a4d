// AggregateSlicesInRange: clipping, self time, sorting.
#include "model/analysis/range_aggregation.h"

#include <gtest/gtest.h>

namespace stepline::analysis {
namespace {

TEST(RangeAggregationTest, ClipsToTheRangeAndSubtractsChildren) {
  Trace trace;
  StringPool& s = trace.mutable_strings();
  const ProcessId p = trace.mutable_processes().Append({1, {}, 0, -1});
  const TrackId t = trace.mutable_tracks().Append({TrackKind::kHostThread, p, 1, {}, 0, -1, {}});
  const StringId step = s.Intern("step"), op = s.Intern("op"), late = s.Intern("late");
  trace.mutable_slices().Append({t, 0, 1000, step, {}, {}, GpuKind::kNone});
  trace.mutable_slices().Append({t, 100, 100, op, {}, {}, GpuKind::kNone});
  trace.mutable_slices().Append({t, 450, 100, op, {}, {}, GpuKind::kNone});  // half inside
  trace.mutable_slices().Append({t, 2000, 10, late, {}, {}, GpuKind::kNone});   // outside
  trace.Finalize();
  const auto rows = AggregateSlicesInRange(trace, {50, 500});
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].name, step);
  EXPECT_EQ(rows[0].count, 1u);
  EXPECT_EQ(rows[0].total_ns, 450);
  EXPECT_EQ(rows[0].self_ns, 450 - 100 - 50);
  EXPECT_EQ(rows[1].name, op);
  EXPECT_EQ(rows[1].count, 2u);
  EXPECT_EQ(rows[1].total_ns, 150);
  EXPECT_EQ(rows[1].avg_ns(), 75);
  EXPECT_TRUE(AggregateSlicesInRange(trace, {3000, 3000}).empty());
}

}  // namespace
}  // namespace stepline::analysis
