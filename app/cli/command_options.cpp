// Option handling shared by the subcommands; see command_options.h.
#include "app/cli/command_options.h"

#include "app/runs/profile_runs.h"
#include "loaders/memory_estimate.h"

#include <ostream>
#include <regex>

namespace stepline::app {

std::optional<int> HandleHelpOrUsageError(const Result<ParsedArgs, std::string>& parsed,
                                          const std::function<std::string(const ParsedArgs&)>& read_settings,
                                          std::string_view command, std::string_view usage, std::ostream& out,
                                          std::ostream& err) {
  if (parsed && parsed->Has("--help")) {
    out << usage;
    return 0;
  }
  const std::string error = parsed ? read_settings(*parsed) : parsed.error();
  if (error.empty()) return std::nullopt;
  err << command << ": " << error << "\n" << usage;
  return 2;
}

std::string ReadStepsRegex(const ParsedArgs& a, std::string* regex) {
  auto value = a.Value("--steps");
  if (!value) return "";
  if (value->empty()) return "--steps needs a regex";
  try {
    std::regex(*value, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    return "invalid --steps regex \"" + *value + "\": " + e.what();
  }
  *regex = *value;
  return "";
}

void WarnAboutSteps(analysis::StepSource source, const std::string& step_error, const std::string& steps_regex,
                    std::string_view prefix, std::ostream& err) {
  if (!step_error.empty()) err << prefix << step_error << "\n";
  if (steps_regex.empty() || source == analysis::StepSource::kRegex) return;
  const bool fell_through = source == analysis::StepSource::kGpuActiveSpan || source == analysis::StepSource::kNone;
  err << prefix << "--steps "
      << (fell_through ? "matched no top-level host slice" : "ignored: the trace's own steps come first")
      << "; steps from " << analysis::StepSourceName(source) << "\n";
}

bool ChooseTraceArg(std::string* path, std::string_view command, std::ostream& err) {
  auto chosen = ChooseTrace(*path);
  if (!chosen) {
    err << command << ": " << chosen.error() << "\n";
    return false;
  }
  if (!chosen->note.empty()) err << command << ": " << chosen->note << "\n";
  *path = chosen->path;
  WarnIfTooLarge(*path, command, err);
  return true;
}

void WarnIfTooLarge(const std::string& path, std::string_view command, std::ostream& err) {
  const std::string warning = loaders::MemoryWarning(path, loaders::EstimateLoadMemory(path), loaders::AvailableMemory());
  if (!warning.empty()) err << command << ": warning: " << warning << "\n";
}

}  // namespace stepline::app
