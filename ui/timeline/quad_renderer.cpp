// The ImDrawList fallback renderer.
#include "ui/timeline/quad_renderer.h"

#include <imgui.h>

namespace stepline::ui {

void DrawListQuadRenderer::Draw(ImDrawList* draw_list, std::span<const QuadInstance> quads) {
  for (const QuadInstance& q : quads) draw_list->AddRectFilled(ImVec2(q.x0, q.y0), ImVec2(q.x1, q.y1), q.color);
}

}  // namespace stepline::ui
