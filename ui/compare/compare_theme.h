// The compare view's own colours and sizes (the rest comes from ui/theme.h,
// so categories keep the step chart's colours). Same conventions: packed
// ABGR colours, unscaled pixels.
#pragma once

#include "ui/theme.h"

namespace stepline::ui::theme {

// From the palette in use: darker on the light theme, so they read on white.
inline const uint32_t& kRunA = detail::g_palette.compare_run_a;  // A's label, series and markers
inline const uint32_t& kRunB = detail::g_palette.compare_run_b;  // B's
inline const uint32_t& kImprovement = detail::g_palette.compare_improvement;
inline const uint32_t& kRegression = detail::g_palette.compare_regression;
inline const uint32_t& kAlignedStepEdge = kCompareAlignedStepEdge;  // the aligned step's start and end (themed)
inline const uint32_t& kStepEdge = kCompareStepEdge;                // other steps' starts (themed)

inline constexpr float kCompareLeftWidth = 560.f;  // summary + chart column
inline constexpr float kCompareLeftMaxShare = 0.5f;  // of the window, when the summary needs more
inline constexpr float kCompareOpsHeight = 300.f;  // ops diff table under the timelines
inline constexpr float kCompareChartHeight = 250.f;
inline constexpr float kCompareRowGap = 6.f;        // between A's and B's series rows
inline constexpr float kCompareRunLetterEm = 1.5f;  // the "A" / "B" left of a row, in font heights
inline constexpr float kCompareAxisGap = 4.f;       // y labels to the plot
inline constexpr float kCompareOutline = 1.5f;      // the aligned step's outline
inline constexpr float kCompareTitleHeight = 20.f;  // the "A: file" strip over each timeline
// Differences smaller than this share of A are shown without colour (noise).
inline constexpr double kCompareNeutralPercent = 0.5;

}  // namespace stepline::ui::theme
