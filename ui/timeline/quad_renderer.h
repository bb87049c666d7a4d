// QuadRenderer: how the timeline's slice rectangles reach the screen. The
// timeline collects one QuadInstance per visible item and hands the batch to
// a renderer: the default adds them to the ImDrawList; the app's OpenGL
// renderer draws them with one instanced call (shaders/slice_quads.*).
#pragma once

#include <cstdint>
#include <span>

struct ImDrawList;

namespace stepline::ui {

struct QuadInstance {
  float x0, y0, x1, y1;  // screen pixels
  uint32_t color;        // packed ABGR (IM_COL32)
};

class QuadRenderer {
 public:
  virtual ~QuadRenderer() = default;
  // Draws `quads` into `draw_list` at the current point of its command
  // stream, clipped to the draw list's current clip rect.
  virtual void Draw(ImDrawList* draw_list, std::span<const QuadInstance> quads) = 0;
};

// Adds every quad with AddRectFilled. Works with any ImGui backend (and with
// no backend at all, for headless tests).
class DrawListQuadRenderer : public QuadRenderer {
 public:
  void Draw(ImDrawList* draw_list, std::span<const QuadInstance> quads) override;
};

}  // namespace stepline::ui
