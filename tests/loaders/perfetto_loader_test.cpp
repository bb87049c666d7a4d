// The Perfetto loader on packets built here with a tiny encoder
// (perfetto_test_encoder.h): nesting, interning across packets and clears,
// counters, track parents, args, flows, clocks, compression, truncation and
// corrupt bytes.
#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <string>
#include <vector>

#include "loaders/load.h"
#include "loaders/perfetto/perfetto_loader.h"
#include "loaders/trace_builder.h"
#include "tests/loaders/perfetto_test_encoder.h"

namespace stepline::testing {
namespace {

using namespace pftest;  // NOLINT: the encoder's vocabulary reads as the trace

Trace Load(const std::string& bytes) {
  auto r = loaders::LoadPerfettoBytes(bytes, "test.pftrace");
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().ToString());
  return std::move(r).value();
}

TrackId TrackNamed(const Trace& t, std::string_view name) {
  for (size_t i = 0; i < t.tracks().size(); ++i) {
    if (t.str(t.tracks().name(TrackId::FromIndex(i))) == name) return TrackId::FromIndex(i);
  }
  return TrackId::None();
}

// Slices as "name start+dur@depth", in the model's sorted order.
std::vector<std::string> Slices(const Trace& t) {
  std::vector<std::string> out;
  const SliceTable& s = t.slices();
  for (size_t i = 0; i < s.size(); ++i) {
    out.push_back(std::string(t.str(s.name()[i])) + " " + std::to_string(s.start_ns()[i]) + "+" +
                  std::to_string(s.dur_ns()[i]) + "@" + std::to_string(s.depth()[i]));
  }
  return out;
}

const Msg kProcess = ProcessTrack(1, 10, "renderer");
const Msg kThread = ThreadTrack(2, 1, 10, 11, "main");

TEST(PerfettoLoader, NestedSlicesOnAThreadTrack) {
  const Trace t = Load(TraceOf({kProcess, kThread, WithEvent(Packet(1, 100), Begin(2, "outer")),
                                WithEvent(Packet(1, 150), Begin(2, "inner")), WithEvent(Packet(1, 180), End(2)),
                                WithEvent(Packet(1, 300), End(2))}));
  EXPECT_EQ(t.CheckInvariants(), "");
  EXPECT_EQ(t.info().format, "perfetto");
  EXPECT_EQ(Slices(t), (std::vector<std::string>{"outer 100+200@0", "inner 150+30@1"}));
  ASSERT_EQ(t.tracks().size(), 1u);
  const TrackId main = TrackId::FromIndex(0);
  EXPECT_EQ(t.tracks().kind(main), TrackKind::kHostThread);
  EXPECT_EQ(t.str(t.tracks().name(main)), "main");
  EXPECT_EQ(t.tracks().tid(main), 11);
  EXPECT_EQ(t.processes().pid(t.tracks().process(main)), 10);
  EXPECT_EQ(t.str(t.processes().name(t.tracks().process(main))), "renderer");
  EXPECT_EQ(t.slices().parent()[1], SliceId::FromIndex(0));
  EXPECT_TRUE(t.diagnostics().empty());
}

// Interned names and categories hold across packets of one sequence, and a
// clear (sequence_flags 1) replaces them; a packet that needs state on a
// sequence that never cleared is skipped.
TEST(PerfettoLoader, InternedNamesAcrossPacketsAndIncrementalClear) {
  const auto interned = [](std::string_view name) {
    return Msg().Sub(2, Msg().Varint(1, 1).Bytes(2, name)).Sub(1, Msg().Varint(1, 7).Bytes(2, "cat"));
  };
  const Msg by_iid = Msg().Varint(9, 1).Varint(11, 2).Varint(10, 1).Varint(3, 7);
  const Trace t = Load(TraceOf({
      kProcess, kThread,
      Packet(1, 0).Varint(13, 1).Sub(12, interned("alpha")),
      WithEvent(Packet(1, 10), by_iid).Varint(13, 2),
      WithEvent(Packet(1, 20), End(2)).Varint(13, 2),
      Packet(1, 25).Varint(13, 1).Sub(12, interned("beta")),
      WithEvent(Packet(1, 30), by_iid).Varint(13, 2),
      WithEvent(Packet(1, 40), End(2)).Varint(13, 2),
      WithEvent(Packet(2, 50), by_iid).Varint(13, 2),  // sequence 2 never cleared
  }));
  EXPECT_EQ(Slices(t), (std::vector<std::string>{"alpha 10+10@0", "beta 30+10@0"}));
  EXPECT_EQ(t.str(t.slices().category()[0]), "cat");
  EXPECT_EQ(t.diagnostics().count(DiagCode::kProducerWarning), 1u);
}

TEST(PerfettoLoader, CountersPlainIncrementalAndExtra) {
  const Trace t = Load(TraceOf({
      kProcess, kThread, CounterTrack(5, 1, "memory"), CounterTrack(6, 2, "", 1000, /*incremental=*/true, /*builtin_type=*/1),
      WithEvent(Packet(1, 10), Counter(5, 3)),
      WithEvent(Packet(1, 20), Msg().Varint(9, 4).Varint(11, 5).Double(44, 2.5)),
      // A slice carrying two extra samples of the incremental counter.
      WithEvent(Packet(1, 30), Begin(2, "work").Varint(31, 6).Varint(12, 1)),
      WithEvent(Packet(1, 40), End(2).Varint(31, 6).Varint(12, 2)),
  }));
  EXPECT_EQ(t.CheckInvariants(), "");
  const TrackId memory = TrackNamed(t, "memory");
  const TrackId thread_time = TrackNamed(t, "main thread time");
  ASSERT_FALSE(memory.is_none());
  ASSERT_FALSE(thread_time.is_none());
  EXPECT_EQ(t.tracks().kind(memory), TrackKind::kCounter);
  EXPECT_EQ(t.processes().pid(t.tracks().process(thread_time)), 10);
  std::vector<std::string> samples;
  for (size_t i = 0; i < t.counters().size(); ++i) {
    samples.push_back(std::string(t.str(t.tracks().name(t.counters().track()[i]))) + "@" +
                      std::to_string(t.counters().ts_ns()[i]) + "=" + std::to_string(t.counters().value()[i]));
  }
  std::sort(samples.begin(), samples.end());
  EXPECT_EQ(samples, (std::vector<std::string>{"main thread time@30=1000.000000", "main thread time@40=3000.000000",
                                               "memory@10=3.000000", "memory@20=2.500000"}));
}

// Async tracks: one under a process (via parent_uuid), one global and unnamed
// (named after its first event); an undescribed uuid is reported.
TEST(PerfettoLoader, AsyncTracksWithAndWithoutParent) {
  const Trace t = Load(TraceOf({
      kProcess, NamedTrack(20, 1, "frames"), NamedTrack(21, 0, ""),
      WithEvent(Packet(1, 10), Begin(20, "frame 1")), WithEvent(Packet(1, 20), End(20)),
      WithEvent(Packet(1, 30), Begin(21, "global work")), WithEvent(Packet(1, 40), End(21)),
      WithEvent(Packet(1, 50), Instant(99, "lost")),
  }));
  const TrackId frames = TrackNamed(t, "frames");
  const TrackId global = TrackNamed(t, "global work");
  ASSERT_FALSE(frames.is_none());
  ASSERT_FALSE(global.is_none());
  EXPECT_EQ(t.tracks().kind(frames), TrackKind::kAsync);
  EXPECT_EQ(t.processes().pid(t.tracks().process(frames)), 10);
  EXPECT_EQ(t.tracks().kind(global), TrackKind::kAsync);
  EXPECT_EQ(t.processes().pid(t.tracks().process(global)), loaders::kGlobalPid);
  EXPECT_EQ(t.str(t.processes().name(t.tracks().process(global))), "Global");
  EXPECT_EQ(t.instants().size(), 1u);
  EXPECT_EQ(t.diagnostics().count(DiagCode::kMissingField), 1u);  // uuid 99 has no descriptor
}

TEST(PerfettoLoader, DebugAnnotationsBecomeArgs) {
  const Msg dict = Msg().Bytes(10, "shape").Sub(11, IntArg("w", 4)).Sub(11, IntArg("h", 3));
  const Msg array = Msg().Bytes(10, "ids").Sub(12, Msg().Varint(3, 7)).Sub(12, Msg().Varint(3, 8));
  const Msg interned_name = Msg().Varint(1, 5).Varint(2, 1);  // name_iid 5, bool true
  const Trace t = Load(TraceOf({
      kProcess, kThread, Packet(1, 0).Varint(13, 1).Sub(12, Msg().Sub(3, Msg().Varint(1, 5).Bytes(2, "ready"))),
      WithEvent(Packet(1, 10), Begin(2, "op")
                                   .Sub(4, IntArg("n", -5))
                                   .Sub(4, StringArg("s", "x"))
                                   .Sub(4, Msg().Bytes(10, "d").Double(5, 0.5))
                                   .Sub(4, interned_name)
                                   .Sub(4, dict)
                                   .Sub(4, array)),
      WithEvent(Packet(1, 20), End(2).Sub(4, IntArg("end", 1))),
  }));
  ASSERT_EQ(t.slices().size(), 1u);
  const ArgTable& args = t.args();
  const ArgSetId set = t.slices().arg_set()[0];
  std::vector<std::string> got;
  for (uint32_t r = args.set_begin(set); r < args.set_end(set); ++r) {
    const ArgValue v = args.value(r);
    std::string value = v.type == ArgType::kString ? std::string(t.str(v.as_string()))
                        : v.type == ArgType::kDouble ? std::to_string(v.as_double())
                        : v.type == ArgType::kBool   ? (v.as_bool() ? "true" : "false")
                        : v.type == ArgType::kUint   ? std::to_string(v.as_uint())
                                                     : std::to_string(v.as_int());
    got.push_back(std::string(t.str(args.key()[r])) + "=" + value);
  }
  // END's args first (TraceBuilder::EndSlice), then BEGIN's in file order.
  EXPECT_EQ(got, (std::vector<std::string>{"end=1", "n=-5", "s=x", "d=0.500000", "ready=true", "shape.w=4", "shape.h=3",
                                           "ids[0]=7", "ids[1]=8"}));
}

// A flow from an instant on one sequence to a slice on another; the slice's
// packet comes first in the file, the link follows time.
TEST(PerfettoLoader, FlowsLinkInTimeOrderAcrossSequences) {
  const Trace t = Load(TraceOf({
      kProcess, kThread, ThreadTrack(3, 1, 10, 12, "worker"),
      WithEvent(Packet(2, 20), Begin(3, "run task").Varint(42, 77)),  // terminating_flow_ids (old form)
      WithEvent(Packet(2, 30), End(3)),
      WithEvent(Packet(1, 10), Instant(2, "post task").Fixed64(47, 77)),  // flow_ids
  }));
  EXPECT_EQ(t.CheckInvariants(), "");
  ASSERT_EQ(t.flows().size(), 1u);
  EXPECT_EQ(t.str(t.slices().name()[t.flows().from()[0].index()]), "post task");
  EXPECT_EQ(t.str(t.slices().name()[t.flows().to()[0].index()]), "run task");
  EXPECT_EQ(t.flows().flow_id()[0], 77u);
  EXPECT_EQ(t.instants().size(), 0u);  // the instant with a flow is a zero-length slice
  EXPECT_TRUE(t.diagnostics().empty());
}

// Clock 3 through a global snapshot; sequence clock 64 (incremental, in us)
// through its own snapshot, anchored on BOOTTIME.
TEST(PerfettoLoader, TimestampsConvertThroughClockSnapshots) {
  const auto clock = [](uint64_t id, uint64_t ts, uint64_t multiplier = 1, bool incremental = false) {
    Msg c;
    c.Varint(1, id).Varint(2, ts);
    if (incremental) c.Varint(3, 1);
    if (multiplier != 1) c.Varint(4, multiplier);
    return c;
  };
  const Trace t = Load(TraceOf({
      kProcess, kThread, ThreadTrack(3, 1, 10, 12, "worker"),
      Msg().Varint(10, 9).Sub(6, Msg().Sub(1, clock(6, 1000)).Sub(1, clock(3, 0))),
      WithEvent(Packet(9, 50).Varint(58, 3), Instant(3, "on monotonic")),
      Msg().Varint(10, 1).Varint(13, 1)
          .Sub(6, Msg().Sub(1, clock(6, 1'000'000)).Sub(1, clock(64, 500, 1000, true)))
          .Sub(59, Msg().Varint(58, 64)),
      WithEvent(Packet(1, 2), Begin(2, "us")).Varint(13, 2),
      WithEvent(Packet(1, 3), End(2)).Varint(13, 2),
  }));
  EXPECT_EQ(Slices(t), (std::vector<std::string>{"us 1002000+3000@0"}));
  ASSERT_EQ(t.instants().size(), 1u);
  EXPECT_EQ(t.instants().ts_ns()[0], 1050);
}

TEST(PerfettoLoader, CompressedPacketsAreInflated) {
  const std::string inner = TraceOf({WithEvent(Packet(1, 10), Begin(2, "zipped")), WithEvent(Packet(1, 20), End(2))});
  uLongf size = compressBound(inner.size());
  std::string deflated(size, '\0');
  ASSERT_EQ(compress2(reinterpret_cast<Bytef*>(deflated.data()), &size,
                      reinterpret_cast<const Bytef*>(inner.data()), inner.size(), 6), Z_OK);
  deflated.resize(size);
  const Trace t = Load(TraceOf({kProcess, kThread, Msg().Varint(10, 1).Bytes(50, deflated)}));
  EXPECT_EQ(Slices(t), (std::vector<std::string>{"zipped 10+10@0"}));

  auto bad = loaders::LoadPerfettoBytes(TraceOf({Msg().Varint(10, 1).Bytes(50, "not deflate")}), "bad.pftrace");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, loaders::LoadErrorCode::kDecompressFailed);
}

