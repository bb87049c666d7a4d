// One set of numbers outside the window: every output that prints a headline
// figure (report text, report markdown, headline.csv, the SQLite export,
// diff text and JSON) formats it through headline.h's formatter, which
// headline_record.h notes. For each output the test checks that the figures
// it carries were noted under its name, that each noted text is what the
// Report's own fields give (formatted here on its own), and that the output
// holds that text. An output that formats a figure itself notes nothing, and
// its check fails (the text report once printed a peak as "1.07 GB" beside
// the window's "1.1 GB").
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "app/output/diff_output.h"
#include "app/output/report_markdown.h"
#include "app/output/report_output.h"
#include "demo/demo_efficiency.h"
#include "demo/demo_generator.h"
#include "export/sqlite_export.h"
#include "loaders/load.h"
#include "model/analysis/compare.h"
#include "model/analysis/headline_record.h"
#include "model/analysis/memory_analysis.h"
#include "model/analysis/report.h"
#include "model/text_format.h"
#include "tests/app/command_test_helpers.h"
#include "tests/support/test_traces.h"

namespace stepline::app {
namespace {

using analysis::HeadlineFigure;
using analysis::HeadlineUse;

std::string HeadlineOutputsPercent(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", v);
  return buf;
}

// The figure from the report's fields, formatted without headline.h; ""
// when it is a name the test does not rebuild (the top idle cause).
std::string HeadlineOutputsExpected(const analysis::Report& r, HeadlineFigure f) {
  const bool busy = r.primary_device_index >= 0 && r.step_stats.total_ns > 0;
  switch (f) {
    case HeadlineFigure::kSteps: return std::to_string(r.steps.size());
    case HeadlineFigure::kMeanStep:
      if (r.step_stats.count == 0) return "-";
      return text::FormatDuration(r.step_stats.mean_ns) +
             (r.step_stats.count > 1 ? " \u00b1 " + text::FormatDuration(r.step_stats.sample_std_ns) : "");
    case HeadlineFigure::kDeviceBusy: return busy ? HeadlineOutputsPercent(r.gpu_busy_percent) : "-";
    case HeadlineFigure::kDeviceIdle: return busy ? HeadlineOutputsPercent(100.0 - r.gpu_busy_percent) : "-";
    case HeadlineFigure::kMostBlamed: return r.top_blamed_event.empty() ? "-" : std::string(r.top_blamed_event);
    case HeadlineFigure::kMemoryPeak:
      return r.memory.empty() ? "-" : analysis::FormatMemoryBytes(double(r.memory.front().peak_allocated_bytes));
    case HeadlineFigure::kStepMean: return r.step_stats.count == 0 ? "-" : text::FormatDuration(r.step_stats.mean_ns);
    case HeadlineFigure::kMfu:
      return r.efficiency.mfu_percent < 0 ? "-" : HeadlineOutputsPercent(r.efficiency.mfu_percent);
    // report --json's throughput.samples_per_s; null there is "-" here.
    case HeadlineFigure::kSamplesPerS: {
      if (r.efficiency.samples_per_s < 0) return "-";
      char buf[48];
      std::snprintf(buf, sizeof buf, "%.1f", r.efficiency.samples_per_s);
      return buf;
    }
    case HeadlineFigure::kTopIdleCause: return "";
  }
  return "";
}

// What `where` noted, the first text of each figure.
std::map<HeadlineFigure, std::string> HeadlineOutputsNoted(const std::vector<HeadlineUse>& uses,
                                                           std::string_view where) {
  std::map<HeadlineFigure, std::string> out;
  for (const HeadlineUse& u : uses) {
    if (u.where == where) out.emplace(u.figure, u.text);
  }
  return out;
}

// Runs `write` with the recorder on; what it noted under `where`.
template <typename F>
std::map<HeadlineFigure, std::string> HeadlineOutputsRun(std::string_view where, F&& write) {
  std::vector<HeadlineUse> uses;
  analysis::RecordHeadlineUses(&uses);
  write();
  analysis::RecordHeadlineUses(nullptr);
  return HeadlineOutputsNoted(uses, where);
}

// The figures an output of `r` must carry, each noted, as the report says,
// and in `text`.
void HeadlineOutputsCheck(const analysis::Report& r, std::string_view where,
                          const std::map<HeadlineFigure, std::string>& noted, const std::string& text,
                          const std::vector<HeadlineFigure>& wanted) {
  SCOPED_TRACE(std::string(where));
  const analysis::Headline h = analysis::ComputeHeadline(r);
  for (HeadlineFigure f : wanted) {
    const auto it = noted.find(f);
    ASSERT_NE(it, noted.end()) << "figure " << analysis::HeadlineFigureKey(f) << " was not formatted by headline.h";
    const std::string expected = HeadlineOutputsExpected(r, f);
    if (!expected.empty()) {
      EXPECT_EQ(it->second, expected) << analysis::HeadlineFigureKey(f);
    }
    EXPECT_EQ(it->second, analysis::HeadlineText(h, f)) << analysis::HeadlineFigureKey(f);
    // A long event name is clipped in the text: its start is what must be there.
    const std::string probe = f == HeadlineFigure::kMostBlamed ? it->second.substr(0, 40) : it->second;
    EXPECT_NE(text.find(probe), std::string::npos) << analysis::HeadlineFigureKey(f) << " " << it->second;
  }
}

Trace HeadlineOutputsDemo(const char* scenario) {
  demo::DemoOptions options;
  options.scenario = scenario;
  options.steps = 6;
  options.compute_truth = false;
  auto trace = demo::GenerateDemoTrace(options);
  EXPECT_TRUE(trace.ok()) << scenario;
  return std::move(trace.value());
}

std::vector<HeadlineFigure> HeadlineOutputsAll(const analysis::Report& r) {
  const analysis::Headline h = analysis::ComputeHeadline(r);
  std::vector<HeadlineFigure> out = {HeadlineFigure::kSteps};
  if (h.summed_steps > 0) out.push_back(HeadlineFigure::kMeanStep);
  if (h.has_busy) out.insert(out.end(), {HeadlineFigure::kDeviceBusy, HeadlineFigure::kDeviceIdle});
  if (h.has_top_idle_cause) out.push_back(HeadlineFigure::kTopIdleCause);
  if (!h.most_blamed.empty()) out.push_back(HeadlineFigure::kMostBlamed);
  if (h.has_memory) out.push_back(HeadlineFigure::kMemoryPeak);
  if (h.has_mfu) out.push_back(HeadlineFigure::kMfu);
  if (h.has_samples) out.push_back(HeadlineFigure::kSamplesPerS);
  return out;
}

void HeadlineOutputsOfReport(const Trace& trace, const std::string& name, const analysis::ReportOptions& options = {}) {
  SCOPED_TRACE(name);
  const analysis::Report r = analysis::ComputeReport(trace, options);
  const std::vector<HeadlineFigure> all = HeadlineOutputsAll(r);
  ReportTextContext context;
  context.path = name;
  std::ostringstream text, markdown;
  std::string csv;
  // Each output is written first: the check reads what it wrote.
  const auto noted_text = HeadlineOutputsRun("report text", [&] { WriteReportText(r, context, text); });
  HeadlineOutputsCheck(r, "report text", noted_text, text.str(), all);
  const auto noted_md = HeadlineOutputsRun("report markdown", [&] { WriteReportMarkdown(r, {}, context, markdown); });
  HeadlineOutputsCheck(r, "report markdown", noted_md, markdown.str(), all);
  const auto noted_csv = HeadlineOutputsRun("table export", [&] { AppendReportCsv(r, ReportTable::kHeadline, &csv); });
  HeadlineOutputsCheck(r, "table export", noted_csv, csv, all);
}

TEST(HeadlineOutputsTest, ReportTextMarkdownAndCsvOnDemos) {
  for (const char* scenario : {"input-bound", "baseline", "memory-leak"}) {
    HeadlineOutputsOfReport(HeadlineOutputsDemo(scenario), scenario);
  }
}

// A trace with a known device and FLOPs: its MFU is a headline figure too.
TEST(HeadlineOutputsTest, ReportTextMarkdownAndCsvWithMfu) {
  auto loaded = loaders::LoadBytes(demo::EfficiencyDemoJson({}), "efficiency.json");
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const analysis::Report r = analysis::ComputeReport(loaded.value());
  ASSERT_TRUE(analysis::ComputeHeadline(r).has_mfu) << "the efficiency demo names a device in the peak table";
  HeadlineOutputsOfReport(loaded.value(), "efficiency");
}

// With a batch size (--batch-size 32): samples/s is a headline figure in the
// text, Markdown and CSV, as the report's throughput gives it: 32 samples
// over the demo's 10 ms steps.
TEST(HeadlineOutputsTest, ReportTextMarkdownAndCsvWithSamplesPerSecond) {
  auto loaded = loaders::LoadBytes(demo::EfficiencyDemoJson({}), "efficiency.json");
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  analysis::ReportOptions options;
  options.efficiency.batch_size = 32;
  const analysis::Report r = analysis::ComputeReport(loaded.value(), options);
  const analysis::Headline h = analysis::ComputeHeadline(r);
  ASSERT_TRUE(h.has_samples);
  EXPECT_EQ(analysis::HeadlineText(h, HeadlineFigure::kSamplesPerS), "3200.0");
  EXPECT_EQ(HeadlineOutputsExpected(r, HeadlineFigure::kSamplesPerS), "3200.0");
  HeadlineOutputsOfReport(loaded.value(), "efficiency with a batch size", options);
  // Without one, no output names it (the CSV row says "-").
  EXPECT_EQ(analysis::HeadlineText(analysis::ComputeHeadline(analysis::ComputeReport(loaded.value())),
                                   HeadlineFigure::kSamplesPerS),
            "-");
}

// A diff of two runs with batch sizes has a samples/s row, through the
// headline's formatter in both its text and its JSON.
TEST(HeadlineOutputsTest, DiffHasSamplesPerSecondWithBatchSizes) {
  auto a = loaders::LoadBytes(demo::EfficiencyDemoJson({}), "a.json");
  auto b = loaders::LoadBytes(demo::EfficiencyDemoJson({}), "b.json");
  ASSERT_TRUE(a.ok() && b.ok());
  analysis::CompareOptions options;
  options.analysis.efficiency.batch_size = 32;
  const analysis::Comparison c = analysis::Compare(a.value(), b.value(), options, "a.json", "b.json");
  std::ostringstream text;
  const auto noted = HeadlineOutputsRun("diff text", [&] { WriteDiffText(c, 10, text); });
  ASSERT_TRUE(noted.count(HeadlineFigure::kSamplesPerS)) << text.str();
  EXPECT_EQ(noted.at(HeadlineFigure::kSamplesPerS), "3200.0");
  EXPECT_NE(text.str().find("samples/s"), std::string::npos) << text.str();
}

TEST(HeadlineOutputsTest, ReportTextMarkdownAndCsvOnSharedTraces) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  for (const char* relative : {"xprof/tpu_inference_2.xplane.pb", "hta/trace_filter_sampled_rank-0.json.gz"}) {
    auto loaded = loaders::LoadFile(::stepline::testing::SharedTracePath(relative));
    ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
    HeadlineOutputsOfReport(loaded.value(), relative);
  }
}

TEST(HeadlineOutputsTest, SqliteExportHoldsTheWindowsFigures) {
  const Trace trace = HeadlineOutputsDemo("input-bound");
  const analysis::Report r = analysis::ComputeReport(trace);
  const std::filesystem::path dir = MakeScratchDirRemovedAtExit("stepline-headline-outputs");
  const std::string db_path = (dir / "run.db").string();
  std::string error;
  const auto noted = HeadlineOutputsRun("sqlite export", [&] { error = exports::ExportSqlite(trace, db_path, {}); });
  ASSERT_EQ(error, "");
  // The table's rows, as text.
  std::string rows;
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open_v2(db_path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT figure, value FROM headline", -1, &stmt, nullptr), SQLITE_OK);
  std::map<std::string, std::string> by_key;
  while (sqlite3_step(stmt) == SQLITE_ROW) {
    const std::string key = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
    const std::string value = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 1));
    by_key[key] = value;
    rows += value + "\n";
  }
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  EXPECT_EQ(by_key.size(), std::size(analysis::kHeadlineTableFigures));
  HeadlineOutputsCheck(r, "sqlite export", noted, rows, HeadlineOutputsAll(r));
  const analysis::Headline h = analysis::ComputeHeadline(r);
  for (const HeadlineFigure figure : analysis::kHeadlineTableFigures) {
    EXPECT_EQ(by_key[std::string(analysis::HeadlineFigureKey(figure))], analysis::HeadlineText(h, figure));
  }
}

