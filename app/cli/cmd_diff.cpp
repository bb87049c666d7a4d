// `stepline diff A B [--json] [--steps REGEX] [--no-normalize] [--top N]`:
// loads two traces (any formats), runs analysis::ComputeAnalysis on each and
// prints analysis::Compare of the two (diff_output.h).
#include <limits>
#include <ostream>
#include <sstream>
#include <string>

#include "app/runs/cached_trace_load.h"
#include "app/runs/cached_trace_load.h"
#include "app/cli/cli_args.h"
#include "app/cli/command_options.h"
#include "app/cli/commands.h"
#include "app/output/diagnostics_output.h"
#include "app/output/diff_output.h"
#include "loaders/load.h"
#include "model/analysis/compare.h"

namespace stepline::app {
namespace {

constexpr std::string_view kDiffUsage =
    "usage: stepline diff A B [--json] [--steps REGEX] [--no-normalize] [--top N]\n"
    "  compares run B with run A (delta = B - A): steps, mean step time, GPU busy, the per-step\n"
    "  step-time breakdown and idle by cause, and every op's count and total time\n"
    "  (no flags)      a readable summary and the top 20 op deltas\n"
    "  --json          the comparison as one JSON object (every op, unless --top)\n"
    "  --steps REGEX   steps are the top-level host slices whose name matches (for traces\n"
    "                  without step markers of their own), on both sides\n"
    "  --no-normalize  keep op names as recorded; by default template arguments, argument lists,\n"
    "                  hex addresses and numeric suffixes are folded so one op is one row\n"
    "  --top N         list only the N ops with the largest |delta|\n";

constexpr size_t kDefaultTextOps = 20;
constexpr int64_t kMaxTop = 1'000'000'000;

struct DiffSettings {
  std::string a_path, b_path;
  bool json = false;
  size_t max_ops = std::numeric_limits<size_t>::max();
  analysis::CompareOptions options;
};

// Fills `s` from the parsed arguments; returns an error message, or "".
std::string ReadSettings(const ParsedArgs& a, DiffSettings* s) {
  if (a.positionals().size() != 2) return "expected two trace files, A and B";
  s->a_path = a.positionals()[0];
  s->b_path = a.positionals()[1];
  s->json = a.Has("--json");
  s->options.normalize_names = !a.Has("--no-normalize");
  auto top = a.IntValue("--top", s->json ? kMaxTop : int64_t{kDefaultTextOps}, 0, kMaxTop);
  if (!top) return top.error();
  s->max_ops = static_cast<size_t>(*top);
  return ReadStepsRegex(a, &s->options.analysis.steps_regex);
}

}  // namespace

int RunDiff(const Args& args, std::ostream& out, std::ostream& err) {
  auto parsed = ParsedArgs::Parse(args, ArgSpec{{"--json", "--no-normalize", "--help"}, {"--steps", "--top"}});
  DiffSettings settings;
  const auto read = [&settings](const ParsedArgs& a) { return ReadSettings(a, &settings); };
  if (auto code = HandleHelpOrUsageError(parsed, read, "stepline diff", kDiffUsage, out, err)) return *code;

  // Both loads before any analysis: a broken B fails fast.
  CachedTraceLoad load_a, load_b;  // write the column cache entries after the output
  WarnIfTooLarge(settings.a_path, "stepline diff", err);
  WarnIfTooLarge(settings.b_path, "stepline diff", err);
  auto& a = load_a.Load(settings.a_path);
  if (!a) {
    err << "stepline diff: A: " << a.error().ToString() << "\n";
    return 1;
  }
  auto& b = load_b.Load(settings.b_path);
  if (!b) {
    err << "stepline diff: B: " << b.error().ToString() << "\n";
    return 1;
  }
  const analysis::TraceAnalysis analysis_a = analysis::ComputeAnalysis(a.value(), settings.options.analysis);
  const analysis::TraceAnalysis analysis_b = analysis::ComputeAnalysis(b.value(), settings.options.analysis);
  const std::string& steps_regex = settings.options.analysis.steps_regex;
  WarnAboutSteps(analysis_a.steps.source, analysis_a.steps.error, steps_regex,
                 "stepline diff: " + settings.a_path + ": ", err);
  WarnAboutSteps(analysis_b.steps.source, analysis_b.steps.error, steps_regex,
                 "stepline diff: " + settings.b_path + ": ", err);
  const analysis::Comparison comparison =
      analysis::Compare({a.value(), analysis_a, settings.a_path}, {b.value(), analysis_b, settings.b_path},
                        settings.options);
  if (settings.json) {
    // Which side is partial, spliced into the comparison's object.
    std::ostringstream diff;
    WriteDiffJson(comparison, settings.max_ops, diff);
    std::string text = std::move(diff).str();
    const size_t close = text.rfind('}');
    text.insert(close, ",\"a_load\":{" + DiagnosticsJsonMembers(a.value()) + "},\"b_load\":{" +
                           DiagnosticsJsonMembers(b.value()) + "}");
    out << text;
  } else {
    WriteDataLossLine(a.value(), "A", settings.a_path, out);
    WriteDataLossLine(b.value(), "B", settings.b_path, out);
    WriteDiffText(comparison, settings.max_ops, out);
  }
  return out.good() ? 0 : 1;
}

}  // namespace stepline::app
