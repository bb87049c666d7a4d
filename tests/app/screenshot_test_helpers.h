// What the tests that check real PNGs share: running `stepline screenshot`
// under xvfb-run, decoding a PNG and counting its colours. One copy, so every
// test reads pixels (RGB packed as 0xBBGGRR, alpha ignored) the same way.
#pragma once

#include <stb/stb_image.h>

#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

namespace stepline::testing {

// A decoded picture: w * h RGBA pixels, row by row; empty if it did not load.
struct Image {
  int w = 0, h = 0;
  std::vector<uint8_t> rgba;
};

// Tests that need a display skip (with a message) where this is false.
inline bool HaveXvfb() { return std::system("command -v xvfb-run >/dev/null 2>&1") == 0; }

// Prefix for a command that runs this test executable again with its own
// --gtest_filter: without the sharding variables CTest's shards set
// (tests/CMakeLists.txt), which would otherwise filter the one case out.
inline constexpr const char* kUnsharded = "env -u GTEST_TOTAL_SHARDS -u GTEST_SHARD_INDEX -u GTEST_SHARD_STATUS_FILE ";

// xvfb-run for a test executable that opens several windows one after the
// other: -noreset keeps Xvfb from resetting when the last window closes,
// which made the next window's connection fail now and then ("Failed to
// open display").
inline constexpr const char* kXvfbRun = "xvfb-run -a -s '-screen 0 1280x800x24 -noreset' ";

// Runs `stepline screenshot <args>` under its own X server; its exit code.
inline int Screenshot(const std::string& args) {
  const std::string cmd = "xvfb-run -a -s '-screen 0 1920x1080x24' '" + std::string(STEPLINE_BINARY) + "' screenshot " +
                          args + " > /dev/null 2>&1";
  return std::system(cmd.c_str());
}

inline Image ReadPng(const std::string& path) {
  Image img;
  int channels = 0;
  unsigned char* data = stbi_load(path.c_str(), &img.w, &img.h, &channels, 4);
  if (data) {
    img.rgba.assign(data, data + static_cast<size_t>(img.w) * img.h * 4);
    stbi_image_free(data);
  }
  return img;
}

// The pixel at (x, y) as 0xBBGGRR.
inline uint32_t Pixel(const Image& img, int x, int y) {
  const size_t i = (static_cast<size_t>(y) * img.w + x) * 4;
  return uint32_t{img.rgba[i]} | uint32_t{img.rgba[i + 1]} << 8 | uint32_t{img.rgba[i + 2]} << 16;
}

// Every colour in the picture as 0xBBGGRR; a blank picture has few.
inline std::set<uint32_t> Colors(const Image& img) {
  std::set<uint32_t> colors;
  for (size_t i = 0; i + 3 < img.rgba.size(); i += 4) {
    colors.insert(uint32_t{img.rgba[i]} | uint32_t{img.rgba[i + 1]} << 8 | uint32_t{img.rgba[i + 2]} << 16);
  }
  return colors;
}

inline size_t DistinctColors(const Image& img) { return Colors(img).size(); }

}  // namespace stepline::testing
