// What the subcommands share in reading their options: the --help / bad-usage
// prologue, the --steps regex check and the warning when --steps did not
// decide a trace's steps (report, diff), and a log directory given for FILE.
// Messages are part of the CLI.
#pragma once

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

#include "app/cli/cli_args.h"
#include "model/analysis/report.h"

namespace stepline::app {

// Prints `usage` to `out` for --help (exit 0), or "<command>: <error>" and
// `usage` to `err` when parsing or `read_settings` fails (exit 2). Returns
// that exit code, or nullopt when the command should go on.
std::optional<int> HandleHelpOrUsageError(const Result<ParsedArgs, std::string>& parsed,
                                          const std::function<std::string(const ParsedArgs&)>& read_settings,
                                          std::string_view command, std::string_view usage, std::ostream& out,
                                          std::ostream& err);

// Reads --steps into `regex` (left alone when absent); returns an error
// message, or "". The analysis only compiles the regex when the trace has no
// steps of its own; checking here rejects a typo on every trace, before the load.
std::string ReadStepsRegex(const ParsedArgs& a, std::string* regex);

// Reads --peak-tflops X, --peak-dtype DTYPE and --batch-size N into `o`
// (left alone when absent); returns an error message, or "".
std::string ReadEfficiencyOptions(const ParsedArgs& a, analysis::EfficiencyOptions* o);
// The usage lines of those three options, for the commands that take them.
extern const std::string_view kEfficiencyUsage;

// Warns on `err`, each line starting with `prefix`, about the steps' error
// (StepSet::error) and about a non-empty `steps_regex` that did not decide
// them (`source` is where they came from).
void WarnAboutSteps(analysis::StepSource source, const std::string& step_error, const std::string& steps_regex,
                    std::string_view prefix, std::ostream& err);

// `*path` names a trace file or a TensorBoard/XProf log directory
// (profile_runs.h). A directory is replaced by the file it opens and `err`
// gets "<command>: <which file and why>". False, with the reason on `err`,
// when the directory holds no run.
bool ChooseTraceArg(std::string* path, std::string_view command, std::ostream& err);

// Says on `err`, before a load starts, when the trace at `path` looks larger
// than the memory this process has (loaders/memory_estimate.h). The load
// still runs: the estimate can be wrong, and running out fails cleanly.
void WarnIfTooLarge(const std::string& path, std::string_view command, std::ostream& err);
// The same for two traces held at once (both sides of `diff`): their sum.
void WarnIfPairTooLarge(const std::string& path_a, const std::string& path_b, std::string_view command,
                        std::ostream& err);

}  // namespace stepline::app
