// Cutting a panel out of a frame: logical ImGui rectangles times the
// framebuffer scale (HiDPI), clipped to the frame; the caption strip stacked
// under the panel.
#include "app/gui/image_crop.h"

#include <gtest/gtest.h>

#include "app/gui/picture_saver.h"

namespace stepline::app {
namespace {

// A frame whose pixel (x, y) is (x, y, 7, 255), so every crop can be checked.
RgbaImage Gradient(int w, int h) {
  RgbaImage img{w, h, std::vector<uint8_t>(static_cast<size_t>(w) * h * 4)};
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      uint8_t* p = img.rgba.data() + (static_cast<size_t>(y) * w + x) * 4;
      p[0] = static_cast<uint8_t>(x);
      p[1] = static_cast<uint8_t>(y);
      p[2] = 7;
      p[3] = 255;
    }
  }
  return img;
}

std::array<int, 2> At(const RgbaImage& img, int x, int y) {
  const uint8_t* p = img.rgba.data() + (static_cast<size_t>(y) * img.w + x) * 4;
  return {p[0], p[1]};
}

TEST(ImageCropTest, ScaleOneIsTheLogicalRect) {
  const PixelRect r = ToPixelRect(10, 20, 110, 70, 1, 1, 1920, 1080);
  EXPECT_EQ(r.x, 10);
  EXPECT_EQ(r.y, 20);
  EXPECT_EQ(r.w, 100);
  EXPECT_EQ(r.h, 50);
}

TEST(ImageCropTest, HiDpiScalesAndCoversPartialPixels) {
  // 2x framebuffer: 10.5 -> 21, 110.25 -> 220.5 rounds out to 221.
  const PixelRect r = ToPixelRect(10.5f, 20, 110.25f, 70, 2, 2, 3840, 2160);
  EXPECT_EQ(r.x, 21);
  EXPECT_EQ(r.y, 40);
  EXPECT_EQ(r.w, 200);
  EXPECT_EQ(r.h, 100);
  // Different scales per axis (fractional HiDPI).
  const PixelRect f = ToPixelRect(100, 100, 200, 150, 1.5f, 1.25f, 4000, 4000);
  EXPECT_EQ(f.x, 150);
  EXPECT_EQ(f.w, 150);
  EXPECT_EQ(f.y, 125);
  EXPECT_EQ(f.h, 63);  // 125 .. ceil(187.5)
}

TEST(ImageCropTest, ClipsToTheFrame) {
  const PixelRect r = ToPixelRect(-5, -5, 50, 30, 2, 2, 80, 40);
  EXPECT_EQ(r.x, 0);
  EXPECT_EQ(r.y, 0);
  EXPECT_EQ(r.w, 80);
  EXPECT_EQ(r.h, 40);
  EXPECT_TRUE(ToPixelRect(100, 100, 200, 200, 1, 1, 50, 50).empty());
  EXPECT_TRUE(ToPixelRect(10, 10, 10, 20, 1, 1, 50, 50).empty());
}

TEST(ImageCropTest, CropCopiesTheRightPixels) {
  const RgbaImage frame = Gradient(64, 48);
  const RgbaImage c = Crop(frame, PixelRect{5, 9, 20, 10});
  ASSERT_EQ(c.w, 20);
  ASSERT_EQ(c.h, 10);
  EXPECT_EQ(At(c, 0, 0), (std::array<int, 2>{5, 9}));
  EXPECT_EQ(At(c, 19, 9), (std::array<int, 2>{24, 18}));
}

TEST(ImageCropTest, PanelPictureGetsTheCaptionUnderIt) {
  const RgbaImage frame = Gradient(100, 60);
  const ui::PanelShot panel{"ops", 10, 5, 30, 15};     // logical
  const ui::PanelShot caption{"caption", 0, 25, 50, 30};  // spans the window
  const RgbaImage pic = ComposePicture(frame, panel, caption, 2, 2);
  ASSERT_EQ(pic.w, 40);            // 20 logical px at 2x
  ASSERT_EQ(pic.h, 20 + 10);       // panel, then 5 logical px of caption
  EXPECT_EQ(At(pic, 0, 0), (std::array<int, 2>{20, 10}));
  EXPECT_EQ(At(pic, 39, 19), (std::array<int, 2>{59, 29}));
  EXPECT_EQ(At(pic, 0, 20), (std::array<int, 2>{0, 50}));   // caption starts at its left edge
  EXPECT_EQ(At(pic, 39, 29), (std::array<int, 2>{39, 59}));
  // Without a panel the whole frame is the picture, caption and all.
  const RgbaImage whole = ComposePicture(frame, std::nullopt, caption, 2, 2);
  EXPECT_EQ(whole.w, 100);
  EXPECT_EQ(whole.rgba, frame.rgba);
}

TEST(ImageCropTest, NarrowCaptionIsPaddedWithItsLastColumn) {
  const RgbaImage top = Gradient(10, 2);
  const RgbaImage bottom = Gradient(4, 1);
  const RgbaImage s = StackBelow(top, bottom);
  ASSERT_EQ(s.w, 10);
  ASSERT_EQ(s.h, 3);
  EXPECT_EQ(At(s, 3, 2), (std::array<int, 2>{3, 0}));
  EXPECT_EQ(At(s, 9, 2), (std::array<int, 2>{3, 0}));
}

}  // namespace
}  // namespace stepline::app
