// A trace and a PyTorch memory snapshot of the same run opened together
// (`--memory-snapshot`): tests/data/memory_snapshots/make_snapshots.py writes
// a Kineto trace of three 10 ms steps in three clock forms and a snapshot of
// the same steps, whose peak (112 MiB) lies 28 ms after the trace's base
// time. `report --json` with the snapshot gives the snapshot's own memory
// section placed on the trace's clock, the rest of the trace's report
// unchanged; a trace without an epoch clock is refused; the window draws
// the snapshot's rows under the trace (a PNG).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "app/cli/commands.h"
#include "tests/app/command_test_helpers.h"
#include "tests/app/screenshot_test_helpers.h"
#include "model/json_value.h"
#include "tests/support/test_traces.h"

namespace stepline::app {
namespace {

using ::stepline::JsonValue;
using ::stepline::ParseJson;

constexpr uint64_t kPairPeakBytes = uint64_t{112} << 20;
constexpr int64_t kPairPeakEpochNs = 1759252584023000000;  // step 3 + 3 ms, epoch ns
constexpr int64_t kPairBaseNs = 1759252583995000000;       // the trace's baseTimeNanoseconds

const std::string& SnapshotPairDir() { return ::stepline::testing::GeneratedSnapshotsDir(); }

std::string SnapshotPairFile(const std::string& name) { return SnapshotPairDir() + "/" + name; }

#define SNAPSHOT_PAIR_REQUIRE_GENERATED()                                                                  \
  do {                                                                                                     \
    if (SnapshotPairDir().empty()) GTEST_SKIP() << "python3 is not available to write the trace and snapshot"; \
  } while (0)

JsonValue SnapshotPairReport(const Args& args) {
  const RunOutput r = RunCommand(RunReport, args);
  EXPECT_EQ(r.code, 0) << r.err;
  auto json = ParseJson(r.out);
  EXPECT_TRUE(json.has_value()) << r.out.substr(0, 400);
  return json.value_or(JsonValue{});
}

const JsonValue& SnapshotPairGpu0(const JsonValue& report) {
  static const JsonValue none;
  const JsonValue* memory = report.Find("memory");
  const JsonValue* gpu0 = memory != nullptr ? memory->Find("GPU 0") : nullptr;
  EXPECT_NE(gpu0, nullptr) << "no memory pool GPU 0";
  return gpu0 != nullptr ? *gpu0 : none;
}

int64_t SnapshotPairInt(const JsonValue& object, std::string_view key) {
  const JsonValue* v = object.Find(key);
  EXPECT_NE(v, nullptr) << key;
  return v != nullptr ? std::stoll(v->text) : -1;
}

// The JSON text of a member, for equality.
std::string SnapshotPairText(const JsonValue& v);
std::string SnapshotPairText(const JsonValue& v) {
  std::string s;
  switch (v.type) {
    case JsonValue::Type::kNull: return "null";
    case JsonValue::Type::kBool: return v.boolean ? "true" : "false";
    case JsonValue::Type::kNumber: return v.text;
    case JsonValue::Type::kString: return "\"" + v.text + "\"";
    case JsonValue::Type::kArray:
      for (const JsonValue& item : v.items) s += SnapshotPairText(item) + ",";
      return "[" + s + "]";
    case JsonValue::Type::kObject:
      for (const auto& m : v.members) s += m.first + ":" + SnapshotPairText(m.second) + ",";
      return "{" + s + "}";
  }
  return s;
}

TEST(SnapshotPairTest, ReportMemoryComesFromTheSnapshotOnTheTracesClock) {
  SNAPSHOT_PAIR_REQUIRE_GENERATED();
  const std::string snapshot = SnapshotPairFile("pair_snapshot.pickle");
  const JsonValue alone = SnapshotPairReport({snapshot, "--json"});
  const JsonValue trace_only = SnapshotPairReport({SnapshotPairFile("pair_trace.json"), "--json"});
  const JsonValue paired =
      SnapshotPairReport({SnapshotPairFile("pair_trace.json"), "--memory-snapshot", snapshot, "--json"});
  const JsonValue& a = SnapshotPairGpu0(alone);
  const JsonValue& p = SnapshotPairGpu0(paired);
  // The trace's own memory event (1 GiB) gives way to the snapshot's.
  EXPECT_EQ(SnapshotPairInt(SnapshotPairGpu0(trace_only), "peak_allocated_bytes"), int64_t{1} << 30);
  EXPECT_EQ(SnapshotPairInt(p, "peak_allocated_bytes"), static_cast<int64_t>(kPairPeakBytes));
  EXPECT_EQ(SnapshotPairInt(a, "peak_ts_ns"), kPairPeakEpochNs);
  // Model time of a baseTimeNanoseconds trace is relative to that base.
  EXPECT_EQ(SnapshotPairInt(p, "peak_ts_ns"), kPairPeakEpochNs - kPairBaseNs);
  // Every other figure of the pool is the snapshot's own (growth per step
  // needs steps: the snapshot alone has none).
  for (const auto& m : a.members) {
    if (m.first == "peak_ts_ns" || m.first == "growth_per_step_bytes") continue;
    const JsonValue* other = p.Find(m.first);
    ASSERT_NE(other, nullptr) << m.first;
    EXPECT_EQ(SnapshotPairText(*other), SnapshotPairText(m.second)) << m.first;
  }
  // Each step frees what it allocated: no growth.
  EXPECT_EQ(SnapshotPairInt(p, "growth_per_step_bytes"), 0);
  // The trace's own sections do not change.
  for (const char* key : {"steps", "breakdown_total", "idle_by_cause", "gpu_busy_percent", "step_stats", "gaps", "ops", "kernels"}) {
    const JsonValue* x = trace_only.Find(key);
    const JsonValue* y = paired.Find(key);
    if (x == nullptr && y == nullptr) continue;
    ASSERT_TRUE(x != nullptr && y != nullptr) << key;
    EXPECT_EQ(SnapshotPairText(*y), SnapshotPairText(*x)) << key;
  }
}

TEST(SnapshotPairTest, EpochMicrosecondTracesAlignWithoutABase) {
  SNAPSHOT_PAIR_REQUIRE_GENERATED();
  const JsonValue paired = SnapshotPairReport({SnapshotPairFile("pair_trace_epoch.json"), "--memory-snapshot",
                                               SnapshotPairFile("pair_snapshot.pickle"), "--json"});
  const JsonValue& p = SnapshotPairGpu0(paired);
  EXPECT_EQ(SnapshotPairInt(p, "peak_allocated_bytes"), static_cast<int64_t>(kPairPeakBytes));
  EXPECT_EQ(SnapshotPairInt(p, "peak_ts_ns"), kPairPeakEpochNs);
}

TEST(SnapshotPairTest, TraceWithoutAnEpochClockIsRefused) {
  SNAPSHOT_PAIR_REQUIRE_GENERATED();
  const RunOutput r = RunCommand(RunReport, {SnapshotPairFile("pair_trace_no_clock.json"), "--memory-snapshot",
                                             SnapshotPairFile("pair_snapshot.pickle"), "--json"});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("pair_trace_no_clock.json: its times are not tied to the epoch clock"), std::string::npos)
      << r.err;
  EXPECT_TRUE(r.out.empty());
}

// A snapshot an hour after the trace: kept, and said on stderr and among the
// diagnostics (report's JSON, the diagnostics panel) as a warning.
TEST(SnapshotPairTest, ASnapshotOutsideTheTracesTimeIsSaidEverywhere) {
  SNAPSHOT_PAIR_REQUIRE_GENERATED();
  const RunOutput r = RunCommand(RunReport, {SnapshotPairFile("pair_trace.json"), "--memory-snapshot",
                                             SnapshotPairFile("late_snapshot.pickle"), "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("do not overlap in time: its entries lie 3599.970 s after"), std::string::npos) << r.err;
  const auto report = ParseJson(r.out);
  ASSERT_TRUE(report.has_value());
  const JsonValue* diagnostics = report->Find("diagnostics");
  ASSERT_NE(diagnostics, nullptr);
  ASSERT_EQ(diagnostics->items.size(), 1u) << r.out.substr(0, 400);
  const JsonValue& d = diagnostics->items[0];
  EXPECT_EQ(d.Find("code")->text, "memory_snapshot_apart");
  EXPECT_EQ(d.Find("severity")->text, "warning");
  EXPECT_NE(d.Find("message")->text.find("late_snapshot.pickle"), std::string::npos);
  // The rows are kept: the pool's peak is the pair's, an hour later.
  EXPECT_EQ(SnapshotPairInt(SnapshotPairGpu0(*report), "peak_allocated_bytes"), static_cast<int64_t>(kPairPeakBytes));
}

TEST(SnapshotPairTest, SecondFileMustBeASnapshotWithTimes) {
  SNAPSHOT_PAIR_REQUIRE_GENERATED();
  RunOutput r = RunCommand(RunReport, {SnapshotPairFile("pair_trace.json"), "--memory-snapshot",
                                       SnapshotPairFile("pair_trace_epoch.json")});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("not a PyTorch memory snapshot"), std::string::npos) << r.err;
  r = RunCommand(RunReport,
                 {SnapshotPairFile("pair_trace.json"), "--memory-snapshot", SnapshotPairFile("no_times.pickle")});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("have no time_us"), std::string::npos) << r.err;
}

class SnapshotPairScreenshotTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!::stepline::testing::HaveXvfb()) GTEST_SKIP() << "xvfb-run not installed";
    if (SnapshotPairDir().empty()) GTEST_SKIP() << "python3 is not available to write the trace and snapshot";
  }
};

