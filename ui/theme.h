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


// The themes. The data colours below (kinds, causes, categories) read on a
// dark and a light background alike and stay fixed; everything around them
// (backgrounds, text, lines, marks) comes from the palette in use, so a
// picture for a projector or for print can be light. SetTheme switches it for
// the whole process (the UI is single-threaded; headless tests set it back).
enum class ThemeKind : uint8_t { kDark = 0, kLight };

struct Palette {
  uint32_t background;
  uint32_t track_background_even;
  uint32_t track_background_odd;
  uint32_t group_header;
  uint32_t group_header_text;
  uint32_t track_text;
  uint32_t track_sub_text;
  uint32_t ruler_background;
  uint32_t ruler_tick;
  uint32_t ruler_text;
  uint32_t grid_line;
  uint32_t slice_text;
  uint32_t slice_border;
  uint32_t folded_run;
  uint32_t folded_run_text;
  uint32_t selection;
  uint32_t search_match;
  uint32_t range_selection;
  uint32_t range_selection_edge;
  uint32_t flow_arrow;
  uint32_t overview_busy;
  uint32_t overview_window;
  uint32_t counter_fill;
  uint32_t counter_line;
  uint32_t error_text;
  uint32_t gap_selected;
  uint32_t blame_arrow;
  uint32_t op_highlight;
  uint32_t step_fill;
  uint32_t step_fill_alt;
  uint32_t step_focused;
  uint32_t chart_axis;
  uint32_t chart_mean_line;
  uint32_t chart_hover;
  uint32_t bar_fill;
  uint32_t card_background;
  uint32_t card_value;
  uint32_t card_label;
  uint32_t text_shadow;
  uint32_t toast_background;
  uint32_t toast_border;
  uint32_t toast_text;
  uint32_t caption_background;
  uint32_t caption_text;
  uint32_t data_loss_background;
  uint32_t data_loss_text;
  uint32_t demo_strip_background;
  uint32_t demo_strip_text;
  uint32_t compare_step_edge;
  uint32_t compare_aligned_step_edge;
  uint32_t memory_peak_mark;
  uint32_t note_text;
  uint32_t compare_run_a;
  uint32_t compare_run_b;
  uint32_t compare_improvement;
  uint32_t compare_regression;
  // The ranks view (ui/ranks/); its lanes, ruler and labels use the timeline's entries above.
  uint32_t rank_straggler_row;   // the straggler's row in the ranks table
  uint32_t rank_wait_bar_hatch;  // the hatch over a bar's collective wait (a pale fill of the collective colour)
  uint32_t heat_neutral;         // the lateness heat map's "on time"
  uint32_t advice_text;          // recommendations
};

inline constexpr Palette kDarkPalette{
    Rgba(24, 26, 30),
    Rgba(30, 33, 38),
    Rgba(36, 39, 45),
    Rgba(52, 57, 66),
    Rgba(230, 232, 236),
    Rgba(200, 204, 210),
    Rgba(140, 146, 156),
    Rgba(40, 43, 50),
    Rgba(150, 156, 166),
    Rgba(210, 214, 220),
    Rgba(255, 255, 255, 18),
    Rgba(16, 16, 16),
    Rgba(0, 0, 0, 70),
    Rgba(120, 126, 138),
    Rgba(20, 22, 26),
    Rgba(255, 255, 255),
    Rgba(255, 214, 0),
    Rgba(90, 150, 255, 48),
    Rgba(120, 170, 255, 200),
    Rgba(255, 170, 60, 230),
    Rgba(94, 186, 125),
    Rgba(255, 255, 255, 60),
    Rgba(90, 160, 220, 150),
    Rgba(130, 190, 240),
    Rgba(255, 120, 110),
    Rgba(255, 255, 255, 200),
    Rgba(255, 80, 80, 240),
    Rgba(0, 230, 255),
    Rgba(70, 78, 92),
    Rgba(84, 93, 108),
    Rgba(120, 170, 255),
    Rgba(120, 126, 138),
    Rgba(255, 255, 255, 160),
    Rgba(255, 255, 255, 60),
    Rgba(90, 150, 230),
    Rgba(40, 44, 52),
    Rgba(240, 242, 246),
    Rgba(150, 156, 166),
    Rgba(0, 0, 0, 200),
    Rgba(46, 52, 62, 235),
    Rgba(120, 170, 255, 200),
    Rgba(236, 239, 244),
    Rgba(40, 43, 50),
    Rgba(214, 218, 224),
    Rgba(92, 62, 14),
    Rgba(255, 226, 170),
    Rgba(28, 58, 96),
    Rgba(214, 230, 250),
    Rgba(255, 255, 255, 36),
    Rgba(255, 255, 255, 150),
    Rgba(250, 250, 250),
    Rgba(236, 239, 244),
    Rgba(100, 165, 255),
    Rgba(255, 171, 64),
    Rgba(102, 200, 110),
    Rgba(255, 105, 97),
    Rgba(120, 40, 40, 160),
    Rgba(220, 240, 236, 220),
    Rgba(48, 52, 60),
    Rgba(255, 205, 150)};

