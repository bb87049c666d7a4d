// Display names and small widgets shared by the analysis panels: labels of
// step-time categories and idle causes, a colour swatch, share formatting.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "model/analysis/time_category.h"

namespace stepline::ui {

const char* CategoryLabel(analysis::TimeCategory c);  // "Compute", "Idle: input", ...
const char* CauseLabel(analysis::IdleCause c);        // "Input", "Memcpy H2D", ...
uint32_t CauseColor(analysis::IdleCause c);
// A small filled square in `color`, followed by SameLine (for legends) with
// `spacing` px before the next item (< 0: the style's spacing).
void ColorSwatch(uint32_t color, float spacing = -1.f);
// Continues the row after the last item when `next_w` px still fit before
// the window's right edge; else the next item starts a new line (< 0
// spacing: the style's). For toolbars that must wrap, not clip, when narrow.
void SameLineIfFits(float next_w, float spacing = -1.f);
// `text` cut to at most `width` px at `font_size` (the current font), ending
// in "..." when cut (never inside a UTF-8 sequence); whole when it fits.
std::string FitText(const std::string& text, float width, float font_size);
// The same from the other end: "...resnet_b.json", for paths, whose file
// name is what tells two runs apart.
std::string FitTextTail(const std::string& text, float width, float font_size);
// Markdown code spans as plain text: the recommendations are written for
// `report --format md` ("not `.item()`'d"); the window drew the backticks.
std::string PlainCodeSpans(std::string_view text);
// A section heading: spacing, the title, a separator line.
void SectionTitle(const char* title);
// "12.3%" of part over whole; "-" when whole is 0.
std::string Percent(double part, double whole);

}  // namespace stepline::ui
