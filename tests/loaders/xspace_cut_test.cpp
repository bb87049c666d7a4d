// A small XSpace (libprotobuf-encoded) cut at every byte: each prefix loads
// every complete event before the cut, with a kTruncated diagnostic naming
// the cut, or, when nothing precedes it, fails with a clean error. Lengths
// rewritten by the repair keep every byte offset where it was.
#include <gtest/gtest.h>

#include <set>

#include "loaders/load.h"
#include "loaders/proto_wire/wire_reader.h"
#include "loaders/xspace/xspace_loader.h"
#include "tests/loaders/xspace_test_builder.h"

namespace stepline::testing {
namespace {

std::string TwoPlaneSpace() {
  xs::XSpace space;
  PlaneBuilder host(&space, 1, "/host:CPU");
  const int64_t step = host.StatMd("step_num");
  const int64_t run = host.EventMd("Run");
  const int64_t op = host.EventMd("Op");
  for (int line = 0; line < 2; ++line) {
    xs::XLine* l = host.Line(10 + line, "thread " + std::to_string(line), 1'000);
    for (int i = 0; i < 6; ++i) {
      xs::XEvent* e = PlaneBuilder::Event(l, i % 2 ? op : run, i * 10'000, 5'000);
      PlaneBuilder::Stat(e->mutable_stats(), step)->set_int64_value(i);
    }
  }
  PlaneBuilder gpu(&space, 2, "/device:GPU:0");
  const int64_t kernel = gpu.EventMd("kernel");
  xs::XLine* stream = gpu.Line(7, "Stream #7", 1'000);
  for (int i = 0; i < 5; ++i) PlaneBuilder::Event(stream, kernel, i * 20'000, 7'000);
  space.add_hostnames("host-a");
  return Serialize(space);
}

size_t Rows(const Trace& t) { return t.slices().size() + t.instants().size() + t.counters().size(); }

TEST(XSpaceCut, EveryPrefixLoadsWhatPrecedesTheCut) {
  const std::string whole = TwoPlaneSpace();
  auto full = loaders::LoadBytes(whole, "whole.xplane.pb");
  ASSERT_TRUE(full.ok()) << full.error().ToString();
  ASSERT_GE(full->slices().size(), 17u);  // 12 host events and 5 kernels, plus host step rows
  std::set<size_t> boundaries;  // ends of complete top-level fields
  {
    loaders::WireReader reader(whole.data(), whole.data() + whole.size(), 0);
    loaders::WireField f;
    while (!reader.done() && reader.Next(&f)) boundaries.insert(reader.offset());
  }
  ASSERT_GE(boundaries.size(), 3u);
  size_t loaded_some = 0;
  size_t previous_rows = 0;
  for (size_t cut = 1; cut < whole.size(); ++cut) {
    const std::string name = "cut@" + std::to_string(cut);
    auto r = loaders::LoadXSpaceBytes(std::string_view(whole).substr(0, cut), name);
    if (!r.ok()) {
      // Only a cut before the first plane's first complete field leaves nothing.
      EXPECT_EQ(r.error().code, loaders::LoadErrorCode::kProtobufInvalid) << name;
      EXPECT_NE(r.error().message.find("nothing before the cut"), std::string::npos) << r.error().message;
      EXPECT_EQ(loaded_some, 0u) << name << ": a longer prefix failed after a shorter one loaded";
      continue;
    }
    ++loaded_some;
    EXPECT_EQ(r->CheckInvariants(), "") << name;
    EXPECT_LE(r->slices().size(), full->slices().size()) << name;
    EXPECT_GE(Rows(*r), previous_rows) << name << ": a longer prefix lost events";
    previous_rows = Rows(*r);
    const auto& truncated = r->diagnostics().entry(DiagCode::kTruncated);
    if (boundaries.count(cut)) {
      // Between two top-level fields the prefix is a complete XSpace: nothing says it was cut.
      EXPECT_EQ(truncated.count, 0u) << name;
      continue;
    }
    ASSERT_EQ(truncated.count, 1u) << name;
    EXPECT_NE(truncated.instances[0].detail.find("ends at byte " + std::to_string(cut)), std::string::npos)
        << truncated.instances[0].detail;
  }
  EXPECT_GT(loaded_some, whole.size() / 2);
  EXPECT_EQ(previous_rows, Rows(*full)) << "the longest prefix (all but the last byte of hostnames) loads every event";
}

// Lines come before the metadata in a plane (libprotobuf writes fields in
// number order), so a cut inside the lines keeps the events but not their
// names; the diagnostic says so.
TEST(XSpaceCut, CutInsideLinesSaysTheNamesAreMissing) {
  const std::string whole = TwoPlaneSpace();
  const size_t cut = whole.find("thread 1") + 40;  // in the second host line's events
  ASSERT_LT(cut, whole.size());
  auto r = loaders::LoadXSpaceBytes(std::string_view(whole).substr(0, cut), "cut.xplane.pb");
  ASSERT_TRUE(r.ok()) << r.error().ToString();
  EXPECT_GE(r->slices().size() + r->instants().size(), 6u) << "the first line's events";
  const auto& truncated = r->diagnostics().entry(DiagCode::kTruncated);
  ASSERT_EQ(truncated.count, 1u);
  EXPECT_NE(truncated.instances[0].detail.find("have no names"), std::string::npos) << truncated.instances[0].detail;
  EXPECT_NE(truncated.instances[0].detail.find("XLine"), std::string::npos) << truncated.instances[0].detail;
}

}  // namespace
}  // namespace stepline::testing
