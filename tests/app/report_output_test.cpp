// The report writers: the JSON object has exactly the documented keys and carries
// the Report's values (hand-checked on a synthetic two-device trace), unknowns
// are null, output larger than one flush arrives whole; CSV quoting follows
// RFC 4180; the text report names what a reader looks for.
#include "app/output/report_output.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "demo/demo_generator.h"
#include "loaders/load.h"
#include "model/json_value.h"
#include "tests/support/synthetic_trace.h"
#include "ui/table_export.h"

namespace stepline::app {
namespace {

using ::stepline::JsonValue;
using ::stepline::ParseJson;
using ::stepline::testing::SyntheticTrace;
using ::stepline::testing::Us;
using Strings = std::vector<std::string>;

// The TwoDevices trace of tests/analysis/report_test.cpp (facts there):
// ProfilerStep#1 [0,1000) us; GPU 1 runs K1 [0,300), K2 [305,400), K3
// [900,1000) while main waits in IteratorGetNext [420,870); GPU 0 one kernel.
Trace TwoDevices() {
  SyntheticTrace b;
  b.Thread("main").Slice("ProfilerStep#1", 0, Us(1000)).Slice("IteratorGetNext", Us(420), Us(450));
  b.Device(1);
  b.Kernel(7, 0, Us(300), "K1").LaunchedFrom("main", 0, Us(2));
  b.Kernel(7, Us(305), Us(95), "K2").LaunchedFrom("main", Us(301), Us(3));  // covers most of [300,305)
  b.Kernel(7, Us(900), Us(100), "K3").LaunchedFrom("main", Us(880), Us(10));
  b.Device(0).Kernel(1, 0, Us(100), "small");
  return b.Build();
}

// A member that must exist; a failure (not a crash) when it does not.
const JsonValue& Member(const JsonValue& object, std::string_view key) {
  static const JsonValue kMissing;
  const JsonValue* v = object.Find(key);
  if (v == nullptr) ADD_FAILURE() << "no member \"" << key << "\"";
  return v ? *v : kMissing;
}

std::string Json(const analysis::Report& r) {
  std::ostringstream out;
  WriteReportJson(r, out);
  return out.str();
}

int64_t Int(const JsonValue& object, std::string_view key) {
  const JsonValue* v = object.Find(key);
  EXPECT_NE(v, nullptr) << key;
  const auto d = v ? v->AsDouble() : std::nullopt;
  EXPECT_TRUE(d.has_value()) << key << " is not a number";
  return d ? static_cast<int64_t>(*d) : INT64_MIN;
}

std::string Text(const JsonValue& object, std::string_view key) {
  const JsonValue* v = object.Find(key);
  EXPECT_TRUE(v && v->type == JsonValue::Type::kString) << key << " is not a string";
  return v ? v->text : "";
}

Strings CategoryNames() {
  Strings names;
  for (int c = 0; c < analysis::kTimeCategoryCount; ++c) {
    names.emplace_back(analysis::TimeCategoryName(static_cast<analysis::TimeCategory>(c)));
  }
  return names;
}

Strings CauseNames() {
  Strings names;
  for (int c = 0; c < analysis::kIdleCauseCount; ++c) {
    names.emplace_back(analysis::IdleCauseName(static_cast<analysis::IdleCause>(c)));
  }
  return names;
}

// A hand-made report whose strings need escaping or quoting and whose
// unknowns (no step, no next kernel, no launch delay, no launch
// configuration) must come out as null / empty.
analysis::Report OddReport() {
  analysis::Report r;
  r.primary_device = "GPU \"0\"";
  r.primary_device_index = 0;
  r.devices.resize(1);
  r.devices[0].name = r.primary_device;
  r.devices[0].busy_ns = 700;
  r.devices[0].idle_ns = 300;
  analysis::ReportStep step;
  step.name = "step, one";
  step.start_ns = 1000;
  step.dur_ns = 1000;
  At(step.breakdown, analysis::TimeCategory::kCompute) = 700;
  At(step.breakdown, analysis::TimeCategory::kIdleInput) = 300;
  r.steps.push_back(step);
  r.threads = {"main\tthread"};
  r.gap_events.push_back({"next(\"batch\")\nwait", 0, 1100, 400, 250});
  r.gaps.push_back({0, 1100, 300, 0, analysis::IdleCause::kInput, 0, 1, "gemm<float, 4>", 280});
  r.gaps.push_back({0, 2500, 40, -1, analysis::IdleCause::kOther, 1, 1, "", -1});
  r.ops.push_back({"aten::mm", analysis::OpKind::kHostOp, 3, 900, 600, 300, 200, 400, 75.0, 75.0});
  analysis::ReportKernel k;
  k.name = "gemm<float, 4>";
  k.count = 2;
  k.total_ns = 700;
  r.kernels.push_back(k);
  k.name = "configured";
  k.grid = {4, 1, 1};
  k.block = {128, 1, 1};
  k.registers_per_thread = 32;
  k.shared_memory_bytes = 0;
  k.occupancy_percent = 50.0;
  k.framework_op = "conv2d";
  r.kernels.push_back(k);
  r.recommendations = {"Highly input-bound: \"quoted\""};
  return r;
}

// RFC 4180 reader: rows of unquoted fields.
std::vector<Strings> ParseCsv(std::string_view text) {
  std::vector<Strings> rows;
  Strings row;
  std::string field;
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c != '"') {
        field.push_back(c);
      } else if (i + 1 < text.size() && text[i + 1] == '"') {
        field.push_back('"');
        ++i;
      } else {
        quoted = false;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',' || c == '\n') {
      row.push_back(std::move(field));
      field.clear();
      if (c == '\n') rows.push_back(std::exchange(row, {}));
    } else {
      field.push_back(c);
    }
  }
  EXPECT_TRUE(row.empty() && field.empty() && !quoted) << "last row not terminated";
  return rows;
}

