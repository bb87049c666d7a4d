// Cutting a panel out of a rendered frame. Panels know their rectangle in
// ImGui coordinates (logical px); the framebuffer has
// io.DisplayFramebufferScale times as many pixels on HiDPI screens. Pure
// pixel math, no GL.
#pragma once

#include <cstdint>
#include <vector>

namespace stepline::app {

struct PixelRect {
  int x = 0, y = 0, w = 0, h = 0;  // framebuffer pixels, top row 0
  bool empty() const { return w <= 0 || h <= 0; }
};

// The pixels covering the logical rectangle [x0,x1) x [y0,y1) at framebuffer
// scale (scale_x, scale_y), widened to whole pixels (floor the start, ceil the
// end) and clipped to a fb_w x fb_h framebuffer. Empty when outside it.
PixelRect ToPixelRect(float x0, float y0, float x1, float y1, float scale_x, float scale_y, int fb_w, int fb_h);

struct RgbaImage {
  int w = 0, h = 0;
  std::vector<uint8_t> rgba;  // w*h*4, top row first
};

// The part `r` of `image` (r must lie inside it).
RgbaImage Crop(const RgbaImage& image, const PixelRect& r);
// `top` above `bottom`, as wide as `top`: `bottom` is cut at the right or
// padded with its own last column (a caption strip is uniform there).
RgbaImage StackBelow(const RgbaImage& top, const RgbaImage& bottom);

}  // namespace stepline::app
