// `stepline demo --list | SCENARIO --out FILE [...]`: lists the built-in demo
// scenarios, or generates one (loaders/demo) and writes it as Chrome-trace
// JSON (loaders/export), gzip or zstd by the file's extension.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

#include "app/cli_args.h"
#include "app/commands.h"
#include "app/text_format.h"
#include "loaders/demo/demo_generator.h"
#include "loaders/export/chrome_json_writer.h"

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
    "  --force       replace FILE if it exists\n";

double SecondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

int List(std::ostream& out) {
  size_t width = 0;
  for (const loaders::DemoScenarioInfo& s : loaders::DemoScenarios()) width = std::max(width, s.name.size());
  for (const loaders::DemoScenarioInfo& s : loaders::DemoScenarios()) {
    out << "  " << s.name << std::string(width + 2 - s.name.size(), ' ') << s.summary << '\n';
  }
  out << "write one with: stepline demo SCENARIO --out FILE.json.gz\n";
  return 0;
}

// Fills `options` from the parsed arguments (one positional: the scenario);
// returns an error message, or "".
std::string ReadOptions(const ParsedArgs& a, loaders::DemoOptions* options) {
  options->scenario = a.positionals()[0];
  if (!loaders::FindDemoScenario(options->scenario)) {
    return "unknown scenario \"" + options->scenario + "\"; valid: " + loaders::DemoScenarioNameList();
  }
  if (auto style = a.Value("--style")) {
    auto parsed = loaders::ParseDemoStyle(*style);
    if (!parsed) return "unknown --style \"" + *style + "\"; valid: tensorflow, pytorch";
    options->style = *parsed;
  }
  auto steps = a.IntValue("--steps", 10, 1, loaders::kDemoMaxSteps);
  if (!steps) return steps.error();
  auto scale = a.IntValue("--scale", 1, 1, loaders::kDemoMaxSteps);
  if (!scale) return scale.error();
  auto seed = a.IntValue("--seed", 1, 0, INT64_MAX);
  if (!seed) return seed.error();
  options->steps = static_cast<int>(*steps);
  options->scale = static_cast<int>(*scale);
  options->seed = static_cast<uint64_t>(*seed);
  options->compute_truth = false;
  return "";
}

}  // namespace

int RunDemo(const Args& args, std::ostream& out, std::ostream& err) {
  auto parsed = ParsedArgs::Parse(
      args, ArgSpec{{"--list", "--force", "--help"}, {"--out", "--style", "--steps", "--scale", "--seed"}});
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
  loaders::DemoOptions options;
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
  auto trace = loaders::GenerateDemoTrace(options);
  if (!trace) {
    err << "stepline demo: " << trace.error() << '\n';
    return 1;
  }
  const double generate_s = SecondsSince(t0);
  loaders::ChromeJsonWriteOptions write_options;
  write_options.overwrite = parsed->Has("--force");
  const auto t1 = std::chrono::steady_clock::now();
  auto written = loaders::WriteChromeJsonFile(trace.value(), *path, write_options);
  if (!written) {
    err << "stepline demo: " << written.error() << '\n';
    return 1;
  }
  const double write_s = SecondsSince(t1);
  const loaders::ChromeJsonWriteStats& w = written.value();
  out << "wrote " << *path << ": " << options.scenario << " (" << loaders::DemoStyleName(options.style) << "), "
      << FormatCount(static_cast<uint64_t>(options.steps) * static_cast<uint64_t>(options.scale)) << " steps, "
      << FormatCount(trace.value().slices().size()) << " slices, " << FormatCount(trace.value().flows().size())
      << " flows\n"
      << "  " << FormatBytes(w.json_bytes) << " of JSON";
  if (!w.compression.empty()) out << ", " << FormatBytes(w.file_bytes) << " " << w.compression;
  out << "; generated in " << FormatFixed(generate_s, 2) << " s, written in " << FormatFixed(write_s, 2) << " s\n";
  return 0;
}

}  // namespace stepline::app
