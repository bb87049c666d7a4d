// Chrome JSON loader: every phase, both top-level forms, timestamps, pid/tid
// forms, args and trace metadata, on small hand-written inputs.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "loaders/byte_source.h"
#include "loaders/chrome_json/chrome_json_loader.h"
#include "loaders/trace_builder.h"

namespace stepline::loaders {
namespace {

Trace LoadPhases(std::string_view json, bool keep_args = true) {
  auto input = DecodeBytes(json, "test.json", nullptr);
  EXPECT_TRUE(input.ok());
  LoadOptions options;
  options.threads = 1;
  options.keep_args = keep_args;
  auto trace = LoadChromeJson(*input, "test.json", options, nullptr);
  EXPECT_TRUE(trace.ok()) << (trace.ok() ? "" : trace.error().ToString());
  if (!trace.ok()) return Trace();
  EXPECT_EQ(trace->CheckInvariants(), "");
  return std::move(trace).value();
}

// Index of the only slice named `name` (fails the test when not exactly one).
size_t PhaseSliceNamed(const Trace& t, std::string_view name) {
  size_t found = SIZE_MAX, count = 0;
  for (size_t i = 0; i < t.slices().size(); ++i) {
    if (t.str(t.slices().name()[i]) == name) {
      found = i;
      ++count;
    }
  }
  EXPECT_EQ(count, 1u) << name;
  return found;
}

ArgValue ArgOf(const Trace& t, ArgSetId set, std::string_view key) {
  ArgValue v;
  EXPECT_TRUE(t.args().Find(set, t.strings().Find(key), &v)) << key;
  return v;
}

TrackId TrackOfSlice(const Trace& t, std::string_view name) { return t.slices().track()[PhaseSliceNamed(t, name)]; }

TEST(ChromeJsonPhasesTest, CompleteEventsBothForms) {
  for (const char* json : {
           R"([{"ph":"X","name":"a","cat":"c","pid":1,"tid":2,"ts":10,"dur":5}])",
           R"({"traceEvents":[{"ph":"X","name":"a","cat":"c","pid":1,"tid":2,"ts":10,"dur":5}]})",
       }) {
    const Trace t = LoadPhases(json);
    ASSERT_EQ(t.slices().size(), 1u) << json;
    EXPECT_EQ(t.slices().start_ns()[0], 10000);
    EXPECT_EQ(t.slices().dur_ns()[0], 5000);
    EXPECT_EQ(t.str(t.slices().name()[0]), "a");
    EXPECT_EQ(t.str(t.slices().category()[0]), "c");
    const TrackId track = t.slices().track()[0];
    EXPECT_EQ(t.tracks().tid(track), 2);
    EXPECT_EQ(t.processes().pid(t.tracks().process(track)), 1);
    EXPECT_EQ(t.info().format, "chrome-json");
    EXPECT_TRUE(t.diagnostics().empty());
  }
}

TEST(ChromeJsonPhasesTest, ByteOrderMarkIsSkipped) {
  for (const char* json :
       {"\xEF\xBB\xBF[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1}]",
        "\xEF\xBB\xBF\n{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1}]}",
        "\xEF\xBB\xBF[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1},"}) {
    const Trace t = LoadPhases(json);
    EXPECT_EQ(t.slices().size(), 1u) << json;
    EXPECT_TRUE(t.diagnostics().empty()) << json;
  }
}

TEST(ChromeJsonPhasesTest, TimestampsConvertExactlyFromTheirText) {
  const Trace t = LoadPhases(R"([
    {"ph":"X","name":"frac","pid":1,"tid":1,"ts":1695835535123456.789,"dur":0.001},
    {"ph":"X","name":"string","pid":1,"tid":1,"ts":"1695835535123456.789","dur":"2.5"},
    {"ph":"X","name":"exp","pid":1,"tid":1,"ts":1.5e3,"dur":1e0},
    {"ph":"X","name":"round","pid":1,"tid":1,"ts":0.0005,"dur":0.0004}])");
  EXPECT_EQ(t.slices().start_ns()[PhaseSliceNamed(t, "frac")], 1695835535123456789);
  EXPECT_EQ(t.slices().dur_ns()[PhaseSliceNamed(t, "frac")], 1);
  EXPECT_EQ(t.slices().start_ns()[PhaseSliceNamed(t, "string")], 1695835535123456789);
  EXPECT_EQ(t.slices().dur_ns()[PhaseSliceNamed(t, "string")], 2500);
  EXPECT_EQ(t.slices().start_ns()[PhaseSliceNamed(t, "exp")], 1500000);
  EXPECT_EQ(t.slices().dur_ns()[PhaseSliceNamed(t, "exp")], 1000);
  EXPECT_EQ(t.slices().start_ns()[PhaseSliceNamed(t, "round")], 1);
  EXPECT_EQ(t.slices().dur_ns()[PhaseSliceNamed(t, "round")], 0);
}

TEST(ChromeJsonPhasesTest, BaseTimeNanosecondsIsTheWallClockOrigin) {
  const Trace t = LoadPhases(R"({"traceEvents":[{"ph":"X","name":"a","pid":1,"tid":1,"ts":12.345,"dur":1}],
                           "displayTimeUnit":"ms","baseTimeNanoseconds":1751410836000000000})");
  EXPECT_EQ(t.slices().start_ns()[0], 12345);  // model time stays ts * 1000
  EXPECT_EQ(t.info().wall_clock_origin_ns, 1751410836000000000);
}