// A diff prints each side's steps, mean step and busy as the window's
// headline of that trace does, and its memory peaks in the headline's units.
TEST(HeadlineOutputsTest, DiffTextAndJsonAgreeWithEachSidesHeadline) {
  const Trace a = HeadlineOutputsDemo("baseline");
  const Trace b = HeadlineOutputsDemo("input-bound");
  const analysis::Comparison c = analysis::Compare(a, b, {}, "a.json", "b.json");
  std::ostringstream text, json;
  const auto noted_text = HeadlineOutputsRun("diff text", [&] { WriteDiffText(c, 10, text); });
  const auto noted_json = HeadlineOutputsRun("diff json", [&] { WriteDiffJson(c, 10, json); });
  for (const auto* noted : {&noted_text, &noted_json}) {
    for (HeadlineFigure f : {HeadlineFigure::kSteps, HeadlineFigure::kMeanStep, HeadlineFigure::kDeviceBusy}) {
      EXPECT_TRUE(noted->count(f)) << analysis::HeadlineFigureKey(f) << (noted == &noted_text ? " text" : " json");
    }
  }
  EXPECT_TRUE(noted_text.count(HeadlineFigure::kMemoryPeak));
  // Each side's busy is the busy of that trace's own report.
  for (const auto& [trace, side] : {std::pair{&a, &c.a}, std::pair{&b, &c.b}}) {
    const analysis::Headline h = analysis::ComputeHeadline(analysis::ComputeReport(*trace));
    const std::string busy = analysis::HeadlineText(h, HeadlineFigure::kDeviceBusy);
    EXPECT_EQ(analysis::HeadlineValueText("check", HeadlineFigure::kDeviceBusy, side->gpu_busy_percent), busy);
    EXPECT_NE(text.str().find(busy), std::string::npos) << busy;
    EXPECT_NE(json.str().find("\"device_busy\":\"" + busy + "\""), std::string::npos) << busy;
    EXPECT_NE(json.str().find("\"steps\":\"" + analysis::HeadlineText(h, HeadlineFigure::kSteps) + "\""),
              std::string::npos);
  }
}

}  // namespace
}  // namespace stepline::app
