// The window's Efficiency settings: the per-trace file they are kept in
// (app/gui/efficiency_store.h), and the session analysing the trace on
// screen again with them, keeping them for the file, using them when the
// file opens again, and the command line's options winning for the files it
// names. Each figure is checked against `report --json` with the same options.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "app/cli/commands.h"
#include "app/gui/efficiency_store.h"
#include "app/gui/viewer_session.h"
#include "tests/app/command_test_helpers.h"
#include "model/json_value.h"

namespace stepline::app {
namespace {

TEST(EfficiencyStoreTest, ParsesFormatsAndSkipsDamagedLines) {
  std::vector<std::string> problems;
  const EfficiencyByTrace parsed = ParseEfficiencyTsv(
      "# comment\n/a/run.json\t400\tbf16\t32\n/b/run.json\t0\t\t8\r\n/c\tx\tbf16\t1\n/d\t1\tbf99\t1\n/e\t1\t\n",
      &problems);
  ASSERT_EQ(parsed.size(), 2u);
  EXPECT_DOUBLE_EQ(parsed.at("/a/run.json").peak_tflops, 400);
  EXPECT_EQ(parsed.at("/a/run.json").peak_dtype, "bf16");
  EXPECT_EQ(parsed.at("/a/run.json").batch_size, 32);
  EXPECT_EQ(parsed.at("/b/run.json").peak_dtype, "");
  EXPECT_EQ(parsed.at("/b/run.json").batch_size, 8);
  ASSERT_EQ(problems.size(), 3u);
  EXPECT_EQ(problems[0].rfind("line 4:", 0), 0u) << problems[0];
  // Round trip, the peak's digits kept.
  EfficiencyByTrace settings = parsed;
  settings["/f"].peak_tflops = 989.4;
  EXPECT_EQ(ParseEfficiencyTsv(FormatEfficiencyTsv(settings)), settings);
  // A path with a tab cannot be a field: left out rather than written wrong.
  settings["/g\th"].batch_size = 1;
  EXPECT_EQ(ParseEfficiencyTsv(FormatEfficiencyTsv(settings)).count("/g\th"), 0u);
}

TEST(EfficiencyStoreTest, KeepsPerTraceAndForgetsDefaults) {
  const std::filesystem::path dir = MakeScratchDirRemovedAtExit("efficiency-store");
  EfficiencyStore store((dir / "config" / "efficiency.tsv").string());
  analysis::EfficiencyOptions o;
  o.batch_size = 16;
  o.peak_dtype = "fp16";
  std::string error;
  ASSERT_TRUE(store.Set((dir / "a.json").string(), o, &error)) << error;
  EXPECT_EQ(store.Get((dir / "a.json").string()), o);
  EXPECT_EQ(store.Get((dir / "b.json").string()), analysis::EfficiencyOptions{});
  // The same file by another spelling of its path.
  EXPECT_EQ(store.Get((dir / "x" / ".." / "a.json").string()), o);
  ASSERT_TRUE(store.Set((dir / "a.json").string(), {}, &error)) << error;
  EXPECT_EQ(store.Get((dir / "a.json").string()), analysis::EfficiencyOptions{});
  // No file: nothing kept, no error.
  EfficiencyStore none;
  EXPECT_TRUE(none.Set((dir / "a.json").string(), o, &error));
  EXPECT_EQ(none.Get((dir / "a.json").string()), analysis::EfficiencyOptions{});
}

// `report --json` of `file` with `args`: throughput.samples_per_s and efficiency.peak_tflops (-1 null).
std::pair<double, double> EffSettingsReport(const std::string& file, std::vector<std::string> args) {
  args.insert(args.begin(), {file, "--json"});
  const RunOutput out = RunCommand(RunReport, args);
  EXPECT_EQ(out.code, 0) << out.err;
  const auto json = ::stepline::ParseJson(out.out);
  if (!json) return {-2, -2};
  const auto& samples = Member(Member(*json, "throughput"), "samples_per_s");
  const auto& peak = Member(Member(*json, "efficiency"), "peak_tflops");
  return {samples.is_null() ? -1 : samples.AsDouble().value_or(-2), peak.is_null() ? -1 : peak.AsDouble().value_or(-2)};
}

class EfficiencySessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = MakeScratchDirRemovedAtExit("efficiency-session");
    trace_ = (dir_ / "eff.json").string();
    const RunOutput demo = RunCommand(RunDemo, {"efficiency", "--out", trace_, "--steps", "4"});
    ASSERT_EQ(demo.code, 0) << demo.err;
    store_ = (dir_ / "efficiency.tsv").string();
  }
  static void Settle(ViewerSession& session) {
    session.PollLoads();
    for (int i = 0; i < 6000 && (session.loading() || session.analysing()); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      session.PollLoads();
    }
    ASSERT_FALSE(session.loading());
    ASSERT_FALSE(session.analysing());
    ASSERT_TRUE(session.state().data && session.state().data->analysis_ready);
  }
  std::filesystem::path dir_;
  std::string trace_, store_;
};

