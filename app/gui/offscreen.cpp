// Offscreen framebuffer and PNG writing; see offscreen.h.
#include <epoxy/gl.h>

#include "app/gui/offscreen.h"

#include <stb/stb_image_write.h>

#include <cstring>

namespace stepline::app {

OffscreenTarget::~OffscreenTarget() {
  if (fbo_) glDeleteFramebuffers(1, &fbo_);
  if (color_) glDeleteRenderbuffers(1, &color_);
}

bool OffscreenTarget::Create(int width, int height, std::string* error) {
  GLint max_size = 0;
  glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_size);
  if (width <= 0 || height <= 0 || width > max_size || height > max_size) {
    *error = "image size " + std::to_string(width) + "x" + std::to_string(height) + " is outside 1.." +
             std::to_string(max_size);
    return false;
  }
  width_ = width;
  height_ = height;
  glGenFramebuffers(1, &fbo_);
  glGenRenderbuffers(1, &color_);
  glBindRenderbuffer(GL_RENDERBUFFER, color_);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color_);
  if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
    *error = "offscreen framebuffer is incomplete";
    return false;
  }
  return true;
}

void OffscreenTarget::Bind() const {
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  glViewport(0, 0, width_, height_);
}

std::vector<uint8_t> OffscreenTarget::ReadRgba() const {
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_);
  return ReadFramebufferRgba(width_, height_);
}

std::vector<uint8_t> ReadFramebufferRgba(int width, int height) {
  std::vector<uint8_t> pixels(static_cast<size_t>(width) * height * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  // GL's first row is the bottom one.
  const size_t stride = static_cast<size_t>(width) * 4;
  std::vector<uint8_t> row(stride);
  for (int y = 0; y < height / 2; ++y) {
    uint8_t* a = pixels.data() + y * stride;
    uint8_t* b = pixels.data() + (height - 1 - y) * stride;
    std::memcpy(row.data(), a, stride);
    std::memcpy(a, b, stride);
    std::memcpy(b, row.data(), stride);
  }
  for (size_t i = 3; i < pixels.size(); i += 4) pixels[i] = 255;  // screenshots are opaque
  return pixels;
}

std::string EncodePng(int width, int height, const std::vector<uint8_t>& rgba) {
  std::string out;
  const auto append = [](void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<size_t>(size));
  };
  if (!stbi_write_png_to_func(append, &out, width, height, 4, rgba.data(), width * 4)) out.clear();
  return out;
}

bool WritePng(const std::string& path, int width, int height, const std::vector<uint8_t>& rgba,
              const exports::SafeWriteOptions& options, std::string* error) {
  const std::string png = EncodePng(width, height, rgba);
  if (png.empty()) {
    *error = path + ": cannot encode the PNG";
    return false;
  }
  return exports::WriteFileSafely(path, png, options, error);
}

}  // namespace stepline::app
