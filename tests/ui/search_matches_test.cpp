// Whole-trace search: substring (case-insensitive), regex, bad regex, stepping.
#include "ui/search_matches.h"

#include <gtest/gtest.h>

namespace stepline::ui {
namespace {

Trace MakeTrace() {
  Trace trace;
  StringPool& s = trace.mutable_strings();
  const ProcessId p = trace.mutable_processes().Append({1, {}, 0, -1});
  const TrackId t = trace.mutable_tracks().Append({TrackKind::kHostThread, p, 1, {}, 0, -1, {}});
  const char* names[] = {"aten::conv2d", "aten::relu", "cudaLaunchKernel", "ATen::Conv2d_backward", "sgemm_128x64"};
  for (int i = 0; i < 5; ++i) trace.mutable_slices().Append({t, i * 10, 5, s.Intern(names[i]), {}, {}, GpuKind::kNone});
  trace.Finalize();
  return trace;
}

TEST(SearchMatchesTest, SubstringIsCaseInsensitive) {
  const Trace trace = MakeTrace();
  const SearchResult r = ComputeSearchMatches(trace, "conv2d", false);
  EXPECT_EQ(r.rows, (std::vector<uint32_t>{0, 3}));
  EXPECT_TRUE(ComputeSearchMatches(trace, "", false).rows.empty());
}

TEST(SearchMatchesTest, RegexAndBadRegex) {
  const Trace trace = MakeTrace();
  EXPECT_EQ(ComputeSearchMatches(trace, "^aten::(relu|conv)", true).rows, (std::vector<uint32_t>{0, 1, 3}));
  const SearchResult bad = ComputeSearchMatches(trace, "([", true);
  EXPECT_TRUE(bad.rows.empty());
  EXPECT_FALSE(bad.error.empty());
}

TEST(SearchMatchesTest, StepWrapsBothWays) {
  const std::vector<uint32_t> m = {2, 5, 9};
  EXPECT_EQ(StepSearch(m, SliceId::None(), false), SliceId(2));
  EXPECT_EQ(StepSearch(m, SliceId::None(), true), SliceId(9));
  EXPECT_EQ(StepSearch(m, SliceId(5), false), SliceId(9));
  EXPECT_EQ(StepSearch(m, SliceId(9), false), SliceId(2));
  EXPECT_EQ(StepSearch(m, SliceId(2), true), SliceId(9));
  EXPECT_EQ(StepSearch(m, SliceId(6), true), SliceId(5));
  EXPECT_TRUE(StepSearch({}, SliceId(1), false).is_none());
}

TEST(SearchMatchesTest, NearestMatchToTheViewNotTheTraceStart) {
  const Trace trace = MakeTrace();
  const std::vector<uint32_t> m = ComputeSearchMatches(trace, "conv2d", false).rows;  // t=0 and t=30
  ASSERT_EQ(m, (std::vector<uint32_t>{0, 3}));
  EXPECT_EQ(NearestMatch(trace, m, TimeRange{25, 45}), SliceId(3)) << "inside the view";
  EXPECT_EQ(NearestMatch(trace, m, TimeRange{40, 60}), SliceId(3)) << "after the view: the nearer one";
  EXPECT_EQ(NearestMatch(trace, m, TimeRange{0, 12}), SliceId(0));
  EXPECT_EQ(NearestMatch(trace, m, TimeRange{0, 35}), SliceId(0)) << "a tie goes to the lower row";
  EXPECT_TRUE(NearestMatch(trace, {}, TimeRange{0, 10}).is_none());
}

TEST(SearchMatchesTest, PositionOfTheSelectedMatch) {
  const std::vector<uint32_t> m = {2, 5, 9};
  EXPECT_EQ(MatchPosition(m, SliceId(2)), 1u);
  EXPECT_EQ(MatchPosition(m, SliceId(9)), 3u);
  EXPECT_EQ(MatchPosition(m, SliceId(6)), 0u);  // selected, but not a match
  EXPECT_EQ(MatchPosition(m, SliceId::None()), 0u);
  EXPECT_EQ(MatchPosition({}, SliceId(2)), 0u);
}

}  // namespace
}  // namespace stepline::ui
