// BuildGapOverlay (search + GapIndex) against the brute-force walk it
// replaced, which visits every gap in view: identical items (so identical
// shaded pixels, cause colours and hover targets) on random gap sets at many
// zooms, with sub-pixel gaps, single huge gaps, gaps cut by the view edges,
// several devices and a minimum gap length.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "ui/timeline/gap_overlay.h"

namespace stepline::ui {
namespace {

// The overlay as it was before GapIndex: every gap in view, folded in order.
std::vector<GapOverlayItem> ReferenceOverlay(const AnalysisData& analysis, uint32_t device, const Viewport& viewport,
                                             float min_px, DurNs min_gap_ns) {
  std::vector<GapOverlayItem> out;
  const auto [begin, end] = GapsInRange(analysis, device, viewport.visible);
  const float width = static_cast<float>(viewport.width_px);
  DurNs longest = 0;
  for (uint32_t i = begin; i < end; ++i) {
    const analysis::IdleGap& g = analysis.gaps[i];
    if (g.dur_ns() < min_gap_ns) continue;
    const float x0 = std::max(-1.f, static_cast<float>(viewport.TimeToX(g.start_ns)));
    const float x1 = std::min(width + 1, static_cast<float>(viewport.TimeToX(g.end_ns)));
    if (!out.empty() && x0 < out.back().x1_px + min_px) {
      GapOverlayItem& last = out.back();
      last.x1_px = std::max(last.x1_px, x1);
      ++last.count;
      if (g.dur_ns() > longest) {
        longest = g.dur_ns();
        last.gap = i;
        last.cause = g.cause;
      }
      continue;
    }
    out.push_back({x0, x1, i, g.cause, 1});
    longest = g.dur_ns();
  }
  return out;
}

// Hover by brute force: the first item whose drawn extent holds x.
int ReferenceItemAtX(const std::vector<GapOverlayItem>& items, float x) {
  for (size_t i = 0; i < items.size(); ++i) {
    if (x >= items[i].x0_px && x < std::max(items[i].x1_px, items[i].x0_px + 1)) return static_cast<int>(i);
  }
  return -1;
}

enum class Shape { kDenseTiny, kMixed, kOneHuge, kLogUniform };

// Disjoint gaps in start order separated by busy time; shape decides lengths.
void AppendDevice(AnalysisData* a, Shape shape, size_t n, TimeNs origin, std::mt19937_64& rng) {
  const auto begin = static_cast<uint32_t>(a->gaps.size());
  const auto device = static_cast<uint32_t>(a->device_gaps.size());
  TimeNs t = origin;
  for (size_t i = 0; i < n; ++i) {
    DurNs busy = 1 + static_cast<DurNs>(rng() % 100);
    DurNs gap = 1 + static_cast<DurNs>(rng() % 50);
    switch (shape) {
      case Shape::kDenseTiny: break;
      case Shape::kMixed:
        if (rng() % 200 == 0) gap = 1'000'000 + static_cast<DurNs>(rng() % 1'000'000'000);
        if (rng() % 100 == 0) busy = static_cast<DurNs>(rng() % 10'000'000);
        break;
      case Shape::kOneHuge:
        if (i == n / 2) gap = 50'000'000'000;
        break;
      case Shape::kLogUniform:
        gap = static_cast<DurNs>(std::exp2(static_cast<double>(rng() % 3000) / 100.0));
        busy = static_cast<DurNs>(std::exp2(static_cast<double>(rng() % 3000) / 100.0));
        break;
    }
    t += busy;
    analysis::IdleGap g;
    g.start_ns = t;
    g.end_ns = t + gap;
    g.cause = static_cast<analysis::IdleCause>(rng() % analysis::kIdleCauseCount);
    a->gaps.push_back(g);
    a->gap_device.push_back(device);
    t += gap;
  }
  a->device_gaps.emplace_back(begin, static_cast<uint32_t>(a->gaps.size()));
}

void ExpectSameItems(const std::vector<GapOverlayItem>& got, const std::vector<GapOverlayItem>& want,
                     const std::string& where) {
  ASSERT_EQ(got.size(), want.size()) << where;
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_EQ(got[i].x0_px, want[i].x0_px) << where << " item " << i;
    ASSERT_EQ(got[i].x1_px, want[i].x1_px) << where << " item " << i;
    ASSERT_EQ(got[i].gap, want[i].gap) << where << " item " << i;
    ASSERT_EQ(got[i].cause, want[i].cause) << where << " item " << i;
    ASSERT_EQ(got[i].count, want[i].count) << where << " item " << i;
  }
}

TimeRange DeviceSpan(const AnalysisData& a, uint32_t d) {
  const auto [b, e] = a.device_gaps[d];
  return {a.gaps[b].start_ns, a.gaps[e - 1].end_ns};
}

// Random views of every device: zoom from the whole span to a few ns, some
// starting or ending exactly on a gap edge, some past either end.
void CheckRandomViews(const AnalysisData& a, DurNs min_gap_ns, uint64_t seed, int views) {
  const GapIndex index(a, min_gap_ns);
  std::mt19937_64 rng(seed);
  std::vector<GapOverlayItem> got;
  for (int v = 0; v < views; ++v) {
    const auto d = static_cast<uint32_t>(rng() % a.device_gaps.size());
    const TimeRange span = DeviceSpan(a, d);
    const double fraction = std::pow(10.0, -static_cast<double>(rng() % 800) / 100.0) * 1.2;
    const auto dur = std::max<DurNs>(1, static_cast<DurNs>(static_cast<double>(span.duration_ns()) * fraction));
    TimeNs start = span.start_ns - dur / 10 + static_cast<TimeNs>(rng() % static_cast<uint64_t>(span.duration_ns()));
    if (v % 5 == 0) {  // on a gap edge
      const auto [b, e] = a.device_gaps[d];
      const analysis::IdleGap& g = a.gaps[b + rng() % (e - b)];
      start = rng() % 2 ? g.start_ns : g.end_ns;
      if (rng() % 2) start -= dur;
    }
    if (v % 11 == 0) start = span.start_ns - dur / 2;
    const double widths[] = {1920.0, 1.0, 3.0, 777.5, 4096.0};
    const Viewport vp{TimeRange{start, start + dur}, widths[rng() % 5]};
    const float min_px = v % 4 == 0 ? 3.f : 1.f;
    BuildGapOverlay(index, d, vp, min_px, &got);
    const std::vector<GapOverlayItem> want = ReferenceOverlay(a, d, vp, min_px, min_gap_ns);
    const std::string where = "view " + std::to_string(v) + " device " + std::to_string(d) + " [" +
                              std::to_string(vp.visible.start_ns) + ", " + std::to_string(vp.visible.end_ns) +
                              ") width " + std::to_string(vp.width_px);
    ExpectSameItems(got, want, where);
    if (::testing::Test::HasFatalFailure()) return;
    for (int h = 0; h < 8; ++h) {  // hover, including just outside both edges
      const float x = static_cast<float>(static_cast<double>(rng() % 10000) / 10000.0 * (vp.width_px + 4) - 2);
      ASSERT_EQ(GapItemAtX(got, x), ReferenceItemAtX(want, x)) << where << " x " << x;
    }
  }
}

AnalysisData MakeDevices(uint64_t seed, std::initializer_list<std::pair<Shape, size_t>> devices) {
  AnalysisData a;
  std::mt19937_64 rng(seed);
  TimeNs origin = 1000;
  for (const auto& [shape, n] : devices) AppendDevice(&a, shape, n, origin += 7'000, rng);
  return a;
}

TEST(GapOverlayReferenceTest, DenseSubPixelGapsMatchTheWalk) {
  const AnalysisData a = MakeDevices(1, {{Shape::kDenseTiny, 200'000}});
  CheckRandomViews(a, 0, 101, 300);
}

TEST(GapOverlayReferenceTest, MixedLengthsOnSeveralDevicesMatchTheWalk) {
  const AnalysisData a = MakeDevices(2, {{Shape::kMixed, 50'000}, {Shape::kLogUniform, 20'000}, {Shape::kMixed, 3}});
  CheckRandomViews(a, 0, 202, 600);
}

TEST(GapOverlayReferenceTest, SingleHugeGapMatchesTheWalk) {
  const AnalysisData a = MakeDevices(3, {{Shape::kOneHuge, 10'001}, {Shape::kOneHuge, 1}});
  CheckRandomViews(a, 0, 303, 400);
}

TEST(GapOverlayReferenceTest, MinimumGapLengthMatchesTheWalk) {
  const AnalysisData a = MakeDevices(4, {{Shape::kMixed, 30'000}, {Shape::kLogUniform, 30'000}});
  CheckRandomViews(a, 25, 404, 300);
  CheckRandomViews(a, 1'000'000, 405, 300);
}

TEST(GapOverlayReferenceTest, EveryGapInViewIsCountedOnce) {
  const AnalysisData a = MakeDevices(5, {{Shape::kDenseTiny, 100'000}});
  const GapIndex index(a);
  std::vector<GapOverlayItem> items;
  BuildGapOverlay(index, 0, Viewport{DeviceSpan(a, 0), 1920.0}, 1.f, &items);
  uint64_t total = 0;
  for (const auto& it : items) total += it.count;
  EXPECT_EQ(total, 100'000u);
  EXPECT_LE(items.size(), 1920u);
  EXPECT_EQ(index.size(), 100'000u);
}

}  // namespace
}  // namespace stepline::ui
