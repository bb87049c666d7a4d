// "Show all arrows in view": FlowWindow returns exactly the flows touching
// the window (brute force over every flow) when they fit the cap, and an
// even spread over the window, all of them in view, when they do not. The
// window's TimelineIndices leave the flow index for later: null
// until BuildFlows, then the same as one built at once, published once.
#include "ui/timeline/flow_window.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <thread>

#include "ui/timeline/timeline_data.h"

#include "tests/support/synthetic_trace.h"

namespace stepline::ui {
namespace {

using stepline::testing::SyntheticTrace;

Trace LaunchesAndKernels(int n) {
  SyntheticTrace t;
  for (int i = 0; i < n; ++i) {
    const TimeNs at = TimeNs{i} * 10'000;
    // Launch delays from 1 us to 0.5 ms, so spans overlap neighbouring windows.
    t.Kernel(7, at + 1'000 + (i % 50) * 10'000, 3'000).LaunchedFrom("main", at, 500);
  }
  return t.Build();
}

std::vector<uint32_t> BruteForce(const Trace& trace, TimeRange w) {
  std::vector<uint32_t> out;
  const auto starts = trace.slices().start_ns();
  for (uint32_t f = 0; f < trace.flows().size(); ++f) {
    const TimeNs a = starts[trace.flows().from()[f].index()], b = starts[trace.flows().to()[f].index()];
    if (std::max(a, b) >= w.start_ns && std::min(a, b) <= w.end_ns) out.push_back(f);
  }
  return out;
}

TEST(FlowWindowTest, ExactlyTheFlowsInViewWhenTheyFit) {
  const Trace trace = LaunchesAndKernels(2000);
  ASSERT_EQ(trace.flows().size(), 2000u);
  const FlowWindow window(trace);
  std::mt19937 rng(3);
  std::vector<uint32_t> got;
  for (int i = 0; i < 200; ++i) {
    const TimeNs a = static_cast<TimeNs>(rng() % 21'000'000), len = 1 + static_cast<TimeNs>(rng() % 400'000);
    const TimeRange w{a, a + len};
    window.InView(w, 100'000, &got);
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, BruteForce(trace, w)) << a << " +" << len;
  }
}

TEST(FlowWindowTest, OverTheCapAnEvenSpreadOfFlowsInView) {
  const Trace trace = LaunchesAndKernels(2000);
  const FlowWindow window(trace);
  const TimeRange all = trace.span();
  std::vector<uint32_t> got;
  window.InView(all, 100, &got);
  ASSERT_GT(got.size(), 50u);
  EXPECT_LE(got.size(), 100u);
  const auto in_view = BruteForce(trace, all);
  TimeNs latest = 0;
  const auto starts = trace.slices().start_ns();
  for (uint32_t f : got) {
    EXPECT_TRUE(std::binary_search(in_view.begin(), in_view.end(), f));
    latest = std::max(latest, starts[trace.flows().from()[f].index()]);
  }
  // Spread over the window, not only its first 100 flows.
  EXPECT_GT(latest, all.start_ns + all.duration_ns() * 3 / 4);
  window.InView(all, 0, &got);
  EXPECT_TRUE(got.empty());
}

TEST(FlowWindowTest, DeferredFlowIndexIsNullUntilBuiltThenTheSameAsAtOnce) {
  const Trace trace = LaunchesAndKernels(3000);
  const TimelineIndices now(trace);
  ASSERT_NE(now.flows(), nullptr);
  const TimelineIndices later(trace, TimelineIndices::Flows::kLater);
  EXPECT_EQ(later.flows(), nullptr);
  EXPECT_EQ(later.depths.depth_count(TrackId::FromIndex(0)), now.depths.depth_count(TrackId::FromIndex(0)));
  // Two builders at once (the worker, and anyone else): one index wins, both
  // see it, and it never changes after.
  std::thread other([&] { later.BuildFlows(trace); });
  later.BuildFlows(trace);
  other.join();
  const FlowIndex* built = later.flows();
  ASSERT_NE(built, nullptr);
  EXPECT_EQ(built->by_to, now.flows()->by_to);
  ASSERT_EQ(built->by_to.size(), trace.flows().size());
  for (size_t i = 1; i < built->by_to.size(); ++i) {
    EXPECT_LE(trace.flows().to()[built->by_to[i - 1]], trace.flows().to()[built->by_to[i]]);
  }
  std::vector<uint32_t> a, b;
  built->window.InView(trace.span(), 100, &a);
  now.flows()->window.InView(trace.span(), 100, &b);
  EXPECT_EQ(a, b);
  later.BuildFlows(trace);
  EXPECT_EQ(later.flows(), built);
}

}  // namespace
}  // namespace stepline::ui
