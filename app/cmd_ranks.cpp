// `stepline ranks PATH... [--json] [--csv DIR]` (issue #20): every rank of one
// distributed run side by side. Finds the rank files, loads them in parallel
// (each rank's Trace is freed as soon as it is summarized), names each rank,
// and prints AnalyzeRanks (ranks_output.h).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <ostream>
#include <thread>

#include "app/cli_args.h"
#include "app/commands.h"
#include "app/profile_runs.h"
#include "app/ranks_output.h"
#include "loaders/export/file_publish.h"
#include "loaders/load.h"
#include "model/analysis/ranks_summary_json.h"

namespace stepline::app {
namespace fs = std::filesystem;
namespace {

constexpr std::string_view kRanksUsage =
    "usage: stepline ranks PATH... [--json] [--csv DIR [--force]] [--threads T]\n"
    "       stepline ranks --from-reports DIR [--json] [--csv DIR [--force]]\n"
    "  PATH    rank trace files, or directories searched recursively for them (*.json[.gz|.zst],\n"
    "          *.xplane.pb; under plugins/profile/ the newest run)\n"
    "  --json  print one JSON object (see README: stepline ranks)\n"
    "  --csv   write DIR/ranks.csv, one row per rank\n"
    "  --threads T  ranks loaded at once (default: every core)\n"
    "  --from-reports DIR  merge the `stepline report RANK_TRACE --json` outputs (*.json) under DIR\n"
    "          instead of loading traces: each carries its rank's summary (rank_summary)\n"
    "A rank's number comes from the trace's distributedInfo.rank, else its file name (rank-3, rank3,\n"
    "rank_3, worker3, -TP-0-DP-1-...), else the order of the files.\n";

bool IsRankFileName(std::string_view name) {
  return name.ends_with(".json") || name.ends_with(".json.gz") || name.ends_with(".json.zst") ||
         name.ends_with(".xplane.pb");
}

// The files of `paths`: files as given, directories walked recursively. A
// TensorBoard log directory gives its newest run.
std::string CollectFiles(const std::vector<std::string>& paths, std::vector<std::string>* files, std::ostream& err) {
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
      for (const RunTrace& t : runs->front().traces) found.push_back(t.path);
      if (runs->size() > 1) {
        err << "stepline ranks: " << path << ": run " << runs->front().name << ", the newest of " << runs->size()
            << " runs; the others:";
        for (size_t i = 1; i < runs->size(); ++i) err << ' ' << (*runs)[i].dir;
        err << "\n";
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
      auto trace = loaders::LoadFile(files[i], options);
      if (!trace) {
        errors[i] = trace.error().ToString();
        continue;
      }
      const analysis::TraceAnalysis a = analysis::ComputeAnalysis(trace.value());
      summaries[i] = analysis::SummarizeRank(trace.value(), a, files[i]);
    }
  };
  std::vector<std::thread> pool;
  const int n = std::clamp(threads, 1, static_cast<int>(std::max<size_t>(1, files.size())));
  for (int t = 1; t < n; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
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
std::string ReadReports(const std::string& dir, int threads, RanksRun* run) {
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
  std::vector<std::thread> pool;
  for (int t = 1; t < std::clamp(threads, 1, static_cast<int>(files.size())); ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
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
  for (size_t i = 0; i < ranks->size(); ++i) {
    analysis::RankSummary& s = (*ranks)[i];
    if (s.rank >= 0) continue;
    const std::string name = fs::path(s.path).filename().string();
    if (int32_t r = analysis::RankFromFileName(name); r >= 0) {
      s.rank = r;
      s.rank_source = "file_name";
    } else if (auto c = analysis::ParallelCoordinates(name); !c.empty()) {
      coords.emplace_back(std::move(c), i);
    }
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

std::string WriteCsv(const RanksRun& run, const std::string& dir, bool force, std::string* written) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return "cannot create directory " + dir + ": " + ec.message();
  const std::string path = (fs::path(dir) / "ranks.csv").string();
  std::string csv;
  AppendRanksCsv(run, &csv);
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f.write(csv.data(), static_cast<std::streamsize>(csv.size()));
    if (!f) return "cannot write " + tmp;
  }
  auto published = loaders::file_publish::Publish(tmp, path, force);
  if (!published.ok()) {
    fs::remove(tmp, ec);
    return published.error();
  }
  *written = path;
  return "";
}

}  // namespace

int RunRanks(const Args& args, std::ostream& out, std::ostream& err) {
  auto parsed = ParsedArgs::Parse(args, ArgSpec{{"--json", "--force", "--help"}, {"--csv", "--threads", "--from-reports"}});
  if (!parsed) {
    err << "stepline ranks: " << parsed.error() << '\n' << kRanksUsage;
    return 2;
  }
  if (parsed->Has("--help")) {
    out << kRanksUsage;
    return 0;
  }
  const std::optional<std::string> reports = parsed->Value("--from-reports");
  if (parsed->positionals().empty() == !reports) {
    err << "stepline ranks: expected PATH... or --from-reports DIR\n" << kRanksUsage;
    return 2;
  }
  const auto threads = parsed->IntValue("--threads", static_cast<int64_t>(std::max(1u, std::thread::hardware_concurrency())), 1, 1024);
  if (!threads) {
    err << "stepline ranks: " << threads.error() << '\n';
    return 2;
  }
  RanksRun run;
  const auto t0 = std::chrono::steady_clock::now();
  if (reports) {
    if (std::string e = ReadReports(*reports, static_cast<int>(*threads), &run); !e.empty()) {
      err << "stepline ranks: " << e << '\n';
      return 1;
    }
  } else {
    std::vector<std::string> files;
    if (std::string e = CollectFiles(parsed->positionals(), &files, err); !e.empty()) {
      err << "stepline ranks: " << e << '\n';
      return 1;
    }
    LoadRanks(files, static_cast<int>(*threads), &run);
  }
  run.load_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  for (const RankFailure& f : run.failed) err << "stepline ranks: " << f.path << " failed to load: " << f.error << '\n';
  if (run.ranks.empty()) {
    err << "stepline ranks: no rank loaded\n";
    return 1;
  }
  if (std::string e = AssignRanks(&run.ranks); !e.empty()) {
    err << "stepline ranks: " << e << '\n';
    return 1;
  }
  run.analysis = analysis::AnalyzeRanks(run.ranks);
  if (!run.analysis.error.empty()) {
    err << "stepline ranks: " << run.analysis.error << '\n';
    return 1;
  }
  if (!run.analysis.missing_ranks.empty()) {
    err << "stepline ranks: " << run.analysis.missing_ranks.size() << " of " << run.analysis.world_size
        << " ranks missing; analysing the " << run.ranks.size() << " present\n";
  }
  if (auto dir = parsed->Value("--csv")) {
    std::string written;
    if (std::string e = WriteCsv(run, *dir, parsed->Has("--force"), &written); !e.empty()) {
      err << "stepline ranks: " << e << '\n';
      return 1;
    }
    if (!parsed->Has("--json")) out << "wrote " << written << "\n";
  }
  if (parsed->Has("--json")) {
    WriteRanksJson(run, out);
  } else {
    WriteRanksText(run, out);
  }
  return out.good() ? 0 : 1;
}

}  // namespace stepline::app
