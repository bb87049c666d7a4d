// `stepline ranks PATH... [--json] [--csv DIR]`: every rank of one
// distributed run side by side. Finds the rank files, loads them in parallel
// (each rank's Trace is freed as soon as it is summarized), names each rank,
// and prints AnalyzeRanks (ranks_output.h).
#include <chrono>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <thread>

#include "app/cli/cli_args.h"
#include "app/cli/commands.h"
#include "app/runs/rank_set.h"
#include "app/runs/rank_set_memory.h"
#include "app/output/ranks_output.h"
#include "export/file_publish.h"

namespace stepline::app {
namespace fs = std::filesystem;
namespace {

constexpr std::string_view kRanksUsage =
    "usage: stepline ranks PATH... [--json] [--csv DIR [--force]] [--threads T]\n"
    "       stepline ranks --from-reports DIR [--json] [--csv DIR [--force]]\n"
    "  PATH    rank trace files, or directories searched recursively for them (*.json[.gz|.zst],\n"
    "          *.xplane.pb; under plugins/profile/ the newest run)\n"
    "  --json  print one JSON object (keys: docs/cli.md, stepline ranks)\n"
    "  --csv   write DIR/ranks.csv, one row per rank\n"
    "  --threads T  ranks loaded at once (default: every core)\n"
    "  --from-reports DIR  merge the `stepline report RANK_TRACE --json` outputs (*.json) under DIR\n"
    "          instead of loading traces: each carries its rank's summary (rank_summary)\n"
    "A rank's number comes from the trace's distributedInfo.rank, else its file name (rank-3, rank3,\n"
    "rank_3, worker3, -TP-0-DP-1-...), else the order of the files.\n";

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
  auto published = exports::file_publish::Publish(tmp, path, force);
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
  std::string error;
  if (reports) {
    const auto t0 = std::chrono::steady_clock::now();
    error = ReadRankReports(*reports, static_cast<int>(*threads), &run);
    run.load_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (error.empty()) error = run.ranks.empty() ? "no rank summary read" : AssignRanks(&run.ranks);
    if (error.empty()) run.analysis = analysis::AnalyzeRanks(run.ranks);
    if (error.empty()) error = run.analysis.error;
  } else {
    // Said at the start: the models of `threads` ranks are held at once.
    std::string subject;
    for (const std::string& p : parsed->positionals()) subject += (subject.empty() ? "" : " ") + p;
    const std::string warning = RankSetMemoryWarning(subject, parsed->positionals(), static_cast<int>(*threads), "",
                                                     loaders::AvailableMemory());
    if (!warning.empty()) err << "stepline ranks: warning: " << warning << '\n';
    error = LoadRankSet(parsed->positionals(), static_cast<int>(*threads), &run, err);
  }
  for (const RankFailure& f : run.failed) err << "stepline ranks: " << f.path << " failed to load: " << f.error << '\n';
  if (!error.empty()) {
    err << "stepline ranks: " << error << '\n';
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
