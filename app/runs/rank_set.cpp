// Loading a set of rank traces (see rank_set.h).
#include "app/runs/rank_set.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <ostream>
#include <thread>

#include "app/runs/cached_trace_load.h"
#include "app/runs/profile_runs.h"
#include "loaders/load.h"
#include "model/analysis/ranks_summary_json.h"
#include "model/worker_thread.h"

namespace stepline::app {
namespace fs = std::filesystem;
namespace {

bool IsRankFileName(std::string_view name) {
  return name.ends_with(".json") || name.ends_with(".json.gz") || name.ends_with(".json.zst") ||
         name.ends_with(".xplane.pb");
}

// Host names in natural order: runs of digits compare as numbers, so
// "host-2" comes before "host-10" (and "t1v-n-x-w-2" before "...-w-10").
bool NaturalLess(std::string_view a, std::string_view b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const bool da = std::isdigit(static_cast<unsigned char>(a[i])), db = std::isdigit(static_cast<unsigned char>(b[j]));
    if (da && db) {
      size_t ie = i, je = j;
      while (ie < a.size() && std::isdigit(static_cast<unsigned char>(a[ie]))) ++ie;
      while (je < b.size() && std::isdigit(static_cast<unsigned char>(b[je]))) ++je;
      std::string_view na = a.substr(i, ie - i), nb = b.substr(j, je - j);
      while (na.size() > 1 && na.front() == '0') na.remove_prefix(1);
      while (nb.size() > 1 && nb.front() == '0') nb.remove_prefix(1);
      if (na.size() != nb.size()) return na.size() < nb.size();
      if (na != nb) return na < nb;
      i = ie;
      j = je;
      continue;
    }
    if (a[i] != b[j]) return a[i] < b[j];
    ++i;
    ++j;
  }
  return a.size() - i < b.size() - j;
}

constexpr std::string_view kXPlaneSuffix = ".xplane.pb";

}  // namespace

std::string XSpaceHostName(std::string_view file_name) {
  return file_name.ends_with(kXPlaneSuffix) ? std::string(file_name.substr(0, file_name.size() - kXPlaneSuffix.size()))
                                            : std::string();
}

// The files of `paths`: files as given, directories walked recursively. A
// TensorBoard log directory gives its newest run.
std::string CollectRankFiles(const std::vector<std::string>& paths, std::vector<std::string>* files, std::ostream& err,
                             RunSelection* selection) {
  for (const std::string& path : paths) {
    std::error_code ec;
    if (!fs::is_directory(path, ec)) {
      if (!fs::exists(path, ec)) return path + ": no such file or directory";
      files->push_back(path);
      continue;
    }
    std::vector<std::string> found;
    bool tensorboard = false;
    fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, ec);
    if (ec) return "cannot read " + path + ": " + ec.message();
    for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (ec) return "cannot read " + path + ": " + ec.message();
      const fs::path& p = it->path();
      if (p.filename() == "profile" && p.parent_path().filename() == "plugins") tensorboard = true;
      if (it->is_regular_file(ec) && IsRankFileName(p.filename().string())) found.push_back(p.string());
    }
    if (tensorboard) {
      auto runs = FindProfileRuns(path);
      if (!runs) return runs.error();
      found.clear();
      size_t chosen = 0;
      if (selection && !selection->wanted_dir.empty()) {
        auto it = std::find_if(runs->begin(), runs->end(),
                               [&](const ProfileRun& r) { return r.dir == selection->wanted_dir; });
        if (it == runs->end()) return selection->wanted_dir + ": not a run of " + path;
        chosen = static_cast<size_t>(it - runs->begin());
      }
      for (const RunTrace& t : (*runs)[chosen].traces) found.push_back(t.path);
      if (runs->size() > 1) {
        err << "stepline ranks: " << path << ": run " << (*runs)[chosen].name
            << (chosen == 0 ? ", the newest of " : ", one of ") << runs->size() << " runs; the others:";
        for (size_t i = 0; i < runs->size(); ++i) {
          if (i != chosen) err << ' ' << (*runs)[i].dir;
        }
        err << "\n";
      }
      if (selection) {
        selection->runs = std::move(*runs);
        selection->index = chosen;
        selection->root = path;
      }
    }
    if (found.empty()) return path + ": no rank trace files found (*.json[.gz|.zst], *.xplane.pb)";
    std::sort(found.begin(), found.end());
    files->insert(files->end(), found.begin(), found.end());
  }
  std::sort(files->begin(), files->end());
  files->erase(std::unique(files->begin(), files->end()), files->end());
  return "";
}

