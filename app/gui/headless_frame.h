// Rendering ImGui frames without a visible window: a fixed display size,
// no mouse, a fixed frame time, into an offscreen target. Same inputs give
// the same pixels.
#pragma once

#include <functional>

#include "app/gui/offscreen.h"

namespace stepline::app {

// Runs `frames` ImGui frames of `draw` at width x height and leaves the last
// one in `target` (which must have that size).
void RenderHeadlessFrames(int width, int height, int frames, const std::function<void()>& draw,
                          const OffscreenTarget& target);

}  // namespace stepline::app
