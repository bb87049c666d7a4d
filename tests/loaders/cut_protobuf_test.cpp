// Cut protobuf files: every shared .xplane.pb and .pftrace, cut at 20
// offsets, loads what precedes the cut with a kTruncated diagnostic that says
// where, and never more slices than the whole file. For XSpace the events the
// load must keep are counted here by a separate walk over the raw prefix.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "loaders/load.h"
#include "loaders/proto_wire/wire_reader.h"
#include "tests/support/test_traces.h"

namespace stepline::testing {
namespace {

constexpr int kCuts = 20;

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> SharedFiles(const std::string& suffix) {
  std::vector<std::string> out;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(SharedTracesDir())) {
    const std::string p = entry.path().string();
    if (p.ends_with(suffix) && p.find("/corrupt/") == std::string::npos) out.push_back(p);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// XEvents whose bytes end at or before `cut` (planes > lines > events),
// walked without the loader's code: the lower bound of what a cut load keeps.
uint64_t CompleteEventsBefore(std::string_view bytes, uint64_t cut) {
  using loaders::WireField;
  using loaders::WireReader;
  uint64_t events = 0;
  const auto walk = [&](const char* b, const char* e, uint64_t base, auto&& on_field) {
    WireReader r(b, e, base);
    WireField f;
    while (!r.done() && r.Next(&f)) on_field(f, r);
  };
  const char* data = bytes.data();
  walk(data, data + bytes.size(), 0, [&](const WireField& plane, WireReader&) {
    if (plane.number != 1 || plane.type != loaders::WireType::kLen) return;
    walk(plane.payload, plane.payload + plane.payload_size, plane.payload - data,
         [&](const WireField& line, WireReader&) {
           if (line.number != 3 || line.type != loaders::WireType::kLen) return;
           walk(line.payload, line.payload + line.payload_size, line.payload - data,
                [&](const WireField& event, WireReader&) {
                  if (event.number != 4 || event.type != loaders::WireType::kLen) return;
                  const uint64_t end = static_cast<uint64_t>(event.payload - data) + event.payload_size;
                  if (end > cut) return;
                  // Aggregated events (num_occurrences, field 5) are skipped by design.
                  WireReader er(event.payload, event.payload + event.payload_size, 0);
                  WireField ef;
                  bool aggregated = false;
                  while (!er.done() && er.Next(&ef)) aggregated |= ef.number == 5 && ef.type == loaders::WireType::kVarint;
                  if (!aggregated) ++events;
                });
         });
  });
  return events;
}

struct Loaded {
  size_t slices = 0, rows = 0;
};

Loaded CheckCut(const std::string& whole, uint64_t cut, const std::string& name) {
  auto r = loaders::LoadBytes(std::string_view(whole).substr(0, cut), name);
  EXPECT_TRUE(r.ok()) << name << " cut at " << cut << ": " << r.error().ToString();
  if (!r.ok()) return {};
  EXPECT_EQ(r->CheckInvariants(), "") << name << " cut at " << cut;
  const auto& truncated = r->diagnostics().entry(DiagCode::kTruncated);
  EXPECT_EQ(truncated.count, 1u) << name << " cut at " << cut;
  if (!truncated.instances.empty()) {
    const std::string& detail = truncated.instances[0].detail;
    EXPECT_NE(detail.find("ends at byte " + std::to_string(cut)), std::string::npos) << detail;
    EXPECT_NE(detail.find("dropped"), std::string::npos) << detail;
    EXPECT_LE(truncated.first_offset, cut);
  }
  EXPECT_EQ(r->info().input_bytes, cut);
  return Loaded{r->slices().size(), r->slices().size() + r->instants().size() + r->counters().size()};
}

TEST(CutProtobuf, EveryXSpaceCutAt20OffsetsLoadsTheCompleteEventsBeforeIt) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  const auto files = SharedFiles(".xplane.pb");
  ASSERT_FALSE(files.empty());
  for (const std::string& path : files) {
    const std::string whole = ReadAll(path);
    auto full = loaders::LoadBytes(whole, path);
    ASSERT_TRUE(full.ok()) << full.error().ToString();
    for (int k = 1; k <= kCuts; ++k) {
      const uint64_t cut = whole.size() * k / (kCuts + 1);
      const Loaded got = CheckCut(whole, cut, path);
      EXPECT_LE(got.slices, full->slices().size()) << path << " cut at " << cut;
      // Each complete event is a slice, an instant or a counter sample
      // (plus the host "Steps" rows a cut file may derive from host markers).
      EXPECT_GE(got.rows, CompleteEventsBefore(whole, cut)) << path << " cut at " << cut;
    }
  }
}

TEST(CutProtobuf, EveryPerfettoCutAt20OffsetsLoadsThePacketsBeforeIt) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  const auto files = SharedFiles(".pftrace");
  ASSERT_FALSE(files.empty());
  for (const std::string& path : files) {
    const std::string whole = ReadAll(path);
    auto full = loaders::LoadBytes(whole, path);
    ASSERT_TRUE(full.ok()) << full.error().ToString();
    size_t previous = 0;
    for (int k = 1; k <= kCuts; ++k) {
      const uint64_t cut = whole.size() * k / (kCuts + 1);
      const Loaded got = CheckCut(whole, cut, path);
      EXPECT_LE(got.slices, full->slices().size()) << path << " cut at " << cut;
      // A longer prefix holds every begin and complete event of a shorter one.
      EXPECT_GE(got.slices, previous) << path << " cut at " << cut;
      previous = got.slices;
    }
    EXPECT_GT(previous, full->slices().size() / 2) << path;
  }
}

}  // namespace
}  // namespace stepline::testing
