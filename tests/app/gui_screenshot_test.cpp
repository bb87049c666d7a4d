// The real window path under xvfb-run: `stepline screenshot` opens a hidden
// GLFW window, renders the timeline into an offscreen framebuffer and writes
// a PNG. We check its size, that it is not blank, and that two runs give the
// same pixels. Skips (with a message) where xvfb-run is not installed.
#include <gtest/gtest.h>
#include <stb/stb_image.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "tests/support/test_traces.h"

namespace stepline {
namespace {

struct Image {
  int w = 0, h = 0;
  std::vector<uint8_t> rgba;
};

bool HaveXvfb() { return std::system("command -v xvfb-run >/dev/null 2>&1") == 0; }

int Screenshot(const std::string& args) {
  const std::string cmd = "xvfb-run -a -s '-screen 0 1920x1080x24' '" + std::string(STEPLINE_BINARY) +
                          "' screenshot " + args + " > /dev/null 2>&1";
  return std::system(cmd.c_str());
}

Image Read(const std::string& path) {
  Image img;
  int channels = 0;
  unsigned char* data = stbi_load(path.c_str(), &img.w, &img.h, &channels, 4);
  if (data) {
    img.rgba.assign(data, data + static_cast<size_t>(img.w) * img.h * 4);
    stbi_image_free(data);
  }
  return img;
}

size_t DistinctColors(const Image& img) {
  std::set<uint32_t> colors;
  for (size_t i = 0; i + 3 < img.rgba.size(); i += 4) {
    colors.insert(uint32_t{img.rgba[i]} | uint32_t{img.rgba[i + 1]} << 8 | uint32_t{img.rgba[i + 2]} << 16);
  }
  return colors.size();
}

class GuiScreenshotTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!HaveXvfb()) GTEST_SKIP() << "xvfb-run not installed; the GUI screenshot test needs it (scripts install it)";
    dir_ = std::filesystem::temp_directory_path() / ("stepline-gui-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    if (!dir_.empty()) std::filesystem::remove_all(dir_, ec);
  }
  std::filesystem::path dir_;
};

TEST_F(GuiScreenshotTest, DemoTimelineRendersDeterministically) {
  const std::string a = (dir_ / "a.png").string(), b = (dir_ / "b.png").string();
  ASSERT_EQ(Screenshot("--demo input-bound --size 1280x720 --out '" + a + "'"), 0);
  ASSERT_EQ(Screenshot("--demo input-bound --size 1280x720 --out '" + b + "'"), 0);
  const Image ia = Read(a), ib = Read(b);
  ASSERT_EQ(ia.w, 1280);
  ASSERT_EQ(ia.h, 720);
  EXPECT_GT(DistinctColors(ia), 40u) << "the picture looks blank";
  EXPECT_EQ(ia.rgba, ib.rgba) << "same inputs gave different pixels";
}

TEST_F(GuiScreenshotTest, RealKinetoTraceWithGpuRows) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  const std::string trace = testing::SharedTracePath("hta/nccl_parser_config_nccl_data.json.gz");
  const std::string out = (dir_ / "kineto.png").string();
  ASSERT_EQ(Screenshot("'" + trace + "' --size 1600x900 --out '" + out + "'"), 0);
  const Image img = Read(out);
  ASSERT_EQ(img.w, 1600);
  ASSERT_EQ(img.h, 900);
  EXPECT_GT(DistinctColors(img), 60u);
}

TEST_F(GuiScreenshotTest, RefusesToOverwriteAndReportsBadInput) {
  const std::string out = (dir_ / "exists.png").string();
  ASSERT_EQ(Screenshot("--demo baseline --size 320x200 --out '" + out + "'"), 0);
  EXPECT_NE(Screenshot("--demo baseline --size 320x200 --out '" + out + "'"), 0);  // no --force
  EXPECT_EQ(Screenshot("--demo baseline --size 320x200 --force --out '" + out + "'"), 0);
  EXPECT_NE(Screenshot("/nonexistent/trace.json --out '" + (dir_ / "x.png").string() + "'"), 0);
  EXPECT_NE(Screenshot("--demo baseline --size 10x10 --out '" + (dir_ / "y.png").string() + "'"), 0);
  EXPECT_FALSE(std::filesystem::exists(dir_ / "x.png"));
}

}  // namespace
}  // namespace stepline