std::vector<Strings> Csv(const analysis::Report& r, ReportTable table) {
  std::string text;
  AppendReportCsv(r, table, &text);
  return ParseCsv(text);
}

// The checkpoint demo's outlier steps in JSON and text.
TEST(ReportOutputTest, OutlierStepsInJsonAndText) {
  demo::DemoOptions demo;
  demo.scenario = "checkpoint";
  demo.style = demo::DemoStyle::kPyTorch;
  demo.steps = 8;
  auto trace = demo::GenerateDemoTrace(demo);
  ASSERT_TRUE(trace.ok()) << trace.error();
  const analysis::Report r = analysis::ComputeReport(*trace);
  const auto json = ParseJson(Json(r));
  ASSERT_TRUE(json.has_value());
  EXPECT_EQ(Member(*json, "step_source").text, "profiler_step");
  const auto& outliers = Member(*json, "outlier_steps").items;
  ASSERT_EQ(outliers.size(), 2u);
  EXPECT_EQ(outliers[0].Keys(), (Strings{"name", "dur_ns", "excess_ns", "cause", "blamed"}));
  EXPECT_EQ(Member(outliers[0], "name").text, "ProfilerStep#4");
  EXPECT_EQ(Member(outliers[0], "cause").text, "idle_host_compute");
  ASSERT_FALSE(Member(outliers[0], "blamed").items.empty());
  EXPECT_EQ(Member(outliers[0], "blamed").items[0].text, "torch/serialization.py(628): save");
  ReportTextContext context;
  context.path = "checkpoint.json";
  std::ostringstream out;
  WriteReportText(r, context, out);
  EXPECT_NE(out.str().find("Outlier steps (slower than"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("ProfilerStep#8: "), std::string::npos);
  EXPECT_NE(out.str().find("step source      8 ProfilerStep#N annotations (profiler_step)"), std::string::npos);
}

TEST(ReportOutputTest, JsonHasExactlyTheDocumentedKeysAtEveryLevel) {
  demo::DemoOptions demo;
  demo.scenario = "input-bound";
  demo.steps = 2;
  auto trace = demo::GenerateDemoTrace(demo);
  ASSERT_TRUE(trace.ok()) << trace.error();
  const std::string text = Json(analysis::ComputeReport(*trace));
  const auto json = ParseJson(text);
  ASSERT_TRUE(json.has_value()) << "not exactly one JSON value";
  EXPECT_EQ(json->Keys(),
            (Strings{"primary_device", "devices", "step_source", "steps_overlap", "steps", "breakdown_total",
                     "idle_by_cause", "gpu_busy_percent", "step_stats", "outlier_steps", "step_engine", "phases",
                     "critical_path", "top_blamed_event", "gaps", "ops", "kernels", "graph_replays", "memory", "xla_modules", "xla_ops",
                     "efficiency", "communication", "launch_overhead", "throughput", "recommendations", "complete_steps",
                     "notes"}));
  EXPECT_EQ(Member(*json, "steps_overlap").Keys(), (Strings{"count", "max_ns"}));
  EXPECT_EQ(Member(*json, "efficiency").Keys(),
            (Strings{"device_name", "peak_tflops", "peak_dtype", "peak_source", "peak_datasheet", "model_flops",
                     "flops_known_percent", "achieved_tflops", "mfu_percent", "memory_bound_percent",
                     "top_memory_bound"}));
  EXPECT_EQ(Member(*json, "communication").Keys(),
            (Strings{"collective_ns_per_step", "exposed_ns_per_step", "overlap_percent"}));
  EXPECT_EQ(Member(*json, "launch_overhead").Keys(),
            (Strings{"kernels_per_step", "launch_ns_per_step", "launch_delay_p50_ns", "launch_delay_p90_ns",
                     "short_kernel_percent", "launch_bound", "verdict"}));
  EXPECT_EQ(Member(*json, "throughput").Keys(), (Strings{"batch_size", "samples_per_s", "tokens_per_s"}));
  EXPECT_EQ(Member(*json, "step_stats").Keys(), (Strings{"count", "mean_ns", "sample_std_ns", "min_ns", "max_ns",
                                                         "p50_ns", "p90_ns", "p99_ns"}));
  EXPECT_EQ(Member(*json, "breakdown_total").Keys(), CategoryNames());
  EXPECT_EQ(Member(*json, "idle_by_cause").Keys(), CauseNames());
  const auto& devices = Member(*json, "devices").items;
  ASSERT_FALSE(devices.empty());
  for (const JsonValue& d : devices) {
    EXPECT_EQ(d.Keys(), (Strings{"name", "kind", "busy_ns", "idle_ns", "breakdown_total", "idle_by_cause"}));
    EXPECT_EQ(Member(d, "kind").text, "gpu");
    EXPECT_EQ(Member(d, "breakdown_total").Keys(), CategoryNames());
    EXPECT_EQ(Member(d, "idle_by_cause").Keys(), CauseNames());
  }
  const auto& steps = Member(*json, "steps").items;
  ASSERT_FALSE(steps.empty());
  for (const JsonValue& s : steps) {
    EXPECT_EQ(s.Keys(), (Strings{"name", "start_ns", "dur_ns", "window_dur_ns", "breakdown", "phase", "batch", "tokens",
                                 "critical_path", "flops", "achieved_tflops", "mfu_percent", "memory_bound_ns",
                                 "collective_ns", "exposed_ns", "kernels", "launch_ns", "samples_per_s"}));
    EXPECT_EQ(Member(s, "critical_path").Keys(), (Strings{"dur_ns", "by_kind_ns", "slices", "top"}));
    EXPECT_EQ(Member(s, "breakdown").Keys(), CategoryNames());
  }
  const auto& gaps = Member(*json, "gaps").items;
  ASSERT_FALSE(gaps.empty());
  size_t events = 0;
  for (const JsonValue& g : gaps) {
    EXPECT_EQ(g.Keys(), (Strings{"device", "start_ns", "dur_ns", "step", "cause", "cause_events", "next_kernel",
                                 "launch_delay_ns"}));
    for (const JsonValue& e : Member(g, "cause_events").items) {
      EXPECT_EQ(e.Keys(), (Strings{"name", "thread", "start_ns", "dur_ns", "overlap_ns"}));
      ++events;
    }
  }
  EXPECT_GT(events, 0u);
  const auto& ops = Member(*json, "ops").items;
  ASSERT_FALSE(ops.empty());
  for (const JsonValue& o : ops) {
    EXPECT_EQ(o.Keys(), (Strings{"name", "kind", "count", "total_ns", "self_ns", "avg_ns", "min_ns", "max_ns", "flops",
                                 "achieved_tflops", "arithmetic_intensity", "bound"}));
  }
  const auto& kernels = Member(*json, "kernels").items;
  ASSERT_FALSE(kernels.empty());
  for (const JsonValue& k : kernels) {
    EXPECT_EQ(k.Keys(),
              (Strings{"name", "grid", "block", "registers_per_thread", "shared_memory_bytes", "occupancy_percent",
                       "framework_op", "graph_id", "graph_node_id", "count", "total_ns", "avg_ns", "min_ns", "max_ns", "bound"}));
  }
  const JsonValue& memory = Member(*json, "memory");
  ASSERT_EQ(memory.Keys(), (Strings{"GPU 0"}));  // the demo records GPU 0's memory
  const JsonValue& gpu = Member(memory, "GPU 0");
  EXPECT_EQ(gpu.Keys(), (Strings{"peak_allocated_bytes", "peak_reserved_bytes", "peak_ts_ns", "relative", "allocations",
                                 "frees", "attribution", "unmatched_frees", "never_freed", "oom_events",
                                 "growth_per_step_bytes", "capacity_bytes", "top_at_peak", "allocated_by_op"}));
  EXPECT_EQ(Member(gpu, "attribution").text, "addresses");
  ASSERT_FALSE(Member(gpu, "top_at_peak").items.empty());
  for (const JsonValue& op : Member(gpu, "top_at_peak").items) EXPECT_EQ(op.Keys(), (Strings{"name", "bytes", "count"}));
  EXPECT_EQ(text.back(), '\n');
  EXPECT_EQ(text.find('\n'), text.size() - 1) << "one line";
}

// 2021-era Kineto memory events (Bytes, no Addr): report --json says the
// allocations cannot be attributed, with no per-op live bytes and unknown
// unmatched / never-freed counts (it once put 22x the peak "live" in
// "(no op)", every allocation both freed and never freed).
TEST(ReportOutputTest, MemoryWithoutAddressesReadsAttributionNone) {
  std::string events;
  int64_t level = 0;
  for (int k = 0; k < 4; ++k) {
    for (int64_t bytes : {int64_t{500}, int64_t{-500}}) {
      level += bytes;
      events += R"({"ph":"i","s":"t","name":"[memory]","pid":1,"tid":1,"ts":)" + std::to_string(10 * k + (bytes < 0)) +
                R"(,"args":{"Device Type":1,"Device Id":0,"Bytes":)" + std::to_string(bytes) +
                R"(,"Total Allocated":)" + std::to_string(level) + "}},";
    }
  }
  events.pop_back();
  auto trace = loaders::LoadBytes(R"({"traceEvents":[)" + events + "]}", "no_addr.json");
  ASSERT_TRUE(trace.ok()) << trace.error().ToString();
  const auto json = ParseJson(Json(analysis::ComputeReport(trace.value())));
  ASSERT_TRUE(json.has_value());
  const JsonValue& gpu = Member(Member(*json, "memory"), "GPU 0");
  EXPECT_EQ(Member(gpu, "attribution").text, "none");
  EXPECT_EQ(Member(gpu, "peak_allocated_bytes").text, "500");
  EXPECT_EQ(Member(gpu, "allocations").text, "4");
  EXPECT_EQ(Member(gpu, "frees").text, "4");
  EXPECT_EQ(Member(gpu, "unmatched_frees").type, JsonValue::Type::kNull);
  EXPECT_EQ(Member(gpu, "never_freed").type, JsonValue::Type::kNull);
  EXPECT_TRUE(Member(gpu, "top_at_peak").items.empty());
  ASSERT_EQ(Member(gpu, "allocated_by_op").items.size(), 1u);
  EXPECT_EQ(Member(Member(gpu, "allocated_by_op").items[0], "bytes").text, "2000");
}

// Values from tests/analysis/report_test.cpp's hand-worked TwoDevices facts.
TEST(ReportOutputTest, JsonCarriesTheReportValues) {
  const Trace t = TwoDevices();
  const auto json = ParseJson(Json(analysis::ComputeReport(t)));
  ASSERT_TRUE(json.has_value());
  EXPECT_EQ(Text(*json, "primary_device"), "GPU 1");
  EXPECT_EQ(Int(Member(*json, "idle_by_cause"), "input"), Us(500));
  EXPECT_EQ(Int(Member(*json, "idle_by_cause"), "launch"), Us(5));
  EXPECT_EQ(Int(Member(*json, "breakdown_total"), "compute"), Us(495));
  ASSERT_EQ(Member(*json, "devices").items.size(), 2u);
  const JsonValue& gpu1 = Text(Member(*json, "devices").items.at(0), "name") == "GPU 1"
                              ? Member(*json, "devices").items.at(0)
                              : Member(*json, "devices").items.at(1);
  EXPECT_EQ(Int(gpu1, "busy_ns"), Us(495));
  EXPECT_EQ(Int(gpu1, "idle_ns"), Us(505));
  const auto& steps = Member(*json, "steps").items;
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(Text(steps[0], "name"), "ProfilerStep#1");
  EXPECT_EQ(Int(steps[0], "dur_ns"), Us(1000));
  EXPECT_EQ(Int(Member(steps[0], "breakdown"), "idle_input"), Us(500));
  const auto& gaps = Member(*json, "gaps").items;
  ASSERT_EQ(gaps.size(), 1u);
  EXPECT_EQ(Text(gaps[0], "device"), "GPU 1");
  EXPECT_EQ(Int(gaps[0], "start_ns"), Us(400));
  EXPECT_EQ(Int(gaps[0], "dur_ns"), Us(500));
  EXPECT_EQ(Text(gaps[0], "step"), "ProfilerStep#1");
  EXPECT_EQ(Text(gaps[0], "cause"), "input");
  EXPECT_EQ(Text(gaps[0], "next_kernel"), "K3");
  EXPECT_EQ(Int(gaps[0], "launch_delay_ns"), Us(20));
  const auto& events = Member(gaps[0], "cause_events").items;
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(Text(events[0], "name"), "IteratorGetNext");
  EXPECT_EQ(Text(events[0], "thread"), "main");
  EXPECT_EQ(Int(events[0], "start_ns"), Us(420));
  EXPECT_EQ(Int(events[0], "overlap_ns"), Us(450));
  for (const JsonValue& op : Member(*json, "ops").items) EXPECT_NE(Text(op, "name"), "ProfilerStep#1");  // a marker
  EXPECT_EQ(Text(Member(*json, "kernels").items.at(0), "name"), "K1");
  EXPECT_EQ(Int(Member(*json, "kernels").items.at(0), "total_ns"), Us(300));
  ASSERT_FALSE(Member(*json, "recommendations").items.empty());
  EXPECT_EQ(Member(*json, "recommendations").items.at(0).text.rfind("Highly input-bound", 0), 0u);
}

TEST(ReportOutputTest, JsonEscapesNamesAndWritesUnknownsAsNull) {
  const auto json = ParseJson(Json(OddReport()));
  ASSERT_TRUE(json.has_value());
  EXPECT_EQ(Text(*json, "primary_device"), "GPU \"0\"");
  const auto& gaps = Member(*json, "gaps").items;
  ASSERT_EQ(gaps.size(), 2u);
  EXPECT_EQ(Text(gaps[0], "step"), "step, one");
  EXPECT_EQ(Text(Member(gaps[0], "cause_events").items.at(0), "name"), "next(\"batch\")\nwait");
  EXPECT_EQ(Text(Member(gaps[0], "cause_events").items.at(0), "thread"), "main\tthread");
  EXPECT_TRUE(Member(gaps[1], "step").is_null());
  EXPECT_TRUE(Member(gaps[1], "next_kernel").is_null());
  EXPECT_TRUE(Member(gaps[1], "launch_delay_ns").is_null());
  EXPECT_TRUE(Member(gaps[1], "cause_events").items.empty());
  const auto& kernels = Member(*json, "kernels").items;
  ASSERT_EQ(kernels.size(), 2u);
  for (const char* key :
       {"grid", "block", "registers_per_thread", "shared_memory_bytes", "occupancy_percent", "framework_op"}) {
    EXPECT_TRUE(Member(kernels[0], key).is_null()) << key;
  }
  ASSERT_EQ(Member(kernels[1], "grid").items.size(), 3u);
  EXPECT_EQ(Member(kernels[1], "grid").items.at(0).text, "4");
  EXPECT_EQ(Member(kernels[1], "block").items.at(0).text, "128");
  EXPECT_EQ(Int(kernels[1], "registers_per_thread"), 32);
  EXPECT_EQ(Int(kernels[1], "shared_memory_bytes"), 0);
  EXPECT_EQ(Member(kernels[1], "occupancy_percent").AsDouble(), 50.0);
  EXPECT_EQ(Text(kernels[1], "framework_op"), "conv2d");
  EXPECT_EQ(Member(*json, "recommendations").items.at(0).text, "Highly input-bound: \"quoted\"");

  analysis::Report none;  // no GPU activity at all
  const auto empty = ParseJson(Json(none));
  ASSERT_TRUE(empty.has_value());
  EXPECT_TRUE(Member(*empty, "primary_device").is_null());
  EXPECT_TRUE(Member(*empty, "gaps").items.empty());
}

// The writer hands its buffer to the stream every ~1 MB; every gap must
// still arrive exactly once and in order.
TEST(ReportOutputTest, JsonLongerThanSeveralFlushesArrivesWhole) {
  analysis::Report r = OddReport();
  const std::string long_name(300, 'k');
  r.gaps.clear();
  constexpr int kGaps = 20'000;
  for (int i = 0; i < kGaps; ++i) {
    r.gaps.push_back({0, 10'000 + int64_t{i} * 100, 50, 0, analysis::IdleCause::kInput, 0, 1, long_name, i});
  }
  const std::string text = Json(r);
  ASSERT_GT(text.size(), size_t{4} << 20);
  const auto json = ParseJson(text);
  ASSERT_TRUE(json.has_value());
  const auto& gaps = Member(*json, "gaps").items;
  ASSERT_EQ(gaps.size(), size_t{kGaps});
  for (int i = 0; i < kGaps; ++i) ASSERT_EQ(Int(gaps[size_t(i)], "launch_delay_ns"), i);
}

TEST(ReportOutputTest, CsvFieldIsQuotedOnlyWhenRfc4180NeedsIt) {
  const auto field = [](std::string_view v) {
    std::string out;
    ui::AppendCsvField(v, &out);
    return out;
  };
  EXPECT_EQ(field("aten::mm"), "aten::mm");
  EXPECT_EQ(field(""), "");
  EXPECT_EQ(field("a,b"), "\"a,b\"");
  EXPECT_EQ(field("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(field("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(field("cr\r"), "\"cr\r\"");
}

TEST(ReportOutputTest, CsvTablesHaveHeadersAndOneRowPerEntry) {
  const analysis::Report r = OddReport();
  Strings step_header{"name", "start_ns", "dur_ns"};
  for (const std::string& c : CategoryNames()) step_header.push_back(c + "_ns");
  step_header.insert(step_header.end(), {"flops", "mfu_percent", "samples_per_s"});
  const auto steps = Csv(r, ReportTable::kSteps);
  ASSERT_EQ(steps.size(), 1 + r.steps.size());
  EXPECT_EQ(steps[0], step_header);
  EXPECT_EQ(steps[1][0], "step, one");
  EXPECT_EQ(steps[1][3], "700");
  EXPECT_EQ(steps[1][3 + int(analysis::TimeCategory::kIdleInput)], "300");

  const auto ops = Csv(r, ReportTable::kOps);
  ASSERT_EQ(ops.size(), 1 + r.ops.size());
  EXPECT_EQ(ops[0], (Strings{"name", "kind", "count", "total_ns", "self_ns", "avg_ns", "min_ns", "max_ns", "percent",
                             "cumulative_percent", "flops", "achieved_tflops", "arithmetic_intensity", "bound"}));
  // FLOPs unknown: empty cells, never 0.
  EXPECT_EQ(ops[1], (Strings{"aten::mm", "host_op", "3", "900", "600", "300", "200", "400", "75.000", "75.000", "", "",
                             "", ""}));

  const auto kernels = Csv(r, ReportTable::kKernels);
  ASSERT_EQ(kernels.size(), 1 + r.kernels.size());
  EXPECT_EQ(kernels[0], (Strings{"name", "grid_x", "grid_y", "grid_z", "block_x", "block_y", "block_z",
                                 "registers_per_thread", "shared_memory_bytes", "occupancy_percent", "framework_op",
                                 "count", "total_ns", "avg_ns", "min_ns", "max_ns", "bound", "graph_id", "graph_node_id"}));
  EXPECT_EQ(kernels[1],
            (Strings{"gemm<float, 4>", "", "", "", "", "", "", "", "", "", "", "2", "700", "0", "0", "0", "", "", ""}));
  EXPECT_EQ(kernels[2], (Strings{"configured", "4", "1", "1", "128", "1", "1", "32", "0", "50.00", "conv2d", "2", "700",
                                 "0", "0", "0", "", "", ""}));

  const auto gaps = Csv(r, ReportTable::kGaps);
  ASSERT_EQ(gaps.size(), 1 + r.gaps.size());
  EXPECT_EQ(gaps[0], (Strings{"device", "start_ns", "dur_ns", "step", "cause", "next_kernel", "launch_delay_ns",
                              "blamed_event", "blamed_thread", "blamed_overlap_ns", "blamed_event_count"}));
  EXPECT_EQ(gaps[1], (Strings{"GPU \"0\"", "1100", "300", "step, one", "input", "gemm<float, 4>", "280",
                              "next(\"batch\")\nwait", "main\tthread", "250", "1"}));
  EXPECT_EQ(gaps[2], (Strings{"GPU \"0\"", "2500", "40", "", "other", "", "", "", "", "", "0"}));
}

TEST(ReportOutputTest, TextNamesDeviceStepsBreakdownGapsAndRecommendations) {
  const Trace t = TwoDevices();
  const analysis::Report r = analysis::ComputeReport(t);
  ReportTextContext context;
  context.path = "two_devices.json";
  context.step_source = analysis::StepSourceName(r.step_source);
  context.min_gap_ns = Us(10);
  std::ostringstream out;
  WriteReportText(r, context, out);
  const std::string text = out.str();
  const std::string top = "Top " + std::to_string(std::min<size_t>(10, r.ops.size())) + " ops by ";
  for (const std::string& expected :
       {std::string("two_devices.json"), std::string("primary device   GPU 1 (of 2 devices)"),
        std::string("1 step from profiler_step; mean 1.000 ms"), std::string("idle_input"), std::string("500,000"),
        std::string("50.0%"), top + "total time", top + "self time",
        std::string("Longest GPU idle gaps (1 of 1 listed"), std::string("cause input"), std::string("next kernel K3"),
        std::string("blamed IteratorGetNext on main"), std::string("Recommendations\n  - Highly input-bound")}) {
    EXPECT_NE(text.find(expected), std::string::npos) << "missing \"" << expected << "\" in:\n" << text;
  }

  std::ostringstream cpu_only;
  WriteReportText(analysis::Report{}, context, cpu_only);
  EXPECT_NE(cpu_only.str().find("none (no GPU kernels in the trace)"), std::string::npos) << cpu_only.str();
}

}  // namespace
}  // namespace stepline::app