// A file cut inside its last packet keeps the packets before the cut.
TEST(PerfettoLoader, TruncatedFileKeepsThePacketsBeforeTheCut) {
  const std::string head = TraceOf({kProcess, kThread, WithEvent(Packet(1, 10), Begin(2, "kept")),
                                    WithEvent(Packet(1, 20), End(2))});
  const std::string full = head + TraceOf({WithEvent(Packet(1, 30), Begin(2, "cut off"))});
  const Trace t = Load(full.substr(0, full.size() - 3));
  EXPECT_EQ(Slices(t), (std::vector<std::string>{"kept 10+10@0"}));
  const auto& truncated = t.diagnostics().entry(DiagCode::kTruncated);
  EXPECT_EQ(truncated.count, 1u);
  EXPECT_EQ(truncated.first_offset, head.size());  // the tag of the cut packet
}

// A corrupt byte inside a TrackEvent is an error naming its offset.
TEST(PerfettoLoader, CorruptByteIsAnErrorWithItsOffset) {
  std::string bytes = TraceOf({kProcess, kThread, WithEvent(Packet(1, 10), Begin(2, "victim"))});
  const size_t at = bytes.find("victim") - 3;  // the tag of TrackEvent.name: field 23, wire type 2 = BA 01
  ASSERT_EQ(static_cast<unsigned char>(bytes[at]), 0xBAu);
  bytes[at] = static_cast<char>(0xBF);  // wire type 7
  auto r = loaders::LoadBytes(bytes, "corrupt.pftrace");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, loaders::LoadErrorCode::kProtobufInvalid);
  EXPECT_EQ(r.error().byte_offset, at);
  EXPECT_NE(r.error().message.find("TrackEvent"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("invalid wire type"), std::string::npos) << r.error().message;
}

TEST(PerfettoLoader, GarbageNeverCrashes) {
  std::string bytes = TraceOf({kProcess, kThread, WithEvent(Packet(1, 10), Begin(2, "a")),
                               WithEvent(Packet(1, 20), End(2))});
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (int v : {0x00, 0x7F, 0x80, 0xFF}) {
      std::string mutated = bytes;
      mutated[i] = static_cast<char>(v);
      auto r = loaders::LoadPerfettoBytes(mutated, "fuzz.pftrace");
      if (r.ok()) {
        EXPECT_EQ(r->CheckInvariants(), "") << i;
      }
    }
  }
}

}  // namespace
}  // namespace stepline::testing
