// BuildGapOverlay (runs + prefix sums + pixel columns) against a brute-force
// walk over every gap: per pixel column, the idle share the drawn items
// claim equals the idle ns truly inside the column, and the colour is that of
// the gap with the most idle ns there. Random gap sets at many zooms, with
// sub-pixel gaps, single huge gaps, gaps cut by the view edges, several
// devices, a minimum gap length and a cause filter. (The overlay used to fold
// a pixel run into one solid item, so a 69%-busy GPU looked idle at
// zoom-out; these tests guard against that coming back.)
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "ui/timeline/gap_overlay.h"

namespace stepline::ui {
namespace {

// A device whose gaps are a->gaps[begin, end).
void AddTestDevice(AnalysisData* a, uint32_t begin, uint32_t end) {
  analysis::DeviceAnalysis d;
  d.gaps_begin = begin;
  d.gaps_end = end;
  a->devices.push_back(std::move(d));
}

// What the reference sees in one pixel column [c, c + 1).
struct Column {
  double idle_fraction = 0;
  int64_t dominant = -1;  // gap id with the most idle ns in the column (earliest on ties); -1 none
};

bool Passes(const analysis::IdleGap& g, DurNs min_gap_ns, uint32_t cause_mask) {
  return g.dur_ns() >= min_gap_ns && (cause_mask >> static_cast<unsigned>(g.cause) & 1u);
}

// Every column of the view by walking every gap of the device, times
// relative to the view start as doubles (the overlay's column convention).
std::vector<Column> ReferenceColumns(const AnalysisData& a, uint32_t device, const Viewport& vp, DurNs min_gap_ns,
                                     uint32_t cause_mask) {
  const double ns_per_px = 1.0 / vp.px_per_ns();
  std::vector<Column> cols(static_cast<size_t>(std::ceil(vp.width_px)));
  std::vector<double> best(cols.size(), 0);
  const auto [begin, end] = a.DeviceGaps(device);
  for (uint32_t i = begin; i < end; ++i) {
    const analysis::IdleGap& g = a.gaps[i];
    if (!Passes(g, min_gap_ns, cause_mask)) continue;
    const double s = static_cast<double>(g.start_ns - vp.visible.start_ns);
    const double e = static_cast<double>(g.end_ns - vp.visible.start_ns);
    if (e <= 0 || s >= static_cast<double>(cols.size()) * ns_per_px) continue;
    const auto c0 = static_cast<size_t>(std::max(0.0, std::floor(s / ns_per_px)));
    for (size_t c = c0; c < cols.size(); ++c) {
      // The last column counts only its part inside the view.
      const double t0 = static_cast<double>(c) * ns_per_px;
      const double t1 = std::min(static_cast<double>(c + 1), vp.width_px) * ns_per_px;
      if (t0 >= e) break;
      const double ns = std::min(e, t1) - std::max(s, t0);
      if (ns <= 0) continue;
      cols[c].idle_fraction += ns / (t1 - t0);
      if (ns > best[c]) best[c] = ns, cols[c].dominant = i;
    }
  }
  return cols;
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
  const auto device = static_cast<uint32_t>(a->devices.size());
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
  AddTestDevice(a, begin, static_cast<uint32_t>(a->gaps.size()));
}

// The idle share the drawn items put into column c, and the gap of the item
// covering most of it.
Column ColumnOfItems(const std::vector<GapOverlayItem>& items, size_t c, double width_px) {
  Column col;
  double most = 0;
  const double c0 = static_cast<double>(c), c1 = std::min(c0 + 1, width_px);
  for (const GapOverlayItem& it : items) {
    const double x0 = it.x0_px, x1 = std::max(it.x1_px, it.x0_px + 1);
    const double overlap = std::min(x1, c1) - std::max(x0, c0);
    if (overlap <= 0) continue;
    col.idle_fraction += overlap / (c1 - c0) * it.idle_fraction;
    if (overlap > most) most = overlap, col.dominant = it.gap;
  }
  return col;
}

void ExpectSameColumns(const std::vector<GapOverlayItem>& got, const std::vector<Column>& want, double width_px,
                       const std::string& where) {
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_GT(got[i].idle_fraction, 0.f) << where << " item " << i;
    ASSERT_LE(got[i].idle_fraction, 1.f) << where << " item " << i;
    if (i > 0) {
      ASSERT_LE(got[i - 1].x1_px, got[i].x0_px) << where << " items overlap at " << i;
    }
  }
  // Items are in x order: walk them alongside the columns.
  for (size_t c = 0; c < want.size(); ++c) {
    const Column have = ColumnOfItems(got, c, width_px);
    // Float pixel edges of exact items: a few thousandths of a px at 4096 px.
    ASSERT_NEAR(have.idle_fraction, want[c].idle_fraction, 2e-3) << where << " column " << c;
    if (want[c].idle_fraction > 1e-2) {
      ASSERT_EQ(have.dominant, want[c].dominant) << where << " column " << c;
    }
  }
}

TimeRange DeviceSpan(const AnalysisData& a, uint32_t d) {
  const auto [b, e] = a.DeviceGaps(d);
  return {a.gaps[b].start_ns, a.gaps[e - 1].end_ns};
}

// Random views of every device: zoom from the whole span to a few ns, some
// starting or ending exactly on a gap edge, some past either end.
void CheckRandomViews(const AnalysisData& a, DurNs min_gap_ns, uint64_t seed, int views,
                      uint32_t cause_mask = GapIndex::kAllCauses) {
  const GapIndex index(a, min_gap_ns, cause_mask);
  std::mt19937_64 rng(seed);
  std::vector<GapOverlayItem> got;
  for (int v = 0; v < views; ++v) {
    const auto d = static_cast<uint32_t>(rng() % a.devices.size());
    const TimeRange span = DeviceSpan(a, d);
    const double fraction = std::pow(10.0, -static_cast<double>(rng() % 800) / 100.0) * 1.2;
    const auto dur = std::max<DurNs>(1, static_cast<DurNs>(static_cast<double>(span.duration_ns()) * fraction));
    TimeNs start = span.start_ns - dur / 10 + static_cast<TimeNs>(rng() % static_cast<uint64_t>(span.duration_ns()));
    if (v % 5 == 0) {  // on a gap edge
      const auto [b, e] = a.DeviceGaps(d);
      const analysis::IdleGap& g = a.gaps[b + rng() % (e - b)];
      start = rng() % 2 ? g.start_ns : g.end_ns;
      if (rng() % 2) start -= dur;
    }
    if (v % 11 == 0) start = span.start_ns - dur / 2;
    const double widths[] = {1920.0, 1.0, 3.0, 777.5, 4096.0};
    const Viewport vp{TimeRange{start, start + dur}, widths[rng() % 5]};
    const float min_px = v % 4 == 0 ? 3.f : 1.f;
    BuildGapOverlay(index, d, vp, min_px, &got);
    const std::string where = "view " + std::to_string(v) + " device " + std::to_string(d) + " [" +
                              std::to_string(vp.visible.start_ns) + ", " + std::to_string(vp.visible.end_ns) +
                              ") width " + std::to_string(vp.width_px);
    // Bounded by pixels: at most an exact item and a column item per column.
    ASSERT_LE(got.size(), 2 * static_cast<size_t>(std::ceil(vp.width_px)) + 2) << where;
    ExpectSameColumns(got, ReferenceColumns(a, d, vp, min_gap_ns, cause_mask), vp.width_px, where);
    if (::testing::Test::HasFatalFailure()) return;
    for (int h = 0; h < 8; ++h) {  // hover, including just outside both edges
      const float x = static_cast<float>(static_cast<double>(rng() % 10000) / 10000.0 * (vp.width_px + 4) - 2);
      ASSERT_EQ(GapItemAtX(got, x), ReferenceItemAtX(got, x)) << where << " x " << x;
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

TEST(GapOverlayReferenceTest, CauseFilterMatchesTheWalk) {
  const AnalysisData a = MakeDevices(6, {{Shape::kMixed, 30'000}, {Shape::kDenseTiny, 30'000}});
  CheckRandomViews(a, 0, 606, 300, 0b0010101u);
  CheckRandomViews(a, 20, 607, 300, 1u << static_cast<unsigned>(analysis::IdleCause::kInput));
}

TEST(GapOverlayReferenceTest, ItemsHoldEveryIdleNanosecondOnce) {
  const AnalysisData a = MakeDevices(5, {{Shape::kDenseTiny, 100'000}});
  const GapIndex index(a);
  std::vector<GapOverlayItem> items;
  const Viewport vp{DeviceSpan(a, 0), 1920.0};
  BuildGapOverlay(index, 0, vp, 1.f, &items);
  EXPECT_LE(items.size(), 1920u);
  double idle_ns = 0;
  for (const auto& it : items) idle_ns += (it.x1_px - it.x0_px) * it.idle_fraction / vp.px_per_ns();
  EXPECT_NEAR(idle_ns, static_cast<double>(index.IdleNs(0, index.size())), 1e-4 * idle_ns);
  EXPECT_EQ(index.size(), 100'000u);
}

}  // namespace
}  // namespace stepline::ui
