// The XSpace loader's fast paths give the same model as the plain ones: the
// decode worker (threads 2) against the inline path (threads 1), compared
// column by column on a multi-plane synthetic profile; and the hand-written
// metadata decoder against libprotobuf's encoding of the same entries
// (repeated `value` merges, wrong wire types skipped, errors at the bad byte).
#include <gtest/gtest.h>

#include <string>

#include "loaders/byte_source.h"
#include "loaders/xspace/xspace_framing.h"
#include "loaders/xspace/xspace_loader.h"
#include "loaders/xspace/xspace_sizing.h"
#include "tests/bench/xspace_synthetic.h"
#include "tests/loaders/xspace_test_builder.h"
#include "tests/support/test_traces.h"

namespace stepline::testing {
namespace {

using loaders::LoadOptions;

Trace LoadOrDie(const std::string& bytes, const LoadOptions& options) {
  auto result = loaders::LoadXSpaceBytes(bytes, "synthetic.xplane.pb", options);
  if (!result.ok()) ADD_FAILURE() << result.error().ToString();
  return std::move(result).value();
}

// Every column of every table, the string pool, diagnostics and info.
void ExpectSameModel(const Trace& a, const Trace& b) {
  ASSERT_EQ(a.strings().size(), b.strings().size());
  for (uint32_t i = 0; i < a.strings().size(); ++i) ASSERT_EQ(a.str(StringId(i)), b.str(StringId(i))) << i;

  ASSERT_EQ(a.processes().size(), b.processes().size());
  for (size_t i = 0; i < a.processes().size(); ++i) {
    const ProcessId p = ProcessId::FromIndex(i);
    EXPECT_EQ(a.processes().pid(p), b.processes().pid(p));
    EXPECT_EQ(a.processes().name(p), b.processes().name(p));
    EXPECT_EQ(a.processes().sort_index(p), b.processes().sort_index(p));
    EXPECT_EQ(a.processes().device_id(p), b.processes().device_id(p));
  }

  ASSERT_EQ(a.tracks().size(), b.tracks().size());
  for (size_t i = 0; i < a.tracks().size(); ++i) {
    const TrackId t = TrackId::FromIndex(i);
    EXPECT_EQ(a.tracks().kind(t), b.tracks().kind(t));
    EXPECT_EQ(a.tracks().process(t), b.tracks().process(t));
    EXPECT_EQ(a.tracks().tid(t), b.tracks().tid(t));
    EXPECT_EQ(a.tracks().name(t), b.tracks().name(t));
    EXPECT_EQ(a.tracks().sort_index(t), b.tracks().sort_index(t));
    EXPECT_EQ(a.tracks().device_id(t), b.tracks().device_id(t));
    EXPECT_EQ(a.tracks().category(t), b.tracks().category(t));
    const auto &ra = a.tracks().ranges(t), &rb = b.tracks().ranges(t);
    EXPECT_EQ(ra.slice_begin, rb.slice_begin);
    EXPECT_EQ(ra.slice_end, rb.slice_end);
    EXPECT_EQ(ra.instant_begin, rb.instant_begin);
    EXPECT_EQ(ra.instant_end, rb.instant_end);
    EXPECT_EQ(ra.counter_begin, rb.counter_begin);
    EXPECT_EQ(ra.counter_end, rb.counter_end);
    EXPECT_EQ(ra.max_depth, rb.max_depth);
  }

  const SliceTable &sa = a.slices(), &sb = b.slices();
  ASSERT_EQ(sa.size(), sb.size());
  for (size_t i = 0; i < sa.size(); ++i) {
    ASSERT_EQ(sa.track()[i], sb.track()[i]) << i;
    ASSERT_EQ(sa.start_ns()[i], sb.start_ns()[i]) << i;
    ASSERT_EQ(sa.dur_ns()[i], sb.dur_ns()[i]) << i;
    ASSERT_EQ(sa.name()[i], sb.name()[i]) << i;
    ASSERT_EQ(sa.category()[i], sb.category()[i]) << i;
    ASSERT_EQ(sa.arg_set()[i], sb.arg_set()[i]) << i;
    ASSERT_EQ(sa.gpu_kind()[i], sb.gpu_kind()[i]) << i;
    ASSERT_EQ(sa.depth()[i], sb.depth()[i]) << i;
    ASSERT_EQ(sa.parent()[i], sb.parent()[i]) << i;
  }

  ASSERT_EQ(a.instants().size(), b.instants().size());
  for (size_t i = 0; i < a.instants().size(); ++i) {
    ASSERT_EQ(a.instants().track()[i], b.instants().track()[i]);
    ASSERT_EQ(a.instants().ts_ns()[i], b.instants().ts_ns()[i]);
    ASSERT_EQ(a.instants().name()[i], b.instants().name()[i]);
    ASSERT_EQ(a.instants().category()[i], b.instants().category()[i]);
    ASSERT_EQ(a.instants().arg_set()[i], b.instants().arg_set()[i]);
  }
  ASSERT_EQ(a.counters().size(), b.counters().size());
  for (size_t i = 0; i < a.counters().size(); ++i) {
    ASSERT_EQ(a.counters().track()[i], b.counters().track()[i]);
    ASSERT_EQ(a.counters().ts_ns()[i], b.counters().ts_ns()[i]);
    ASSERT_EQ(a.counters().value()[i], b.counters().value()[i]);
  }
  ASSERT_EQ(a.flows().size(), b.flows().size());
  for (size_t i = 0; i < a.flows().size(); ++i) {
    ASSERT_EQ(a.flows().from()[i], b.flows().from()[i]);
    ASSERT_EQ(a.flows().to()[i], b.flows().to()[i]);
    ASSERT_EQ(a.flows().kind()[i], b.flows().kind()[i]);
    ASSERT_EQ(a.flows().name()[i], b.flows().name()[i]);
    ASSERT_EQ(a.flows().category()[i], b.flows().category()[i]);
    ASSERT_EQ(a.flows().flow_id()[i], b.flows().flow_id()[i]);
  }

  const ArgTable &aa = a.args(), &ab = b.args();
  ASSERT_EQ(aa.set_count(), ab.set_count());
  ASSERT_EQ(aa.size(), ab.size());
  for (size_t s = 0; s < aa.set_count(); ++s) {
    ASSERT_EQ(aa.set_begin(ArgSetId::FromIndex(s)), ab.set_begin(ArgSetId::FromIndex(s)));
    ASSERT_EQ(aa.set_end(ArgSetId::FromIndex(s)), ab.set_end(ArgSetId::FromIndex(s)));
  }
  for (size_t r = 0; r < aa.size(); ++r) {
    ASSERT_EQ(aa.key()[r], ab.key()[r]) << r;
    ASSERT_EQ(aa.value(static_cast<uint32_t>(r)).type, ab.value(static_cast<uint32_t>(r)).type) << r;
    ASSERT_EQ(aa.value(static_cast<uint32_t>(r)).bits, ab.value(static_cast<uint32_t>(r)).bits) << r;
  }

  for (int code = 0; code < kDiagCodeCount; ++code) {
    EXPECT_EQ(a.diagnostics().count(static_cast<DiagCode>(code)), b.diagnostics().count(static_cast<DiagCode>(code)));
  }
  EXPECT_EQ(a.info().metadata, b.info().metadata);
  EXPECT_EQ(a.info().display_origin_ns, b.info().display_origin_ns);
  EXPECT_EQ(a.info().wall_clock_origin_ns, b.info().wall_clock_origin_ns);
  EXPECT_EQ(a.span().start_ns, b.span().start_ns);
  EXPECT_EQ(a.span().end_ns, b.span().end_ns);
}

// ~2 MB: a host plane, 3 GPU planes, several decode chunks per host line.
std::string SmallSynthetic() {
  bench::SyntheticXSpaceOptions options;
  options.target_bytes = 2'000'000;
  options.gpus = 3;
  options.host_threads = 4;
  return bench::MakeSyntheticXSpace(options);
}

TEST(XSpaceParallel, DecodeWorkerGivesTheSameModelAsOneThread) {
  const std::string bytes = SmallSynthetic();
  LoadOptions one, two;
  one.threads = 1;
  two.threads = 2;
  const Trace a = LoadOrDie(bytes, one);
  const Trace b = LoadOrDie(bytes, two);
  // The profile is what the generator promises: every kernel has its launch.
  const uint64_t launches = 2'000'000 / 173 / 4 * 4;
  EXPECT_EQ(a.flows().size(), launches);
  EXPECT_GT(a.slices().size(), 2 * launches);
  EXPECT_GT(a.args().size(), 4 * launches);
  ExpectSameModel(a, b);
}

TEST(XSpaceParallel, DecodeWorkerGivesTheSameModelWithoutArgs) {
  const std::string bytes = SmallSynthetic();
  LoadOptions one, two;
  one.threads = 1;
  one.keep_args = false;
  two.threads = 2;
  two.keep_args = false;
  const Trace a = LoadOrDie(bytes, one);
  const Trace b = LoadOrDie(bytes, two);
  EXPECT_EQ(a.args().size(), 0u);
  ExpectSameModel(a, b);
}

// The sizing pass that reserves the tables counts exactly what the load
// appends (every synthetic event is a slice, every stat an arg), on one
// thread or split over two.
TEST(XSpaceParallel, SizingPassCountsWhatTheLoadBuilds) {
  bench::SyntheticXSpaceOptions options;
  options.target_bytes = 20'000'000;  // above the two-thread threshold
  options.gpus = 2;
  const std::string bytes = bench::MakeSyntheticXSpace(options);
  auto framing = loaders::xspace::WalkXSpace(bytes, "synthetic");
  ASSERT_TRUE(framing.ok());
  const auto one = loaders::xspace::MeasureXSpace(bytes.data(), framing->planes, true, 1);
  const auto two = loaders::xspace::MeasureXSpace(bytes.data(), framing->planes, true, 2);
  const auto no_args = loaders::xspace::MeasureXSpace(bytes.data(), framing->planes, false, 2);
  const Trace t = LoadOrDie(bytes, LoadOptions{});
  EXPECT_EQ(one.events, t.slices().size());
  // Exact for the events; plus one row per plane and one for hostnames
  // (the synthetic profile has neither plane stats nor hostnames).
  EXPECT_EQ(one.arg_rows, t.args().size() + framing->planes.size() + 1);
  EXPECT_EQ(two.events, one.events);
  EXPECT_EQ(two.arg_rows, one.arg_rows);
  EXPECT_EQ(no_args.events, one.events);
  EXPECT_EQ(no_args.arg_rows, 0u);
}

// The estimate is an upper bound on every shared real profile, so the arg
// table never doubles at its last rows (trace metadata comes last).
TEST(XSpaceParallel, SizingPassBoundsRealProfiles) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  for (const char* name :
       {"xprof/GPU-multi-worker_34.83.195.179_6003.xplane.pb", "tracelens/jax08_conv_mi300.xplane.pb",
        "tracelens/jax08_gemm_mi300.xplane.pb", "tracelens/jax_conv_minimal_legacy_mi300.xplane.pb"}) {
    const std::string path = SharedTracePath(name);
    auto input = loaders::OpenInput(path, nullptr);
    ASSERT_TRUE(input.ok()) << path;
    const std::string_view bytes = input->bytes.view();
    auto framing = loaders::xspace::WalkXSpace(bytes, path);
    ASSERT_TRUE(framing.ok());
    const auto size = loaders::xspace::MeasureXSpace(bytes.data(), framing->planes, true, 1);
    const Trace t = LoadOrDie(std::string(bytes), LoadOptions{});
    EXPECT_EQ(size.events, t.slices().size() + t.instants().size() + t.counters().size()) << name;
    EXPECT_GE(size.arg_rows, t.args().size()) << name;
    EXPECT_LE(size.arg_rows, t.args().size() + framing->planes.size() + 1) << name;
  }
}

// Metadata args (long_name, metadata stats) count once per event that uses them.
TEST(XSpaceParallel, SizingPassCountsMetadataArgs) {
  xs::XSpace space;
  PlaneBuilder host(&space, 1, "/host:CPU");
  const int64_t note = host.StatMd("note");
  const int64_t op = host.EventMd("long op name", "op");  // + long_name
  PlaneBuilder::Stat(host.MutableEventMd(op)->mutable_stats(), note)->set_int64_value(1);
  xs::XLine* line = host.Line(1, "thread");
  for (int i = 0; i < 3; ++i) {
    auto* e = PlaneBuilder::Event(line, op, i * 1000, 500);
    PlaneBuilder::Stat(e->mutable_stats(), note)->set_int64_value(i);
  }
  const std::string bytes = Serialize(space);
  auto framing = loaders::xspace::WalkXSpace(bytes, "space");
  ASSERT_TRUE(framing.ok());
  const auto size = loaders::xspace::MeasureXSpace(bytes.data(), framing->planes, true, 1);
  EXPECT_EQ(size.events, 3u);
  // Per event: long_name, the metadata's note, its own note; plus the bound's
  // one row for the plane and one for hostnames.
  EXPECT_EQ(size.arg_rows, 9u + 2u);
  EXPECT_EQ(LoadOrDie(bytes, LoadOptions{}).args().size(), 9u);
}

TEST(XSpaceParallel, SyntheticProfileIsDeterministic) { EXPECT_EQ(SmallSynthetic(), SmallSynthetic()); }

// --- Metadata entries, decoded by hand ---------------------------------------

std::string EntryBytes(const google::protobuf::MessageLite& entry) {
  std::string out;
  entry.SerializeToString(&out);
  return out;
}

// One host plane whose event metadata entry 1 is `entry_bytes`, used by one event.
std::string SpaceWithEventEntry(const std::string& entry_bytes) {
  xs::XSpace space;
  PlaneBuilder host(&space, 1, "/host:CPU");
  host.StatMd("note");
  PlaneBuilder::Event(host.Line(1, "thread"), 1, 0, 1000);
  std::string plane_tail;  // event_metadata (field 4) appended after the rest of the plane
  bench::synth_detail::BytesField(&plane_tail, 4, entry_bytes);
  std::string plane;
  host.plane()->SerializeToString(&plane);
  plane += plane_tail;
  std::string out;
  bench::synth_detail::BytesField(&out, 1, plane);
  return out;
}

TEST(XSpaceMetadata, RepeatedValueMergesAsProtobufDoes) {
  xs::EventMetadataEntry first, second;
  first.set_key(1);
  first.mutable_value()->set_name("old name");
  auto* s1 = first.mutable_value()->add_stats();
  s1->set_metadata_id(1);
  s1->set_int64_value(7);
  second.mutable_value()->set_name("new name");
  auto* s2 = second.mutable_value()->add_stats();
  s2->set_metadata_id(1);
  s2->set_str_value("x");
  // Concatenated messages merge: key from the first, name from the last, stats appended.
  const std::string bytes = SpaceWithEventEntry(EntryBytes(first) + EntryBytes(second));
  xs::EventMetadataEntry merged;
  ASSERT_TRUE(merged.ParseFromString(EntryBytes(first) + EntryBytes(second)));
  ASSERT_EQ(merged.value().name(), "new name");
  ASSERT_EQ(merged.value().stats_size(), 2);

  const Trace t = LoadOrDie(bytes, LoadOptions{});
  ASSERT_EQ(t.slices().size(), 1u);
  EXPECT_EQ(t.str(t.slices().name()[0]), "new name");
  EXPECT_EQ(ArgStrings(t, t.slices().arg_set()[0]), (std::vector<std::string>{"note=7", "note=x"}));
}

TEST(XSpaceMetadata, FieldOfAnotherWireTypeIsSkippedAsUnknown) {
  std::string value, entry;
  namespace w = bench::synth_detail;
  w::VarintField(&value, 2, 12345);  // "name" as a varint: protobuf keeps it as an unknown field
  w::BytesField(&value, 4, "shown");
  w::VarintField(&entry, 1, 1);
  w::BytesField(&entry, 2, value);
  xs::EventMetadataEntry parsed;
  ASSERT_TRUE(parsed.ParseFromString(entry));
  ASSERT_EQ(parsed.value().name(), "");

  const Trace t = LoadOrDie(SpaceWithEventEntry(entry), LoadOptions{});
  ASSERT_EQ(t.slices().size(), 1u);
  EXPECT_EQ(t.str(t.slices().name()[0]), "shown");
}

TEST(XSpaceMetadata, MalformedStatInsideAnEntryFailsAtItsByte) {
  std::string stat, value, entry;
  namespace w = bench::synth_detail;
  w::VarintField(&stat, 1, 1);
  stat += "\x18\xFF";  // uint64_value whose varint runs past the end of the stat
  w::BytesField(&value, 2, "op");
  w::BytesField(&value, 5, stat);
  w::VarintField(&entry, 1, 1);
  w::BytesField(&entry, 2, value);
  xs::EventMetadataEntry parsed;
  ASSERT_FALSE(parsed.ParseFromString(entry));  // libprotobuf rejects it too

  const std::string bytes = SpaceWithEventEntry(entry);
  auto result = loaders::LoadXSpaceBytes(bytes, "bad.xplane.pb");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().code, loaders::LoadErrorCode::kProtobufInvalid);
  // The varint starts at the last byte of the file.
  EXPECT_EQ(result.error().byte_offset, bytes.size() - 1);
  EXPECT_NE(result.error().message.find("XPlane.event_metadata entry at byte"), std::string::npos)
      << result.error().message;
}

}  // namespace
}  // namespace stepline::testing
