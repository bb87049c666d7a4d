// What the banner, the Details list and the demo strip say, from a trace's
// diagnostics and info alone (the real cut file is in
// tests/app/partial_load_test.cpp).
#include "ui/load_warnings.h"

#include <gtest/gtest.h>

#include "ui/notice_strips.h"

namespace stepline::ui {
namespace {

TEST(LoadWarnings, NoBannerWithoutDataLoss) {
  Trace trace;
  trace.mutable_diagnostics().Record(DiagCode::kUnmatchedEnd, 10, "end with no begin");
  EXPECT_EQ(DataLossBanner(trace), "");
  EXPECT_FALSE(trace.diagnostics().has_data_loss());
}

TEST(LoadWarnings, UncompressedCutNamesTheParseOffset) {
  Trace trace;
  trace.mutable_info().format = "chrome-json";
  trace.mutable_diagnostics().Record(DiagCode::kTruncated, 1'234'567, "the JSON text ends early");
  EXPECT_EQ(DataLossBanner(trace),
            "This file ends early at byte 1,234,567 (JSON text cut): events after the cut are missing; the analysis "
            "covers what was loaded (the first 0 ns).");
}

// A whole file whose converter stopped at XLA's trace viewer cap
// (loaders/chrome_json/xla_event_cap.h) names the cap, not a byte.
TEST(LoadWarnings, AnEventCapNamesTheCap) {
  Trace trace;
  trace.mutable_info().format = "chrome-json";
  trace.mutable_info().event_cap = 1'000'000;
  trace.mutable_diagnostics().Record(DiagCode::kTruncated, Diagnostics::kNoOffset, "XLA's trace viewer stopped");
  EXPECT_EQ(DataLossBanner(trace),
            "XLA's trace viewer stopped at 1,000,000 events (TF_PROFILER_TRACE_VIEWER_MAX_EVENTS): events after the "
            "last recorded one are missing; the analysis covers what was loaded (the first 0 ns).");
}

TEST(LoadWarnings, CompressedCutNamesTheFileOffsetAndOtherLossesAreCounted) {
  Trace trace;
  trace.mutable_info().format = "chrome-json";
  trace.mutable_info().compression = "zstd";
  trace.mutable_info().compressed_cut = true;
  trace.mutable_info().compressed_cut_at = 42'000;
  trace.mutable_diagnostics().Record(DiagCode::kTruncated, 9'000'000, "zstd stream ends inside a frame");
  trace.mutable_diagnostics().Record(DiagCode::kDepthLimit, 77, "too deep");
  const std::string banner = DataLossBanner(trace);
  EXPECT_EQ(banner.rfind("This file ends early at byte 42,000 (zstd stream cut): ", 0), 0u) << banner;
  EXPECT_NE(banner.find(" 1 more kind of data loss."), std::string::npos) << banner;
}

TEST(LoadWarnings, OtherDataLossIsNamedByItsDescription) {
  Trace trace;
  trace.mutable_diagnostics().Add(DiagCode::kDepthLimit, 3, 500, "too deep");
  const std::string banner = DataLossBanner(trace);
  EXPECT_EQ(banner.rfind("Part of this file was not loaded: nesting deeper than 65535 levels", 0), 0u) << banner;
  EXPECT_NE(banner.find("(3 times, first at byte 500)"), std::string::npos) << banner;
}

TEST(LoadWarnings, DetailsListDataLossFirstWithDetail) {
  Trace trace;
  trace.mutable_diagnostics().Record(DiagCode::kUnmatchedEnd, 10, "end at 5 ns with no open begin");
  trace.mutable_diagnostics().Record(DiagCode::kTruncated, 99, "cut here");
  const std::vector<DiagnosticRow> rows = DiagnosticRows(trace.diagnostics());
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].severity, "data_loss");
  EXPECT_EQ(rows[0].code, "truncated");
  EXPECT_EQ(rows[0].first_offset, 99u);
  EXPECT_EQ(rows[0].message, "cut here");
  EXPECT_EQ(rows[1].code, "unmatched_end");
  EXPECT_EQ(rows[1].message, "end at 5 ns with no open begin");
}

TEST(LoadWarnings, GroupDigits) {
  EXPECT_EQ(GroupDigits(0), "0");
  EXPECT_EQ(GroupDigits(999), "999");
  EXPECT_EQ(GroupDigits(300'000), "300,000");
  EXPECT_EQ(GroupDigits(10'380'292), "10,380,292");
}

TEST(DemoStrip, NamesTheScenarioAndTheWayOut) {
  EXPECT_EQ(DemoStripText("demo: input-bound"),
            "Demo trace: input-bound training loop. Open your own trace: Ctrl+O, or drop a file here");
  Trace demo;
  demo.mutable_info().format = "demo";
  EXPECT_TRUE(IsDemoTrace(demo));
  Trace file;
  file.mutable_info().format = "chrome-json";
  EXPECT_FALSE(IsDemoTrace(file));
}

}  // namespace
}  // namespace stepline::ui
