// Crop math; see image_crop.h.
#include "app/gui/image_crop.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace stepline::app {

PixelRect ToPixelRect(float x0, float y0, float x1, float y1, float scale_x, float scale_y, int fb_w, int fb_h) {
  const int px0 = std::max(0, static_cast<int>(std::floor(x0 * scale_x)));
  const int py0 = std::max(0, static_cast<int>(std::floor(y0 * scale_y)));
  const int px1 = std::min(fb_w, static_cast<int>(std::ceil(x1 * scale_x)));
  const int py1 = std::min(fb_h, static_cast<int>(std::ceil(y1 * scale_y)));
  if (px1 <= px0 || py1 <= py0) return PixelRect{};
  return PixelRect{px0, py0, px1 - px0, py1 - py0};
}

RgbaImage Crop(const RgbaImage& image, const PixelRect& r) {
  RgbaImage out;
  if (r.empty()) return out;
  out.w = r.w;
  out.h = r.h;
  out.rgba.resize(static_cast<size_t>(r.w) * r.h * 4);
  for (int y = 0; y < r.h; ++y) {
    const uint8_t* src = image.rgba.data() + (static_cast<size_t>(r.y + y) * image.w + r.x) * 4;
    std::memcpy(out.rgba.data() + static_cast<size_t>(y) * r.w * 4, src, static_cast<size_t>(r.w) * 4);
  }
  return out;
}

RgbaImage StackBelow(const RgbaImage& top, const RgbaImage& bottom) {
  if (bottom.w <= 0 || bottom.h <= 0) return top;
  RgbaImage out;
  out.w = top.w;
  out.h = top.h + bottom.h;
  out.rgba = top.rgba;
  out.rgba.resize(static_cast<size_t>(out.w) * out.h * 4);
  for (int y = 0; y < bottom.h; ++y) {
    uint8_t* dst = out.rgba.data() + static_cast<size_t>(top.h + y) * out.w * 4;
    const uint8_t* src = bottom.rgba.data() + static_cast<size_t>(y) * bottom.w * 4;
    for (int x = 0; x < out.w; ++x) std::memcpy(dst + x * 4, src + std::min(x, bottom.w - 1) * 4, 4);
  }
  return out;
}

}  // namespace stepline::app
