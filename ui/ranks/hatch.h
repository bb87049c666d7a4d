// Hatch: the diagonal lines that mark a collective wait, in the ranks table's
// bars and on the ranks timeline alike.
#pragma once

#include <imgui.h>

#include <cstdint>

namespace stepline::ui {

// Diagonal lines across [a, b], clipped to it, `spacing` apart.
inline void Hatch(ImDrawList* dl, ImVec2 a, ImVec2 b, uint32_t color, float spacing) {
  dl->PushClipRect(a, b, true);
  const float h = b.y - a.y;
  for (float x = a.x - h; x < b.x; x += spacing) dl->AddLine(ImVec2(x, b.y), ImVec2(x + h, a.y), color, 1.f);
  dl->PopClipRect();
}

}  // namespace stepline::ui
