// Notes and the light theme in real pictures (`stepline screenshot` under
// xvfb-run): the light theme paints the timeline's background from the light
// palette; notes given with --notes draw a band over the rows and a flag;
// the trace's own saved notes (the config folder) are drawn without --notes.
// Skips where xvfb-run is not installed.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "app/gui/note_store.h"
#include "tests/app/command_test_helpers.h"
#include "tests/app/screenshot_test_helpers.h"
#include "ui/theme.h"

namespace stepline::app {
namespace {

using stepline::testing::HaveXvfb;
using stepline::testing::Image;
using stepline::testing::Pixel;
using stepline::testing::ReadPng;
using stepline::testing::Screenshot;

size_t NotesShotCount(const Image& img, uint32_t rgb) {
  size_t n = 0;
  for (int y = 0; y < img.h; ++y) {
    for (int x = 0; x < img.w; ++x) n += Pixel(img, x, y) == rgb ? 1 : 0;
  }
  return n;
}

// Pixels tinted magenta (a #ff00ff band over any background).
size_t MagentaTinted(const Image& img) {
  size_t n = 0;
  for (int y = 0; y < img.h; ++y) {
    for (int x = 0; x < img.w; ++x) {
      const uint32_t p = Pixel(img, x, y);
      const int r = p & 0xFF, g = (p >> 8) & 0xFF, b = (p >> 16) & 0xFF;
      n += r - g > 30 && b - g > 30 && std::abs(r - b) < 40 ? 1 : 0;
    }
  }
  return n;
}

class NotesThemeScreenshotTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!HaveXvfb()) GTEST_SKIP() << "xvfb-run not installed; the GUI screenshot test needs it (scripts install it)";
    dir_ = MakeScratchDir("stepline-notes-shot");
    trace_ = (dir_ / "run.json").string();
    demo::DemoOptions demo;
    demo.scenario = "input-bound";
    demo.steps = 3;
    demo.compute_truth = false;
    auto trace = demo::GenerateDemoTrace(demo);
    ASSERT_TRUE(trace.ok()) << trace.error();
    span_ = trace->span();
    ASSERT_TRUE(exports::WriteChromeJsonFile(*trace, trace_).ok());
  }
  void TearDown() override {
    unsetenv("XDG_CONFIG_HOME");
    std::error_code ec;
    if (!dir_.empty()) std::filesystem::remove_all(dir_, ec);
  }
  Image Shot(const std::string& args, const std::string& name) {
    const std::string out = (dir_ / name).string();
    EXPECT_EQ(Screenshot("'" + trace_ + "' --size 1400x800 " + args + " --out '" + out + "'"), 0) << args;
    return ReadPng(out);
  }
  // A span over the trace's middle third (magenta) and a flag (green) at 80%.
  NotesFile Notes() const {
    const DurNs d = span_.duration_ns();
    NotesFile f;
    IdentityOf(trace_, &f.trace);
    f.notes = {ui::Note{span_.start_ns + d / 3, span_.start_ns + 2 * d / 3, false, "slow input", 0xFFFF00FFu},
               ui::Note{span_.start_ns + d * 4 / 5, span_.start_ns + d * 4 / 5, true, "look here", 0xFF00C000u}};
    return f;
  }
  std::filesystem::path dir_;
  std::string trace_;
  TimeRange span_;
};

TEST_F(NotesThemeScreenshotTest, LightThemeWithNotesFromAFile) {
  std::string error;
  const std::string notes = (dir_ / "shared.notes.json").string();
  ASSERT_TRUE(WriteNotesFile(notes, Notes(), &error)) << error;
  setenv("XDG_CONFIG_HOME", (dir_ / "config").c_str(), 1);  // no saved notes of the user's
  const Image dark = Shot("", "dark.png");
  const Image light = Shot("--theme light", "light.png");
  const Image noted = Shot("--theme light --notes '" + notes + "'", "light_notes.png");
  ASSERT_EQ(light.w, 1400);
  ASSERT_EQ(noted.w, 1400);
  const uint32_t light_bg = ui::theme::kLightPalette.background & 0xFFFFFF;
  const uint32_t dark_bg = ui::theme::kDarkPalette.background & 0xFFFFFF;
  EXPECT_GT(NotesShotCount(light, light_bg), 5000u) << "the timeline's light background";
  EXPECT_EQ(NotesShotCount(light, dark_bg), 0u) << "no dark background left in the light theme";
  EXPECT_EQ(NotesShotCount(dark, light_bg), 0u);
  EXPECT_GT(NotesShotCount(dark, dark_bg), 5000u);
  // The span's band over the rows, and the flag in its own colour.
  EXPECT_GT(MagentaTinted(noted), MagentaTinted(light) + 20000) << "the band over the middle third";
  EXPECT_GT(NotesShotCount(noted, 0x00C000), 20u) << "the flag";
  EXPECT_EQ(NotesShotCount(light, 0x00C000), 0u);
}

TEST_F(NotesThemeScreenshotTest, SavedNotesOfTheTraceAreDrawn) {
  const std::string config = (dir_ / "config").string();
  setenv("XDG_CONFIG_HOME", config.c_str(), 1);
  const NotesFile file = Notes();
  std::string error;
  ASSERT_TRUE(WriteNotesFile(NotesFileFor(DefaultNotesFolder(), file.trace), file, &error)) << error;
  const Image shot = Shot("--caption", "saved.png");
  EXPECT_GT(NotesShotCount(shot, 0x00C000), 20u) << "the saved flag";
  EXPECT_GT(MagentaTinted(shot), 20000u) << "the saved span";
  EXPECT_TRUE(std::filesystem::exists(NotesFileFor(DefaultNotesFolder(), file.trace))) << "left as it was";
}

}  // namespace
}  // namespace stepline::app
