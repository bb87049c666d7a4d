// MemoryTable (model/memory_table.h) and the memory analysis on small
// hand-written Kineto traces: absolute and relative (Bytes-only) pools, ROCm
// Device Type 6, alloc/free matching by address, open allocations, OOM
// markers, capacity, live-at-peak by operator, growth per step.
#include <gtest/gtest.h>

#include <string>

#include "loaders/load.h"
#include "model/analysis/memory_analysis.h"
#include "model/analysis/report.h"
#include "model/analysis/trace_summary.h"
#include "model/memory_table.h"

namespace stepline::analysis {
namespace {

Trace Load(const std::string& json) {
  auto loaded = loaders::LoadBytes(json, "memory_test.json");
  EXPECT_TRUE(loaded.ok()) << (loaded.ok() ? "" : loaded.error().ToString());
  return std::move(loaded).value();
}

// One [memory] instant on thread 1 of pid 1.
std::string Mem(double ts_us, int64_t bytes, uint64_t addr, int64_t total_alloc, int64_t total_res, int type,
                int id) {
  return R"({"ph":"i","s":"t","cat":"cpu_instant_event","name":"[memory]","pid":1,"tid":1,"ts":)" +
         std::to_string(ts_us) + R"(,"args":{"Total Reserved":)" + std::to_string(total_res) +
         R"(,"Total Allocated":)" + std::to_string(total_alloc) + R"(,"Bytes":)" + std::to_string(bytes) +
         R"(,"Addr":)" + std::to_string(addr) + R"(,"Device Id":)" + std::to_string(id) +
         R"(,"Device Type":)" + std::to_string(type) + "}}";
}

std::string Op(const std::string& name, double ts_us, double dur_us) {
  return R"({"ph":"X","cat":"cpu_op","name":")" + name + R"(","pid":1,"tid":1,"ts":)" + std::to_string(ts_us) +
         R"(,"dur":)" + std::to_string(dur_us) + "}";
}

// GPU 0 (CUDA) and GPU 1 (HIP, Device Type 6):
//   t=10 aten::empty allocs 100 @A on GPU 0 (level 1100: 1000 were held before the capture)
//   t=20 aten::add allocs 300 @B (level 1400, the peak), t=30 frees @A (1300),
//   t=40 frees @C never allocated in the capture (-50, 1250); @B is never freed.
//   GPU 1: alloc 64 @D at t=15 and its free at t=25. An OOM on GPU 0 at t=45.
std::string AbsoluteTrace() {
  return R"({"deviceProperties":[{"id":0,"name":"X","totalGlobalMem":1500},{"id":1,"totalGlobalMem":9000}],
  "traceEvents":[)" +
         Op("aten::empty", 9, 2) + "," + Op("aten::add", 19, 2) + "," + Mem(10, 100, 0xA, 1100, 1400, 1, 0) + "," +
         Mem(20, 300, 0xB, 1400, 1450, 1, 0) + "," + Mem(30, -100, 0xA, 1300, 1450, 1, 0) + "," +
         Mem(40, -50, 0xC, 1250, 1450, 1, 0) + "," + Mem(15, 64, 0xD, 64, 2048, 6, 1) + "," +
         Mem(25, -64, 0xD, 0, 2048, 6, 1) + "," +
         R"({"ph":"i","s":"t","name":"[OutOfMemory]","pid":1,"tid":1,"ts":45,"args":{"Bytes":999,"Total Allocated":1250,"Total Reserved":1450,"Device Id":0}})" +
         "]}";
}

TEST(MemoryTableTest, AbsolutePoolsMatchAllocsToFreesByAddress) {
  const Trace trace = Load(AbsoluteTrace());
  const MemoryTable table = BuildMemoryTable(trace);
  EXPECT_EQ(table.memory_events, 7u);
  ASSERT_EQ(table.pools.size(), 2u);
  const MemoryPool& gpu0 = table.pools[0];
  const MemoryPool& gpu1 = table.pools[1];
  EXPECT_EQ(gpu0.name, "GPU 0");
  EXPECT_EQ(gpu1.name, "GPU 1");  // Device Type 6 (HIP) is a GPU too
  EXPECT_FALSE(gpu0.relative);
  EXPECT_TRUE(gpu0.has_reserved);
  EXPECT_EQ(gpu0.capacity_bytes, 1500);
  EXPECT_EQ(gpu1.capacity_bytes, 9000);
  ASSERT_EQ(gpu0.samples.size(), 4u);
  EXPECT_EQ(gpu0.samples[1].allocated, 1400);
  EXPECT_EQ(gpu0.alloc_events, 2u);
  EXPECT_EQ(gpu0.free_events, 2u);
  EXPECT_EQ(gpu0.unmatched_frees, 1u);
  EXPECT_EQ(gpu0.never_freed, 1u);
  ASSERT_EQ(gpu0.allocations.size(), 3u);
  // The free-only row comes first, open at its start.
  EXPECT_EQ(gpu0.allocations[0].addr, 0xCu);
  EXPECT_EQ(gpu0.allocations[0].bytes, 50);
  EXPECT_EQ(gpu0.allocations[0].alloc_ns, kAllocBeforeCapture);
  EXPECT_EQ(gpu0.allocations[0].free_ns, 40'000);
  EXPECT_EQ(gpu0.allocations[1].addr, 0xAu);
  EXPECT_EQ(gpu0.allocations[1].alloc_ns, 10'000);
  EXPECT_EQ(gpu0.allocations[1].free_ns, 30'000);
  EXPECT_EQ(trace.str(gpu0.allocations[1].op_name), "aten::empty");
  EXPECT_EQ(gpu0.allocations[2].free_ns, kStillOpen);
  EXPECT_TRUE(gpu0.allocations[2].open());
  EXPECT_EQ(trace.str(gpu0.allocations[2].op_name), "aten::add");
  ASSERT_EQ(gpu0.ooms.size(), 1u);
  EXPECT_EQ(gpu0.ooms[0].bytes, 999);
  EXPECT_EQ(gpu1.allocations.size(), 1u);
  EXPECT_FALSE(gpu1.allocations[0].open());
}

TEST(MemoryTableTest, InfoCountsMemoryEventsApartFromInstants) {
  const Trace trace = Load(AbsoluteTrace());
  const TraceSummary s = ComputeTraceSummary(trace);
  EXPECT_EQ(s.memory_events, 7u);
  EXPECT_EQ(s.instants, 0u);
}

TEST(MemoryAnalysisTest, PeakAndLiveAtPeakByOperator) {
  const Trace trace = Load(AbsoluteTrace());
  const MemoryTable table = BuildMemoryTable(trace);
  const MemoryAnalysis a = ComputeMemoryAnalysis(table, {});
  ASSERT_EQ(a.pools.size(), 2u);
  EXPECT_EQ(a.pools[0].peak_allocated_bytes, 1400);
  EXPECT_EQ(a.pools[0].peak_reserved_bytes, 1450);
  EXPECT_EQ(a.pools[0].peak_ts_ns, 20'000);
  // Live at t=20: @A (aten::empty, 100), @B (aten::add, 300) and @C (held from before the capture, 50).
  ASSERT_EQ(a.pools[0].live_at_peak.size(), 3u);
  EXPECT_EQ(trace.str(a.pools[0].live_at_peak[0].op), "aten::add");
  EXPECT_EQ(a.pools[0].live_at_peak[0].bytes, 300);
  EXPECT_EQ(trace.str(a.pools[0].live_at_peak[1].op), "aten::empty");
  EXPECT_EQ(a.pools[0].live_known_bytes, 450);
  EXPECT_EQ(a.pools[1].peak_allocated_bytes, 64);
  // 1450 reserved of 1500 is 96%: the capacity warning, and no growth warning without steps.
  const auto sentences = MemoryRecommendations(table, a, 0);
  ASSERT_EQ(sentences.size(), 1u);
  EXPECT_EQ(sentences[0], "GPU 0 reaches 96% of its 1.5 kB: a larger batch will not fit");
}

TEST(MemoryTableTest, BytesOnlyTraceIsRelativeRunningSum) {
  const std::string ev = R"({"ph":"i","s":"t","name":"[memory]","pid":1,"tid":1,"ts":)";
  const Trace trace = Load(R"({"traceEvents":[)" + ev + R"(1,"args":{"Bytes":-40,"Addr":7}},)" + ev +
                           R"(2,"args":{"Bytes":100,"Addr":8}},)" + ev + R"(3,"args":{"Bytes":25,"Addr":9}},)" + ev +
                           R"(4,"args":{"Bytes":-100,"Addr":8}}]})");
  const MemoryTable table = BuildMemoryTable(trace);
  ASSERT_EQ(table.pools.size(), 1u);
  const MemoryPool& pool = table.pools[0];
  EXPECT_EQ(pool.name, "GPU 0");  // no Device Type: a GPU's, Device Id 0
  EXPECT_TRUE(pool.relative);
  EXPECT_FALSE(pool.has_reserved);
  ASSERT_EQ(pool.samples.size(), 4u);
  EXPECT_EQ(pool.samples[0].allocated, -40);
  EXPECT_EQ(pool.samples[2].allocated, 85);
  EXPECT_EQ(pool.samples[3].allocated, -15);
  const MemoryAnalysis a = ComputeMemoryAnalysis(table, {});
  EXPECT_EQ(a.pools[0].peak_allocated_bytes, 85);
  EXPECT_EQ(a.pools[0].peak_reserved_bytes, -1);
  EXPECT_EQ(MemoryLevelAt(pool, 0), 0);  // the relative level starts at 0
}

TEST(MemoryTableTest, OtherDeviceTypesAreNamedByTheEnum) {
  EXPECT_EQ(KinetoDeviceName(0, -1), "CPU");
  EXPECT_EQ(KinetoDeviceName(1, 3), "GPU 3");
  EXPECT_EQ(KinetoDeviceName(6, 2), "GPU 2");
  EXPECT_EQ(KinetoDeviceName(13, 0), "MPS 0");
  EXPECT_EQ(KinetoDeviceName(12, 1), "XPU 1");
  EXPECT_EQ(KinetoDeviceName(99, 1), "device type 99 1");
}

TEST(MemoryAnalysisTest, LinearSlope) {
  EXPECT_DOUBLE_EQ(LinearSlope(std::vector<int64_t>{5, 15, 25, 35}), 10.0);
  EXPECT_DOUBLE_EQ(LinearSlope(std::vector<int64_t>{7, 7, 7}), 0.0);
  EXPECT_DOUBLE_EQ(LinearSlope(std::vector<int64_t>{7}), 0.0);
  EXPECT_NEAR(LinearSlope(std::vector<int64_t>{0, 12, 18, 30}), 9.6, 1e-9);
}

// Six ProfilerStep#N, each allocating 1 MB that is never freed, and a 1 kB
// temporary freed within the step.
std::string LeakTrace(int64_t leak_bytes) {
  std::string events;
  for (int k = 0; k < 6; ++k) {
    const double t0 = 1000.0 * k;
    events += Op("ProfilerStep#" + std::to_string(k), t0, 900) + ",";
    events += Mem(t0 + 100, leak_bytes, 0x1000 + k, 0, 0, 1, 0) + ",";
    events += Mem(t0 + 200, 1000, 0x9000, 0, 0, 1, 0) + ",";
    events += Mem(t0 + 300, -1000, 0x9000, 0, 0, 1, 0) + ",";
  }
  events.pop_back();
  // Totals are recomputed below by a running sum written into the JSON: drop
  // Total Allocated so the pool is relative and the levels are exact.
  std::string out;
  for (size_t i = 0; i < events.size(); ++i) {
    static const std::string kTotals = R"("Total Reserved":0,"Total Allocated":0,)";
    if (events.compare(i, kTotals.size(), kTotals) == 0) {
      i += kTotals.size() - 1;
      continue;
    }
    out.push_back(events[i]);
  }
  return R"({"traceEvents":[)" + out + "]}";
}

TEST(MemoryAnalysisTest, GrowthPerStepAndItsWarning) {
  const Trace trace = Load(LeakTrace(1'000'000));
  const Report report = ComputeReport(trace);
  ASSERT_EQ(report.steps.size(), 6u);
  ASSERT_EQ(report.memory.size(), 1u);
  EXPECT_TRUE(report.memory[0].relative);
  EXPECT_EQ(report.memory[0].peak_allocated_bytes, 6'001'000);
  EXPECT_NEAR(report.memory[0].growth_per_step_bytes, 1'000'000, 1);
  EXPECT_EQ(report.memory[0].never_freed, 6u);
  EXPECT_EQ(report.allocations.size(), 12u);
  bool warned = false;
  for (const std::string& s : report.recommendations) {
    warned |= s == "GPU 0 memory grows 1.0 MB per step: something keeps tensors alive across steps, e.g. a list "
                   "of losses that are not `.item()`'d";
  }
  EXPECT_TRUE(warned);
}

TEST(MemoryAnalysisTest, NoGrowthWarningWhenTheLevelIsFlat) {
  const Trace trace = Load(LeakTrace(0));
  const Report report = ComputeReport(trace);
  ASSERT_EQ(report.memory.size(), 1u);
  EXPECT_EQ(report.memory[0].growth_per_step_bytes, 0);
  for (const std::string& s : report.recommendations) EXPECT_EQ(s.find("memory grows"), std::string::npos) << s;
}

// 2021-era Kineto: `[memory]` with Bytes and totals but no Addr. Three steps
// each allocate 400 and 600 and free both (level back to 1000 held from
// before the capture): the peak is 2000, but 3 x 1000 bytes were allocated,
// and counting every allocation as never freed put 3000 "live" at a 2000
// peak, every allocation both freed and never freed.
std::string NoAddrTrace() {
  const std::string ev = R"({"ph":"i","s":"t","name":"[memory]","pid":1,"tid":1,"ts":)";
  std::string events;
  int64_t level = 1000;
  const auto mem = [&](double ts, int64_t bytes) {
    level += bytes;
    events += ev + std::to_string(ts) + R"(,"args":{"Device Type":1,"Device Id":0,"Bytes":)" + std::to_string(bytes) +
              R"(,"Total Allocated":)" + std::to_string(level) + R"(,"Total Reserved":4000}},)";
  };
  for (int k = 0; k < 3; ++k) {
    const double t0 = 100.0 * k;
    events += Op("ProfilerStep#" + std::to_string(k), t0, 90) + "," + Op("aten::conv", t0 + 5, 20) + ",";
    mem(t0 + 10, 400);
    mem(t0 + 11, 600);
    mem(t0 + 50, -400);
    mem(t0 + 51, -600);
  }
  events.pop_back();
  return R"({"traceEvents":[)" + events + "]}";
}

TEST(MemoryTableTest, WithoutAddressesNoFreeIsPairedAndNothingIsAttributedAtThePeak) {
  const Trace trace = Load(NoAddrTrace());
  const MemoryTable table = BuildMemoryTable(trace);
  ASSERT_EQ(table.pools.size(), 1u);
  const MemoryPool& pool = table.pools[0];
  EXPECT_FALSE(pool.addressed);
  EXPECT_EQ(pool.alloc_events, 6u);
  EXPECT_EQ(pool.free_events, 6u);
  EXPECT_EQ(pool.unmatched_frees, 0u);  // unknown, not "every free"
  EXPECT_EQ(pool.never_freed, 0u);      // unknown, not "every alloc"
  ASSERT_EQ(pool.allocations.size(), 6u);  // one row per alloc, none per free
  for (const MemoryAllocation& a : pool.allocations) {
    EXPECT_GT(a.bytes, 0);
    EXPECT_EQ(a.free_ns, kStillOpen);
  }
  const Report report = ComputeReport(trace);
  ASSERT_EQ(report.memory.size(), 1u);
  const ReportMemory& m = report.memory[0];
  EXPECT_FALSE(m.attributed);
  EXPECT_EQ(m.peak_allocated_bytes, 2000);  // the level curve still holds
  EXPECT_TRUE(m.top_at_peak.empty());
  ASSERT_EQ(m.allocated_by_op.size(), 1u);
  EXPECT_EQ(m.allocated_by_op[0].name, "aten::conv");
  EXPECT_EQ(m.allocated_by_op[0].bytes, 3000);
  EXPECT_EQ(m.allocated_by_op[0].count, 6u);
  EXPECT_EQ(m.allocated_bytes, 3000);
}

TEST(MemoryTableTest, WithAddressesPoolsAreAttributed) {
  const Trace trace = Load(AbsoluteTrace());
  const Report report = ComputeReport(trace);
  ASSERT_EQ(report.memory.size(), 2u);
  EXPECT_TRUE(report.memory[0].attributed);
  EXPECT_FALSE(report.memory[0].top_at_peak.empty());
  // Only allocations made in the capture count (not @C, freed but allocated before).
  EXPECT_EQ(report.memory[0].allocated_bytes, 400);
}

TEST(MemoryTableTest, TraceWithoutMemoryEventsHasNoPools) {
  const Trace trace = Load(R"({"traceEvents":[)" + Op("a", 1, 2) + "]}");
  EXPECT_TRUE(BuildMemoryTable(trace).pools.empty());
  EXPECT_TRUE(ComputeReport(trace).memory.empty());
}

}  // namespace
}  // namespace stepline::analysis
