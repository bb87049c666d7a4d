// Serving steps: the engines' step names parsed, the planted serving loop
// (demo_planted.h) found as steps with phases, and the per-phase figures.
#include <gtest/gtest.h>

#include "demo/demo_planted.h"
#include "loaders/annotation_steps.h"
#include "loaders/trace_builder.h"
#include "model/analysis/phase_compare.h"
#include "model/analysis/report.h"
#include "model/analysis/serving_steps.h"
#include "model/analysis/trace_analysis.h"
#include "model/serving_step_name.h"

namespace stepline::analysis {
namespace {

TEST(ServingStepNameTest, ParsesSglangNames) {
  auto s = ParseServingStepName("step[EXTEND bs=15 toks=15360]");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->engine, ServingEngine::kSglang);
  EXPECT_EQ(s->phase, StepPhase::kPrefill);
  EXPECT_EQ(s->batch, 15);
  EXPECT_EQ(s->tokens, 15360);
  s = ParseServingStepName("step[DECODE bs=64 toks=64 forward_ct=3] 7");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->phase, StepPhase::kDecode);
  EXPECT_EQ(s->batch, 64);
  EXPECT_EQ(ParseServingStepName("step[MIXED bs=3 toks=100]")->phase, StepPhase::kMixed);
  s = ParseServingStepName("step[IDLE]");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->phase, StepPhase::kNone);
  EXPECT_EQ(s->batch, -1);
  EXPECT_FALSE(ParseServingStepName("step[UNKNOWN bs=1]"));
  EXPECT_FALSE(ParseServingStepName("step"));
  EXPECT_FALSE(ParseServingStepName("train_step 3"));
}

TEST(ServingStepNameTest, ParsesVllmNames) {
  auto s = ParseServingStepName("execute_15360_context_15(sq15360sk15360sqsq15728640sqsk15728640)_generation_0(sq0sk0sqsq0sqsk0)");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->engine, ServingEngine::kVllm);
  EXPECT_EQ(s->phase, StepPhase::kPrefill);
  EXPECT_EQ(s->batch, 15);
  EXPECT_EQ(s->tokens, 15360);
  EXPECT_EQ(ParseServingStepName("execute_8_context_0(sq0)_generation_8(sq8)")->phase, StepPhase::kDecode);
  EXPECT_EQ(ParseServingStepName("execute_9_context_1(sq1)_generation_8(sq8)")->phase, StepPhase::kMixed);
  EXPECT_EQ(ParseServingStepName("execute_9_context_1_generation_8")->batch, 9);
  EXPECT_FALSE(ParseServingStepName("execute_model"));
  EXPECT_FALSE(ParseServingStepName("execute_9_context_x"));
}

