// Matmul-family FLOPs on shared Kineto traces that record `Input Dims` (the
// five smallest of flops_facts.tsv; all of them matched when it was made):
// each op row's FLOPs equal the count tests/data/real_trace_facts/flops_facts.py
// makes from the raw events (its output: flops_facts.tsv, read here). The
// device and the peak of the H100 trace come from its deviceProperties.
// Skipped when the shared traces are absent.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
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
  // The smaller traces only (the test's cost is their load); between them
  // they hold every op of the family the traces record but _scaled_mm.
  const std::set<std::string> checked = {"hta/amd_trace_mi250_minitoy_train_ROCm6_2_kineto.json.gz",
                                         "hta/rank_non_gpu_rank_non_gpu.json.gz", "hta/trace_filter_sampled_rank-0.json.gz",
                                         "tracelens/h100_bert-small-uncased.json.gz",
                                         "tracelens/torch_compile_triton_trace.json.gz"};
  size_t compared = 0;
  for (const auto& [trace_path, rows] : facts) {
    if (!checked.contains(trace_path)) continue;
    ++compared;
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
  EXPECT_EQ(compared, checked.size());
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
