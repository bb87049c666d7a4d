// The Memory row's step columns (FindStepColumnRuns + FillStepColumns)
// against a walk over every sample in view, on random levels with repeated
// timestamps at many zooms, with the sampled search and without it.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "tests/ui/expect_same_columns.h"
#include "ui/memory/memory_series.h"
#include "ui/timeline/sampled_search.h"

namespace stepline::ui {
namespace {

// Every sample in view max-merged into the columns it holds: from the column
// it starts in to the column where the next one starts (the last one to the
// right edge).
std::vector<float> WalkedColumns(const std::vector<TimeNs>& ts, const std::vector<double>& values,
                                 const Viewport& viewport, int width) {
  std::vector<float> column(static_cast<size_t>(width), NAN);
  auto first = std::upper_bound(ts.begin(), ts.end(), viewport.visible.start_ns);
  if (first != ts.begin()) --first;
  for (auto it = first; it != ts.end() && *it < viewport.visible.end_ns; ++it) {
    const size_t i = static_cast<size_t>(it - ts.begin());
    const double x_start = std::max(0.0, viewport.TimeToX(*it));
    const double x_end = i + 1 < ts.size() ? std::min<double>(width, viewport.TimeToX(ts[i + 1])) : width;
    const float v = static_cast<float>(values[i]);
    const int c_end = std::min(width, std::max(static_cast<int>(x_start) + 1, static_cast<int>(x_end)));
    for (int c = static_cast<int>(x_start); c < c_end; ++c) {
      column[c] = std::isnan(column[c]) ? v : std::max(column[c], v);
    }
  }
  return column;
}

TEST(StepColumnsTest, RandomLevelsAtManyZoomsMatchTheWalk) {
  std::mt19937_64 rng(29);
  std::vector<TimeNs> ts;
  std::vector<double> values;
  TimeNs t = 5'000;
  for (int i = 0; i < 60'000; ++i) {
    t += static_cast<TimeNs>(rng() % 40);  // 0: the same time as the sample before
    ts.push_back(t);
    values.push_back(static_cast<double>(rng() % 1'000'000));
  }
  const TimeNs last = t;
  const std::vector<TimeNs> samples = SampleKeys(ts.size(), [&](size_t i) { return ts[i]; });
  const RangeArgMax<double> value_max(values);
  std::vector<float> got, unsampled;
  for (int v = 0; v < 400; ++v) {
    const double fraction = std::pow(10.0, -static_cast<double>(rng() % 600) / 100.0) * 1.3;
    const auto dur = std::max<DurNs>(1, static_cast<DurNs>(static_cast<double>(last) * fraction));
    TimeNs start = static_cast<TimeNs>(rng() % static_cast<uint64_t>(last)) - dur / 4;
    if (v % 4 == 0) start = ts[rng() % ts.size()] - (rng() % 2 ? dur : 0);  // on a sample, from either side
    const int widths[] = {1920, 1, 2, 333, 4000};
    const int width = widths[rng() % 5];
    const Viewport vp{TimeRange{start, start + dur}, static_cast<double>(width)};
    const std::string where = "view " + std::to_string(v) + " [" + std::to_string(start) + ", " +
                              std::to_string(start + dur) + ") width " + std::to_string(width);
    BuildStepColumns(ts, samples, values, value_max, vp, width, &got);
    ExpectSameColumns(got, WalkedColumns(ts, values, vp, width), where);
    BuildStepColumns(ts, {}, values, value_max, vp, width, &unsampled);
    ExpectSameColumns(unsampled, got, where + " unsampled");
    if (HasFatalFailure()) return;
  }
}

// One search for both series of a row: the runs found once fill either.
TEST(StepColumnsTest, OneSetOfRunsServesBothSeries) {
  const std::vector<TimeNs> ts = {0, 10, 12, 30};
  const std::vector<double> allocated = {5, 50, 7, 9}, reserved = {60, 60, 70, 65};
  const RangeArgMax<double> allocated_max(allocated), reserved_max(reserved);
  const Viewport vp{TimeRange{0, 40}, 4};
  std::vector<StepColumnRun> runs;
  FindStepColumnRuns(ts, {}, vp, 4, &runs);
  ASSERT_EQ(runs.size(), 3u);  // pixels 0, 1 (two samples) and 3
  EXPECT_EQ(runs[1].begin, 1u);
  EXPECT_EQ(runs[1].end, 3u);
  EXPECT_EQ(runs[1].x_end, 3);  // held through pixel 2
  std::vector<float> columns;
  FillStepColumns(runs, allocated, allocated_max, 4, &columns);
  EXPECT_EQ(columns, (std::vector<float>{5, 50, 7, 9}));
  FillStepColumns(runs, reserved, reserved_max, 4, &columns);
  EXPECT_EQ(columns, (std::vector<float>{60, 70, 70, 65}));
}

}  // namespace
}  // namespace stepline::ui
