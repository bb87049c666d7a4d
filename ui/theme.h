// Theme: every colour, size and padding the panels draw with, in one place.
// Colours are ImGui's packed ABGR (IM_COL32); sizes are unscaled pixels that
// the panels multiply by ImGui's font scale.
#pragma once

#include <cstddef>
#include <cstdint>

namespace stepline::ui::theme {

// The font size (px) the unscaled sizes below were chosen for (UiScale).
inline constexpr float kDesignFontSize = 13.f;

inline constexpr uint32_t Rgba(uint8_t r, uint8_t g, uint8_t b, uint8_t a = 255) {
  return uint32_t{r} | uint32_t{g} << 8 | uint32_t{b} << 16 | uint32_t{a} << 24;
}

// Timeline geometry.
inline constexpr float kRulerHeight = 26.f;
inline constexpr float kRulerLabelPad = 3.f;     // a tick label to its tick
inline constexpr float kOverviewHeight = 34.f;
inline constexpr float kHeaderWidth = 220.f;     // track names column
inline constexpr float kSliceRowHeight = 18.f;   // one nesting level
inline constexpr float kGroupHeaderHeight = 22.f;
inline constexpr float kTrackGap = 4.f;
inline constexpr float kCounterHeight = 36.f;
inline constexpr float kMinLabelPx = 24.f;       // narrower slices get no label
inline constexpr float kMinSlicePx = 3.f;        // LOD fold threshold
inline constexpr float kArrowHead = 7.f;
inline constexpr size_t kMaxFlowArrows = 5000;   // "show all arrows in view" draws at most this many

// Colours.
inline constexpr uint32_t kBackground = Rgba(24, 26, 30);
inline constexpr uint32_t kTrackBackgroundEven = Rgba(30, 33, 38);
inline constexpr uint32_t kTrackBackgroundOdd = Rgba(36, 39, 45);
inline constexpr uint32_t kGroupHeader = Rgba(52, 57, 66);
inline constexpr uint32_t kGroupHeaderText = Rgba(230, 232, 236);
inline constexpr uint32_t kTrackText = Rgba(200, 204, 210);
inline constexpr uint32_t kTrackSubText = Rgba(140, 146, 156);
inline constexpr uint32_t kRulerBackground = Rgba(40, 43, 50);
inline constexpr uint32_t kRulerTick = Rgba(150, 156, 166);
inline constexpr uint32_t kRulerText = Rgba(210, 214, 220);
inline constexpr uint32_t kGridLine = Rgba(255, 255, 255, 18);
inline constexpr uint32_t kSliceText = Rgba(16, 16, 16);
inline constexpr uint32_t kSliceBorder = Rgba(0, 0, 0, 70);
inline constexpr uint32_t kFoldedRun = Rgba(120, 126, 138);
inline constexpr uint32_t kFoldedRunText = Rgba(20, 22, 26);  // a folded run's slice count
// A slice that is not highlighted while a search or an op is: blended 70%
// toward the track background so the highlights stand out.
inline constexpr uint32_t Dimmed(uint32_t rgba) {
  auto mix = [](uint32_t c, uint32_t bg) { return static_cast<uint8_t>((c * 3 + bg * 7) / 10); };
  const uint32_t r = rgba & 0xFF, g = (rgba >> 8) & 0xFF, b = (rgba >> 16) & 0xFF;
  return Rgba(mix(r, 30), mix(g, 33), mix(b, 40), static_cast<uint8_t>(rgba >> 24));
}
inline constexpr uint32_t kSelection = Rgba(255, 255, 255);
inline constexpr uint32_t kSearchMatch = Rgba(255, 214, 0);
inline constexpr uint32_t kRangeSelection = Rgba(90, 150, 255, 48);
inline constexpr uint32_t kRangeSelectionEdge = Rgba(120, 170, 255, 200);
inline constexpr uint32_t kFlowArrow = Rgba(255, 170, 60, 230);
inline constexpr uint32_t kOverviewBusy = Rgba(94, 186, 125);
inline constexpr uint32_t kOverviewWindow = Rgba(255, 255, 255, 60);
inline constexpr uint32_t kCounterFill = Rgba(90, 160, 220, 150);
inline constexpr uint32_t kCounterLine = Rgba(130, 190, 240);
inline constexpr uint32_t kErrorText = Rgba(255, 120, 110);

// Colour by kind (colour mode "kind").
inline constexpr uint32_t kKindKernel = Rgba(76, 175, 80);
inline constexpr uint32_t kKindCollective = Rgba(156, 39, 176);
inline constexpr uint32_t kKindMemcpyH2D = Rgba(255, 152, 0);
inline constexpr uint32_t kKindMemcpyD2H = Rgba(244, 67, 54);
inline constexpr uint32_t kKindMemcpyOther = Rgba(255, 193, 7);
inline constexpr uint32_t kKindMemset = Rgba(121, 85, 72);
inline constexpr uint32_t kKindHostOp = Rgba(66, 133, 244);
inline constexpr uint32_t kKindPython = Rgba(0, 188, 212);
inline constexpr uint32_t kKindAnnotation = Rgba(158, 158, 158);
inline constexpr uint32_t kKindRuntime = Rgba(233, 30, 99);

// Analysis: one colour per step-time category (analysis::TimeCategory order)
// and per idle cause (analysis::IdleCause order). Busy categories are solid
// greens/purples/oranges like the kind colours; idle ones are the cause's colour.
inline constexpr uint32_t kCauseInput = Rgba(239, 83, 80);
inline constexpr uint32_t kCauseMemcpyH2D = Rgba(255, 152, 0);
inline constexpr uint32_t kCauseMemcpyD2H = Rgba(255, 202, 40);
inline constexpr uint32_t kCauseSync = Rgba(171, 71, 188);
inline constexpr uint32_t kCauseLaunch = Rgba(66, 165, 245);
inline constexpr uint32_t kCauseHostCompute = Rgba(38, 198, 218);
inline constexpr uint32_t kCauseOther = Rgba(144, 150, 160);
inline constexpr uint32_t kCauseColors[] = {kCauseInput, kCauseMemcpyH2D, kCauseMemcpyD2H, kCauseSync,
                                            kCauseLaunch, kCauseHostCompute, kCauseOther};
// Collective is teal and "memcpy other" olive, not the kind colours' purple
// and pale yellow: beside "Idle: sync" (purple) and "Memcpy D2H" (yellow) in
// one stacked bar those could not be told apart.
inline constexpr uint32_t kCategoryCollective = Rgba(0, 137, 123);
inline constexpr uint32_t kCategoryMemcpyOther = Rgba(175, 180, 43);
inline constexpr uint32_t kCategoryColors[] = {
    kKindKernel,      kCategoryCollective, Rgba(255, 167, 38), Rgba(255, 213, 79), kCategoryMemcpyOther,
    kKindMemset,      kCauseInput,         kCauseSync,         kCauseLaunch,       kCauseHostCompute,
    kCauseOther};
inline constexpr uint8_t kGapShadeAlpha = 70;          // gap overlay on device rows
inline constexpr float kGapShadeMinHeight = 1.f;       // px: a barely idle pixel still shows a line
inline constexpr uint32_t kGapSelected = Rgba(255, 255, 255, 200);
inline constexpr uint32_t kBlameArrow = Rgba(255, 80, 80, 240);
inline constexpr uint32_t kOpHighlight = Rgba(0, 230, 255);
inline constexpr uint32_t kStepFill = Rgba(70, 78, 92);
inline constexpr uint32_t kStepFillAlt = Rgba(84, 93, 108);
inline constexpr uint32_t kStepFocused = Rgba(120, 170, 255);
inline constexpr uint32_t kChartAxis = Rgba(120, 126, 138);
inline constexpr uint32_t kChartMeanLine = Rgba(255, 255, 255, 160);
inline constexpr uint32_t kChartHover = Rgba(255, 255, 255, 60);
inline constexpr uint32_t kBarFill = Rgba(90, 150, 230);
inline constexpr uint32_t kCardBackground = Rgba(40, 44, 52);
inline constexpr uint32_t kCardValue = Rgba(240, 242, 246);
inline constexpr uint32_t kCardLabel = Rgba(150, 156, 166);

// Analysis panel geometry (unscaled px).
inline constexpr float kStepsRowHeight = 18.f;        // the Steps strip above the tracks
inline constexpr float kStepChartHeight = 190.f;
inline constexpr float kCauseChartRowHeight = 18.f;   // one bar per idle cause
inline constexpr float kChartAxisWidth = 56.f;        // y-axis labels
inline constexpr float kOutlierTickPx = 7.f;       // the outlier tick above a step bar
inline constexpr int kHistogramMaxBins = 40;       // the step-duration histogram's bins at most
inline constexpr float kChartMinBarPx = 3.f;          // narrower: buckets of steps
// A few steps fill the chart's width, but one bar takes at most this share of
// it (a single step is a bar, not a slab across the chart).
inline constexpr float kChartMaxBarShare = 1.f / 3.f;
inline constexpr float kChartBarGap = 1.f;           // between narrow bars
inline constexpr float kChartBarGapShare = 0.12f;    // wide bars: this share of a bar ...
inline constexpr float kChartMaxBarGap = 14.f;       // ... up to this
inline constexpr float kMeanBarWidth = 34.f;
inline constexpr float kMeanBarSeparation = 18.f;  // between the last step bar and the mean bar
inline constexpr float kHistogramHeight = 90.f;
inline constexpr float kHistogramMaxHeight = 260.f;  // the histogram grows with its pane up to this
inline constexpr int kHistogramBins = 24;
inline constexpr float kTopOpsRowHeight = 16.f;
inline constexpr uint8_t kTopOpsBarAlpha = 150;      // light text stays readable on the bar and past it
inline constexpr uint32_t kTextShadow = Rgba(0, 0, 0, 200);
inline constexpr float kCardWidth = 168.f;
inline constexpr float kCardHeight = 50.f;
inline constexpr float kCardWideFactor = 2.2f;  // a card grows to fit a long value, up to this many widths
inline constexpr float kLegendSwatch = 10.f;
// Tables beside a chart (ops + top 10, gaps + histogram): the chart takes a
// share of the width up to a preferred size, and gives way down to its
// minimum before the table's name column would shrink.
inline constexpr float kTopOpsChartWidth = 380.f;
inline constexpr float kTopOpsChartShare = 0.3f;
inline constexpr float kGapHistogramWidth = 420.f;
inline constexpr float kGapHistogramShare = 0.35f;
inline constexpr float kSideChartMinWidth = 200.f;
inline constexpr float kSideChartGap = 8.f;          // between the table and the chart
// Narrowest readable name columns, in font heights (~2 characters each).
inline constexpr float kNameColumnMinEm = 15.f;
inline constexpr float kKernelOpMinEm = 10.f;  // "launching op"; the kernel name gets twice this
inline constexpr float kOverviewPaneWidth = 600.f;   // default width of the overview column
inline constexpr float kBottomPaneHeight = 330.f;    // default height of the tabbed tables

// Screenshots and exports: the toast notice and the caption strip.
inline constexpr float kToastPadding = 10.f;
inline constexpr float kToastMargin = 16.f;
inline constexpr uint32_t kToastBackground = Rgba(46, 52, 62, 235);
inline constexpr uint32_t kToastBorder = Rgba(120, 170, 255, 200);
inline constexpr uint32_t kToastText = Rgba(236, 239, 244);
inline constexpr uint32_t kCaptionBackground = Rgba(40, 43, 50);
inline constexpr uint32_t kCaptionText = Rgba(214, 218, 224);
inline constexpr float kCaptionPadding = 5.f;

// Strips across the top of the timeline: data lost while loading (amber),
// the built-in demo on show (blue).
inline constexpr uint32_t kDataLossBackground = Rgba(92, 62, 14);
inline constexpr uint32_t kDataLossText = Rgba(255, 226, 170);
inline constexpr uint32_t kDemoStripBackground = Rgba(28, 58, 96);
inline constexpr uint32_t kDemoStripText = Rgba(214, 230, 250);

}  // namespace stepline::ui::theme
