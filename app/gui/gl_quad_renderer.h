// GlQuadRenderer: draws the timeline's rectangles with one instanced draw
// call per batch (shaders/slice_quads.*) instead of four ImDrawList vertices
// each. Batches are queued into the ImDrawList as callbacks, so they land at
// the right depth among ImGui's own drawing. Needs a current GL 3.3 context.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "ui/timeline/quad_renderer.h"

struct ImDrawCmd;

namespace stepline::app {

class GlQuadRenderer : public ui::QuadRenderer {
 public:
  GlQuadRenderer() = default;
  GlQuadRenderer(const GlQuadRenderer&) = delete;
  GlQuadRenderer& operator=(const GlQuadRenderer&) = delete;
  ~GlQuadRenderer() override;

  bool Init(std::string* error);      // compiles the shaders, makes the buffers
  void BeginFrame() { batches_.clear(); }
  void Draw(ImDrawList* draw_list, std::span<const ui::QuadInstance> quads) override;

 private:
  struct Batch {
    GlQuadRenderer* self;
    std::vector<ui::QuadInstance> quads;
  };
  static void RenderBatch(const ImDrawList* list, const ImDrawCmd* cmd);

  unsigned program_ = 0, vao_ = 0, vbo_ = 0;
  int projection_location_ = -1;
  std::vector<std::unique_ptr<Batch>> batches_;  // alive until the frame is rendered
};

}  // namespace stepline::app