TEST_F(SnapshotPairScreenshotTest, MemoryRowsUnderTheTrace) {
  const std::string out = SnapshotPairFile("paired.png"), alone = SnapshotPairFile("alone.png");
  const std::string trace = "'" + SnapshotPairFile("pair_trace.json") + "'";
  ASSERT_EQ(::stepline::testing::Screenshot(trace + " --memory-snapshot '" + SnapshotPairFile("pair_snapshot.pickle") +
                                            "' --size 1400x800 --out '" + out + "'"),
            0);
  ASSERT_EQ(::stepline::testing::Screenshot(trace + " --no-cache --size 1400x800 --out '" + alone + "'"), 0);
  const auto paired_png = ::stepline::testing::ReadPng(out);
  const auto alone_png = ::stepline::testing::ReadPng(alone);
  ASSERT_EQ(paired_png.w, 1400);
  ASSERT_EQ(alone_png.w, 1400);
  EXPECT_GT(::stepline::testing::DistinctColors(paired_png), 40u);
  // The GPU's Memory row draws the snapshot's levels instead of the trace's
  // one 1 GiB event, and the snapshot's own process row is added below.
  EXPECT_NE(paired_png.rgba, alone_png.rgba) << "the snapshot's rows changed nothing in the picture";
}

}  // namespace
}  // namespace stepline::app