TEST(ChromeJsonPhasesTest, TopLevelKeysBecomeTraceMetadata) {
  const Trace t = LoadPhases(R"({"schemaVersion": 1, "deviceProperties": [ {"id": 0, "name": "A100"} ],
    "traceEvents": [],
    "distributedInfo": {"backend": "nccl", "rank": 1}, "flag": true, "ratio": 0.5, "none": null,
    "traceName": "x.json"})");
  const ArgSetId m = t.info().metadata;
  EXPECT_EQ(ArgOf(t, m, "schemaVersion").as_int(), 1);
  EXPECT_EQ(ArgOf(t, m, "deviceProperties").type, ArgType::kJson);
  EXPECT_EQ(t.str(ArgOf(t, m, "deviceProperties").as_string()), R"([{"id":0,"name":"A100"}])");
  EXPECT_EQ(t.str(ArgOf(t, m, "distributedInfo").as_string()), R"({"backend":"nccl","rank":1})");
  EXPECT_EQ(ArgOf(t, m, "flag").as_bool(), true);
  EXPECT_EQ(ArgOf(t, m, "ratio").as_double(), 0.5);
  EXPECT_EQ(t.str(ArgOf(t, m, "none").as_string()), "null");
  EXPECT_EQ(t.str(ArgOf(t, m, "traceName").as_string()), "x.json");
}

TEST(ChromeJsonPhasesTest, ArgsKeepTheirTypes) {
  const Trace t = LoadPhases(R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1,"args":{
      "i": -5, "u": 18446744073709551615, "d": 2.5, "s": "text", "b": false, "n": null,
      "arr": [1, [ 2 ], "a b"], "obj": {"k": {"x": "y z"}}, "esc": "tab\there"}}])");
  const ArgSetId set = t.slices().arg_set()[0];
  EXPECT_EQ(ArgOf(t, set, "i").type, ArgType::kInt);
  EXPECT_EQ(ArgOf(t, set, "i").as_int(), -5);
  EXPECT_EQ(ArgOf(t, set, "u").type, ArgType::kUint);
  EXPECT_EQ(ArgOf(t, set, "u").as_uint(), UINT64_MAX);
  EXPECT_EQ(ArgOf(t, set, "d").as_double(), 2.5);
  EXPECT_EQ(t.str(ArgOf(t, set, "s").as_string()), "text");
  EXPECT_EQ(ArgOf(t, set, "b").type, ArgType::kBool);
  EXPECT_FALSE(ArgOf(t, set, "b").as_bool());
  EXPECT_EQ(ArgOf(t, set, "n").type, ArgType::kJson);
  EXPECT_EQ(t.str(ArgOf(t, set, "arr").as_string()), R"([1,[2],"a b"])");
  EXPECT_EQ(t.str(ArgOf(t, set, "obj").as_string()), R"({"k":{"x":"y z"}})");
  EXPECT_EQ(t.str(ArgOf(t, set, "esc").as_string()), "tab\there");
  // Without args: nothing stored.
  const Trace lean = LoadPhases(R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1,"args":{"i":1}}])", false);
  EXPECT_TRUE(lean.slices().arg_set()[0].is_none());
  EXPECT_EQ(lean.args().size(), 0u);
}

