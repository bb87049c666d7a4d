// `stepline report`'s analysis on an Nsight export with NVTX iteration
// ranges: the ranges are the steps (source "nvtx"), each step gets its
// breakdown, and GPU idle gaps blame what the launching thread was doing,
// read from the runtime and OS-runtime tables (a blocking read, a condition
// wait, a stream synchronize).
#include <gtest/gtest.h>

#include <numeric>
#include <set>

#include "loaders/nsys/nsys_loader.h"
#include "model/analysis/report.h"
#include "tests/loaders/nsys_fixture.h"

namespace stepline::loaders {
namespace {

using ::stepline::testing::GlobalTid;
using ::stepline::testing::NsysFixture;

// Three steps of 90 us, 100 us apart. In each, the main thread reads input
// for 29 us before it launches anything, synchronizes, then waits on a
// condition variable for 19.5 us before the last launch.
std::string ThreeSteps() {
  NsysFixture f;
  f.CreateStandardTables();
  f.Exec(
      "INSERT INTO StringIds VALUES (1, 'cudaLaunchKernel'), (2, 'cudaStreamSynchronize'), (3, 'read'),"
      " (4, 'pthread_cond_wait'), (5, 'gemm'), (6, 'relu'), (7, 'softmax');");
  const std::string gtid = std::to_string(GlobalTid(300, 301));
  const std::string gpid = std::to_string(GlobalTid(300, 0));
  int corr = 1;
  for (int k = 0; k < 3; ++k) {
    const int64_t b = 1'000'000 + int64_t{k} * 100'000;
    auto t = [&](int64_t offset) { return std::to_string(b + offset); };
    auto launch = [&](int64_t at, int64_t kernel_start, int64_t kernel_end, int name) {
      f.Exec("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, globalTid, correlationId, nameId) VALUES (" + t(at) +
             ", " + t(at + 1000) + ", " + gtid + ", " + std::to_string(corr) + ", 1);");
      f.Exec(
          "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, streamId, correlationId, globalPid,"
          " demangledName) VALUES (" +
          t(kernel_start) + ", " + t(kernel_end) + ", 0, 7, " + std::to_string(corr) + ", " + gpid + ", " +
          std::to_string(name) + ");");
      ++corr;
    };
    f.Exec("INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid) VALUES (" + t(0) + ", " + t(90'000) +
           ", 59, 'train_step', " + gtid + ");");
    f.Exec("INSERT INTO OSRT_API (start, end, globalTid, nameId) VALUES (" + t(1'000) + ", " + t(30'000) + ", " + gtid +
           ", 3), (" + t(60'500) + ", " + t(80'000) + ", " + gtid + ", 4);");
    launch(30'000, 32'000, 50'000, 5);
    launch(31'000, 50'000, 60'000, 6);
    f.Exec("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, globalTid, correlationId, nameId) VALUES (" +
           t(32'000) + ", " + t(60'500) + ", " + gtid + ", 0, 2);");
    launch(80'000, 82'000, 88'000, 7);
  }
  return f.Bytes();
}

TEST(NsysReportTest, NvtxStepsGetBreakdownsAndGapsBlameOsCalls) {
  auto loaded = LoadNsysSqliteBytes(ThreeSteps(), "steps.sqlite");
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const analysis::Report r = analysis::ComputeReport(*loaded);
  EXPECT_EQ(r.step_source, analysis::StepSource::kNvtx);
  ASSERT_EQ(r.steps.size(), 3u);
  for (const analysis::ReportStep& s : r.steps) {
    EXPECT_EQ(s.dur_ns, 90'000);
    EXPECT_EQ(std::accumulate(s.breakdown.begin(), s.breakdown.end(), DurNs{0}), s.dur_ns) << s.name;
    // Kernels run 18 + 10 + 6 us of each step.
    EXPECT_EQ(analysis::At(s.breakdown, analysis::TimeCategory::kCompute), 34'000) << s.name;
  }
  // Every gap of at least 10 us is blamed on what the thread was doing.
  std::set<std::string_view> blamed;
  // The pattern table classifies the OS calls: read is input,
  // pthread_cond_wait sync; other host work is host_compute.
  int host_gaps = 0;
  for (const analysis::ReportGap& g : r.gaps) {
    for (const analysis::ReportEvent& e : r.CauseEvents(g)) {
      blamed.insert(e.name);
      if (e.name == "read") {
        EXPECT_EQ(g.cause, analysis::IdleCause::kInput);
      }
      if (e.name == "pthread_cond_wait") {
        EXPECT_EQ(g.cause, analysis::IdleCause::kSync);
      }
    }
    host_gaps += g.cause == analysis::IdleCause::kHostCompute || g.cause == analysis::IdleCause::kInput ||
                 g.cause == analysis::IdleCause::kSync;
  }
  EXPECT_TRUE(blamed.count("read")) << "the input read before each step's first launch";
  EXPECT_TRUE(blamed.count("pthread_cond_wait")) << "the condition wait before the last launch";
  EXPECT_GE(host_gaps, 4);
}

}  // namespace
}  // namespace stepline::loaders
