// `stepline ranks` and `stepline demo ddp-straggler`: the JSON
// shape, rank identity and its source, missing ranks, mixed runs, a rank file
// that fails to load, --csv, and `report` on a directory pointing to `ranks`.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "app/cli/commands.h"
#include "app/runs/rank_set.h"
#include "model/analysis/headline.h"
#include "model/json_value.h"
#include "tests/app/command_test_helpers.h"
#include "tests/loaders/xspace_ranks_builder.h"

namespace stepline::app {
namespace {

namespace fs = std::filesystem;
using ::stepline::JsonValue;
using ::stepline::ParseJson;

fs::path WriteDemo(const std::string& name, int ranks, int skew_us = 0) {
  const fs::path dir = MakeScratchDirRemovedAtExit(name);
  const RunOutput r = RunCommand(RunDemo, {"ddp-straggler", "--ranks", std::to_string(ranks), "--out", dir.string(),
                                           "--steps", "4", "--kernels", "6", "--skew-us", std::to_string(skew_us),
                                           "--force"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("planted: rank " + std::to_string(ranks / 2) + " input-bound"), std::string::npos) << r.out;
  return dir;
}

void WriteText(const fs::path& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << text;
}

// The text table's steps and mean step are the headline figures the ranks
// view's table draws (headline.h), each rank's from its --json values.
TEST(CmdRanksTest, TextTableShowsEachRanksHeadlineFigures) {
  const fs::path dir = WriteDemo("ranks-headline", 3);
  const RunOutput text = RunCommand(RunRanks, {dir.string()});
  const RunOutput json = RunCommand(RunRanks, {dir.string(), "--json"});
  ASSERT_EQ(text.code, 0) << text.err;
  const std::optional<JsonValue> j = ParseJson(json.out);
  ASSERT_TRUE(j) << json.out;
  EXPECT_NE(text.out.find("mean step"), std::string::npos) << text.out;
  for (const JsonValue& rank : Member(*j, "ranks").items) {
    const analysis::Headline h = analysis::RankHeadline(Number(Member(rank, "steps")), Number(Member(rank, "step_mean_ns")));
    const std::string mean = analysis::HeadlineText(h, analysis::HeadlineFigure::kStepMean);
    ASSERT_NE(mean, "-");
    // The rank's row: its number, its source, its steps, then the mean as the window prints it.
    const std::string row_start = std::to_string(Number(Member(rank, "rank"))) + std::string(" ");
    bool found = false;
    std::istringstream lines(text.out);
    for (std::string line; std::getline(lines, line);) {
      if (line.find(Member(rank, "path").text) != std::string::npos && line.find(" " + mean + " ") != std::string::npos) {
        found = true;
      }
    }
    EXPECT_TRUE(found) << "no row of rank " << row_start << "shows the mean step " << mean << "\n" << text.out;
  }
}

TEST(CmdRanksTest, JsonHasTheIssueShapeAndFindsTheStraggler) {
  const fs::path dir = WriteDemo("ranks-json", 4, 7000);
  const RunOutput r = RunCommand(RunRanks, {dir.string(), "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::optional<JsonValue> j = ParseJson(r.out);
  ASSERT_TRUE(j) << r.out;
  EXPECT_EQ(j->Keys(), (std::vector<std::string>{"ranks", "straggler", "collectives", "recommendations",
                                                  "world_size", "missing_ranks", "failed"}));
  const JsonValue& ranks = Member(*j, "ranks");
  ASSERT_EQ(ranks.items.size(), 4u);
  EXPECT_EQ(ranks.items[0].Keys(),
            (std::vector<std::string>{"rank", "path", "host", "rank_source", "steps", "step_mean_ns", "breakdown",
                                      "collective_wait_ns_per_step", "collective_transfer_ns_per_step",
                                      "late_ns_per_step", "overlap_percent", "clock_offset_ns", "idle_by_cause"}));
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(Number(Member(ranks.items[i], "rank")), static_cast<int64_t>(i));
    EXPECT_EQ(Member(ranks.items[i], "rank_source").text, "distributed_info");
    EXPECT_EQ(Member(ranks.items[i], "host").text, "node0");
    EXPECT_NEAR(static_cast<double>(Number(Member(ranks.items[i], "clock_offset_ns"))), 7e6 * static_cast<double>(i),
                20'000);
  }
  const JsonValue& s = Member(*j, "straggler");
  EXPECT_EQ(Number(Member(s, "rank")), 2);
  EXPECT_EQ(Member(s, "cause").text, "input");
  ASSERT_FALSE(Member(s, "blamed").items.empty());
  EXPECT_EQ(Member(s, "blamed").items[0].text, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__");
  EXPECT_GT(Number(Member(s, "late_ns_per_step")), 20'000'000);
  EXPECT_EQ(Number(Member(Member(*j, "collectives"), "matched")), 4);
  EXPECT_EQ(Number(Member(Member(*j, "collectives"), "unmatched")), 0);
  ASSERT_EQ(Member(*j, "recommendations").items.size(), 1u);
  EXPECT_EQ(Member(*j, "recommendations").items[0].text.rfind("Rank 2 arrives ", 0), 0u);
}

TEST(CmdRanksTest, MissingRanksAreNamedAndTheRestAnalysed) {
  const fs::path dir = WriteDemo("ranks-missing", 6);
  fs::remove(dir / "rank-1.pt.trace.json");
  fs::remove(dir / "rank-5.pt.trace.json");
  const RunOutput r = RunCommand(RunRanks, {dir.string(), "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("2 of 6 ranks missing"), std::string::npos) << r.err;
  const std::optional<JsonValue> j = ParseJson(r.out);
  ASSERT_TRUE(j);
  ASSERT_EQ(Member(*j, "missing_ranks").items.size(), 2u);
  EXPECT_EQ(Number(Member(*j, "missing_ranks").items[0]), 1);
  EXPECT_EQ(Number(Member(*j, "missing_ranks").items[1]), 5);
  EXPECT_EQ(Member(*j, "ranks").items.size(), 4u);
  EXPECT_EQ(Number(Member(Member(*j, "straggler"), "rank")), 3);
}

TEST(CmdRanksTest, MixedRunsAreRefusedNamingTheFiles) {
  const fs::path four = WriteDemo("ranks-mixed-a", 4), three = WriteDemo("ranks-mixed-b", 3);
  const RunOutput r = RunCommand(RunRanks, {(four / "rank-0.pt.trace.json").string(),
                                            (three / "rank-1.pt.trace.json").string()});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("files of different runs"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find((four / "rank-0.pt.trace.json").string() + " (world_size 4)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find((three / "rank-1.pt.trace.json").string() + " (world_size 3)"), std::string::npos) << r.err;
  // Two files claiming one rank are two runs too.
  const RunOutput same = RunCommand(RunRanks, {(four / "rank-0.pt.trace.json").string(),
                                               (WriteDemo("ranks-mixed-c", 4) / "rank-0.pt.trace.json").string()});
  EXPECT_EQ(same.code, 1);
  EXPECT_NE(same.err.find("are both rank 0"), std::string::npos) << same.err;
}

TEST(CmdRanksTest, AFileThatFailsToLoadIsNamedAndTheOthersAnalysed) {
  const fs::path dir = WriteDemo("ranks-broken", 4);
  WriteText(dir / "rank-3.pt.trace.json", "\x01 not a trace");
  const RunOutput r = RunCommand(RunRanks, {dir.string(), "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("rank-3.pt.trace.json failed to load"), std::string::npos) << r.err;
  const std::optional<JsonValue> j = ParseJson(r.out);
  ASSERT_TRUE(j);
  ASSERT_EQ(Member(*j, "failed").items.size(), 1u);
  EXPECT_NE(Member(Member(*j, "failed").items[0], "path").text.find("rank-3"), std::string::npos);
  EXPECT_EQ(Member(*j, "ranks").items.size(), 3u);
  EXPECT_EQ(Number(Member(Member(*j, "straggler"), "rank")), 2);
  EXPECT_EQ(Number(Member(*j, "missing_ranks").items.at(0)), 3);
}

TEST(CmdRanksTest, RankIdentityFallsBackToFileNameThenOrder) {
  const fs::path dir = WriteDemo("ranks-names", 3);
  const fs::path out = MakeScratchDirRemovedAtExit("ranks-names-out");
  const char* names[] = {"a.json", "trace_worker_1.json", "zz.json"};  // rank 0 by order, 1 by name, 2 by order
  for (int r = 0; r < 3; ++r) {
    std::string text = ReadFile((dir / ("rank-" + std::to_string(r) + ".pt.trace.json")).string());
    const std::string info = "\"distributedInfo\":{\"backend\":\"nccl\",\"rank\":" + std::to_string(r) +
                             ",\"world_size\":3},";
    const size_t at = text.find(info);
    ASSERT_NE(at, std::string::npos);
    text.erase(at, info.size());
    WriteText(out / names[r], text);
  }
  const RunOutput r = RunCommand(RunRanks, {out.string(), "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::optional<JsonValue> j = ParseJson(r.out);
  ASSERT_TRUE(j);
  const JsonValue& ranks = Member(*j, "ranks");
  ASSERT_EQ(ranks.items.size(), 3u);
  EXPECT_EQ(Member(ranks.items[0], "rank_source").text, "order");
  EXPECT_NE(Member(ranks.items[0], "path").text.find("a.json"), std::string::npos);
  EXPECT_EQ(Member(ranks.items[1], "rank_source").text, "file_name");
  EXPECT_NE(Member(ranks.items[1], "path").text.find("worker_1"), std::string::npos);
  EXPECT_EQ(Member(ranks.items[2], "rank_source").text, "order");
  EXPECT_EQ(Number(Member(Member(*j, "straggler"), "rank")), 1);
}

// A TensorBoard run of 4 XSpace hosts (tests/loaders/xspace_ranks_builder.h,
// host 2 input-bound, clocks 7 ms apart) is one job of 4 ranks: ranks from
// the host names, the XLA all-reduce matched, the straggler found.
TEST(CmdRanksTest, ATensorBoardRunOfXSpaceHostsIsOneJob) {
  const fs::path root = MakeScratchDirRemovedAtExit("ranks-xspace") / "logs";
  const fs::path run = root / "plugins" / "profile" / "2024_05_01_12_00_00";
  fs::create_directories(run);
  ::stepline::testing::XlaRunPlan plan;
  plan.skew_ns = 7'000'000;
  for (int h = 0; h < plan.hosts; ++h) {
    WriteText(run / ("host-" + std::to_string(h) + ".xplane.pb"), ::stepline::testing::XlaRunHost(plan, h));
  }
  const RunOutput r = RunCommand(RunRanks, {root.string(), "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::optional<JsonValue> j = ParseJson(r.out);
  ASSERT_TRUE(j) << r.out;
  const JsonValue& ranks = Member(*j, "ranks");
  ASSERT_EQ(ranks.items.size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(Number(Member(ranks.items[i], "rank")), static_cast<int64_t>(i));
    EXPECT_EQ(Member(ranks.items[i], "rank_source").text, "host_name");
    EXPECT_EQ(Member(ranks.items[i], "host").text, "host-" + std::to_string(i));
    EXPECT_EQ(Number(Member(ranks.items[i], "clock_offset_ns")), 7'000'000 * static_cast<int64_t>(i));
  }
  EXPECT_EQ(Number(Member(Member(*j, "collectives"), "matched")), 2 * plan.steps);
  EXPECT_EQ(Number(Member(Member(*j, "collectives"), "unmatched")), 0);
  EXPECT_EQ(Number(Member(Member(*j, "straggler"), "rank")), 2);
  EXPECT_EQ(Member(*j, "missing_ranks").items.size(), 0u);
}

// Host names in natural order: w-9 is rank 0, w-10 rank 1 (a plain sort
// would put w-10 first), so the input-bound host (w-10) is rank 1.
TEST(CmdRanksTest, XSpaceHostsAreRankedInTheNaturalOrderOfTheirNames) {
  const fs::path run = MakeScratchDirRemovedAtExit("ranks-xspace-names") / "run";
  fs::create_directories(run);
  ::stepline::testing::XlaRunPlan plan;
  plan.hosts = 2;
  plan.steps = 3;
  plan.straggler = 1;
  WriteText(run / "w-9.xplane.pb", ::stepline::testing::XlaRunHost(plan, 0));
  WriteText(run / "w-10.xplane.pb", ::stepline::testing::XlaRunHost(plan, 1));
  const RunOutput r = RunCommand(RunRanks, {run.string(), "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::optional<JsonValue> j = ParseJson(r.out);
  ASSERT_TRUE(j) << r.out;
  const JsonValue& ranks = Member(*j, "ranks");
  ASSERT_EQ(ranks.items.size(), 2u);
  EXPECT_NE(Member(ranks.items[0], "path").text.find("w-9.xplane.pb"), std::string::npos);
  EXPECT_EQ(Member(ranks.items[0], "host").text, "host-0");  // XSpace.hostnames wins over the file name
  EXPECT_NE(Member(ranks.items[1], "path").text.find("w-10.xplane.pb"), std::string::npos);
  EXPECT_EQ(Number(Member(Member(*j, "straggler"), "rank")), 1);
  EXPECT_EQ(XSpaceHostName("w-10.xplane.pb"), "w-10");
  EXPECT_EQ(XSpaceHostName("rank0.json"), "");
}

TEST(CmdRanksTest, CsvHasOneRowPerRankAndTextNamesTheStraggler) {
  const fs::path dir = WriteDemo("ranks-csv", 4);
  const fs::path csv = MakeScratchDirRemovedAtExit("ranks-csv-out");
  const RunOutput r = RunCommand(RunRanks, {dir.string(), "--csv", csv.string(), "--force"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("straggler        rank 2"), std::string::npos) << r.out;
  const std::string table = ReadFile((csv / "ranks.csv").string());
  EXPECT_EQ(std::count(table.begin(), table.end(), '\n'), 5);
  EXPECT_EQ(table.rfind("rank,path,host,rank_source,steps,step_mean_ns,compute_ns_per_step,", 0), 0u) << table;
}

TEST(CmdRanksTest, ReportOnARankDirectoryPointsToRanks) {
  const fs::path dir = WriteDemo("ranks-report", 2);
  const RunOutput r = RunCommand(RunReport, {dir.string(), "--json"});
  EXPECT_NE(r.err.find("stepline ranks " + dir.string()), std::string::npos) << r.err;
}

TEST(CmdRanksTest, BadArguments) {
  EXPECT_EQ(RunCommand(RunRanks, {}).code, 2);
  EXPECT_EQ(RunCommand(RunRanks, {"/nonexistent/ranks"}).code, 1);
  EXPECT_NE(RunCommand(RunDemo, {"ddp-straggler", "--ranks", "1", "--out", "/tmp/x"}).err.find("--ranks"),
            std::string::npos);
}

}  // namespace
}  // namespace stepline::app

namespace stepline::app {
namespace {

TEST(CmdRanksTest, FromReportsMergesReportJsonLikeTheTraces) {
  const fs::path dir = WriteDemo("ranks-reports", 4, 3000);
  const fs::path reports = MakeScratchDirRemovedAtExit("ranks-reports-json");
  for (int r = 0; r < 4; ++r) {
    const RunOutput rep = RunCommand(RunReport, {(dir / ("rank-" + std::to_string(r) + ".pt.trace.json")).string(), "--json"});
    ASSERT_EQ(rep.code, 0) << rep.err;
    ASSERT_NE(rep.out.find("\"rank_summary\""), std::string::npos);
    WriteText(reports / ("r" + std::to_string(r) + ".json"), rep.out);
  }
  const RunOutput merged = RunCommand(RunRanks, {"--from-reports", reports.string(), "--json"});
  const RunOutput direct = RunCommand(RunRanks, {dir.string(), "--json"});
  ASSERT_EQ(merged.code, 0) << merged.err;
  EXPECT_EQ(merged.out, direct.out);
  WriteText(reports / "r9.json", "{\"not\": \"a report\"}");
  const RunOutput one_bad = RunCommand(RunRanks, {"--from-reports", reports.string()});
  EXPECT_EQ(one_bad.code, 0);
  EXPECT_NE(one_bad.err.find("r9.json failed to load: " + (reports / "r9.json").string() + ": no \"rank_summary\""),
            std::string::npos)
      << one_bad.err;
  // A report of a trace with no rank carries no summary.
  const fs::path plain = MakeScratchDirRemovedAtExit("ranks-plain");
  WriteDemoJson("input-bound", demo::DemoStyle::kPyTorch, (plain / "t.json").string());
  EXPECT_EQ(RunCommand(RunReport, {(plain / "t.json").string(), "--json"}).out.find("rank_summary"), std::string::npos);
}

}  // namespace
}  // namespace stepline::app
