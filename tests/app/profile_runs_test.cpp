// TensorBoard / XProf log directories (app/runs/profile_runs.h) and the rows of
// the Open folder picker (app/gui/run_picker.h), on generated logs trees
// with two runs, several hosts and decoy files.
#include "app/runs/profile_runs.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include <sstream>

#include "app/gui/run_picker.h"
#include "app/runs/rank_set.h"
#include "app/output/text_format.h"
#include "tests/app/command_test_helpers.h"
#include "tests/loaders/xspace_ranks_builder.h"

namespace stepline::app {
namespace {
namespace fs = std::filesystem;

void WriteBytes(const fs::path& path, size_t bytes) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << std::string(bytes, 'x');
}

void SetAge(const fs::path& path, int hours_ago) {
  fs::last_write_time(path, fs::file_time_type::clock::now() - std::chrono::hours(hours_ago));
}

// logs/train/plugins/profile/<run>/ twice (the older run named later, so
// only the dates can tell), three hosts in the newer one, decoys around.
fs::path MakeLogsTree(const std::string& name) {
  const fs::path root = MakeScratchDirRemovedAtExit(name) / "logs";
  const fs::path profile = root / "train" / "plugins" / "profile";
  WriteBytes(profile / "run_b" / "host0.xplane.pb", 100);  // older
  WriteBytes(profile / "run_b" / "host0.memory_profile.json.gz", 10);
  SetAge(profile / "run_b" / "host0.xplane.pb", 48);
  WriteBytes(profile / "run_a" / "worker1.xplane.pb", 300);
  WriteBytes(profile / "run_a" / "worker0.xplane.pb", 200);
  WriteBytes(profile / "run_a" / "rank2.pt.trace.json.gz", 50);
  WriteBytes(profile / "run_a" / "worker0.overview_page.pb", 10);       // decoy
  WriteBytes(profile / "run_a" / "worker0.input_pipeline.pb", 10);      // decoy
  WriteBytes(profile / "run_a" / "notes.json", 10);                     // decoy
  fs::create_directories(profile / "run_a" / "sub.xplane.pb");         // a folder named like a trace
  for (const char* host : {"worker1.xplane.pb", "worker0.xplane.pb", "rank2.pt.trace.json.gz"}) {
    SetAge(profile / "run_a" / host, 1);
  }
  fs::create_directories(profile / "empty_run");                        // no trace: not a run
  WriteBytes(root / "train" / "events.out.tfevents.123.host0", 10);     // decoy
  WriteBytes(root / "eval" / "plugins" / "other" / "x.xplane.pb", 10);  // not under plugins/profile
  return root;
}

TEST(ProfileRunsTest, FindsEveryRunNewestFirstWithItsHostsAndNoDecoys) {
  const fs::path root = MakeLogsTree("profile-runs-find");
  auto runs = FindProfileRuns(root.string());
  ASSERT_TRUE(runs.ok()) << runs.error();
  ASSERT_EQ(runs->size(), 2u);
  const ProfileRun& newest = runs->front();
  EXPECT_EQ(newest.name, "run_a");
  ASSERT_EQ(newest.traces.size(), 3u);
  EXPECT_EQ(newest.traces[0].host, "rank2");
  EXPECT_EQ(newest.traces[1].host, "worker0");
  EXPECT_EQ(newest.traces[2].host, "worker1");
  EXPECT_EQ(newest.traces[1].bytes, 200u);
  EXPECT_EQ(newest.bytes(), 550u);
  EXPECT_EQ((*runs)[1].name, "run_b");
  ASSERT_EQ((*runs)[1].traces.size(), 1u);
  EXPECT_EQ((*runs)[1].traces[0].host, "host0");
  EXPECT_GT(newest.mtime_s, (*runs)[1].mtime_s);
}

TEST(ProfileRunsTest, ChoosesTheFirstHostOfTheNewestRunAndSaysSo) {
  const fs::path root = MakeLogsTree("profile-runs-choose");
  auto chosen = ChooseTrace(root.string());
  ASSERT_TRUE(chosen.ok()) << chosen.error();
  EXPECT_EQ(fs::path(chosen->path).filename(), "rank2.pt.trace.json.gz");
  EXPECT_EQ(fs::path(chosen->path).parent_path().filename(), "run_a");
  EXPECT_NE(chosen->note.find("run run_a, newest of 2 runs"), std::string::npos) << chosen->note;
  EXPECT_NE(chosen->note.find("first of 3 hosts"), std::string::npos) << chosen->note;
  EXPECT_NE(chosen->note.find(chosen->path), std::string::npos) << chosen->note;
}

TEST(ProfileRunsTest, TimestampNamedRunsAreOrderedByName) {
  // XProf names runs by their start; a copied tree loses the dates, not the names.
  const fs::path root = MakeScratchDirRemovedAtExit("profile-runs-names") / "logs" / "plugins" / "profile";
  WriteBytes(root / "2024_05_01_12_30_00" / "h.xplane.pb", 10);
  WriteBytes(root / "2024_05_02_08_00_00" / "h.xplane.pb", 10);
  SetAge(root / "2024_05_02_08_00_00" / "h.xplane.pb", 24);  // the newer run has the older file
  auto runs = FindProfileRuns(root.parent_path().parent_path().string());
  ASSERT_TRUE(runs.ok()) << runs.error();
  ASSERT_EQ(runs->size(), 2u);
  EXPECT_EQ(runs->front().name, "2024_05_02_08_00_00");
}

TEST(ProfileRunsTest, ARunFolderGivenDirectlyIsItsOwnRun) {
  const fs::path run = MakeScratchDirRemovedAtExit("profile-runs-direct") / "my_run";
  WriteBytes(run / "host.trace.json.gz", 10);
  auto chosen = ChooseTrace(run.string());
  ASSERT_TRUE(chosen.ok()) << chosen.error();
  EXPECT_EQ(fs::path(chosen->path).filename(), "host.trace.json.gz");
  EXPECT_NE(chosen->note.find("the only run"), std::string::npos) << chosen->note;
}

TEST(ProfileRunsTest, AnEmptyTreeIsAClearError) {
  const fs::path root = MakeScratchDirRemovedAtExit("profile-runs-empty") / "logs";
  fs::create_directories(root / "plugins" / "profile" / "run_without_traces");
  WriteBytes(root / "plugins" / "profile" / "run_without_traces" / "x.overview_page.pb", 10);
  auto chosen = ChooseTrace(root.string());
  ASSERT_FALSE(chosen.ok());
  EXPECT_NE(chosen.error().find(root.string()), std::string::npos) << chosen.error();
  EXPECT_NE(chosen.error().find("no profile run found"), std::string::npos) << chosen.error();
  EXPECT_FALSE(FindProfileRuns((root / "missing").string()).ok());
}

TEST(ProfileRunsTest, AFileIsChosenAsItIs) {
  auto chosen = ChooseTrace("/some/where/trace.json");
  ASSERT_TRUE(chosen.ok());
  EXPECT_EQ(chosen->path, "/some/where/trace.json");
  EXPECT_EQ(chosen->note, "");
}

TEST(ProfileRunsTest, TraceNames) {
  EXPECT_TRUE(IsRunTraceName("host.xplane.pb"));
  EXPECT_TRUE(IsRunTraceName("a.trace.json.gz"));
  EXPECT_TRUE(IsRunTraceName("a.pt.trace.json"));
  EXPECT_TRUE(IsRunTraceName("a.pt.trace.json.gz"));
  EXPECT_FALSE(IsRunTraceName(".xplane.pb"));
  EXPECT_FALSE(IsRunTraceName("a.memory_profile.json.gz"));
  EXPECT_FALSE(IsRunTraceName("a.trace.json"));
  EXPECT_FALSE(IsRunTraceName("a.overview_page.pb"));
}

TEST(RunPickerTest, ListsEveryRunAndHostWithDateAndSize) {
  const fs::path root = MakeLogsTree("run-picker-rows");
  auto runs = FindProfileRuns(root.string());
  ASSERT_TRUE(runs.ok()) << runs.error();
  const std::vector<RunPickerRow> rows = RunPickerRows(*runs);
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0].run, "run_a");
  EXPECT_TRUE(rows[0].newest);
  EXPECT_EQ(rows[1].run, "");  // the same run's next host
  EXPECT_EQ(rows[1].host, "worker0");
  EXPECT_EQ(rows[1].size, "200 B");
  EXPECT_EQ(rows[3].run, "run_b");
  EXPECT_FALSE(rows[3].newest);
  EXPECT_EQ(fs::path(rows[3].path).filename(), "host0.xplane.pb");
  for (const RunPickerRow& row : rows) {
    ASSERT_EQ(row.date.size(), 16u) << row.date;  // YYYY-MM-DD HH:MM
    EXPECT_EQ(row.date[4], '-');
    EXPECT_EQ(row.date[13], ':');
  }
  RunPicker picker;
  picker.Open(root.string());
  EXPECT_EQ(picker.rows().size(), 4u);
  EXPECT_EQ(picker.error(), "");
}

