// Serving steps on the shared SGLang and vLLM traces, against the facts an
// independent script counted from the raw files
// (tests/data/real_trace_facts/serving_step_facts.py and .tsv).
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "loaders/load.h"
#include "model/analysis/trace_analysis.h"
#include "tests/support/test_traces.h"

namespace stepline::analysis {
namespace {

struct ServingFactRow {
  std::string engine, name, phase;
  int64_t index = -1, batch = -1, tokens = -1;
  double dur_us = 0;
};

std::map<std::string, std::vector<ServingFactRow>> ReadServingFacts() {
  std::map<std::string, std::vector<ServingFactRow>> out;
  for (const std::vector<std::string>& c : testing::ReadTsvRows("real_trace_facts/serving_step_facts.tsv")) {
    if (c.size() < 8) continue;
    std::vector<ServingFactRow>& rows = out[c[0]];
    if (c[1] == "none") continue;  // the trace has no serving steps: an empty list
    rows.push_back({c[1], c[3], c[5], std::stoll(c[2]), std::stoll(c[6]), std::stoll(c[7]), std::stod(c[4])});
  }
  return out;
}

TEST(ServingRealTracesTest, StepsPhasesAndTokensMatchTheScript) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  const auto facts = ReadServingFacts();
  ASSERT_EQ(facts.size(), 2u);
  for (const auto& [path, rows] : facts) {
    SCOPED_TRACE(path);
    auto loaded = loaders::LoadFile(testing::SharedTracePath(path));
    ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
    const StepSet steps = ComputeTraceSteps(loaded.value());
    if (rows.empty()) {
      EXPECT_EQ(steps.engine, ServingEngine::kNone);
      EXPECT_NE(steps.source, StepSource::kSglang);
      EXPECT_NE(steps.source, StepSource::kVllm);
      continue;
    }
    EXPECT_EQ(ServingEngineName(steps.engine), rows.front().engine);
    EXPECT_EQ(StepSourceName(steps.source), rows.front().engine);
    ASSERT_EQ(steps.steps.size(), rows.size());
    for (size_t i = 0; i < rows.size(); ++i) {
      const Step& s = steps.steps[i];
      EXPECT_EQ(s.name, rows[i].name);
      EXPECT_EQ(StepPhaseName(s.phase), rows[i].phase);
      EXPECT_EQ(s.batch, rows[i].batch);
      EXPECT_EQ(s.tokens, rows[i].tokens);
      EXPECT_LE(std::abs(double(s.dur_ns) / 1000.0 - rows[i].dur_us), 0.002) << s.name;
    }
  }
}

}  // namespace
}  // namespace stepline::analysis
