// Demo -> Chrome JSON -> JSON loader gives back the same model: every
// scenario in both styles keeps its slices (time, name, category, GPU kind,
// nesting, args), track kinds, devices, names and flows; and the .gz / .zst
// files `stepline demo` writes load back the same way.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "demo/demo_generator.h"
#include "export/chrome_json_writer.h"
#include "loaders/load.h"

namespace stepline::demo {
namespace {

// A track by what the JSON keeps of it.
using TrackKey = std::tuple<int64_t, int64_t, int, int32_t>;  // pid, tid, kind, device

TrackKey KeyOf(const Trace& t, TrackId track) {
  return {t.processes().pid(t.tracks().process(track)), t.tracks().tid(track), static_cast<int>(t.tracks().kind(track)),
          t.tracks().device_id(track)};
}

std::string ArgsText(const Trace& t, ArgSetId set) {
  std::ostringstream out;
  const ArgTable& args = t.args();
  for (uint32_t r = args.set_begin(set); r < args.set_end(set); ++r) {
    const ArgValue v = args.value(r);
    out << t.str(args.key()[r]) << '=' << static_cast<int>(v.type) << ':';
    if (v.type == ArgType::kString || v.type == ArgType::kJson) {
      out << t.str(v.as_string());
    } else if (v.type == ArgType::kDouble) {
      out << v.as_double();
    } else {
      out << v.bits;
    }
    out << ';';
  }
  return out.str();
}

std::string SliceText(const Trace& t, size_t i) {
  const SliceTable& s = t.slices();
  std::ostringstream out;
  out << s.start_ns()[i] << '+' << s.dur_ns()[i] << ' ' << t.str(s.name()[i]) << " [" << t.str(s.category()[i])
      << "] gpu=" << static_cast<int>(s.gpu_kind()[i]) << " depth=" << s.depth()[i] << ' '
      << ArgsText(t, s.arg_set()[i]);
  return out.str();
}

// Every slice, grouped by track key, in the model's sorted order.
std::map<TrackKey, std::vector<std::string>> SlicesByTrack(const Trace& t) {
  std::map<TrackKey, std::vector<std::string>> out;
  for (size_t i = 0; i < t.slices().size(); ++i) out[KeyOf(t, t.slices().track()[i])].push_back(SliceText(t, i));
  return out;
}

std::set<std::string> FlowSet(const Trace& t) {
  std::set<std::string> out;
  const FlowTable& f = t.flows();
  auto end = [&](SliceId s) {
    const TrackKey k = KeyOf(t, t.slices().track()[s.index()]);
    return std::to_string(std::get<0>(k)) + "/" + std::to_string(std::get<1>(k)) + "@" +
           std::to_string(t.slices().start_ns()[s.index()]) + "d" + std::to_string(t.slices().depth()[s.index()]);
  };
  for (size_t i = 0; i < f.size(); ++i) {
    out.insert(end(f.from()[i]) + "->" + end(f.to()[i]) + " k" + std::to_string(static_cast<int>(f.kind()[i])));
  }
  return out;
}

std::map<TrackKey, std::string> TrackNames(const Trace& t) {
  std::map<TrackKey, std::string> out;
  for (size_t i = 0; i < t.tracks().size(); ++i) {
    const TrackId id = TrackId::FromIndex(i);
    out[KeyOf(t, id)] = std::string(t.str(t.tracks().name(id))) + " | " +
                        std::string(t.str(t.processes().name(t.tracks().process(id))));
  }
  return out;
}

// Describes the first difference between two models ("" when equal).
std::string ModelDiff(const Trace& a, const Trace& b) {
  if (a.slices().size() != b.slices().size()) {
    return "slices " + std::to_string(a.slices().size()) + " vs " + std::to_string(b.slices().size());
  }
  const auto ta = TrackNames(a), tb = TrackNames(b);
  for (const auto& [key, name] : ta) {
    auto it = tb.find(key);
    if (it == tb.end()) return "track " + name + " missing after the round trip (or changed kind/device)";
    if (it->second != name) return "track renamed: " + name + " -> " + it->second;
  }
  if (ta.size() != tb.size()) return "tracks " + std::to_string(ta.size()) + " vs " + std::to_string(tb.size());
  const auto sa = SlicesByTrack(a), sb = SlicesByTrack(b);
  for (const auto& [key, rows] : sa) {
    const auto& other = sb.at(key);
    if (rows.size() != other.size()) return "slice count differs on track " + ta.at(key);
    for (size_t i = 0; i < rows.size(); ++i) {
      if (rows[i] != other[i]) return "on " + ta.at(key) + ":\n  " + rows[i] + "\n  " + other[i];
    }
  }
  const auto fa = FlowSet(a), fb = FlowSet(b);
  if (fa != fb) {
    for (const std::string& f : fa) {
      if (!fb.count(f))
        return "flow lost: " + f + " (" + std::to_string(fa.size()) + " vs " + std::to_string(fb.size()) + ")";
    }
    for (const std::string& f : fb) {
      if (!fa.count(f)) return "flow added: " + f;
    }
  }
  if (a.instants().size() != b.instants().size()) return "instants differ";
  if (a.counters().size() != b.counters().size()) return "counter samples differ";
  return "";
}

std::array<uint64_t, kGpuKindCount> GpuKindCounts(const Trace& t) {
  std::array<uint64_t, kGpuKindCount> c{};
  for (GpuKind k : t.slices().gpu_kind()) ++c[static_cast<size_t>(k)];
  return c;
}

std::array<uint64_t, kTrackKindCount> TrackKindCounts(const Trace& t) {
  std::array<uint64_t, kTrackKindCount> c{};
  for (size_t i = 0; i < t.tracks().size(); ++i) ++c[static_cast<size_t>(t.tracks().kind(TrackId::FromIndex(i)))];
  return c;
}

Trace Demo(std::string_view scenario, demo::DemoStyle style, int steps, uint64_t seed = 1) {
  demo::DemoOptions o;
  o.scenario = std::string(scenario);
  o.style = style;
  o.steps = steps;
  o.seed = seed;
  auto t = demo::GenerateDemoTrace(o);
  EXPECT_TRUE(t.ok());
  return std::move(t.value());
}

// The comparison itself can fail: another seed moves every slice.
TEST(DemoRoundTrip, ModelDiffSeesDifferentTraces) {
  const Trace a = Demo("baseline", demo::DemoStyle::kTensorFlow, 1, 1);
  const Trace b = Demo("baseline", demo::DemoStyle::kTensorFlow, 1, 2);
  EXPECT_EQ(ModelDiff(a, a), "");
  EXPECT_NE(ModelDiff(a, b), "");
}

class DemoRoundTripTest : public ::testing::TestWithParam<std::tuple<std::string_view, demo::DemoStyle>> {};

TEST_P(DemoRoundTripTest, JsonLoadsBackIntoTheSameModel) {
  const auto [scenario, style] = GetParam();
  const Trace original = Demo(scenario, style, 3);
  const std::string json = exports::ChromeJsonText(original);
  auto loaded = loaders::LoadBytes(json, "demo.json");
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const Trace& back = loaded.value();
  EXPECT_EQ(back.diagnostics().total(), 0u) << back.diagnostics().NonEmpty().front()->instances.front().detail;
  EXPECT_EQ(back.slices().size(), original.slices().size());
  EXPECT_EQ(GpuKindCounts(back), GpuKindCounts(original));
  EXPECT_EQ(TrackKindCounts(back), TrackKindCounts(original));
  EXPECT_EQ(back.flows().size(), original.flows().size());
  EXPECT_EQ(ModelDiff(original, back), "");
}

INSTANTIATE_TEST_SUITE_P(AllScenarios, DemoRoundTripTest,
                         ::testing::Combine(::testing::Values("baseline", "small-batch", "input-bound", "preprocessing",
                                                              "h2d-copy", "inefficient-op", "post-processing", "sync"),
                                            ::testing::Values(demo::DemoStyle::kTensorFlow, demo::DemoStyle::kPyTorch)),
                         [](const auto& info) {
                           std::string name(std::get<0>(info.param));
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name + "_" + std::string(demo::DemoStyleName(std::get<1>(info.param)));
                         });

class DemoFileRoundTripTest : public ::testing::TestWithParam<std::string_view> {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("stepline_demo_rt_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

TEST_P(DemoFileRoundTripTest, CompressedFileLoadsBackTheSame) {
  const Trace original = Demo("sync", demo::DemoStyle::kPyTorch, 2);
  const std::string path = (dir_ / ("demo.json" + std::string(GetParam()))).string();
  auto written = exports::WriteChromeJsonFile(original, path);
  ASSERT_TRUE(written.ok()) << written.error();
  auto loaded = loaders::LoadFile(path);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  EXPECT_EQ(loaded.value().info().compression, written.value().compression);
  EXPECT_EQ(loaded.value().info().input_bytes, written.value().json_bytes);
  EXPECT_EQ(ModelDiff(original, loaded.value()), "");
}

INSTANTIATE_TEST_SUITE_P(Extensions, DemoFileRoundTripTest, ::testing::Values("", ".gz", ".zst"), [](const auto& info) {
  return info.param.empty() ? std::string("plain") : std::string(info.param.substr(1));
});

}  // namespace
}  // namespace stepline::demo
