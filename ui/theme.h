// Theme: every colour, size and padding the panels draw with, in one place.
// Colours are ImGui's packed ABGR (IM_COL32); sizes are unscaled pixels that
// the panels multiply by ImGui's font scale.
#pragma once

#include <cstdint>

namespace stepline::ui::theme {

inline constexpr uint32_t Rgba(uint8_t r, uint8_t g, uint8_t b, uint8_t a = 255) {
  return uint32_t{r} | uint32_t{g} << 8 | uint32_t{b} << 16 | uint32_t{a} << 24;
}

// Timeline geometry.
inline constexpr float kRulerHeight = 26.f;
inline constexpr float kOverviewHeight = 34.f;
inline constexpr float kHeaderWidth = 220.f;     // track names column
inline constexpr float kSliceRowHeight = 18.f;   // one nesting level
inline constexpr float kGroupHeaderHeight = 22.f;
inline constexpr float kTrackGap = 4.f;
inline constexpr float kCounterHeight = 36.f;
inline constexpr float kMinLabelPx = 24.f;       // narrower slices get no label
inline constexpr float kMinSlicePx = 3.f;        // LOD fold threshold
inline constexpr float kArrowHead = 7.f;

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

}  // namespace stepline::ui::theme
