// The headline figures of every view, read from real windows under
// xvfb-run: `stepline screenshot --headlines` notes each figure a picture
// drew through ui::HeadlineFigureText (the single view's summary line or
// overview column and its caption, the compare summary's A and B, the ranks
// table's rows) at 1024x700, 1280x800, 1920x1080 and 1920x1080 at scale 2;
// each must read as `report --json` says for that trace, and each view must
// have drawn its figures (a view that formats a figure itself draws nothing
// the recorder sees). Two demo runs and one three-rank demo, plus the shared
// ResNet trace (whose narrow summary once said GPU busy 59.5% beside 54.9%).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "app/cli/commands.h"
#include "model/json_value.h"
#include "model/text_format.h"
#include "tests/app/command_test_helpers.h"
#include "tests/app/screenshot_test_helpers.h"
#include "tests/support/test_traces.h"

namespace stepline::app {
namespace {

struct HeadlineWinLine {
  std::string view, subject, figure, text;
};

std::vector<HeadlineWinLine> HeadlineWinRead(const std::string& path) {
  std::vector<HeadlineWinLine> out;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    HeadlineWinLine l;
    std::istringstream fields(line);
    std::getline(fields, l.view, '\t');
    std::getline(fields, l.subject, '\t');
    std::getline(fields, l.figure, '\t');
    std::getline(fields, l.text);
    out.push_back(l);
  }
  return out;
}

// What `report --json` says of one trace, as the figures read.
struct HeadlineWinReport {
  int64_t steps = 0, mean_ns = 0, std_ns = 0;
  bool has_busy = false;
  double busy = 0;  // two decimals, as the JSON writes it
  bool has_samples = false;
  double samples = 0;  // throughput.samples_per_s, three decimals
};

// `extra`: the report's efficiency options, the ones the screenshot got.
HeadlineWinReport HeadlineWinReportOf(const std::string& file, const std::vector<std::string>& extra = {}) {
  HeadlineWinReport r;
  std::vector<std::string> args = {file, "--json"};
  args.insert(args.end(), extra.begin(), extra.end());
  const RunOutput out = RunCommand(RunReport, args);
  EXPECT_EQ(out.code, 0) << file << ": " << out.err;
  const auto json = ::stepline::ParseJson(out.out);
  if (!json) {
    ADD_FAILURE() << "report --json of " << file << " is not JSON";
    return r;
  }
  const ::stepline::JsonValue& st = Member(*json, "step_stats");
  r.steps = Number(Member(st, "count"));
  r.mean_ns = Number(Member(st, "mean_ns"));
  r.std_ns = Number(Member(st, "sample_std_ns"));
  const ::stepline::JsonValue& busy = Member(*json, "gpu_busy_percent");
  r.has_busy = !busy.is_null() && r.steps > 0;
  r.busy = busy.AsDouble().value_or(0);
  const ::stepline::JsonValue& samples = Member(Member(*json, "throughput"), "samples_per_s");
  r.has_samples = !samples.is_null();
  r.samples = samples.AsDouble().value_or(0);
  return r;
}

// Checks one drawn figure against the report; the busy share within the
// rounding of the JSON's two decimals and the window's one.
void HeadlineWinExpect(const HeadlineWinLine& l, const HeadlineWinReport& r, const std::string& where) {
  const std::string what = l.view + " " + l.subject + " " + l.figure + ", " + where;
  if (l.figure == "steps") {
    EXPECT_EQ(l.text, std::to_string(r.steps)) << what;
  } else if (l.figure == "step_mean") {
    EXPECT_EQ(l.text, r.steps > 0 ? text::FormatDuration(r.mean_ns) : "-") << what;
  } else if (l.figure == "mean_step") {
    const std::string want = r.steps == 0 ? "-"
                             : r.steps == 1
                                 ? text::FormatDuration(r.mean_ns)
                                 : text::FormatDuration(r.mean_ns) + " \u00b1 " + text::FormatDuration(r.std_ns);
    EXPECT_EQ(l.text, want) << what;
  } else if (l.figure == "device_busy" || l.figure == "device_idle") {
    if (!r.has_busy) {
      EXPECT_EQ(l.text, "-") << what;
      return;
    }
    double shown = 0;
    ASSERT_EQ(std::sscanf(l.text.c_str(), "%lf%%", &shown), 1) << what << ": " << l.text;
    const double want = l.figure == "device_busy" ? r.busy : 100.0 - r.busy;
    EXPECT_LE(std::fabs(shown - want), 0.0551) << what << ": " << l.text << " against " << want;
  } else if (l.figure == "samples_per_s") {
    if (!r.has_samples) {
      EXPECT_EQ(l.text, "-") << what;
      return;
    }
    double shown = 0;
    ASSERT_EQ(std::sscanf(l.text.c_str(), "%lf", &shown), 1) << what << ": " << l.text;
    EXPECT_LE(std::fabs(shown - r.samples), 0.0501) << what << ": " << l.text << " against " << r.samples;
  }
}

class HeadlineWindowTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!::stepline::testing::HaveXvfb()) GTEST_SKIP() << "xvfb-run not installed; window test skipped";
    dir_ = MakeScratchDirRemovedAtExit("headline-window");
  }

  struct Size {
    int w, h;
    double scale;
  };
  static constexpr Size kSizes[] = {{1024, 700, 1}, {1280, 800, 1}, {1920, 1080, 1}, {1920, 1080, 2}};

  // Screenshots `args` at every size; checks every figure against the report
  // of the subject's file (`files`: subject -> file; "" the one trace) and
  // that `view` drew `wanted` for every subject.
  // `wanted`: view -> the figures it must draw of every subject.
  // `efficiency`: options given to both the screenshot and the report.
  void Check(const std::string& args, const std::map<std::string, std::string>& files,
             const std::map<std::string, std::vector<std::string>>& wanted,
             const std::vector<std::string>& efficiency = {}) {
    std::map<std::string, HeadlineWinReport> reports;
    for (const auto& [subject, file] : files) reports[subject] = HeadlineWinReportOf(file, efficiency);
    std::string shot_args = args;
    for (const std::string& e : efficiency) shot_args += " " + e;
    for (const Size& s : kSizes) {
      const std::string where = args + " at " + std::to_string(s.w) + "x" + std::to_string(s.h) + " scale " +
                                std::to_string(static_cast<int>(s.scale));
      const std::string stem = (dir_ / ("shot" + std::to_string(++shots_))).string();
      ASSERT_EQ(::stepline::testing::Screenshot(shot_args + " --size " + std::to_string(s.w) + "x" + std::to_string(s.h) +
                                                " --scale " + std::to_string(s.scale) + " --out " + stem +
                                                ".png --headlines " + stem + ".tsv"),
                0)
          << where;
      const std::vector<HeadlineWinLine> lines = HeadlineWinRead(stem + ".tsv");
      // view -> subject -> figures; "single": the overview column or the narrow summary line.
      std::map<std::string, std::map<std::string, std::set<std::string>>> drawn;
      std::set<std::string> views;  // as drawn: "overview", "summary line", ...
      for (const HeadlineWinLine& l : lines) {
        views.insert(l.view);
        auto it = reports.find(l.subject);
        if (it == reports.end()) {
          ADD_FAILURE() << "a figure of an unknown subject '" << l.subject << "': " << l.view << ", " << where;
          continue;
        }
        HeadlineWinExpect(l, it->second, where);
        const bool single = l.view == "overview" || l.view == "summary line";
        drawn[single ? "single" : l.view][l.subject].insert(l.figure);
      }
      // The overview column from 1280 logical px (window px over the display scale), else the summary line.
      if (wanted.count("single")) {
        const bool narrow = s.w / s.scale < 1280;
        EXPECT_TRUE(views.count(narrow ? "summary line" : "overview")) << where;
        EXPECT_FALSE(views.count(narrow ? "overview" : "summary line")) << where;
      }
      for (const auto& [view, figures] : wanted) {
        for (const auto& [subject, file] : files) {
          for (const std::string& f : figures) {
            EXPECT_TRUE(drawn[view][subject].count(f))
                << view << " drew no " << f << " of '" << subject << "', " << where;
          }
        }
      }
    }
  }

  std::filesystem::path dir_;
  int shots_ = 0;
};

