// XLA async pairs in an XSpace: each `*-start` / `*-done` (copy, all-reduce,
// all-gather, collective-permute, send / recv, reduce-scatter, all-to-all)
// is a wait, not compute. On a TPU whose steps are mostly such a wait, the
// wait's time goes to its copy or collective category, the run is never
// called compute-bound, and the advice names what was waited for.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "loaders/load.h"
#include "loaders/xspace/xspace_loader.h"
#include "model/analysis/report.h"
#include "model/xla_op.h"
#include "tests/loaders/xspace_test_builder.h"

namespace stepline::testing {
namespace {

struct XlaAsyncPair {
  const char* start;
  const char* done;
  GpuKind kind;
  analysis::TimeCategory category;
};

constexpr XlaAsyncPair kXlaAsyncPairs[] = {
    {"copy-start.1", "copy-done.1", GpuKind::kMemcpyOther, analysis::TimeCategory::kMemcpyOther},
    {"all-reduce-start.2", "all-reduce-done.2", GpuKind::kCollective, analysis::TimeCategory::kCollective},
    {"all-gather-start.3", "all-gather-done.3", GpuKind::kCollective, analysis::TimeCategory::kCollective},
    {"collective-permute-start.4", "collective-permute-done.4", GpuKind::kCollective,
     analysis::TimeCategory::kCollective},
    {"send.5", "send-done.5", GpuKind::kCollective, analysis::TimeCategory::kCollective},
    {"recv.6", "recv-done.6", GpuKind::kCollective, analysis::TimeCategory::kCollective},
    {"reduce-scatter-start.7", "reduce-scatter-done.7", GpuKind::kCollective, analysis::TimeCategory::kCollective},
    {"all-to-all-start.8", "all-to-all-done.8", GpuKind::kCollective, analysis::TimeCategory::kCollective},
};

// Four executions of jit_train_step on one TPU, 10 us apart: a 2 us fusion,
// the pair's start (0.2 us) and its done (6 us, the wait).
Trace XlaAsyncPairTrace(const XlaAsyncPair& pair) {
  xs::XSpace space;
  PlaneBuilder tpu{&space, 2, "/device:TPU:0"};
  const int64_t module = tpu.EventMd("jit_train_step");
  const int64_t fusion = tpu.EventMd("fusion.42");
  const int64_t start = tpu.EventMd(pair.start);
  const int64_t done = tpu.EventMd(pair.done);
  xs::XLine* modules = tpu.Line(1, "XLA Modules", 1000);
  xs::XLine* ops = tpu.Line(2, "XLA Ops", 1000);
  for (int k = 0; k < 4; ++k) {
    const int64_t t0 = int64_t{k} * 10'000'000;  // ps
    PlaneBuilder::Event(modules, module, t0, 9'000'000);
    PlaneBuilder::Event(ops, fusion, t0, 2'000'000);
    PlaneBuilder::Event(ops, start, t0 + 2'000'000, 200'000);
    PlaneBuilder::Event(ops, done, t0 + 2'500'000, 6'000'000);
  }
  auto loaded = loaders::LoadXSpaceBytes(Serialize(space), "pairs.xplane.pb", {});
  EXPECT_TRUE(loaded.ok()) << (loaded.ok() ? "" : loaded.error().ToString());
  return std::move(loaded).value();
}

TEST(XlaAsyncPairsTest, EveryPairIsAWaitOfItsKindNeverCompute) {
  for (const XlaAsyncPair& pair : kXlaAsyncPairs) {
    SCOPED_TRACE(pair.done);
    const Trace t = XlaAsyncPairTrace(pair);
    for (size_t i = 0; i < t.slices().size(); ++i) {
      const std::string_view name = t.str(t.slices().name()[i]);
      if (name == pair.start || name == pair.done) {
        EXPECT_EQ(t.slices().gpu_kind()[i], pair.kind) << name;
      }
    }
    const analysis::Report r = analysis::ComputeReport(t);
    ASSERT_EQ(r.steps.size(), 4u);
    // The wait's time is in its category, not compute: 6 us of each step
    // (the start's 0.2 us too), against the fusion's 2 us.
    EXPECT_EQ(analysis::At(r.breakdown_total, analysis::TimeCategory::kCompute), 4 * 2'000);
    EXPECT_GE(analysis::At(r.breakdown_total, pair.category), 4 * 6'000);
    const std::string done(pair.done);
    const std::string done_op = done.substr(0, done.rfind('.'));  // op rows may drop the ".N"
    bool names_wait = false;
    for (const std::string& s : r.recommendations) {
      EXPECT_EQ(s.find("Compute-bound"), std::string::npos) << s;
      EXPECT_EQ(s.find("mixed precision"), std::string::npos) << s;
      names_wait |= s.find(done_op) != std::string::npos;
    }
    EXPECT_TRUE(names_wait) << "no recommendation names " << pair.done;
  }
}

// XLA's generic wrapper: the opcode is async-start / async-done, the
// instruction's name says what it waits for.
TEST(XlaAsyncPairsTest, GenericAsyncWrapperIsClassifiedByItsInstructionName) {
  EXPECT_EQ(ClassifyXlaOp("%reduce-scatter-done.1 = f32[8]{0} async-done(%reduce-scatter-start.1)", ""),
            GpuKind::kCollective);
  EXPECT_EQ(ClassifyXlaOp("%all-to-all-start = ((f32[8]{0}), f32[8]{0}) async-start(%p0)", ""),
            GpuKind::kCollective);
  EXPECT_EQ(ClassifyXlaOp("%fusion.3 = f32[8]{0} fusion(%p0), kind=kLoop", ""), GpuKind::kKernel);
}

}  // namespace
}  // namespace stepline::testing
