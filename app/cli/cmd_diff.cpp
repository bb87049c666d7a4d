// `stepline diff A B [--json] [--steps REGEX] [--no-normalize] [--top N]
// [--fail-if-slower PCT]`: loads two traces (any formats), runs
// analysis::ComputeAnalysis on each and prints analysis::Compare of the two
// (diff_output.h) with its verdict (step_verdict.h). `--baseline NAME B`
// takes A from a saved baseline (baseline_store.h) instead of a trace.
#include <cstdlib>
#include <limits>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>

#include "app/cli/baseline_store.h"
#include "app/runs/cached_trace_load.h"
#include "app/cli/cli_args.h"
#include "app/cli/command_options.h"
#include "app/cli/commands.h"
#include "app/output/diagnostics_output.h"
#include "app/output/diff_output.h"
#include "loaders/load.h"
#include "model/analysis/compare.h"
#include "model/analysis/saved_run.h"

namespace stepline::app {
namespace {

constexpr std::string_view kDiffUsage =
    "usage: stepline diff A B [--json] [--steps REGEX] [--no-normalize] [--top N] [--fail-if-slower PCT]\n"
    "       stepline diff --baseline NAME B [...]     compare B against the saved baseline NAME\n"
    "                                                 (saves B as NAME when there is none yet)\n"
    "       stepline diff FILE --save-baseline NAME   save (replace) FILE's summary as baseline NAME\n"
    "  compares run B with run A (delta = B - A): steps, mean step time, GPU busy, the per-step\n"
    "  step-time breakdown and idle by cause, and every op's count and total time\n"
    "  (no flags)      a readable summary and the top 20 op deltas\n"
    "  --json          the comparison as one JSON object (every op, unless --top)\n"
    "  --steps REGEX   steps are the top-level host slices whose name matches (for traces\n"
    "                  without step markers of their own), on both sides\n"
    "  --no-normalize  keep op names as recorded; by default template arguments, argument lists,\n"
    "                  hex addresses and numeric suffixes are folded so one op is one row\n"
    "  --top N         list only the N ops with the largest |delta|\n"
    "  --fail-if-slower PCT  exit 3 when the verdict is slower and the mean step grew by more\n"
    "                  than PCT percent (verdict: Mann-Whitney U over the full steps, p < 0.05)\n"
    "  baselines live in $XDG_CONFIG_HOME/stepline/baselines (else ~/.config/stepline/baselines)\n";

constexpr size_t kDefaultTextOps = 20;
constexpr int64_t kMaxTop = 1'000'000'000;

struct DiffSettings {
  std::string a_path, b_path;  // a_path is "" with --baseline
  std::string baseline, save_baseline;
  std::optional<double> fail_if_slower_percent;
  bool json = false;
  size_t max_ops = std::numeric_limits<size_t>::max();
  analysis::CompareOptions options;
};

// Fills `s` from the parsed arguments; returns an error message, or "".
std::string ReadSettings(const ParsedArgs& a, DiffSettings* s) {
  s->baseline = a.Value("--baseline").value_or("");
  s->save_baseline = a.Value("--save-baseline").value_or("");
  if (!s->baseline.empty() && !s->save_baseline.empty()) return "--baseline and --save-baseline exclude each other";
  if (!s->baseline.empty() || !s->save_baseline.empty()) {
    if (a.positionals().size() != 1) return "expected one trace file with --baseline or --save-baseline";
    s->b_path = a.positionals()[0];
  } else {
    if (a.positionals().size() != 2) return "expected two trace files, A and B";
    s->a_path = a.positionals()[0];
    s->b_path = a.positionals()[1];
  }
  if (auto pct = a.Value("--fail-if-slower")) {
    char* end = nullptr;
    const double v = std::strtod(pct->c_str(), &end);
    if (pct->empty() || end != pct->c_str() + pct->size() || !(v >= 0) || v > 1e6) {
      return "--fail-if-slower: expected a percentage >= 0, got \"" + *pct + "\"";
    }
    s->fail_if_slower_percent = v;
  }
  s->json = a.Has("--json");
  s->options.normalize_names = !a.Has("--no-normalize");
  auto top = a.IntValue("--top", s->json ? kMaxTop : int64_t{kDefaultTextOps}, 0, kMaxTop);
  if (!top) return top.error();
  s->max_ops = static_cast<size_t>(*top);
  // Both runs are analysed with the same efficiency options (one device peak, one batch size).
  if (std::string e = ReadEfficiencyOptions(a, &s->options.analysis.efficiency); !e.empty()) return e;
  return ReadStepsRegex(a, &s->options.analysis.steps_regex);
}

}  // namespace

int RunDiff(const Args& args, std::ostream& out, std::ostream& err) {
  auto parsed = ParsedArgs::Parse(args, ArgSpec{{"--json", "--no-normalize", "--help"},
                                                       {"--steps", "--top", "--fail-if-slower", "--baseline", "--save-baseline",
                                                        "--peak-tflops", "--peak-dtype", "--batch-size"}});
  DiffSettings settings;
  const auto read = [&settings](const ParsedArgs& a) { return ReadSettings(a, &settings); };
  if (auto code = HandleHelpOrUsageError(parsed, read, "stepline diff", std::string(kDiffUsage) + std::string(kEfficiencyUsage), out, err)) return *code;

  // Both loads before any analysis: a broken B fails fast.
  CachedTraceLoad load_a, load_b;  // write the column cache entries after the output
  std::optional<analysis::SavedRun> baseline;
  const Trace* a_trace = nullptr;  // null with a baseline
  if (!settings.baseline.empty()) {
    auto loaded = LoadBaseline(settings.baseline);
    if (!loaded) {
      err << "stepline diff: baseline " << settings.baseline << ": " << loaded.error() << "\n";
      return 1;
    }
    baseline = std::move(*loaded);
  } else if (settings.save_baseline.empty()) {
    // Said at the start: both traces are held at once.
    WarnIfPairTooLarge(settings.a_path, settings.b_path, "stepline diff", err);
    auto& a = load_a.Load(settings.a_path);
    if (!a) {
      err << "stepline diff: A: " << a.error().ToString() << "\n";
      return 1;
    }
    a_trace = &a.value();
  }
  if (a_trace == nullptr) WarnIfTooLarge(settings.b_path, "stepline diff", err);
  auto& b = load_b.Load(settings.b_path);
  if (!b) {
    err << "stepline diff: B: " << b.error().ToString() << "\n";
    return 1;
  }
  const std::string& steps_regex = settings.options.analysis.steps_regex;
  std::optional<analysis::TraceAnalysis> analysis_a;
  if (a_trace != nullptr) {
    analysis_a = analysis::ComputeAnalysis(*a_trace, settings.options.analysis);
    WarnAboutSteps(analysis_a->steps.source, analysis_a->steps.error, steps_regex,
                   "stepline diff: " + settings.a_path + ": ", err);
  }
  const analysis::TraceAnalysis analysis_b = analysis::ComputeAnalysis(b.value(), settings.options.analysis);
  WarnAboutSteps(analysis_b.steps.source, analysis_b.steps.error, steps_regex,
                 "stepline diff: " + settings.b_path + ": ", err);
  const analysis::CompareRun run_b{b.value(), analysis_b, settings.b_path};

  // Saving: --save-baseline, or --baseline naming one that does not exist yet.
  const std::string save_name = !settings.save_baseline.empty() ? settings.save_baseline
                                : (!settings.baseline.empty() && !baseline) ? settings.baseline
                                                                           : "";
  if (!save_name.empty()) {
    if (const std::string error = SaveBaseline(save_name, analysis::MakeSavedRun(run_b)); !error.empty()) {
      err << "stepline diff: " << error << "\n";
      return 1;
    }
    out << "saved baseline " << save_name << " from " << settings.b_path << " ("
        << analysis_b.steps.steps.size() << " steps); later: stepline diff --baseline " << save_name << " TRACE\n";
    return out.good() ? 0 : 1;
  }

  analysis::Comparison comparison;
  if (baseline) {
    comparison = analysis::CompareSaved(*baseline, run_b, settings.options);
    comparison.a.path = "baseline " + settings.baseline + " (" + baseline->side.path + ")";
  } else {
    comparison = analysis::Compare({*a_trace, *analysis_a, settings.a_path}, run_b, settings.options);
  }
  if (settings.json) {
    // Which side is partial, spliced into the comparison's object.
    std::ostringstream diff;
    WriteDiffJson(comparison, settings.max_ops, diff);
    std::string text = std::move(diff).str();
    const size_t close = text.rfind('}');
    const std::string a_load = a_trace ? "{" + DiagnosticsJsonMembers(*a_trace) + "}" : "null";
    text.insert(close, ",\"a_load\":" + a_load + ",\"b_load\":{" + DiagnosticsJsonMembers(b.value()) + "}");
    out << text;
  } else {
    if (a_trace) WriteDataLossLine(*a_trace, "A", settings.a_path, out);
    WriteDataLossLine(b.value(), "B", settings.b_path, out);
    WriteDiffText(comparison, settings.max_ops, out);
  }
  if (!out.good()) return 1;
  // The CI gate: only a confident slowdown larger than the threshold fails.
  if (settings.fail_if_slower_percent && comparison.verdict.result == analysis::VerdictResult::kSlower &&
      comparison.verdict.change_percent > *settings.fail_if_slower_percent) {
    err << "stepline diff: B is slower than A: " << analysis::VerdictLine(comparison.verdict) << " (threshold "
        << *settings.fail_if_slower_percent << "%)\n";
    return 3;
  }
  return 0;
}

}  // namespace stepline::app
