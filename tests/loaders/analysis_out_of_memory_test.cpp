// Running out of memory during the analysis: every allocation of this test
// binary goes through the operator new below, which fails its Nth call on
// request. The report of a demo trace is computed with the failure at many
// points; each run either completes or throws std::bad_alloc to its caller
// (the command's or window job's boundary), never std::terminate, and the
// same report computed afterwards equals the first (nothing was left half
// changed). Not under AddressSanitizer, which has its own operator new.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>

#include "demo/demo_generator.h"
#include "export/chrome_json_writer.h"
#include "loaders/load.h"
#include "model/analysis/report.h"

#if defined(__SANITIZE_ADDRESS__)
#define STEPLINE_TEST_OWN_NEW 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define STEPLINE_TEST_OWN_NEW 0
#endif
#endif
#ifndef STEPLINE_TEST_OWN_NEW
#define STEPLINE_TEST_OWN_NEW 1
#endif

namespace {
std::atomic<int64_t> g_fail_at{0};  // 0: never fail; else the count that fails
std::atomic<int64_t> g_count{0};    // allocations since the failure was armed
}  // namespace

#if STEPLINE_TEST_OWN_NEW
void* operator new(std::size_t n) {
  if (g_fail_at.load(std::memory_order_relaxed) != 0 &&
      g_count.fetch_add(1, std::memory_order_relaxed) + 1 == g_fail_at.load(std::memory_order_relaxed)) {
    throw std::bad_alloc();
  }
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
#endif

namespace stepline::analysis {
namespace {

void Arm(int64_t at) {
  g_count = 0;
  g_fail_at = at;
}

TEST(AnalysisOutOfMemoryTest, ReportFailsCleanlyAtEveryPoint) {
  if (!STEPLINE_TEST_OWN_NEW) GTEST_SKIP() << "AddressSanitizer replaces operator new";
  demo::DemoOptions options;
  options.steps = 4;
  options.compute_truth = false;
  auto trace = demo::GenerateDemoTrace(options);
  ASSERT_TRUE(trace.ok()) << trace.error();
  const Report clean = ComputeReport(*trace);
  Arm(INT64_MAX);  // counts, never fails
  ComputeReport(*trace);
  const int64_t total = g_count.load();
  Arm(0);
  ASSERT_GT(total, 100);
  int threw = 0;
  for (int64_t i = 1; i <= 40; ++i) {
    const int64_t at = i <= 10 ? i : total * (i - 10) / 31;
    Arm(at);
    try {
      const Report r = ComputeReport(*trace);
      Arm(0);
    } catch (const std::bad_alloc&) {
      Arm(0);
      ++threw;
    }
  }
  Arm(0);
  EXPECT_GT(threw, 30) << "of 40 points over " << total << " allocations";
  const Report again = ComputeReport(*trace);
  EXPECT_EQ(again.steps.size(), clean.steps.size());
  EXPECT_EQ(again.devices.size(), clean.devices.size());
  EXPECT_EQ(again.step_source_sentence, clean.step_source_sentence);
}

// The same for a load, at every kind of allocation (not only the model's
// arrays, as OutOfMemoryTest): each failure ends as LoadError kOutOfMemory.
TEST(AnalysisOutOfMemoryTest, LoadFailsCleanlyAtAnyAllocation) {
  if (!STEPLINE_TEST_OWN_NEW) GTEST_SKIP() << "AddressSanitizer replaces operator new";
  demo::DemoOptions options;
  options.steps = 3;
  options.compute_truth = false;
  auto demo = demo::GenerateDemoTrace(options);
  ASSERT_TRUE(demo.ok()) << demo.error();
  const std::string json = exports::ChromeJsonText(*demo);
  loaders::LoadOptions load_options;
  load_options.threads = 2;
  Arm(INT64_MAX);
  auto counted = loaders::LoadBytes(json, "demo.json", load_options);
  const int64_t total = g_count.load();
  Arm(0);
  ASSERT_TRUE(counted.ok());
  int failed = 0;
  for (int64_t i = 1; i <= 40; ++i) {
    Arm(i <= 10 ? i : total * (i - 10) / 31);
    auto loaded = loaders::LoadBytes(json, "demo.json", load_options);
    Arm(0);
    if (loaded.ok()) continue;  // a late point the threads did not reach this time
    ++failed;
    EXPECT_EQ(loaded.error().code, loaders::LoadErrorCode::kOutOfMemory) << loaded.error().ToString();
  }
  EXPECT_GT(failed, 30) << "of 40 points over " << total << " allocations";
}

}  // namespace
}  // namespace stepline::analysis