TEST(ChromeJsonPhasesTest, BeginEndNestPerThreadAndMergeArgs) {
  const Trace t = LoadPhases(R"([
    {"ph":"B","name":"outer","pid":1,"tid":1,"ts":1,"args":{"a":1}},
    {"ph":"B","name":"other-thread","pid":1,"tid":2,"ts":2},
    {"ph":"B","name":"inner","pid":1,"tid":1,"ts":2},
    {"ph":"E","pid":1,"tid":1,"ts":3},
    {"ph":"E","pid":1,"tid":2,"ts":4},
    {"ph":"E","pid":1,"tid":1,"ts":5,"args":{"b":2}}])");
  ASSERT_EQ(t.slices().size(), 3u);
  const size_t outer = PhaseSliceNamed(t, "outer"), inner = PhaseSliceNamed(t, "inner");
  EXPECT_EQ(t.slices().dur_ns()[outer], 4000);
  EXPECT_EQ(t.slices().dur_ns()[inner], 1000);
  EXPECT_EQ(t.slices().depth()[inner], 1);
  EXPECT_EQ(t.slices().dur_ns()[PhaseSliceNamed(t, "other-thread")], 2000);
  EXPECT_EQ(ArgOf(t, t.slices().arg_set()[outer], "a").as_int(), 1);
  EXPECT_EQ(ArgOf(t, t.slices().arg_set()[outer], "b").as_int(), 2);
  EXPECT_TRUE(t.diagnostics().empty());
}

TEST(ChromeJsonPhasesTest, InstantScopes) {
  const Trace t = LoadPhases(R"([
    {"ph":"i","name":"thread","pid":1,"tid":3,"ts":1},
    {"ph":"I","name":"legacy","pid":1,"tid":3,"ts":2,"s":"t"},
    {"ph":"R","name":"mark","pid":1,"tid":3,"ts":3},
    {"ph":"i","name":"process","pid":1,"tid":3,"ts":4,"s":"p"},
    {"ph":"i","name":"global","pid":"","tid":"","ts":5,"s":"g"}])");
  ASSERT_EQ(t.instants().size(), 5u);
  for (size_t i = 0; i < t.instants().size(); ++i) {
    const std::string_view name = t.str(t.instants().name()[i]);
    const TrackId track = t.instants().track()[i];
    const int64_t pid = t.processes().pid(t.tracks().process(track));
    if (name == "process") {
      EXPECT_EQ(t.tracks().kind(track), TrackKind::kMarkers);
      EXPECT_EQ(pid, 1);
    } else if (name == "global") {
      EXPECT_EQ(t.tracks().kind(track), TrackKind::kMarkers);
      EXPECT_EQ(pid, kGlobalPid);
    } else {
      EXPECT_EQ(t.tracks().kind(track), TrackKind::kHostThread) << name;
      EXPECT_EQ(t.tracks().tid(track), 3);
    }
  }
}