void ExpectPlantedServingLoop(demo::PlantedEngine engine, StepSource source, ServingEngine serving) {
  const Trace trace = demo::PlantedServingTrace(engine);
  const TraceAnalysis a = ComputeAnalysis(trace);
  ASSERT_EQ(a.steps.source, source);
  EXPECT_EQ(a.steps.engine, serving);
  ASSERT_EQ(a.steps.steps.size(), 7u);
  EXPECT_EQ(a.steps.steps[0].phase, StepPhase::kPrefill);
  EXPECT_EQ(a.steps.steps[0].batch, 4);
  EXPECT_EQ(a.steps.steps[0].tokens, 2048);
  for (size_t i = 1; i <= 5; ++i) EXPECT_EQ(a.steps.steps[i].phase, StepPhase::kDecode) << i;
  EXPECT_EQ(a.steps.steps[6].phase, StepPhase::kMixed);
  EXPECT_EQ(a.steps.steps[6].batch, 6);
  ASSERT_EQ(a.phases.size(), 3u);
  const PhaseStat& prefill = a.phases[0];
  const PhaseStat& decode = a.phases[1];
  const PhaseStat& mixed = a.phases[2];
  EXPECT_EQ(prefill.phase, StepPhase::kPrefill);
  EXPECT_EQ(prefill.tokens, 2048);
  EXPECT_DOUBLE_EQ(prefill.tokens_per_s, 204'800.0);  // 2048 tokens in 10 ms
  EXPECT_EQ(decode.steps, 5u);
  EXPECT_EQ(decode.tokens, 20);
  EXPECT_DOUBLE_EQ(decode.tokens_per_s, 2'000.0);  // 20 tokens in 10 ms
  EXPECT_DOUBLE_EQ(mixed.tokens_per_s, 128'000.0);  // 512 tokens in 4 ms
  // Each step's kernel runs from 5 us to half the step: the rest is idle.
  EXPECT_EQ(prefill.idle_ns, 5'005'000);
  EXPECT_EQ(decode.idle_ns, 5 * 1'005'000);
  EXPECT_EQ(mixed.idle_ns, 2'005'000);
  EXPECT_EQ(mixed.mfu_percent, -1);  // the efficiency analysis's to fill
  EXPECT_NE(StepSourceSentence(a.steps).find("steps from " + std::string(ServingEngineName(serving))),
            std::string::npos);
}

TEST(ServingStepsTest, PlantedSglangLoop) {
  ExpectPlantedServingLoop(demo::PlantedEngine::kSglang, StepSource::kSglang, ServingEngine::kSglang);
}

TEST(ServingStepsTest, PlantedVllmLoop) {
  ExpectPlantedServingLoop(demo::PlantedEngine::kVllm, StepSource::kVllm, ServingEngine::kVllm);
}

TEST(ServingStepsTest, TrainingStepsAreTrainPhase) {
  const Trace trace = demo::PlantedCriticalPathTrace();
  const TraceAnalysis a = ComputeAnalysis(trace);
  ASSERT_EQ(a.phases.size(), 1u);
  EXPECT_EQ(a.phases[0].phase, StepPhase::kTrain);
  EXPECT_EQ(a.phases[0].tokens, -1);
  EXPECT_EQ(a.phases[0].tokens_per_s, -1);
  EXPECT_FALSE(HasServingPhases(a.phases));
  EXPECT_EQ(a.steps.engine, ServingEngine::kNone);
}

// NVTX ranges named like SGLang steps become the Nsight loader's Steps row
// (one range per distinct name: the names differ by batch and tokens).
TEST(ServingStepsTest, NvtxRangesWithServingNamesAreSteps) {
  loaders::TraceBuilder builder("nsys");
  const TrackId thread = builder.ThreadTrack(1, 1);
  std::vector<loaders::AnnotationRange> ranges;
  ranges.push_back({thread, 0, 1'000'000, builder.Intern("step[EXTEND bs=2 toks=512]")});
  ranges.push_back({thread, 1'000'000, 100'000, builder.Intern("step[DECODE bs=2 toks=2]")});
  ranges.push_back({thread, 1'100'000, 100'000, builder.Intern("step[DECODE bs=3 toks=3]")});
  ranges.push_back({thread, 1'200'000, 50'000, builder.Intern("train_step 1")});
  ranges.push_back({thread, 1'300'000, 50'000, builder.Intern("train_step 2")});
  ASSERT_EQ(loaders::AddStepsFromRanges(&builder, ranges, "nvtx"), 3u);
  const Trace trace = builder.Finish();
  const StepSet steps = ComputeSteps(trace);
  EXPECT_EQ(steps.source, StepSource::kNvtx);
  EXPECT_EQ(steps.engine, ServingEngine::kSglang);
  ASSERT_EQ(steps.steps.size(), 3u);
  EXPECT_EQ(steps.steps[0].phase, StepPhase::kPrefill);
  EXPECT_EQ(steps.steps[0].tokens, 512);
  EXPECT_EQ(steps.steps[2].phase, StepPhase::kDecode);
  EXPECT_EQ(steps.steps[2].batch, 3);
}

TEST(ServingStepsTest, CompareAlignsPhaseWithPhase) {
  const TraceAnalysis sglang = ComputeAnalysis(demo::PlantedServingTrace(demo::PlantedEngine::kSglang));
  const TraceAnalysis train = ComputeAnalysis(demo::PlantedCriticalPathTrace());
  const std::vector<PhaseCompareRow> rows = ComparePhases(sglang.phases, train.phases);
  ASSERT_EQ(rows.size(), 4u);  // prefill, decode, mixed from A; train from B
  EXPECT_EQ(rows[1].phase, StepPhase::kDecode);
  EXPECT_EQ(rows[1].steps_a, 5u);
  EXPECT_EQ(rows[1].step_mean_a_ns, 2'000'000);
  EXPECT_EQ(rows[1].idle_mean_a_ns, 1'005'000);
  EXPECT_EQ(rows[1].steps_b, 0u);
  EXPECT_EQ(rows[1].tokens_per_s_b, -1);
  EXPECT_EQ(rows[3].phase, StepPhase::kTrain);
  EXPECT_EQ(rows[3].steps_b, 4u);
  EXPECT_EQ(rows[3].step_mean_b_ns, 1'000'000);
}

}  // namespace
}  // namespace stepline::analysis