inline constexpr Palette kLightPalette{
    Rgba(250, 250, 251),
    Rgba(255, 255, 255),
    Rgba(243, 245, 248),
    Rgba(222, 226, 233),
    Rgba(20, 24, 30),
    Rgba(36, 40, 48),
    Rgba(96, 102, 112),
    Rgba(234, 237, 242),
    Rgba(120, 126, 136),
    Rgba(28, 32, 40),
    Rgba(0, 0, 0, 24),
    Rgba(16, 16, 16),
    Rgba(0, 0, 0, 70),
    Rgba(150, 156, 168),
    Rgba(20, 22, 26),
    Rgba(0, 0, 0),
    Rgba(230, 130, 0),
    Rgba(40, 100, 230, 40),
    Rgba(40, 100, 230, 220),
    Rgba(215, 100, 0, 235),
    Rgba(56, 150, 88),
    Rgba(0, 0, 0, 40),
    Rgba(50, 120, 200, 120),
    Rgba(30, 95, 175),
    Rgba(196, 40, 30),
    Rgba(0, 0, 0, 200),
    Rgba(215, 30, 30, 240),
    Rgba(0, 140, 190),
    Rgba(204, 210, 220),
    Rgba(184, 192, 205),
    Rgba(40, 100, 230),
    Rgba(110, 116, 126),
    Rgba(0, 0, 0, 160),
    Rgba(0, 0, 0, 40),
    Rgba(60, 120, 210),
    Rgba(236, 239, 244),
    Rgba(20, 24, 30),
    Rgba(88, 94, 104),
    Rgba(255, 255, 255, 200),
    Rgba(250, 250, 252, 240),
    Rgba(40, 100, 230, 200),
    Rgba(20, 24, 30),
    Rgba(230, 233, 238),
    Rgba(28, 32, 40),
    Rgba(255, 226, 176),
    Rgba(88, 48, 0),
    Rgba(212, 228, 250),
    Rgba(18, 48, 88),
    Rgba(0, 0, 0, 40),
    Rgba(0, 0, 0, 150),
    Rgba(20, 24, 30),
    Rgba(20, 24, 30),
    Rgba(25, 100, 210),
    Rgba(205, 110, 0),
    Rgba(25, 135, 50),
    Rgba(205, 45, 35),
    Rgba(250, 200, 196),
    Rgba(0, 84, 76, 220),
    Rgba(226, 229, 235),
    Rgba(150, 72, 0)};

namespace detail {
inline Palette g_palette = kDarkPalette;
inline ThemeKind g_theme = ThemeKind::kDark;
}  // namespace detail