TEST(ChromeJsonPhasesTest, CountersMakeOneTrackPerSeries) {
  const Trace t = LoadPhases(R"([
    {"ph":"C","name":"mem","pid":7,"tid":1,"ts":1,"args":{"used":10,"free":"20.5","label":"x"}},
    {"ph":"C","name":"mem","pid":7,"tid":2,"ts":2,"args":{"used":11}},
    {"ph":"C","name":"q","id":3,"pid":7,"ts":3,"args":{"depth":4}},
    {"ph":"C","name":"sm_clock","pid":"GPU 0 Counters","ts":4,"args":{"":1500}}])");
  std::map<std::string, std::vector<std::pair<TimeNs, double>>> series;
  for (size_t i = 0; i < t.counters().size(); ++i) {
    const TrackId track = t.counters().track()[i];
    EXPECT_EQ(t.tracks().kind(track), TrackKind::kCounter);
    series[std::string(t.str(t.tracks().name(track)))].emplace_back(t.counters().ts_ns()[i], t.counters().value()[i]);
  }
  using Samples = std::vector<std::pair<TimeNs, double>>;
  EXPECT_EQ(series.size(), 4u);
  EXPECT_EQ(series["mem used"], (Samples{{1000, 10}, {2000, 11}}));  // tid is ignored
  EXPECT_EQ(series["mem free"], (Samples{{1000, 20.5}}));            // numeric strings count
  EXPECT_EQ(series["q[3] depth"], (Samples{{3000, 4}}));
  EXPECT_EQ(series["sm_clock"], (Samples{{4000, 1500}}));  // Kineto's empty key
}

TEST(ChromeJsonPhasesTest, MetadataNamesAndSortsProcessesAndThreads) {
  // M events after the events they describe, as Kineto writes them.
  const Trace t = LoadPhases(R"([
    {"ph":"X","name":"a","pid":5,"tid":6,"ts":1,"dur":1},
    {"ph":"M","name":"process_name","pid":5,"args":{"name":"python"}},
    {"ph":"M","name":"process_sort_index","pid":5,"args":{"sort_index":3}},
    {"ph":"M","name":"process_labels","pid":5,"args":{"labels":"CPU"}},
    {"ph":"M","name":"thread_name","pid":5,"tid":6,"args":{"name":"main"}},
    {"ph":"M","name":"thread_sort_index","pid":5,"tid":6,"args":{"sort_index":"-2"}},
    {"ph":"M","name":"num_cpus","pid":5,"args":{"number":8}},
    {"ph":"M","name":"process_name","pid":5,"args":{"name":"renamed"}}])");
  const TrackId track = TrackOfSlice(t, "a");
  EXPECT_EQ(t.str(t.tracks().name(track)), "main");
  EXPECT_EQ(t.tracks().sort_index(track), -2);
  const ProcessId p = t.tracks().process(track);
  EXPECT_EQ(t.str(t.processes().name(p)), "renamed");
  EXPECT_EQ(t.processes().sort_index(p), 3);
  EXPECT_EQ(t.diagnostics().count(DiagCode::kDuplicateMetadata), 1u);
}

TEST(ChromeJsonPhasesTest, StringPidsAndTids) {
  const Trace t = LoadPhases(R"([
    {"ph":"X","name":"kernel","cat":"kernel","pid":0,"tid":"stream 7","ts":1,"dur":1},
    {"ph":"X","name":"host","pid":100,"tid":"12345","ts":1,"dur":1},
    {"ph":"f","id":1,"pid":100,"tid":12345,"ts":1,"cat":"x","name":"x","bp":"e"},
    {"ph":"X","name":"span","cat":"Trace","pid":"Spans","tid":"PyTorch Profiler","ts":1,"dur":1},
    {"ph":"X","name":"neg","pid":-3,"tid":4294967296,"ts":1,"dur":1}])");
  EXPECT_EQ(t.tracks().tid(TrackOfSlice(t, "kernel")), 7);
  EXPECT_EQ(t.tracks().tid(TrackOfSlice(t, "host")), 12345);
  const TrackId span = TrackOfSlice(t, "span");
  EXPECT_EQ(t.str(t.tracks().name(span)), "PyTorch Profiler");
  EXPECT_EQ(t.str(t.processes().name(t.tracks().process(span))), "Spans");
  EXPECT_NE(t.processes().pid(t.tracks().process(span)), 0);
  const TrackId neg = TrackOfSlice(t, "neg");
  EXPECT_EQ(t.processes().pid(t.tracks().process(neg)), -3);
  EXPECT_EQ(t.tracks().tid(neg), 4294967296);
  // The numeric-string tid and the numeric one are the same thread.
  size_t threads_of_100 = 0;
  for (size_t i = 0; i < t.tracks().size(); ++i) {
    const TrackId tr = TrackId::FromIndex(i);
    if (t.processes().pid(t.tracks().process(tr)) == 100) ++threads_of_100;
  }
  EXPECT_EQ(threads_of_100, 1u);
}

