// On every shared real trace (../shared/traces): the
// report runs, names where its steps came from, never makes a Python frame a
// step, and its step windows cover the union of the steps exactly (the
// breakdown sums to it). Where the trace's host ProfilerStep#N markers were
// counted by the independent script (tests/data/real_trace_facts/facts.tsv,
// steps_host and step_numbers), every one of them is a step.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "loaders/load.h"
#include "model/analysis/report.h"
#include "tests/support/test_traces.h"

namespace stepline::analysis {
namespace {

struct StepFacts {
  uint64_t steps_host = 0;
  std::string step_numbers;  // comma-separated, ascending
};

std::map<std::string, StepFacts> ReadStepFacts() {
  std::ifstream in(testing::TestDataPath("real_trace_facts/facts.tsv"));
  std::vector<std::string> header;
  std::map<std::string, StepFacts> out;
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::istringstream fields(line);
    for (std::string cell; std::getline(fields, cell, '\t');) cells.push_back(cell);
    if (!cells.empty() && cells[0] == "path") {  // a header (the file repeats it per folder)
      header = cells;
      continue;
    }
    auto column = [&](std::string_view name) -> std::string {
      const auto it = std::find(header.begin(), header.end(), name);
      const size_t i = static_cast<size_t>(it - header.begin());
      return it == header.end() || i >= cells.size() ? std::string() : cells[i];
    };
    if (cells.empty() || column("steps_host").empty()) continue;
    out[cells[0]] = {std::stoull(column("steps_host")), column("step_numbers")};
  }
  return out;
}

std::vector<std::string> AllSharedTraces() {
  std::vector<std::string> paths;
  const std::string dir = testing::SharedTracesDir();
  if (dir.empty()) return paths;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file() || e.path().extension() == ".tsv") continue;
    paths.push_back(std::filesystem::relative(e.path(), dir).string());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

class RealTraceStepsTest : public ::testing::TestWithParam<std::string> {};

TEST_P(RealTraceStepsTest, StepsHaveASourceNoPythonFrameAndCoverTheirUnion) {
  const std::string& relative = GetParam();
  auto loaded = loaders::LoadFile(testing::SharedTracePath(relative));
  if (!loaded.ok()) {  // corrupt/ and the like: a clear error is the right answer
    EXPECT_FALSE(loaded.error().ToString().empty());
    return;
  }
  const Trace& trace = loaded.value();
  const TraceAnalysis a = ComputeAnalysis(trace);
  const Report r = ResolveReport(trace, a);
  EXPECT_FALSE(StepSourceName(r.step_source).empty());
  EXPECT_FALSE(r.step_source_sentence.empty());
  if (!r.steps.empty()) {
    EXPECT_NE(r.step_source, StepSource::kNone);
  }
  for (const ReportStep& s : r.steps) EXPECT_FALSE(IsPythonFrameName(s.name)) << s.name;

  // Windows: disjoint, inside their step's start, summing to the union.
  std::vector<std::pair<TimeNs, TimeNs>> spans;
  DurNs windows = 0;
  for (const Step& s : a.steps.steps) {
    spans.emplace_back(s.start_ns, s.end_ns());
    windows += s.window_dur_ns;
  }
  std::sort(spans.begin(), spans.end());
  DurNs union_ns = 0;
  TimeNs reach = INT64_MIN;
  for (const auto& [start, end] : spans) {
    union_ns += std::max<DurNs>(0, end - std::max(start, reach));
    reach = std::max(reach, end);
  }
  EXPECT_EQ(windows, union_ns);
  if (a.primary() != nullptr) {
    DurNs breakdown = 0;
    for (DurNs v : a.primary()->breakdown_total) breakdown += v;
    EXPECT_EQ(breakdown, union_ns);
  }

  const auto facts = ReadStepFacts();
  const auto it = facts.find(relative);
  if (it == facts.end() || r.step_source != StepSource::kProfilerStep) return;
  EXPECT_EQ(r.steps.size(), it->second.steps_host);
  std::string numbers;
  for (const ReportStep& s : r.steps) numbers += (numbers.empty() ? "" : ",") + s.name.substr(s.name.find('#') + 1);
  EXPECT_EQ(numbers, it->second.step_numbers);
}

INSTANTIATE_TEST_SUITE_P(SharedTraces, RealTraceStepsTest, ::testing::ValuesIn(AllSharedTraces()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& c : name) c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return name;
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(RealTraceStepsTest);

TEST(RealTraceStepsTest, SharedTracesPresent) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  EXPECT_FALSE(AllSharedTraces().empty());
  EXPECT_GE(ReadStepFacts().size(), 10u);
}

}  // namespace
}  // namespace stepline::analysis