inline ThemeKind CurrentTheme() { return detail::g_theme; }
inline void SetTheme(ThemeKind kind) {
  detail::g_theme = kind;
  detail::g_palette = kind == ThemeKind::kLight ? kLightPalette : kDarkPalette;
}
inline const Palette& CurrentPalette() { return detail::g_palette; }

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
inline const uint32_t& kBackground = detail::g_palette.background;
inline const uint32_t& kTrackBackgroundEven = detail::g_palette.track_background_even;
inline const uint32_t& kTrackBackgroundOdd = detail::g_palette.track_background_odd;
inline const uint32_t& kGroupHeader = detail::g_palette.group_header;
inline const uint32_t& kGroupHeaderText = detail::g_palette.group_header_text;
inline const uint32_t& kTrackText = detail::g_palette.track_text;
inline const uint32_t& kTrackSubText = detail::g_palette.track_sub_text;
inline const uint32_t& kRulerBackground = detail::g_palette.ruler_background;
inline const uint32_t& kRulerTick = detail::g_palette.ruler_tick;
inline const uint32_t& kRulerText = detail::g_palette.ruler_text;
inline const uint32_t& kGridLine = detail::g_palette.grid_line;
inline const uint32_t& kSliceText = detail::g_palette.slice_text;
inline const uint32_t& kSliceBorder = detail::g_palette.slice_border;
inline const uint32_t& kFoldedRun = detail::g_palette.folded_run;
inline const uint32_t& kFoldedRunText = detail::g_palette.folded_run_text;  // a folded run's slice count
// A slice that is not highlighted while a search or an op is: blended 70%
// toward the track background so the highlights stand out.
inline uint32_t Dimmed(uint32_t rgba);  // defined after the palette below
inline const uint32_t& kSelection = detail::g_palette.selection;
inline const uint32_t& kSearchMatch = detail::g_palette.search_match;
inline const uint32_t& kRangeSelection = detail::g_palette.range_selection;
inline const uint32_t& kRangeSelectionEdge = detail::g_palette.range_selection_edge;
inline const uint32_t& kFlowArrow = detail::g_palette.flow_arrow;
inline const uint32_t& kOverviewBusy = detail::g_palette.overview_busy;
inline const uint32_t& kOverviewWindow = detail::g_palette.overview_window;
inline const uint32_t& kCounterFill = detail::g_palette.counter_fill;
inline const uint32_t& kCounterLine = detail::g_palette.counter_line;
inline const uint32_t& kErrorText = detail::g_palette.error_text;

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
inline constexpr uint32_t kCauseGraph = Rgba(161, 110, 88);  // brown: none of the other causes' hues
inline constexpr uint32_t kCauseOther = Rgba(144, 150, 160);
inline constexpr uint32_t kCauseColors[] = {kCauseInput,  kCauseMemcpyH2D,   kCauseMemcpyD2H, kCauseSync,
                                            kCauseLaunch, kCauseHostCompute, kCauseGraph,     kCauseOther};
// Collective is teal and "memcpy other" olive, not the kind colours' purple
// and pale yellow: beside "Idle: sync" (purple) and "Memcpy D2H" (yellow) in
// one stacked bar those could not be told apart.
inline constexpr uint32_t kCategoryCollective = Rgba(0, 137, 123);
inline constexpr uint32_t kCategoryMemcpyOther = Rgba(175, 180, 43);
inline constexpr uint32_t kCategoryColors[] = {
    kKindKernel,      kCategoryCollective, Rgba(255, 167, 38), Rgba(255, 213, 79), kCategoryMemcpyOther,
    kKindMemset,      kCauseInput,         kCauseSync,         kCauseLaunch,       kCauseHostCompute,
    kCauseGraph,      kCauseOther};
