// Tooltips that wrap: ImGui sizes a tooltip to its longest line, and a long
// kernel name ("void at::native::vectorized_elementwise_kernel<4, ...>")
// ran off the window. These wrap text at a width that fits the window.
#pragma once

#include <imgui.h>

namespace stepline::ui {

// The wrap width of a tooltip's text, px: 60 characters' room, at most 60%
// of the window's width.
float TooltipWrapWidth();

// As ImGui::BeginTooltip / EndTooltip, with text wrapping at TooltipWrapWidth().
void BeginWrappedTooltip();
void EndWrappedTooltip();

// As ImGui::SetTooltip, wrapped.
void WrappedTooltip(const char* fmt, ...) IM_FMTARGS(1);

}  // namespace stepline::ui
