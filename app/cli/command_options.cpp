// Option handling shared by the subcommands; see command_options.h.
#include "app/cli/command_options.h"

#include "app/runs/profile_runs.h"
#include "loaders/memory_estimate.h"

#include <charconv>
#include <ostream>
#include <regex>
#include <system_error>

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

const std::string_view kEfficiencyUsage =
    "  --peak-tflops X the device's dense peak in TFLOP/s for MFU, instead of assets/device_peaks.tsv\n"
    "  --peak-dtype T  the dtype whose peak the table gives (bf16, fp16, fp32, tf32, fp8, fp64, int8);\n"
    "                  default: the dtype of most matmul FLOPs in the trace\n"
    "  --batch-size N  samples per step: adds samples/s per step and for the run\n";

std::string ReadEfficiencyOptions(const ParsedArgs& a, analysis::EfficiencyOptions* o) {
  if (auto peak = a.Value("--peak-tflops")) {
    double v = 0;
    const auto [ptr, ec] = std::from_chars(peak->data(), peak->data() + peak->size(), v);
    if (ec != std::errc() || ptr != peak->data() + peak->size() || !(v > 0) || v > 1e9) {
      return "--peak-tflops: expected a positive number of TFLOP/s, got \"" + *peak + "\"";
    }
    o->peak_tflops = v;
  }
  if (auto dtype = a.Value("--peak-dtype")) {
    bool known = false;
    for (std::string_view d : analysis::kPeakDtypes) known |= *dtype == d;
    if (!known) return "--peak-dtype: expected bf16, fp16, fp32, tf32, fp8, fp64 or int8, got \"" + *dtype + "\"";
    o->peak_dtype = *dtype;
  }
  auto batch = a.IntValue("--batch-size", 0, 1, int64_t{1} << 40);
  if (!batch) return batch.error();
  o->batch_size = *batch;
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

void WarnIfPairTooLarge(const std::string& path_a, const std::string& path_b, std::string_view command,
                        std::ostream& err) {
  const loaders::MemoryEstimate sum =
      loaders::AddEstimates({loaders::EstimateLoadMemory(path_a), loaders::EstimateLoadMemory(path_b)});
  const std::string warning = loaders::MemoryWarning(path_a + " and " + path_b, "the two traces loaded at once need",
                                                     sum, loaders::AvailableMemory());
  if (!warning.empty()) err << command << ": warning: " << warning << "\n";
}

}  // namespace stepline::app