// Loads and summarizes every file, `threads` at a time; each Trace lives
// only while its own rank is summarized.
void LoadRanks(const std::vector<std::string>& files, int threads, RanksRun* run) {
  std::vector<std::optional<analysis::RankSummary>> summaries(files.size());
  std::vector<std::string> errors(files.size());
  std::atomic<size_t> next{0};
  const int per_file = std::max(1, static_cast<int>(std::thread::hardware_concurrency()) /
                                       std::max(1, static_cast<int>(files.size())));
  const auto work = [&] {
    for (size_t i = next++; i < files.size(); i = next++) {
      loaders::LoadOptions options;
      options.threads = per_file;
      // Through the column cache like every command; the entry is written as
      // soon as the rank is summarized (not after the output, as the other
      // commands do) because keeping every rank's model until then would break
      // the one-model-per-thread memory bound.
      CachedTraceLoad load;
      auto& trace = load.Load(files[i], options);
      if (!trace) {
        errors[i] = trace.error().ToString();
        continue;
      }
      const analysis::TraceAnalysis a = analysis::ComputeAnalysis(trace.value());
      summaries[i] = analysis::SummarizeRank(trace.value(), a, files[i]);
    }
  };
  std::vector<WorkerThread> pool;
  const int n = std::clamp(threads, 1, static_cast<int>(std::max<size_t>(1, files.size())));
  for (int t = 1; t < n; ++t) pool.emplace_back(work);
  work();
  JoinAll(pool);
  loaders::ReleaseFreedMemory();
  for (size_t i = 0; i < files.size(); ++i) {
    if (summaries[i]) {
      run->ranks.push_back(std::move(*summaries[i]));
    } else {
      run->failed.push_back({files[i], errors[i]});
    }
  }
}

// Reads the rank summaries of `report --json` files under `dir`, `threads` at a time.
std::string ReadRankReports(const std::string& dir, int threads, RanksRun* run) {
  std::vector<std::string> files;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return dir + ": not a directory";
  for (fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file(ec) && it->path().extension() == ".json") files.push_back(it->path().string());
  }
  if (ec) return "cannot read " + dir + ": " + ec.message();
  if (files.empty()) return dir + ": no *.json report files";
  std::sort(files.begin(), files.end());
  std::vector<std::optional<analysis::RankSummary>> summaries(files.size());
  std::vector<std::string> errors(files.size());
  std::atomic<size_t> next{0};
  const auto work = [&] {
    for (size_t i = next++; i < files.size(); i = next++) {
      std::ifstream in(files[i], std::ios::binary);
      std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      if (!in && !in.eof()) {
        errors[i] = "cannot read " + files[i];
        continue;
      }
      auto s = analysis::RankSummaryFromJson(text, files[i]);
      if (s) {
        summaries[i] = std::move(s.value());
      } else {
        errors[i] = s.error();
      }
    }
  };
  std::vector<WorkerThread> pool;
  for (int t = 1; t < std::clamp(threads, 1, static_cast<int>(files.size())); ++t) pool.emplace_back(work);
  work();
  JoinAll(pool);
  for (size_t i = 0; i < files.size(); ++i) {
    if (summaries[i]) {
      run->ranks.push_back(std::move(*summaries[i]));
    } else {
      run->failed.push_back({files[i], errors[i]});
    }
  }
  return "";
}

