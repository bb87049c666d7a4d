// The efficiency figures as JSON members and a text section (efficiency_output.h).
#include "app/output/efficiency_output.h"

#include <ostream>

#include "app/output/step_detail_output.h"
#include "app/output/text_format.h"
#include "export/json_text.h"

namespace stepline::app {
namespace {

void Key(std::string* out, std::string_view key) {
  out->append(",\"");
  out->append(key);
  out->append("\":");
}

void StrOrNull(std::string* out, std::string_view v) {
  if (v.empty()) {
    out->append("null");
  } else {
    exports::AppendJsonString(out, v);
  }
}

std::string NsText(DurNs ns) { return ns < 0 ? std::string("-") : FormatDuration(ns); }

// Kernel names run to hundreds of characters (templates); the text keeps the start.
std::string ShortName(std::string_view name) {
  return name.size() <= 60 ? std::string(name) : std::string(name.substr(0, 57)) + "...";
}

}  // namespace

std::string EfficiencyJsonNumber(double v, int decimals) { return v < 0 ? std::string("null") : FormatFixed(v, decimals); }

std::string FlopsText(double flops) { return flops < 0 ? std::string("-") : analysis::FormatFlops(flops); }

void AppendEfficiencyJson(const analysis::Report& report, std::string* out) {
  const analysis::EfficiencyAnalysis& e = report.efficiency;
  out->append(",\"efficiency\":{\"device_name\":");
  StrOrNull(out, e.device_name);
  Key(out, "peak_tflops");
  out->append(EfficiencyJsonNumber(e.peak_tflops, 3));
  Key(out, "peak_dtype");
  StrOrNull(out, e.peak_dtype);
  Key(out, "peak_source");
  StrOrNull(out, analysis::PeakSourceName(e.peak_source));
  Key(out, "peak_datasheet");
  StrOrNull(out, e.peak_datasheet);
  Key(out, "model_flops");
  out->append(e.any_flops ? FormatFixed(e.model_flops, 0) : std::string("null"));
  Key(out, "flops_known_percent");
  out->append(EfficiencyJsonNumber(e.flops_known_percent, 2));
  Key(out, "achieved_tflops");
  out->append(EfficiencyJsonNumber(e.achieved_tflops, 3));
  Key(out, "mfu_percent");
  out->append(EfficiencyJsonNumber(e.mfu_percent, 2));
  Key(out, "memory_bound_percent");
  out->append(EfficiencyJsonNumber(e.memory_bound_percent(), 2));
  Key(out, "top_memory_bound");
  out->push_back('[');
  for (size_t i = 0; i < report.top_memory_bound.size(); ++i) {
    out->append(i == 0 ? "{\"name\":" : ",{\"name\":");
    exports::AppendJsonString(out, report.top_memory_bound[i]);
    Key(out, "ns");
    exports::AppendJsonInt(out, e.top_memory_bound[i].ns);
    out->push_back('}');
  }
  out->append("]}");
  out->append(",\"communication\":{\"collective_ns_per_step\":");
  exports::AppendJsonInt(out, e.collective_ns_per_step);
  Key(out, "exposed_ns_per_step");
  exports::AppendJsonInt(out, e.exposed_ns_per_step);
  Key(out, "overlap_percent");
  out->append(EfficiencyJsonNumber(e.overlap_percent, 2));
  out->append("},\"launch_overhead\":{\"kernels_per_step\":");
  out->append(FormatFixed(e.kernels_per_step, 2));
  Key(out, "launch_ns_per_step");
  exports::AppendJsonInt(out, e.launch_ns_per_step);
  Key(out, "launch_delay_p50_ns");
  out->append(e.launch_delay_p50_ns < 0 && e.short_kernel_percent < 0 ? std::string("null") : std::to_string(e.launch_delay_p50_ns));
  Key(out, "launch_delay_p90_ns");
  out->append(e.launch_delay_p90_ns < 0 && e.short_kernel_percent < 0 ? std::string("null") : std::to_string(e.launch_delay_p90_ns));
  Key(out, "short_kernel_percent");
  out->append(EfficiencyJsonNumber(e.short_kernel_percent, 2));
  Key(out, "launch_bound");
  out->append(e.launch_bound ? "true" : "false");
  Key(out, "verdict");
  StrOrNull(out, e.launch_verdict);
  out->append("},\"throughput\":{\"batch_size\":");
  if (e.batch_size > 0) {
    exports::AppendJsonInt(out, e.batch_size);
  } else {
    out->append("null");
  }
  Key(out, "samples_per_s");
  out->append(EfficiencyJsonNumber(e.samples_per_s, 3));
  Key(out, "tokens_per_s");
  AppendTokensPerSecondJson(report, out);
  out->push_back('}');
}

void AppendStepEfficiencyJson(const analysis::StepEfficiency& s, std::string* out) {
  Key(out, "flops");
  out->append(s.flops < 0 ? std::string("null") : FormatFixed(s.flops, 0));
  Key(out, "achieved_tflops");
  out->append(EfficiencyJsonNumber(s.achieved_tflops, 3));
  Key(out, "mfu_percent");
  out->append(EfficiencyJsonNumber(s.mfu_percent, 2));
  Key(out, "memory_bound_ns");
  exports::AppendJsonInt(out, s.memory_bound_ns);
  Key(out, "collective_ns");
  exports::AppendJsonInt(out, s.collective_ns);
  Key(out, "exposed_ns");
  exports::AppendJsonInt(out, s.exposed_ns);
  Key(out, "kernels");
  exports::AppendJsonInt(out, static_cast<int64_t>(s.kernels));
  Key(out, "launch_ns");
  exports::AppendJsonInt(out, s.launch_ns);
  Key(out, "samples_per_s");
  out->append(EfficiencyJsonNumber(s.samples_per_s, 3));
}

void AppendOpEfficiencyJson(const analysis::ReportOp& op, std::string* out) {
  Key(out, "flops");
  out->append(op.flops < 0 ? std::string("null") : FormatFixed(op.flops, 0));
  Key(out, "achieved_tflops");
  out->append(EfficiencyJsonNumber(op.achieved_tflops, 3));
  Key(out, "arithmetic_intensity");  // FLOPs per byte read and written; null when the bytes are unknown
  out->append(EfficiencyJsonNumber(op.intensity, 3));
  Key(out, "bound");
  StrOrNull(out, analysis::OpBoundName(op.bound));
}

void WriteEfficiencyText(const analysis::Report& report, std::ostream& out) {
  const analysis::EfficiencyAnalysis& e = report.efficiency;
  out << "\nEfficiency\n";
  out << "  device        " << (e.device_name.empty() ? "unknown" : e.device_name) << "\n";
  out << "  peak          "
      << (e.peak_tflops < 0 ? std::string("unknown (MFU needs --peak-tflops or a device in assets/device_peaks.tsv)")
                            : FormatFixed(e.peak_tflops, 1) + " TFLOP/s " + e.peak_dtype + " (" + e.peak_datasheet + ")")
      << "\n";
  out << "  model FLOPs   " << (e.any_flops ? FlopsText(e.model_flops) : std::string("unknown")) << ", known for "
      << (e.flops_known_percent < 0 ? std::string("-") : FormatFixed(e.flops_known_percent, 1) + "%")
      << " of GPU time\n";
  out << "  achieved      "
      << (e.achieved_tflops < 0 ? std::string("-") : FormatFixed(e.achieved_tflops, 2) + " TFLOP/s") << ", MFU "
      << (e.mfu_percent < 0 ? std::string("unknown") : FormatFixed(e.mfu_percent, 2) + "%") << "\n";
  if (e.memory_bound_percent() >= 0) {
    out << "  memory-bound  " << FormatFixed(e.memory_bound_percent(), 1) << "% of kernel time";
    for (size_t i = 0; i < report.top_memory_bound.size() && i < 3; ++i) {
      out << (i == 0 ? ": " : ", ") << ShortName(report.top_memory_bound[i]) << " " << NsText(e.top_memory_bound[i].ns);
    }
    out << "\n";
  }
  out << "  collectives   " << NsText(e.collective_ns_per_step) << " per step, exposed " << NsText(e.exposed_ns_per_step)
      << ", overlap " << (e.overlap_percent < 0 ? std::string("-") : FormatFixed(e.overlap_percent, 1) + "%") << "\n";
  out << "  launches      " << FormatFixed(e.kernels_per_step, 1) << " kernels per step, " << NsText(e.launch_ns_per_step)
      << " of launch calls per step, delay p50 " << NsText(e.launch_delay_p50_ns) << " p90 " << NsText(e.launch_delay_p90_ns)
      << ", " << (e.short_kernel_percent < 0 ? std::string("-") : FormatFixed(e.short_kernel_percent, 1) + "%")
      << " shorter than their launch\n";
  if (!e.launch_verdict.empty()) out << "  " << e.launch_verdict << "\n";
  if (e.batch_size > 0) {
    out << "  throughput    " << (e.samples_per_s < 0 ? std::string("-") : FormatFixed(e.samples_per_s, 1))
        << " samples/s (batch " << e.batch_size << ")\n";
  }
}

}  // namespace stepline::app
