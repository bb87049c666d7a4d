// Offscreen rendering for screenshots: a framebuffer object of an exact
// pixel size, read back as RGBA, and a PNG writer that never overwrites
// silently (see safe_write.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "export/safe_write.h"

namespace stepline::app {

class OffscreenTarget {
 public:
  OffscreenTarget() = default;
  OffscreenTarget(const OffscreenTarget&) = delete;
  OffscreenTarget& operator=(const OffscreenTarget&) = delete;
  ~OffscreenTarget();

  bool Create(int width, int height, std::string* error);  // needs a current GL context
  void Bind() const;                                        // render into it
  int width() const { return width_; }
  int height() const { return height_; }
  std::vector<uint8_t> ReadRgba() const;  // top row first

 private:
  unsigned fbo_ = 0, color_ = 0;
  int width_ = 0, height_ = 0;
};

// Reads the currently bound read framebuffer (e.g. the window's back buffer
// before the swap), top row first.
std::vector<uint8_t> ReadFramebufferRgba(int width, int height);

// `rgba` (width*height*4, top row first) as PNG file bytes; empty on failure.
std::string EncodePng(int width, int height, const std::vector<uint8_t>& rgba);

// Writes `rgba` as PNG with exports::WriteFileSafely (temporary file, then renamed;
// never replaces an existing file unless `options.overwrite`, never an input).
bool WritePng(const std::string& path, int width, int height, const std::vector<uint8_t>& rgba,
              const exports::SafeWriteOptions& options, std::string* error);

}  // namespace stepline::app
