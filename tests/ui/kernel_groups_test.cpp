// GPU kernels grouped by name: one row per kernel name whose count and total
// agree with the Op stats row of that kernel, its launch configurations as
// sub-rows. Checked on a real Kineto trace with several configurations per
// kernel name (skips without the shared traces) and on a PyTorch-style demo.
#include <gtest/gtest.h>

#include <map>
#include <numeric>
#include <string>

#include "demo/demo_generator.h"
#include "demo/demo_graphs.h"
#include "loaders/load.h"
#include "model/analysis/report.h"
#include "tests/support/test_traces.h"
#include "ui/kernel_panel.h"

namespace stepline::ui {
namespace {

void ExpectGroupsAgreeWithOpStats(const Trace& trace, size_t* multi_config_groups) {
  const analysis::Report report = analysis::ComputeReport(trace, {});
  ASSERT_FALSE(report.kernels.empty());
  std::vector<uint32_t> rows(report.kernels.size());
  std::iota(rows.begin(), rows.end(), 0u);
  const std::vector<KernelGroup> groups = GroupKernelsByName(report, rows, KernelColumn::kTotal, false);
  std::map<std::string, const analysis::ReportOp*> kernel_ops;
  for (const analysis::ReportOp& op : report.ops) {
    if (op.kind == analysis::OpKind::kKernel) kernel_ops[std::string(op.name)] = &op;
  }
  size_t configs = 0;
  *multi_config_groups = 0;
  for (size_t g = 0; g < groups.size(); ++g) {
    const KernelGroup& group = groups[g];
    configs += group.configs.size();
    *multi_config_groups += group.configs.size() > 1 ? 1 : 0;
    if (g > 0) {
      EXPECT_GE(groups[g - 1].total.total_ns, group.total.total_ns) << "sorted by total, largest first";
    }
    const auto it = kernel_ops.find(std::string(group.total.name));
    ASSERT_NE(it, kernel_ops.end()) << group.total.name;
    EXPECT_EQ(group.total.count, it->second->count) << group.total.name;
    EXPECT_EQ(group.total.total_ns, it->second->total_ns) << group.total.name;
    EXPECT_EQ(group.total.min_ns, it->second->min_ns) << group.total.name;
    EXPECT_EQ(group.total.max_ns, it->second->max_ns) << group.total.name;
    for (uint32_t i : group.configs) EXPECT_EQ(report.kernels[i].name, group.total.name);
  }
  EXPECT_EQ(configs, report.kernels.size()) << "every configuration in exactly one group";
  EXPECT_EQ(groups.size(), kernel_ops.size());
}

TEST(KernelGroups, DemoTotalsAgreeWithOpStats) {
  demo::DemoOptions options;
  options.scenario = "input-bound";
  options.style = demo::DemoStyle::kPyTorch;
  options.steps = 4;
  auto demo = demo::GenerateDemoTrace(options);
  ASSERT_TRUE(demo.ok());
  size_t multi = 0;
  ExpectGroupsAgreeWithOpStats(demo.value(), &multi);
}

TEST(KernelGroups, RealKinetoTotalsAgreeWithOpStats) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  auto trace = loaders::LoadFile(testing::SharedTracePath("kineto/resnet50_num_workers_0__worker0.2021-02.pt.trace.json.gz"));
  ASSERT_TRUE(trace) << trace.error().ToString();
  size_t multi = 0;
  ExpectGroupsAgreeWithOpStats(trace.value(), &multi);
  EXPECT_GT(multi, 0u) << "resnet50 launches some kernels with several configurations";
}

TEST(KernelGroups, MixedConfigurationsAreUnknownOnTheGroupRow) {
  analysis::Report report;
  analysis::ReportKernel a;
  a.name = "gemm";
  a.grid = {128, 1, 1};
  a.block = {256, 1, 1};
  a.occupancy_percent = 50;
  a.framework_op = "aten::mm";
  a.count = 2;
  a.total_ns = 200;
  a.min_ns = 90;
  a.max_ns = 110;
  analysis::ReportKernel b = a;
  b.grid = {64, 1, 1};
  b.framework_op = "aten::addmm";
  b.count = 1;
  b.total_ns = 40;
  b.min_ns = b.max_ns = 40;
  report.kernels = {a, b};
  const auto groups = GroupKernelsByName(report, {0, 1}, KernelColumn::kTotal, false);
  ASSERT_EQ(groups.size(), 1u);
  const KernelGroup& g = groups[0];
  EXPECT_EQ(g.total.count, 3u);
  EXPECT_EQ(g.total.total_ns, 240);
  EXPECT_EQ(g.total.avg_ns, 80);
  EXPECT_EQ(g.total.min_ns, 40);
  EXPECT_EQ(g.total.max_ns, 110);
  EXPECT_EQ(FormatDim3(g.total.grid), "-") << "two grids: no single value";
  EXPECT_EQ(FormatDim3(g.total.block), "256x1x1") << "one block size";
  EXPECT_EQ(g.total.occupancy_percent, 50);
  EXPECT_FALSE(g.same_op);
}

// Grouped by graph, each graph's total is the kernel time of its replays as
// the report's graph_replays list gives it (a sum over the replays, computed
// from the trace apart from the kernel rows), every kernel row is in exactly
// one group, and kernels outside graphs come last.
void ExpectGraphGroupsAgreeWithReplays(const Trace& trace, const std::string& what) {
  const analysis::Report report = analysis::ComputeReport(trace, {});
  ASSERT_FALSE(report.graph_replays.empty()) << what;
  std::vector<uint32_t> rows(report.kernels.size());
  std::iota(rows.begin(), rows.end(), 0u);
  const std::vector<KernelGroup> groups = GroupKernelsByGraph(report, rows, KernelColumn::kTotal, false);
  std::map<int64_t, DurNs> replay_kernel_ns;
  for (const auto& r : report.graph_replays) replay_kernel_ns[r.graph_id] += r.kernel_ns;
  size_t kernels = 0, graphs = 0;
  bool outside_seen = false;
  for (const KernelGroup& g : groups) {
    kernels += g.configs.size();
    if (g.total.graph_id < 0) {
      outside_seen = true;
      EXPECT_TRUE(g.label.starts_with("outside graphs")) << what << ": " << g.label;
      for (uint32_t i : g.configs) EXPECT_LT(report.kernels[i].graph_id, 0) << what;
      continue;
    }
    EXPECT_FALSE(outside_seen) << what << ": graph " << g.total.graph_id << " after the kernels outside graphs";
    ++graphs;
    EXPECT_TRUE(g.label.starts_with("graph " + std::to_string(g.total.graph_id) + " (")) << what << ": " << g.label;
    for (uint32_t i : g.configs) EXPECT_EQ(report.kernels[i].graph_id, g.total.graph_id) << what;
    ASSERT_TRUE(replay_kernel_ns.count(g.total.graph_id)) << what << ": graph " << g.total.graph_id;
    EXPECT_EQ(g.total.total_ns, replay_kernel_ns[g.total.graph_id]) << what << ": graph " << g.total.graph_id;
  }
  EXPECT_EQ(kernels, report.kernels.size()) << what;
  EXPECT_EQ(graphs, replay_kernel_ns.size()) << what;
}

TEST(KernelGroups, ByGraphTotalsAreTheReplaysKernelTime) {
  ExpectGraphGroupsAgreeWithReplays(demo::PlantedGraphTrace(false), "planted, derived ids");
  ExpectGraphGroupsAgreeWithReplays(demo::PlantedGraphTrace(true), "planted, recorded ids");
}

TEST(KernelGroups, ByGraphOnASharedTraceWithGraphReplays) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  const std::string path = ::stepline::testing::SharedTracePath("hta/trace_diff_test_test.json.gz");
  auto loaded = loaders::LoadFile(path);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  ExpectGraphGroupsAgreeWithReplays(loaded.value(), path);
}

}  // namespace
}  // namespace stepline::ui
