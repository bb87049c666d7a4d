// Streams that carry nothing but copies and memsets get no idle-gap shading
// (it read as copies there): CopyRows::CopiesOnly and the one row rule, on a
// hand-built trace and on two shared Kineto traces whose streams were
// counted from the raw events (tests/data/real_trace_facts/copy_only_streams_facts.py).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "loaders/load.h"
#include "tests/support/synthetic_trace.h"
#include "tests/support/test_traces.h"
#include "ui/timeline/copy_rows.h"
#include "ui/timeline/track_layout.h"

namespace stepline::ui {
namespace {

using stepline::testing::SyntheticTrace;
using stepline::testing::Us;

TrackId CopyOnlyTrackOfStream(const Trace& t, int64_t stream) {
  for (uint32_t i = 0; i < t.tracks().size(); ++i) {
    const TrackId id(i);
    if (t.tracks().kind(id) == TrackKind::kGpuStream && t.tracks().tid(id) == stream) return id;
  }
  return TrackId();
}

bool CopyOnlyRowShaded(const Trace& t, const CopyRows& copies, TrackId track) {
  return RowShowsIdleGaps(RowKind::kSliceTrack, t.tracks().kind(track), copies.CopiesOnly(track));
}

TEST(CopyOnlyStreamsTest, StreamsOfCopiesAndMemsetsAloneAreNotShaded) {
  const Trace t = SyntheticTrace()
                      .Thread("main")
                      .Slice("step", Us(0), Us(100))
                      .Device(0)
                      .Kernel(7, Us(0), Us(10))
                      .Copy(GpuKind::kMemcpyH2D, 7, Us(20), Us(5))  // a kernel stream that also copies
                      .Copy(GpuKind::kMemcpyH2D, 8, Us(0), Us(5))
                      .Copy(GpuKind::kMemcpyD2H, 8, Us(30), Us(5))
                      .Copy(GpuKind::kMemset, 9, Us(40), Us(1))
                      .Kernel(10, Us(50), Us(10))
                      .Build();
  const CopyRows copies(t);
  EXPECT_FALSE(copies.CopiesOnly(CopyOnlyTrackOfStream(t, 7)));
  EXPECT_TRUE(copies.CopiesOnly(CopyOnlyTrackOfStream(t, 8))) << "H2D and D2H copies only";
  EXPECT_TRUE(copies.CopiesOnly(CopyOnlyTrackOfStream(t, 9))) << "a memset alone";
  EXPECT_FALSE(copies.CopiesOnly(CopyOnlyTrackOfStream(t, 10)));
  EXPECT_TRUE(CopyOnlyRowShaded(t, copies, CopyOnlyTrackOfStream(t, 7)));
  EXPECT_FALSE(CopyOnlyRowShaded(t, copies, CopyOnlyTrackOfStream(t, 8)));
  EXPECT_FALSE(CopyOnlyRowShaded(t, copies, CopyOnlyTrackOfStream(t, 9)));
  EXPECT_TRUE(CopyOnlyRowShaded(t, copies, CopyOnlyTrackOfStream(t, 10)));
  // A host thread has no GPU slices: not "copies only", and never shaded.
  for (uint32_t i = 0; i < t.tracks().size(); ++i) {
    if (t.tracks().kind(TrackId(i)) != TrackKind::kHostThread) continue;
    EXPECT_FALSE(copies.CopiesOnly(TrackId(i)));
    EXPECT_FALSE(CopyOnlyRowShaded(t, copies, TrackId(i)));
  }
  EXPECT_FALSE(copies.CopiesOnly(TrackId(999))) << "out of range";
}

// Every GPU stream of the facts file, as the script counted it.
TEST(CopyOnlyStreamsTest, RealKinetoTracesMatchTheRawEventCounts) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  std::ifstream facts(stepline::testing::TestDataPath("real_trace_facts/copy_only_streams_facts.tsv"));
  ASSERT_TRUE(facts) << "copy_only_streams_facts.tsv";
  std::string line, loaded_path;
  std::getline(facts, line);  // header
  std::shared_ptr<const Trace> trace;
  std::unique_ptr<CopyRows> copies;
  int rows = 0, copy_only = 0;
  while (std::getline(facts, line)) {
    std::istringstream in(line);
    std::string path, pid, tid, kernels, count, only;
    ASSERT_TRUE(std::getline(in, path, '\t') && std::getline(in, pid, '\t') && std::getline(in, tid, '\t') &&
                std::getline(in, kernels, '\t') && std::getline(in, count, '\t') && std::getline(in, only, '\t'))
        << line;
    if (path != loaded_path) {
      auto loaded = loaders::LoadFile(stepline::testing::SharedTracePath(path));
      ASSERT_TRUE(loaded.ok()) << path << ": " << loaded.error().message;
      trace = std::make_shared<const Trace>(std::move(loaded).value());
      copies = std::make_unique<CopyRows>(*trace);
      loaded_path = path;
    }
    // "stream 23" (2021 Kineto) or "22": the stream number is the track's tid.
    const int64_t stream = std::stoll(tid.substr(tid.find_first_of("0123456789")));
    const TrackId track = CopyOnlyTrackOfStream(*trace, stream);
    ASSERT_FALSE(track.is_none()) << path << " stream " << stream;
    EXPECT_EQ(copies->CopiesOnly(track), only == "1") << path << " stream " << stream;
    EXPECT_EQ(CopyOnlyRowShaded(*trace, *copies, track), only == "0") << path << " stream " << stream;
    ++rows;
    copy_only += only == "1" ? 1 : 0;
  }
  EXPECT_EQ(rows, 17);
  EXPECT_EQ(copy_only, 9) << "eight memset-only streams in resnet50_autograd, one copy stream in trace_diff_control";
}

}  // namespace
}  // namespace stepline::ui
