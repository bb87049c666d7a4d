// Notes and the light theme in real pictures (`stepline screenshot` under
// xvfb-run): the light theme paints the timeline's background from the light
// palette; notes given with --notes draw a band over the rows and a flag;
// the trace's own saved notes (the config folder) are drawn without --notes,
// in the compare view on each side's own timeline.
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

// Pixels tinted magenta, and their mean row (-1 when none).
double MagentaMeanRow(const Image& img, size_t* count) {
  double sum = 0;
  *count = 0;
  for (int y = 0; y < img.h; ++y) {
    for (int x = 0; x < img.w; ++x) {
      const uint32_t p = Pixel(img, x, y);
      const int r = p & 0xFF, g = (p >> 8) & 0xFF, b = (p >> 16) & 0xFF;
      if (r - g > 30 && b - g > 30 && std::abs(r - b) < 40) {
        sum += y;
        ++*count;
      }
    }
  }
  return *count ? sum / static_cast<double>(*count) : -1;
}

// The compare view draws each side's saved notes on that side's timeline:
// A's band over the upper timeline, B's over the lower one.
TEST_F(NotesThemeScreenshotTest, CompareDrawsEachSidesSavedNotesOnItsTimeline) {
  const std::string trace_b = (dir_ / "run_b.json").string();
  demo::DemoOptions demo;
  demo.scenario = "baseline";
  demo.steps = 3;
  demo.compute_truth = false;
  auto b = demo::GenerateDemoTrace(demo);
  ASSERT_TRUE(b.ok()) << b.error();
  ASSERT_TRUE(exports::WriteChromeJsonFile(*b, trace_b).ok());
  setenv("XDG_CONFIG_HOME", (dir_ / "config").c_str(), 1);
  // A span over each whole trace, so it is in view wherever the steps align.
  const auto whole = [](const std::string& path, TimeRange span) {
    NotesFile f;
    IdentityOf(path, &f.trace);
    f.notes = {ui::Note{span.start_ns, span.end_ns, false, "whole run", 0xFFFF00FFu}};
    return f;
  };
  const std::string args = "'" + trace_ + "' '" + trace_b + "' --view compare --size 1400x800";
  const auto shot = [&](const std::string& name) {
    const std::string out = (dir_ / name).string();
    EXPECT_EQ(Screenshot(args + " --out '" + out + "'"), 0) << name;
    return ReadPng(out);
  };
  const Image plain = shot("compare.png");
  std::string error;
  const NotesFile on_a = whole(trace_, span_);
  ASSERT_TRUE(WriteNotesFile(NotesFileFor(DefaultNotesFolder(), on_a.trace), on_a, &error)) << error;
  const Image noted_a = shot("compare_a.png");
  std::filesystem::remove(NotesFileFor(DefaultNotesFolder(), on_a.trace));
  const NotesFile on_b = whole(trace_b, b->span());
  ASSERT_TRUE(WriteNotesFile(NotesFileFor(DefaultNotesFolder(), on_b.trace), on_b, &error)) << error;
  const Image noted_b = shot("compare_b.png");
  ASSERT_EQ(noted_b.w, 1400);
  size_t n_plain = 0, n_a = 0, n_b = 0;
  MagentaMeanRow(plain, &n_plain);
  const double row_a = MagentaMeanRow(noted_a, &n_a), row_b = MagentaMeanRow(noted_b, &n_b);
  EXPECT_GT(n_a, n_plain + 20000) << "A's band";
  EXPECT_GT(n_b, n_plain + 20000) << "B's band";
  EXPECT_LT(row_a + 50, row_b) << "A's note on the upper timeline, B's on the lower";
}

}  // namespace
}  // namespace stepline::app