inline constexpr uint8_t kGapShadeAlpha = 70;          // gap overlay on device rows
inline constexpr float kGapShadeMinHeight = 1.f;       // px: a barely idle pixel still shows a line
inline const uint32_t& kGapSelected = detail::g_palette.gap_selected;
inline const uint32_t& kBlameArrow = detail::g_palette.blame_arrow;
inline const uint32_t& kOpHighlight = detail::g_palette.op_highlight;
inline const uint32_t& kStepFill = detail::g_palette.step_fill;
inline const uint32_t& kStepFillAlt = detail::g_palette.step_fill_alt;
inline const uint32_t& kStepFocused = detail::g_palette.step_focused;
inline const uint32_t& kChartAxis = detail::g_palette.chart_axis;
inline const uint32_t& kChartMeanLine = detail::g_palette.chart_mean_line;
inline const uint32_t& kChartHover = detail::g_palette.chart_hover;
inline const uint32_t& kBarFill = detail::g_palette.bar_fill;
inline const uint32_t& kCardBackground = detail::g_palette.card_background;
inline const uint32_t& kCardValue = detail::g_palette.card_value;
inline const uint32_t& kCardLabel = detail::g_palette.card_label;

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
inline const uint32_t& kTextShadow = detail::g_palette.text_shadow;
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
inline const uint32_t& kToastBackground = detail::g_palette.toast_background;
inline const uint32_t& kToastBorder = detail::g_palette.toast_border;
inline const uint32_t& kToastText = detail::g_palette.toast_text;
inline const uint32_t& kCaptionBackground = detail::g_palette.caption_background;
inline const uint32_t& kCaptionText = detail::g_palette.caption_text;
inline constexpr float kCaptionPadding = 5.f;

// Strips across the top of the timeline: data lost while loading (amber),
// the built-in demo on show (blue).
inline const uint32_t& kDataLossBackground = detail::g_palette.data_loss_background;
inline const uint32_t& kDataLossText = detail::g_palette.data_loss_text;
inline const uint32_t& kDemoStripBackground = detail::g_palette.demo_strip_background;
inline const uint32_t& kDemoStripText = detail::g_palette.demo_strip_text;

// Marks that used to be fixed white in their own files.
inline const uint32_t& kCompareStepEdge = detail::g_palette.compare_step_edge;
inline const uint32_t& kCompareAlignedStepEdge = detail::g_palette.compare_aligned_step_edge;
inline const uint32_t& kMemoryPeakMark = detail::g_palette.memory_peak_mark;

// The ranks view: the collective wait is a data colour of its own (no
// category or lane uses it), hatched; the rest follows the palette.
inline constexpr uint32_t kRankWaitFill = Rgba(255, 138, 101);
inline constexpr uint32_t kRankWaitHatch = Rgba(120, 40, 20, 200);
inline const uint32_t& kRankStragglerRow = detail::g_palette.rank_straggler_row;
inline const uint32_t& kRankWaitBarHatch = detail::g_palette.rank_wait_bar_hatch;
inline const uint32_t& kHeatNeutral = detail::g_palette.heat_neutral;
inline const uint32_t& kAdviceText = detail::g_palette.advice_text;

// Notes and bookmarks (ui/notes/): the colours a new note cycles through,
// and the text of a note's label.
inline constexpr uint32_t kNoteColors[] = {Rgba(255, 193, 7), Rgba(66, 165, 245), Rgba(239, 83, 80),
                                           Rgba(102, 187, 106), Rgba(171, 71, 188), Rgba(255, 112, 67)};
inline const uint32_t& kNoteText = detail::g_palette.note_text;
inline constexpr uint8_t kNoteBandAlpha = 46;   // a span note's band over the rows
inline constexpr float kNoteFlagSize = 9.f;     // px: the little flag on a flag note's line

// `rgba` with its alpha replaced.
inline constexpr uint32_t WithAlpha(uint32_t rgba, uint8_t alpha) {
  return (rgba & 0x00FFFFFFu) | (uint32_t{alpha} << 24);
}

inline uint32_t Dimmed(uint32_t rgba) {
  const uint32_t bg = detail::g_palette.track_background_even;
  auto mix = [](uint32_t c, uint32_t b) { return static_cast<uint8_t>((c * 3 + b * 7) / 10); };
  const uint32_t r = rgba & 0xFF, g = (rgba >> 8) & 0xFF, b = (rgba >> 16) & 0xFF;
  return Rgba(mix(r, bg & 0xFF), mix(g, (bg >> 8) & 0xFF), mix(b, (bg >> 16) & 0xFF), static_cast<uint8_t>(rgba >> 24));
}

}  // namespace stepline::ui::theme