// `stepline info DIR` opens the newest run's trace and says which it chose.
TEST(ProfileRunsTest, InfoAcceptsALogDirectory) {
  const fs::path root = MakeScratchDirRemovedAtExit("profile-runs-info") / "logs";
  const fs::path run = root / "plugins" / "profile" / "2024_05_01_12_30_00";
  fs::create_directories(run);
  WriteDemoJson("baseline", demo::DemoStyle::kPyTorch, (run / "host0.pt.trace.json").string());
  const RunOutput r = RunCommand(RunInfo, {root.string(), "--json"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("opened " + (run / "host0.pt.trace.json").string()), std::string::npos) << r.err;
  EXPECT_EQ(r.out.front(), '{');  // stdout stays one JSON object
  // report and export take the directory the same way.
  const RunOutput report = RunCommand(RunReport, {root.string(), "--json"});
  EXPECT_EQ(report.code, 0) << report.err;
  EXPECT_NE(report.err.find("opened " + (run / "host0.pt.trace.json").string()), std::string::npos) << report.err;
  const std::string db = (root.parent_path() / "out.db").string();
  const RunOutput exported = RunCommand(RunExport, {root.string(), "--sqlite", db});
  EXPECT_EQ(exported.code, 0) << exported.err;
  EXPECT_TRUE(fs::exists(db));
  fs::remove_all(run);
  const RunOutput none = RunCommand(RunInfo, {root.string()});
  EXPECT_EQ(none.code, 1);
  EXPECT_NE(none.err.find("no profile run found"), std::string::npos) << none.err;
}

// Three XProf runs of XSpace hosts (2, 3 and 2 hosts), named by timestamp.
fs::path MakeXSpaceRunsTree(const std::string& name) {
  const fs::path root = MakeScratchDirRemovedAtExit(name) / "logs";
  const std::pair<const char*, int> runs[] = {
      {"2024_05_01_10_00_00", 2}, {"2024_05_01_12_00_00", 2}, {"2024_05_01_11_00_00", 3}};
  for (const auto& [run, hosts] : runs) {
    ::stepline::testing::XlaRunPlan plan;
    plan.hosts = hosts;
    plan.steps = 2;
    plan.straggler = 1;
    const fs::path dir = root / "plugins" / "profile" / run;
    fs::create_directories(dir);
    for (int h = 0; h < hosts; ++h) {
      std::ofstream(dir / ("host-" + std::to_string(h) + ".xplane.pb"), std::ios::binary)
          << ::stepline::testing::XlaRunHost(plan, h);
    }
  }
  return root;
}

// The ranks view's run picker: every run, newest first, with its hosts, date
// and size, the loaded one marked; a chosen run loads that run's hosts.
TEST(RanksRunPickerTest, ListsTheRunsNewestFirstAndLoadsTheChosenOne) {
  const fs::path root = MakeXSpaceRunsTree("ranks-run-picker");
  auto runs = FindProfileRuns(root.string());
  ASSERT_TRUE(runs.ok()) << runs.error();
  const std::vector<ui::RanksRunChoice> choices = RanksRunChoices(*runs, 1);
  ASSERT_EQ(choices.size(), 3u);
  const char* order[] = {"2024_05_01_12_00_00", "2024_05_01_11_00_00", "2024_05_01_10_00_00"};
  const size_t hosts[] = {2, 3, 2};
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(choices[i].run, order[i]);
    EXPECT_EQ(fs::path(choices[i].dir).filename(), order[i]);
    EXPECT_EQ(choices[i].hosts, hosts[i]);
    EXPECT_EQ(choices[i].current, i == 1);
    ASSERT_EQ(choices[i].date.size(), 16u) << choices[i].date;  // YYYY-MM-DD HH:MM
    uint64_t bytes = 0;
    for (const fs::directory_entry& e : fs::directory_iterator(choices[i].dir)) bytes += e.file_size();
    EXPECT_EQ(choices[i].size, FormatBytes(bytes));
  }
  EXPECT_TRUE(RanksRunChoices(std::vector<ProfileRun>(runs->begin(), runs->begin() + 1), 0).empty());

  // Loading the tree: the newest run, the runs listed.
  RanksRun newest;
  std::ostringstream err;
  ASSERT_EQ(LoadRankSet({root.string()}, 2, &newest, err), "");
  EXPECT_EQ(newest.ranks.size(), 2u);
  EXPECT_EQ(newest.runs.size(), 3u);
  EXPECT_EQ(newest.run_index, 0u);
  EXPECT_EQ(newest.runs_root, root.string());
  EXPECT_NE(err.str().find("the newest of 3 runs"), std::string::npos) << err.str();
  // The run the picker chose: its 3 hosts.
  RanksRun chosen;
  err.str("");
  ASSERT_EQ(LoadRankSet({root.string()}, 2, &chosen, err, choices[1].dir), "");
  EXPECT_EQ(chosen.ranks.size(), 3u);
  EXPECT_EQ(chosen.run_index, 1u);
  EXPECT_NE(chosen.ranks[0].path.find("2024_05_01_11_00_00"), std::string::npos);
  EXPECT_TRUE(RanksRunChoices(chosen.runs, chosen.run_index)[1].current);
  EXPECT_NE(err.str().find("one of 3 runs"), std::string::npos) << err.str();
  // A run that is not in the tree is named.
  RanksRun bad;
  const std::string e = LoadRankSet({root.string()}, 2, &bad, err, "/nowhere/run");
  EXPECT_NE(e.find("/nowhere/run: not a run of"), std::string::npos) << e;
}

}  // namespace
}  // namespace stepline::app
