// One step definition: on every shared real trace that loads,
// `stepline info --json`'s `steps` equals the number of `stepline report
// --json` steps. They once disagreed on 15 of them (info counted ProfilerStep#
// slices and Steps-row names itself).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "model/json_value.h"
#include "tests/app/command_test_helpers.h"
#include "tests/support/test_traces.h"

namespace stepline::app {
namespace {

namespace fs = std::filesystem;
using ::stepline::ParseJson;

// Every trace a MANIFEST.tsv lists (first column, relative to the manifest;
// header skipped).
std::vector<fs::path> ManifestTraces(const fs::path& root) {
  std::vector<fs::path> out;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (entry.path().filename() != "MANIFEST.tsv") continue;
    std::ifstream in(entry.path());
    std::string line;
    std::getline(in, line);  // header
    while (std::getline(in, line)) {
      const std::string name = line.substr(0, line.find('\t'));
      if (!name.empty() && fs::is_regular_file(entry.path().parent_path() / name))
        out.push_back(entry.path().parent_path() / name);
    }
  }
  return out;
}

TEST(InfoReportStepsTest, InfoCountsTheStepsTheReportLists) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  const auto traces = ManifestTraces(::stepline::testing::SharedTracesDir());
  ASSERT_FALSE(traces.empty());
  int compared = 0;
  for (const fs::path& trace : traces) {
    const RunOutput info = RunCommand(RunInfo, Args{trace.string(), "--json"});
    const RunOutput report = RunCommand(RunReport, Args{trace.string(), "--json"});
    ASSERT_EQ(info.code, report.code) << trace << ": info and report disagree on whether it loads";
    if (info.code != 0) continue;  // a format Stepline does not read, or a corrupt file
    const auto info_json = ParseJson(info.out);
    const auto report_json = ParseJson(report.out);
    ASSERT_TRUE(info_json && report_json) << trace;
    EXPECT_EQ(static_cast<size_t>(Number(Member(*info_json, "steps"))), Member(*report_json, "steps").items.size())
        << trace;
    ++compared;
  }
  EXPECT_GT(compared, 10) << "fewer real traces loaded than expected";
  std::cout << "compared " << compared << " of " << traces.size() << " traces\n";
}

}  // namespace
}  // namespace stepline::app