TEST_F(EfficiencySessionTest, ApplyAnalysesAgainAndTheFileKeepsTheSettings) {
  ViewerSession session{RecentFiles("/dev/null/never")};
  session.SetEfficiencySources(EfficiencyStore(store_));
  session.OpenFile(trace_);
  Settle(session);
  EXPECT_LT(session.state().data->analysis.efficiency.samples_per_s, 0);  // no batch size yet
  const auto before = session.state().data;
  analysis::EfficiencyOptions o;
  o.batch_size = 32;
  o.peak_tflops = 400;
  ui::ViewRequests apply;  // what the settings window's Apply hands the app
  apply.efficiency = o;
  session.ApplyViewRequests(apply);
  // The same trace, its analysis on the way.
  ASSERT_TRUE(session.state().data);
  EXPECT_EQ(session.state().data->trace, before->trace);
  EXPECT_FALSE(session.state().data->analysis_ready);
  Settle(session);
  const ui::TimelineData& data = *session.state().data;
  EXPECT_EQ(data.efficiency, o);
  const auto [samples, peak] = EffSettingsReport(trace_, {"--batch-size", "32", "--peak-tflops", "400"});
  EXPECT_NEAR(data.analysis.report.efficiency.samples_per_s, samples, 5e-4);
  EXPECT_DOUBLE_EQ(data.analysis.report.efficiency.samples_per_s, 32 / 0.01);
  EXPECT_DOUBLE_EQ(data.analysis.report.efficiency.peak_tflops, peak);
  EXPECT_EQ(data.analysis.report.efficiency.peak_source, analysis::PeakSource::kOption);
  // Kept for the file: a new session opens it with them.
  EXPECT_EQ(EfficiencyStore(store_).Get(trace_), o);
  ViewerSession next{RecentFiles("/dev/null/never")};
  next.SetEfficiencySources(EfficiencyStore(store_));
  next.OpenFile(trace_);
  Settle(next);
  EXPECT_EQ(next.state().data->efficiency, o);
  EXPECT_DOUBLE_EQ(next.state().data->analysis.report.efficiency.samples_per_s, 3200);
  // The command line's options win for the files it names.
  analysis::EfficiencyOptions cli;
  cli.batch_size = 8;
  ViewerSession named{RecentFiles("/dev/null/never")};
  named.SetEfficiencySources(EfficiencyStore(store_), cli, {trace_});
  named.OpenFile(trace_);
  Settle(named);
  EXPECT_EQ(named.state().data->efficiency, cli);
  EXPECT_DOUBLE_EQ(named.state().data->analysis.report.efficiency.samples_per_s,
                   EffSettingsReport(trace_, {"--batch-size", "8"}).first);
}

}  // namespace
}  // namespace stepline::app
