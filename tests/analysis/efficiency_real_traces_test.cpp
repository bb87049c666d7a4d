// Matmul-family FLOPs on the shared Kineto traces that record `Input Dims`:
// each op row's FLOPs equal the count tests/data/real_trace_facts/flops_facts.py
// makes from the raw events (its output: flops_facts.tsv, read here). The
// device and the peak of the H100 trace come from its deviceProperties.
// Skipped when the shared traces are absent.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "loaders/load.h"
#include "model/analysis/report.h"
#include "tests/support/test_traces.h"

namespace stepline::analysis {
namespace {

struct FlopsFact {
  std::string op;
  uint64_t counted = 0;
  double flops = 0;
};

std::map<std::string, std::vector<FlopsFact>> ReadFlopsFacts() {
  std::map<std::string, std::vector<FlopsFact>> by_trace;
  std::ifstream in(std::string(STEPLINE_SOURCE_DIR) + "/tests/data/real_trace_facts/flops_facts.tsv");
  EXPECT_TRUE(in) << "flops_facts.tsv missing";
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::istringstream row(line);
    std::string trace;
    FlopsFact f;
    row >> trace >> f.op >> f.counted >> f.flops;
    by_trace[trace].push_back(f);
  }
  return by_trace;
}

TEST(EfficiencyRealTracesTest, MatmulFlopsMatchTheRawEventCount) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  const auto facts = ReadFlopsFacts();
  ASSERT_GE(facts.size(), 10u);
  for (const auto& [trace_path, rows] : facts) {
    auto trace = loaders::LoadFile(::stepline::testing::SharedTracePath(trace_path));
    ASSERT_TRUE(static_cast<bool>(trace)) << trace_path;
    const Report r = ComputeReport(trace.value());
    for (const FlopsFact& f : rows) {
      const ReportOp* row = nullptr;
      for (const ReportOp& o : r.ops) {
        if (o.name == f.op && o.kind == OpKind::kHostOp) row = &o;
      }
      ASSERT_NE(row, nullptr) << trace_path << " " << f.op;
      EXPECT_EQ(row->flops, f.flops) << trace_path << " " << f.op;
    }
  }
}

TEST(EfficiencyRealTracesTest, H100TraceNamesItsDeviceAndPeak) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  auto trace = loaders::LoadFile(::stepline::testing::SharedTracePath("tracelens/h100_bert-small-uncased.json.gz"));
  ASSERT_TRUE(static_cast<bool>(trace));
  const Report r = ComputeReport(trace.value());
  EXPECT_EQ(r.efficiency.device_name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(r.efficiency.peak_dtype, "bf16");
  EXPECT_DOUBLE_EQ(r.efficiency.peak_tflops, 989.4);
  // One step; its model FLOPs are the 26 linears (flops_facts.tsv) plus the
  // four causal-free attention forwards [1,8,141,64]: 4 x 2*8*141*141*128.
  ASSERT_EQ(r.steps.size(), 1u);
  EXPECT_DOUBLE_EQ(r.efficiency.model_flops, 8029194240.0 + 4 * 2.0 * 8 * 141 * 141 * 128);
  EXPECT_GE(r.efficiency.mfu_percent, 0);
}

}  // namespace
}  // namespace stepline::analysis