TEST(ChromeJsonPhasesTest, FlowsStepAndBindingPoints) {
  // File order is not time order (Kineto writes "f" first); "t" continues.
  const Trace t = LoadPhases(R"([
    {"ph":"X","name":"a","pid":1,"tid":1,"ts":10,"dur":10},
    {"ph":"X","name":"b","pid":1,"tid":2,"ts":30,"dur":10},
    {"ph":"X","name":"c","pid":1,"tid":3,"ts":50,"dur":10},
    {"ph":"X","name":"d","pid":1,"tid":4,"ts":70,"dur":10},
    {"ph":"t","id":"0x9","cat":"f","name":"n","pid":1,"tid":2,"ts":35},
    {"ph":"f","id":"0x9","cat":"f","name":"n","pid":1,"tid":3,"ts":55,"bp":"e"},
    {"ph":"s","id":9,"cat":"f","name":"n","pid":1,"tid":1,"ts":15},
    {"ph":"s","id":2,"cat":"g","name":"m","pid":1,"tid":1,"ts":12},
    {"ph":"f","id":2,"cat":"g","name":"m","pid":1,"tid":4,"ts":65}])");
  std::set<std::pair<std::string, std::string>> arrows;
  for (size_t i = 0; i < t.flows().size(); ++i) {
    arrows.emplace(t.str(t.slices().name()[t.flows().from()[i].index()]),
                   t.str(t.slices().name()[t.flows().to()[i].index()]));
    EXPECT_EQ(t.flows().kind()[i], FlowKind::kGeneric);
  }
  // Without "bp":"e" the end binds to the next slice starting after ts (d at 70).
  EXPECT_EQ(arrows, (std::set<std::pair<std::string, std::string>>{{"a", "b"}, {"b", "c"}, {"a", "d"}}));
  EXPECT_TRUE(t.diagnostics().empty());
}

TEST(ChromeJsonPhasesTest, FlowV2BindIdsLinkCompleteEvents) {
  const Trace t = LoadPhases(R"([
    {"ph":"X","name":"consumer","pid":1,"tid":2,"ts":20,"dur":5,"bind_id":"0x11","flow_in":true},
    {"ph":"X","name":"producer","pid":1,"tid":1,"ts":10,"dur":5,"bind_id":17,"flow_out":true},
    {"ph":"X","name":"lonely","pid":1,"tid":1,"ts":30,"dur":5,"bind_id":99,"flow_out":true}])");
  ASSERT_EQ(t.flows().size(), 1u);
  EXPECT_EQ(t.flows().from()[0].index(), PhaseSliceNamed(t, "producer"));
  EXPECT_EQ(t.flows().to()[0].index(), PhaseSliceNamed(t, "consumer"));
  EXPECT_EQ(t.diagnostics().count(DiagCode::kUnmatchedFlow), 1u);
}

TEST(ChromeJsonPhasesTest, NestableAsyncGetsATrackPerId) {
  const Trace t = LoadPhases(R"([
    {"ph":"b","name":"req","cat":"net","id":"0x1","pid":1,"tid":1,"ts":1},
    {"ph":"b","name":"req","cat":"net","id":"0x2","pid":1,"tid":2,"ts":2},
    {"ph":"b","name":"phase","cat":"net","id":"0x1","pid":1,"tid":3,"ts":3},
    {"ph":"n","name":"mark","cat":"net","id":"0x1","pid":1,"tid":1,"ts":4},
    {"ph":"e","name":"phase","cat":"net","id":"0x1","pid":1,"tid":1,"ts":5},
    {"ph":"e","name":"req","cat":"net","id2":{"local":"0x2"},"pid":1,"tid":1,"ts":6},
    {"ph":"e","name":"req","cat":"net","id":"0x1","pid":1,"tid":1,"ts":7}])");
  ASSERT_EQ(t.slices().size(), 3u);
  std::set<uint32_t> tracks;
  for (size_t i = 0; i < t.slices().size(); ++i) {
    const TrackId track = t.slices().track()[i];
    EXPECT_EQ(t.tracks().kind(track), TrackKind::kAsync);
    tracks.insert(track.value);
  }
  EXPECT_EQ(tracks.size(), 2u);
  // "phase" nests inside the first "req" on the id-1 track.
  for (size_t i = 0; i < t.slices().size(); ++i) {
    const std::string_view name = t.str(t.slices().name()[i]);
    if (name == "phase") {
      EXPECT_EQ(t.slices().depth()[i], 1);
      EXPECT_EQ(t.slices().dur_ns()[i], 2000);
    } else if (t.slices().start_ns()[i] == 1000) {
      EXPECT_EQ(t.slices().dur_ns()[i], 6000);
    } else {
      EXPECT_EQ(t.slices().dur_ns()[i], 4000);
    }
  }
  ASSERT_EQ(t.instants().size(), 1u);
  EXPECT_EQ(t.tracks().kind(t.instants().track()[0]), TrackKind::kAsync);
  EXPECT_TRUE(t.diagnostics().empty());
}

