// `stepline demo --list | SCENARIO --out FILE [...]`: lists the built-in demo
// scenarios, or generates one (loaders/demo) and writes it as Chrome-trace
// JSON (loaders/export), gzip or zstd by the file's extension.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <ostream>
#include <string>

#include "app/cli/cli_args.h"
#include "app/cli/commands.h"
#include "app/cli/cmd_demo_efficiency.h"
#include "app/output/text_format.h"
#include "demo/demo_ddp.h"
#include "demo/demo_generator.h"
#include "export/chrome_json_writer.h"

namespace stepline::app {
namespace {

constexpr std::string_view kDemoUsage =
    "usage: stepline demo --list\n"
    "       stepline demo SCENARIO --out FILE [--style tensorflow|pytorch] [--steps N] [--scale K]\n"
    "                     [--seed S] [--force]\n"
    "  --out FILE    .json, .json.gz or .json.zst (compression by extension)\n"
    "  --style       naming: tensorflow (TensorBoard/XProf, default) or pytorch (Kineto)\n"
    "  --steps N     marked training steps (default 10)\n"
    "  --scale K     K times the steps, and so the events (--scale 340: >= 10 million slices)\n"
    "  --seed S      jitter seed (default 1); the same seed gives the same trace\n"
    "  --force       replace FILE if it exists\n"
    "       stepline demo ddp-straggler --ranks N --out DIR [--skew-us S] [--steps N] [--kernels K]\n"
    "                     [--straggler R] [--seed S] [--force]\n"
    "  N Kineto rank files of one data-parallel run (DIR/rank-R.pt.trace.json), one rank input-bound;\n"
    "  --skew-us S   rank R's clock reads R*S us ahead; --kernels K compute kernels per step (default 40)\n"
    "       stepline demo efficiency --out FILE [--steps N] [--device NAME] [--force]\n"
    "  a Kineto trace with known FLOPs, MFU, exposed communication and launch figures;\n"
    "  --device NAME the deviceProperties name (default NVIDIA H100 80GB HBM3)\n";

double SecondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

int List(std::ostream& out) {
  size_t width = 0;
  for (const demo::DemoScenarioInfo& s : demo::DemoScenarios()) width = std::max(width, s.name.size());
  for (const demo::DemoScenarioInfo& s : demo::DemoScenarios()) {
    out << "  " << s.name << std::string(width + 2 - s.name.size(), ' ') << s.summary << '\n';
  }
  out << "  ddp-straggler" << std::string(width > 13 ? width - 11 : 2, ' ')
      << "N ranks of one data-parallel run, one rank input-bound (--ranks N --out DIR)\n";
  out << "  efficiency" << std::string(width > 10 ? width - 8 : 2, ' ')
      << "known FLOPs, MFU, exposed communication and launch figures (--out FILE)\n";
  out << "write one with: stepline demo SCENARIO --out FILE.json.gz\n";
  return 0;
}

// Fills `options` from the parsed arguments (one positional: the scenario);
// returns an error message, or "".
std::string ReadOptions(const ParsedArgs& a, demo::DemoOptions* options) {
  options->scenario = a.positionals()[0];
  if (!demo::FindDemoScenario(options->scenario)) {
    return "unknown scenario \"" + options->scenario + "\"; valid: " + demo::DemoScenarioNameList();
  }
  if (auto style = a.Value("--style")) {
    auto parsed = demo::ParseDemoStyle(*style);
    if (!parsed) return "unknown --style \"" + *style + "\"; valid: tensorflow, pytorch";
    options->style = *parsed;
  }
  auto steps = a.IntValue("--steps", 10, 1, demo::kDemoMaxSteps);
  if (!steps) return steps.error();
  auto scale = a.IntValue("--scale", 1, 1, demo::kDemoMaxSteps);
  if (!scale) return scale.error();
  auto seed = a.IntValue("--seed", 1, 0, INT64_MAX);
  if (!seed) return seed.error();
  options->steps = static_cast<int>(*steps);
  options->scale = static_cast<int>(*scale);
  options->seed = static_cast<uint64_t>(*seed);
  options->compute_truth = false;
  return "";
}

// `demo ddp-straggler`: N rank files into DIR, then the planted truth on stdout.
int RunDdpDemo(const ParsedArgs& a, std::ostream& out, std::ostream& err) {
  demo::DdpDemoOptions o;
  const auto ranks = a.IntValue("--ranks", 4, 2, demo::kDdpMaxRanks);
  const auto steps = a.IntValue("--steps", 8, 2, 100'000);
  const auto kernels = a.IntValue("--kernels", 40, 1, 100'000);
  const auto skew = a.IntValue("--skew-us", 0, 0, 10'000'000);
  const auto seed = a.IntValue("--seed", 1, 0, INT64_MAX);
  const auto straggler = a.IntValue("--straggler", -1, -1, demo::kDdpMaxRanks);
  for (const auto* v : {&ranks, &steps, &kernels, &skew, &seed, &straggler}) {
    if (!*v) {
      err << "stepline demo: " << v->error() << '\n';
      return 1;
    }
  }
  o.ranks = static_cast<int>(*ranks);
  o.steps = static_cast<int>(*steps);
  o.kernels_per_step = static_cast<int>(*kernels);
  o.skew_ns = *skew * 1000;
  o.seed = static_cast<uint64_t>(*seed);
  o.straggler = static_cast<int>(*straggler);
  if (std::string e = demo::CheckDdpDemoOptions(o); !e.empty()) {
    err << "stepline demo: " << e << '\n';
    return 1;
  }
  const std::optional<std::string> dir = a.Value("--out");
  if (!dir || dir->empty()) {
    err << "stepline demo: --out DIR is required\n" << kDemoUsage;
    return 1;
  }
  std::error_code ec;
  std::filesystem::create_directories(*dir, ec);
  if (ec) {
    err << "stepline demo: cannot create " << *dir << ": " << ec.message() << '\n';
    return 1;
  }
  const auto t0 = std::chrono::steady_clock::now();
  const demo::DdpDemo demo(o);
  uint64_t bytes = 0;
  for (int r = 0; r < o.ranks; ++r) {
    const std::string path = (std::filesystem::path(*dir) / ("rank-" + std::to_string(r) + ".pt.trace.json")).string();
    if (!a.Has("--force") && std::filesystem::exists(path)) {
      err << "stepline demo: " << path << " exists (use --force to replace it)\n";
      return 1;
    }
    const std::string json = demo.RankJson(r);
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(json.data(), static_cast<std::streamsize>(json.size()));
    if (!f) {
      err << "stepline demo: cannot write " << path << '\n';
      return 1;
    }
    bytes += json.size();
  }
  const demo::DdpDemoTruth& t = demo.truth();
  out << "wrote " << o.ranks << " rank files to " << *dir << ": " << FormatBytes(bytes) << " of JSON in "
      << FormatFixed(SecondsSince(t0), 2) << " s\n"
      << "planted: rank " << t.straggler << " input-bound (" << t.blamed << "), "
      << FormatFixed(static_cast<double>(t.ranks[static_cast<size_t>(t.straggler)].late_ns) / 1e6, 1)
      << " ms late per all-reduce; step mean " << FormatFixed(static_cast<double>(t.step_mean_ns) / 1e6, 1)
      << " ms; clock skew " << *skew << " us per rank\n";
  return 0;
}

}  // namespace

int RunDemo(const Args& args, std::ostream& out, std::ostream& err) {
  auto parsed = ParsedArgs::Parse(
      args, ArgSpec{{"--list", "--force", "--help"}, {"--out", "--style", "--steps", "--scale", "--seed", "--ranks", "--skew-us", "--kernels", "--straggler", "--device"}});
  if (!parsed) {
    err << "stepline demo: " << parsed.error() << '\n' << kDemoUsage;
    return 1;
  }
  if (parsed->Has("--help")) {
    out << kDemoUsage;
    return 0;
  }
  if (parsed->Has("--list")) return List(out);
  if (parsed->positionals().size() != 1) {
    err << "stepline demo: expected one SCENARIO (see stepline demo --list)\n" << kDemoUsage;
    return 1;
  }
  if (parsed->positionals()[0] == "ddp-straggler") return RunDdpDemo(*parsed, out, err);
  if (parsed->positionals()[0] == "efficiency") return RunEfficiencyDemo(*parsed, out, err);
  demo::DemoOptions options;
  if (std::string error = ReadOptions(*parsed, &options); !error.empty()) {
    err << "stepline demo: " << error << '\n';
    return 1;
  }
  const std::optional<std::string> path = parsed->Value("--out");
  if (!path || path->empty()) {
    err << "stepline demo: --out FILE is required\n" << kDemoUsage;
    return 1;
  }

  const auto t0 = std::chrono::steady_clock::now();
  auto trace = demo::GenerateDemoTrace(options);
  if (!trace) {
    err << "stepline demo: " << trace.error() << '\n';
    return 1;
  }
  const double generate_s = SecondsSince(t0);
  exports::ChromeJsonWriteOptions write_options;
  write_options.overwrite = parsed->Has("--force");
  const auto t1 = std::chrono::steady_clock::now();
  auto written = exports::WriteChromeJsonFile(trace.value(), *path, write_options);
  if (!written) {
    err << "stepline demo: " << written.error() << '\n';
    return 1;
  }
  const double write_s = SecondsSince(t1);
  const exports::ChromeJsonWriteStats& w = written.value();
  out << "wrote " << *path << ": " << options.scenario << " (" << demo::DemoStyleName(options.style) << "), "
      << FormatCount(static_cast<uint64_t>(options.steps) * static_cast<uint64_t>(options.scale)) << " steps, "
      << FormatCount(trace.value().slices().size()) << " slices, " << FormatCount(trace.value().flows().size())
      << " flows\n"
      << "  " << FormatBytes(w.json_bytes) << " of JSON";
  if (!w.compression.empty()) out << ", " << FormatBytes(w.file_bytes) << " " << w.compression;
  out << "; generated in " << FormatFixed(generate_s, 2) << " s, written in " << FormatFixed(write_s, 2) << " s\n";
  return 0;
}

}  // namespace stepline::app
