// A set of rank traces: finding the files, loading and
// summarizing them in parallel (each Trace freed after its summary), reading
// `report --json` summaries instead, and numbering the ranks. Shared by
// `stepline ranks` and `screenshot --view ranks`.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "app/runs/profile_runs.h"
#include "model/analysis/ranks_analysis.h"

namespace stepline::app {

struct RankFailure {
  std::string path;
  std::string error;
};

struct RanksRun {
  std::vector<analysis::RankSummary> ranks;  // loaded, sorted by rank
  std::vector<RankFailure> failed;           // files that did not load
  analysis::RanksAnalysis analysis;
  double load_ms = 0;                        // wall time of loading + summarizing every rank
  // A TensorBoard tree given as the one path: its runs (newest first), the
  // one loaded, and the tree's root, so the window can offer the others.
  std::vector<ProfileRun> runs;
  size_t run_index = 0;
  std::string runs_root;
};

// Which run of a TensorBoard tree to load, and what was found there.
struct RunSelection {
  std::string wanted_dir;  // a ProfileRun::dir; "" = the newest run
  // Out: the tree's runs (newest first) and the index of the one loaded;
  // empty when no path was a TensorBoard tree.
  std::vector<ProfileRun> runs;
  size_t index = 0;
  std::string root;
};
// The files of `paths`: files as given, directories walked recursively for
// *.json[.gz|.zst] and *.xplane.pb (a TensorBoard tree: its newest run, or
// `selection->wanted_dir`; the others named on `err`). Returns an error
// message, or "". `selection` may be null.
std::string CollectRankFiles(const std::vector<std::string>& paths, std::vector<std::string>* files, std::ostream& err,
                             RunSelection* selection = nullptr);
// Loads and summarizes every file, `threads` at a time, into run->ranks;
// files that fail go to run->failed.
void LoadRanks(const std::vector<std::string>& files, int threads, RanksRun* run);
// The rank summaries of the `report --json` files (*.json) under `dir`.
std::string ReadRankReports(const std::string& dir, int threads, RanksRun* run);
// Numbers the ranks without distributedInfo and sorts them: XSpace files
// (`<host>.xplane.pb`, one rank per host) by the natural order of their host
// names (rank_source "host_name"; "host-2" before "host-10"), others by the
// file name, parallel coordinates, else the order. Fails when two claim one rank.
std::string AssignRanks(std::vector<analysis::RankSummary>* ranks);
// The host of an XSpace file name ("host-3.xplane.pb" -> "host-3"); "" for other files.
std::string XSpaceHostName(std::string_view file_name);
// All of the above and AnalyzeRanks: "" or the error that stops the analysis.
// `wanted_run_dir` picks a run of a TensorBoard tree (RunSelection); run->runs
// lists the tree's runs.
std::string LoadRankSet(const std::vector<std::string>& paths, int threads, RanksRun* run, std::ostream& err,
                        const std::string& wanted_run_dir = "");
// `shown` with the rank read from `path` loaded again (a rank file changed on
// disk): the other ranks' summaries are kept, the rank keeps its number when
// its file does not carry one, and the run is analysed again. "" or the
// error (the file no longer loads, or no rank of `shown` is read from it).
std::string ReloadRank(const RanksRun& shown, const std::string& path, int threads, RanksRun* run);

}  // namespace stepline::app