TEST(ChromeJsonPhasesTest, LegacyAsyncStartFinish) {
  const Trace t = LoadPhases(R"([
    {"ph":"S","name":"load","id":5,"pid":1,"tid":1,"ts":1},
    {"ph":"T","name":"load","id":5,"pid":1,"tid":1,"ts":2,"args":{"step":"parse"}},
    {"ph":"p","name":"load","id":5,"pid":1,"tid":1,"ts":3},
    {"ph":"F","name":"load","id":5,"pid":1,"tid":2,"ts":4}])");
  ASSERT_EQ(t.slices().size(), 1u);
  EXPECT_EQ(t.tracks().kind(t.slices().track()[0]), TrackKind::kAsync);
  EXPECT_EQ(t.slices().dur_ns()[0], 3000);
  ASSERT_EQ(t.instants().size(), 2u);
  EXPECT_EQ(t.str(t.instants().name()[0]), "parse");
  EXPECT_EQ(t.instants().track()[0], t.slices().track()[0]);
}

TEST(ChromeJsonPhasesTest, UnsupportedAndUnknownPhasesAreCountedNotFatal) {
  const std::string json = R"([{"ph":"P","name":"s","pid":1,"tid":1,"ts":1},)"
                           R"({"ph":"O","name":"o","id":1,"pid":1,"ts":1},)"
                           R"({"ph":"Q","name":"q","pid":1,"tid":1,"ts":1},)"
                           R"({"ph":"XY","name":"q","pid":1,"tid":1,"ts":1},)"
                           R"({"ph":"X","name":"kept","pid":1,"tid":1,"ts":1,"dur":1}])";
  const Trace t = LoadPhases(json);
  EXPECT_EQ(t.slices().size(), 1u);
  EXPECT_EQ(t.diagnostics().count(DiagCode::kUnsupportedFeature), 2u);
  EXPECT_EQ(t.diagnostics().entry(DiagCode::kUnsupportedFeature).first_offset, 1u);
  EXPECT_EQ(t.diagnostics().count(DiagCode::kUnknownPhase), 2u);
  const auto& unknown = t.diagnostics().entry(DiagCode::kUnknownPhase);
  EXPECT_EQ(unknown.first_offset, json.find(R"({"ph":"Q")"));
  EXPECT_EQ(unknown.instances[1].byte_offset, json.find(R"({"ph":"XY")"));
  EXPECT_NE(unknown.instances[1].detail.find("\"XY\""), std::string::npos) << unknown.instances[1].detail;
}

TEST(ChromeJsonPhasesTest, TolerancesOfWritersThatStopEarly) {
  // TensorFlow's {} terminator, a trailing comma, and no final ']' at all.
  for (const char* json : {R"({"traceEvents":[{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1},{}]})",
                           R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1},])",
                           R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1},)",
                           "[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1}\n"}) {
    const Trace t = LoadPhases(json);
    EXPECT_EQ(t.slices().size(), 1u) << json;
    EXPECT_TRUE(t.diagnostics().empty()) << json;
  }
}

}  // namespace
}  // namespace stepline::loaders
