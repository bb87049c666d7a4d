// TensorBoard / XProf log directories: finds the `plugins/profile/<run>/`
// folders under a directory (any depth), the trace files of each run, and
// which one `stepline DIR` opens. File-system reads only; no loading.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/result.h"

namespace stepline::app {

// One trace file of a run: a host's `<host>.xplane.pb`, or a `*.trace.json.gz`
// / `*.pt.trace.json(.gz)` (one per host or rank).
struct RunTrace {
  std::string host;  // the file name without its trace suffix
  std::string path;
  uint64_t bytes = 0;
  int64_t mtime_s = 0;  // seconds since the Unix epoch
};

struct ProfileRun {
  std::string name;  // the run folder's name (XProf: a timestamp such as 2024_05_01_12_30_00)
  std::string dir;
  int64_t mtime_s = 0;            // the newest of its trace files
  std::vector<RunTrace> traces;   // by host name
  uint64_t bytes() const;         // all its trace files
};

// True for the trace file names a run may hold (decoys such as
// `*.memory_profile.json.gz` or `*.overview_page.pb` are not traces).
bool IsRunTraceName(std::string_view file_name);

// Every run under `root`, newest first: the subfolders of each `plugins/profile`
// folder found at any depth that hold at least one trace file. When there is
// none and `root` itself holds trace files, `root` is the one run (a run
// folder given directly). Newest: when every run is named like an XProf
// timestamp (YYYY_MM_DD_HH_MM_SS) the latest name, else the latest mtime
// (ties: the greater name). An error names `root` when it cannot be read or
// holds no run.
Result<std::vector<ProfileRun>, std::string> FindProfileRuns(const std::string& root);

// What a path given to `stepline` opens: a file is itself; a directory is the
// first host of its newest run, with a sentence saying so.
struct ChosenTrace {
  std::string path;
  std::string note;  // "" for a file; else which run and host, and what else there is
};
Result<ChosenTrace, std::string> ChooseTrace(const std::string& path);

}  // namespace stepline::app