// Numbers the ranks without distributedInfo: file name, else parallel
// coordinates, else the order. Fails when two files claim one rank.
std::string AssignRanks(std::vector<analysis::RankSummary>* ranks) {
  std::vector<std::pair<std::vector<int32_t>, size_t>> coords;
  std::vector<std::pair<std::string, size_t>> hosts;  // XSpace files: one rank per host
  for (size_t i = 0; i < ranks->size(); ++i) {
    analysis::RankSummary& s = (*ranks)[i];
    if (s.rank >= 0) continue;
    const std::string name = fs::path(s.path).filename().string();
    if (std::string host = XSpaceHostName(name); !host.empty()) {
      if (s.host.empty()) s.host = host;
      hosts.emplace_back(std::move(host), i);
    } else if (int32_t r = analysis::RankFromFileName(name); r >= 0) {
      s.rank = r;
      s.rank_source = "file_name";
    } else if (auto c = analysis::ParallelCoordinates(name); !c.empty()) {
      coords.emplace_back(std::move(c), i);
    }
  }
  // A TensorBoard run's hosts are ranks 0..n-1 in the natural order of their
  // file names (`<host>.xplane.pb`), as XProf lists them.
  std::sort(hosts.begin(), hosts.end(), [](const auto& a, const auto& b) { return NaturalLess(a.first, b.first); });
  for (size_t k = 0; k < hosts.size(); ++k) {
    (*ranks)[hosts[k].second].rank = static_cast<int32_t>(k);
    (*ranks)[hosts[k].second].rank_source = "host_name";
  }
  std::sort(coords.begin(), coords.end());
  for (size_t k = 0; k < coords.size(); ++k) {
    (*ranks)[coords[k].second].rank = static_cast<int32_t>(k);
    (*ranks)[coords[k].second].rank_source = "file_name";
  }
  std::vector<bool> used;
  for (const analysis::RankSummary& s : *ranks) {
    if (s.rank >= 0) {
      if (used.size() <= static_cast<size_t>(s.rank)) used.resize(static_cast<size_t>(s.rank) + 1);
      used[static_cast<size_t>(s.rank)] = true;
    }
  }
  int32_t free = 0;
  for (analysis::RankSummary& s : *ranks) {
    if (s.rank >= 0) continue;
    while (static_cast<size_t>(free) < used.size() && used[static_cast<size_t>(free)]) ++free;
    s.rank = free++;
    s.rank_source = "order";
  }
  std::sort(ranks->begin(), ranks->end(),
            [](const analysis::RankSummary& a, const analysis::RankSummary& b) { return a.rank < b.rank; });
  for (size_t i = 1; i < ranks->size(); ++i) {
    if ((*ranks)[i].rank == (*ranks)[i - 1].rank) {
      return "files of different runs: " + (*ranks)[i - 1].path + " and " + (*ranks)[i].path + " are both rank " +
             std::to_string((*ranks)[i].rank);
    }
  }
  return "";
}

std::string LoadRankSet(const std::vector<std::string>& paths, int threads, RanksRun* run, std::ostream& err,
                        const std::string& wanted_run_dir) {
  std::vector<std::string> files;
  RunSelection selection;
  selection.wanted_dir = wanted_run_dir;
  if (std::string e = CollectRankFiles(paths, &files, err, &selection); !e.empty()) return e;
  run->runs = std::move(selection.runs);
  run->run_index = selection.index;
  run->runs_root = std::move(selection.root);
  const auto t0 = std::chrono::steady_clock::now();
  LoadRanks(files, threads, run);
  run->load_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (run->ranks.empty()) return "no rank loaded";
  if (std::string e = AssignRanks(&run->ranks); !e.empty()) return e;
  run->analysis = analysis::AnalyzeRanks(run->ranks);
  return run->analysis.error;
}

std::string ReloadRank(const RanksRun& shown, const std::string& path, int threads, RanksRun* run) {
  *run = shown;
  const auto old = std::find_if(run->ranks.begin(), run->ranks.end(),
                                [&](const analysis::RankSummary& r) { return r.path == path; });
  if (old == run->ranks.end()) return path + " is not a rank of the run shown";
  RanksRun one;
  LoadRanks({path}, threads, &one);
  if (one.ranks.empty()) {
    return one.failed.empty() ? path + ": not loaded" : one.failed.front().path + ": " + one.failed.front().error;
  }
  analysis::RankSummary fresh = std::move(one.ranks.front());
  if (fresh.rank < 0) {  // numbered by its place in the set: the same place
    fresh.rank = old->rank;
    fresh.rank_source = old->rank_source;
    if (fresh.host.empty()) fresh.host = old->host;
  }
  *old = std::move(fresh);
  run->analysis = analysis::AnalyzeRanks(run->ranks);
  return run->analysis.error;
}

}  // namespace stepline::app
