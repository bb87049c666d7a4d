// Running out of memory in the middle of a load is an error, never a crash.
// The model's growable arrays (model/grow_array.h) fail their Nth block on
// request; every format is loaded with the failure placed at many points, on
// the loader's worker threads as well as the calling one, and each load must
// come back as a LoadError kOutOfMemory naming the file (the sanitizer build
// also checks that nothing leaks on the way out).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "demo/demo_generator.h"
#include "export/chrome_json_writer.h"
#include "loaders/load.h"
#include "loaders/memory_estimate.h"
#include "model/grow_array.h"
#include "tests/support/test_traces.h"

namespace stepline::loaders {
namespace {

using grow_array_detail::AllocationCount;
using grow_array_detail::FailNthAllocation;

// Turns the failure off however the test ends.
struct FailureOff {
  ~FailureOff() { FailNthAllocation(0); }
};

// About `count` failure points over the `total` blocks a load hands out:
// every one of the first `first` (headers, first columns), then spread evenly.
std::vector<uint64_t> FailurePoints(uint64_t total, size_t count, uint64_t first) {
  std::vector<uint64_t> points;
  for (uint64_t n = 1; n <= std::min<uint64_t>(total, first); ++n) points.push_back(n);
  for (size_t i = 1; i <= count; ++i) points.push_back(std::max<uint64_t>(1, total * i / (count + 1)));
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  return points;
}

// Loads `path` once cleanly to count its blocks, then once per failure point.
void ExpectEveryFailureIsAnError(const std::string& path, size_t count, uint64_t first = 6) {
  FailureOff off;
  LoadOptions options;
  options.threads = 2;  // the worker threads too, where an escaping bad_alloc would be std::terminate
  const uint64_t before = AllocationCount();
  auto clean = LoadFile(path, options);
  ASSERT_TRUE(clean.ok()) << clean.error().ToString();
  const uint64_t total = AllocationCount() - before;
  ASSERT_GT(total, 0u) << path;
  int failed = 0;
  for (const uint64_t n : FailurePoints(total, count, first)) {
    FailNthAllocation(n);
    auto loaded = LoadFile(path, options);
    FailNthAllocation(0);
    // Threads may hand out a few blocks fewer on one run than another, so a
    // late point can miss: the load then simply succeeds.
    if (loaded.ok()) continue;
    ++failed;
    EXPECT_EQ(loaded.error().code, LoadErrorCode::kOutOfMemory) << path << " at block " << n << ": "
                                                                 << loaded.error().ToString();
    const std::string text = loaded.error().ToString();
    EXPECT_NE(text.find(path), std::string::npos) << text;
    EXPECT_NE(text.find("out of memory during loading"), std::string::npos) << text;
    EXPECT_NE(text.find("needs about"), std::string::npos) << text;
  }
  EXPECT_GT(failed, 0) << path;
  // And the process is fine after: the same load succeeds again.
  auto again = LoadFile(path, options);
  ASSERT_TRUE(again.ok()) << again.error().ToString();
  EXPECT_EQ(again->slices().size(), clean->slices().size());
}

TEST(OutOfMemoryTest, DemoChromeJsonLoadFailsCleanlyAtEveryPoint) {
  demo::DemoOptions demo;
  demo.steps = 3;
  demo.compute_truth = false;
  auto trace = demo::GenerateDemoTrace(demo);
  ASSERT_TRUE(trace.ok()) << trace.error();
  const std::string path = (std::filesystem::path(::testing::TempDir()) / "oom_demo.json").string();
  {
    std::ofstream(path, std::ios::binary) << exports::ChromeJsonText(*trace);
  }
  ExpectEveryFailureIsAnError(path, 30);
  std::filesystem::remove(path);
}

TEST(OutOfMemoryTest, RealTracesOfEveryFormatFailCleanly) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  // Small ones, so the test takes seconds: gzip JSON (streamed), XSpace,
  // Perfetto and an Nsight SQLite export at many points; the one rocprofv3
  // trace takes a second a load, so at two.
  struct Case {
    const char* relative;
    size_t spread;
    uint64_t first;
  };
  for (const Case& c : {Case{"hta/trace_filter_sampled_rank-0.json.gz", 12, 6}, Case{"xprof/tpu_inference_2.xplane.pb", 12, 6},
                        Case{"perfetto/scrolling_with_blocked_nonblocked_frames.pftrace", 6, 3},
                        Case{"nsys/mock.sqlite", 12, 6}, Case{"rocprof/rocprofv3_908_results.json.gz", 1, 1}}) {
    const std::string path = testing::SharedTracePath(c.relative);
    if (!std::filesystem::exists(path)) continue;
    SCOPED_TRACE(c.relative);
    ExpectEveryFailureIsAnError(path, c.spread, c.first);
  }
}

TEST(OutOfMemoryTest, EstimateGrowsWithSizeAndCompression) {
  const MemoryEstimate json = EstimateLoadMemory(uint64_t{100} << 20, "{\"traceEvents\":[");
  EXPECT_GT(json.needed_bytes, uint64_t{100} << 20);
  EXPECT_NE(json.basis.find("100 MB of chrome-json"), std::string::npos) << json.basis;
  const std::string gzip_head("\x1f\x8b\x08\x00", 4);
  const MemoryEstimate gz = EstimateLoadMemory(uint64_t{100} << 20, gzip_head);
  EXPECT_GT(gz.needed_bytes, json.needed_bytes);  // the content is several times the file
  EXPECT_EQ(EstimateLoadMemory(0, "").needed_bytes, 0u);
  MemoryBudget small{uint64_t{50} << 20, "address-space limit (ulimit -v)"};
  const std::string warning = MemoryWarning("run.json", json, small);
  EXPECT_NE(warning.find("run.json: the trace needs about"), std::string::npos) << warning;
  EXPECT_NE(warning.find("50 MB is available (address-space limit (ulimit -v))"), std::string::npos) << warning;
  EXPECT_TRUE(MemoryWarning("run.json", json, MemoryBudget{}).empty());
}

}  // namespace
}  // namespace stepline::loaders