TEST_F(HeadlineWindowTest, SingleCompareAndRanksViewsOfDemos) {
  const std::string a = (dir_ / "a.json").string(), b = (dir_ / "b.json").string();
  WriteDemoJson("input-bound", demo::DemoStyle::kPyTorch, a);
  WriteDemoJson("baseline", demo::DemoStyle::kPyTorch, b);
  // The single view with its caption: the summary line (narrow) or the
  // overview column, and the caption's device busy.
  Check(a + " --caption", {{"", a}},
        {{"single", {"steps", "mean_step", "device_busy"}}, {"caption", {"device_busy"}}});
  Check(a + " " + b + " --view compare", {{"A", a}, {"B", b}}, {{"compare", {"steps", "step_mean", "device_busy"}}});
  const std::filesystem::path ranks = dir_ / "ranks";
  const RunOutput demo = RunCommand(RunDemo, {"ddp-straggler", "--ranks", "3", "--steps", "3", "--kernels", "4",
                                              "--out", ranks.string()});
  ASSERT_EQ(demo.code, 0) << demo.err;
  std::map<std::string, std::string> rank_files;
  for (const auto& e : std::filesystem::directory_iterator(ranks)) rank_files[e.path().string()] = e.path().string();
  ASSERT_EQ(rank_files.size(), 3u);
  Check(ranks.string() + " --view ranks", rank_files, {{"ranks", {"steps", "step_mean"}}});
}

// With a batch size, samples/s is drawn beside the step time: the overview's
// tile or the summary line, and the compare summary's A and B; each as
// `report --json --batch-size 32` gives it.
TEST_F(HeadlineWindowTest, SamplesPerSecondWithABatchSize) {
  const std::string a = (dir_ / "eff_a.json").string(), b = (dir_ / "eff_b.json").string();
  for (const std::string& path : {a, b}) {
    const RunOutput demo = RunCommand(RunDemo, {"efficiency", "--out", path, "--steps", "4"});
    ASSERT_EQ(demo.code, 0) << demo.err;
  }
  const std::vector<std::string> batch = {"--batch-size", "32"};
  Check(a, {{"", a}}, {{"single", {"steps", "mean_step", "device_busy", "samples_per_s"}}}, batch);
  Check(a + " " + b + " --view compare", {{"A", a}, {"B", b}},
        {{"compare", {"steps", "step_mean", "device_busy", "samples_per_s"}}}, batch);
}

// The ResNet trace whose narrow summary computed its own GPU busy.
TEST_F(HeadlineWindowTest, SingleViewOfASharedTrace) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  const std::string resnet =
      ::stepline::testing::SharedTracesDir() + "/kineto/resnet50_num_workers_0__worker0.2021-02.pt.trace.json.gz";
  Check(resnet + " --caption", {{"", resnet}},
        {{"single", {"steps", "mean_step", "device_busy"}}, {"caption", {"device_busy"}}});
}

}  // namespace
}  // namespace stepline::app
