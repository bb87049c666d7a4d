// Finding TensorBoard / XProf profile runs and choosing the trace to open;
// see profile_runs.h.
#include "app/runs/profile_runs.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <filesystem>

namespace stepline::app {
namespace fs = std::filesystem;
namespace {

// Longest first, so "x.pt.trace.json.gz" loses ".pt.trace.json.gz", not ".trace.json.gz".
constexpr std::array<std::string_view, 4> kTraceSuffixes = {".pt.trace.json.gz", ".pt.trace.json", ".trace.json.gz",
                                                             ".xplane.pb"};

std::string_view TraceSuffix(std::string_view name) {
  for (std::string_view suffix : kTraceSuffixes) {
    if (name.size() > suffix.size() && name.ends_with(suffix)) return suffix;
  }
  return {};
}

int64_t MtimeSeconds(const fs::path& path) {
  std::error_code ec;
  const fs::file_time_type t = fs::last_write_time(path, ec);
  if (ec) return 0;
  const auto system = std::chrono::file_clock::to_sys(t);
  return std::chrono::duration_cast<std::chrono::seconds>(system.time_since_epoch()).count();
}

// The run in `dir` when it holds at least one trace file (regular files only).
bool ReadRun(const fs::path& dir, ProfileRun* run) {
  std::error_code ec;
  fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
  if (ec) return false;
  run->name = dir.filename().string();
  run->dir = dir.string();
  for (const fs::directory_entry& entry : it) {
    const std::string name = entry.path().filename().string();
    const std::string_view suffix = TraceSuffix(name);
    if (suffix.empty() || !entry.is_regular_file(ec)) continue;
    RunTrace trace;
    trace.host = name.substr(0, name.size() - suffix.size());
    trace.path = entry.path().string();
    trace.bytes = entry.file_size(ec);
    trace.mtime_s = MtimeSeconds(entry.path());
    run->mtime_s = std::max(run->mtime_s, trace.mtime_s);
    run->traces.push_back(std::move(trace));
  }
  std::sort(run->traces.begin(), run->traces.end(),
            [](const RunTrace& a, const RunTrace& b) { return a.host < b.host; });
  return !run->traces.empty();
}

// XProf names a run after its start time: 2024_05_01_12_30_00.
bool IsTimestampName(std::string_view name) {
  if (name.size() != 19) return false;
  for (size_t i = 0; i < name.size(); ++i) {
    const bool separator = i == 4 || i == 7 || i == 10 || i == 13 || i == 16;
    if (separator ? name[i] != '_' : (name[i] < '0' || name[i] > '9')) return false;
  }
  return true;
}

void SortNewestFirst(std::vector<ProfileRun>* runs) {
  const bool by_name = std::all_of(runs->begin(), runs->end(), [](const ProfileRun& r) { return IsTimestampName(r.name); });
  std::sort(runs->begin(), runs->end(), [by_name](const ProfileRun& a, const ProfileRun& b) {
    if (!by_name && a.mtime_s != b.mtime_s) return a.mtime_s > b.mtime_s;
    if (a.name != b.name) return a.name > b.name;
    return a.dir < b.dir;
  });
}

std::string Plural(size_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

}  // namespace

uint64_t ProfileRun::bytes() const {
  uint64_t total = 0;
  for (const RunTrace& t : traces) total += t.bytes;
  return total;
}

bool IsRunTraceName(std::string_view file_name) { return !TraceSuffix(file_name).empty(); }

Result<std::vector<ProfileRun>, std::string> FindProfileRuns(const std::string& root) {
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return MakeUnexpected(root + ": not a directory");
  std::vector<ProfileRun> runs;
  // Symlinks are not followed, so a link cycle cannot make the walk endless.
  fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec);
  if (ec) return MakeUnexpected("cannot read " + root + ": " + ec.message());
  for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) return MakeUnexpected("cannot read " + root + ": " + ec.message());
    const fs::path& p = it->path();
    if (p.filename() != "profile" || p.parent_path().filename() != "plugins" || !it->is_directory(ec)) continue;
    for (const fs::directory_entry& sub : fs::directory_iterator(p, fs::directory_options::skip_permission_denied, ec)) {
      ProfileRun run;
      if (sub.is_directory(ec) && ReadRun(sub.path(), &run)) runs.push_back(std::move(run));
    }
    it.disable_recursion_pending();  // the runs are read; nothing deeper is another run
  }
  if (runs.empty()) {
    ProfileRun run;
    if (ReadRun(fs::path(root), &run)) runs.push_back(std::move(run));
  }
  if (runs.empty()) {
    return MakeUnexpected(root +
                          ": no profile run found (expected plugins/profile/<run>/ holding <host>.xplane.pb, "
                          "*.trace.json.gz or *.pt.trace.json[.gz])");
  }
  SortNewestFirst(&runs);
  return runs;
}

Result<ChosenTrace, std::string> ChooseTrace(const std::string& path) {
  std::error_code ec;
  if (!fs::is_directory(path, ec)) return ChosenTrace{path, ""};
  auto runs = FindProfileRuns(path);
  if (!runs) return MakeUnexpected(runs.error());
  const ProfileRun& run = runs->front();
  const RunTrace& trace = run.traces.front();
  std::string note = path + ": opened " + trace.path + " (run " + run.name;
  note += runs->size() == 1 ? ", the only run" : ", newest of " + Plural(runs->size(), "run", "runs");
  if (run.traces.size() > 1) {
    note += "; host " + trace.host + ", first of " + Plural(run.traces.size(), "host", "hosts") +
            ": all of them side by side with stepline ranks " + path;
  }
  note += ")";
  return ChosenTrace{trace.path, std::move(note)};
}

}  // namespace stepline::app
