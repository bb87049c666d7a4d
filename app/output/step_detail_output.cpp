#include "app/output/step_detail_output.h"

#include <ostream>

#include "app/output/text_format.h"
#include "export/json_text.h"

namespace stepline::app {
namespace {

using analysis::PathKind;
using analysis::PhaseStat;
using analysis::ReportCriticalPath;

void Int(std::string* out, int64_t v) { exports::AppendJsonInt(out, v); }
void IntOrNull(std::string* out, int64_t v) {
  if (v < 0) {
    out->append("null");
  } else {
    Int(out, v);
  }
}

void ByKindJson(const analysis::PathKindNs& ns, std::string* out) {
  for (int k = 0; k < analysis::kPathKindCount; ++k) {
    out->append(k == 0 ? "{\"" : ",\"");
    out->append(analysis::PathKindName(static_cast<PathKind>(k)));
    out->append("\":");
    Int(out, ns[size_t(k)]);
  }
  out->append("}");
}

void TopJson(const ReportCriticalPath& p, std::string* out) {
  out->append(",\"top\":[");
  for (size_t i = 0; i < p.top.size(); ++i) {
    out->append(i == 0 ? "{\"name\":" : ",{\"name\":");
    exports::AppendJsonString(out, p.top[i].first);
    out->append(",\"ns\":");
    Int(out, p.top[i].second);
    out->append("}");
  }
  out->append("]");
}

std::string PercentText(DurNs part, DurNs whole) {
  return whole > 0 ? text::FormatFixed(100.0 * double(part) / double(whole), 1) + "%" : "-";
}

}  // namespace

void AppendStepDetailJson(const analysis::ReportStep& step, std::string* out) {
  out->append(",\"phase\":");
  if (step.phase == StepPhase::kNone) {
    out->append("null");
  } else {
    exports::AppendJsonString(out, StepPhaseName(step.phase));
  }
  out->append(",\"batch\":");
  IntOrNull(out, step.batch);
  out->append(",\"tokens\":");
  IntOrNull(out, step.tokens);
  const ReportCriticalPath& p = step.critical_path;
  out->append(",\"critical_path\":{\"dur_ns\":");
  Int(out, p.dur_ns);
  out->append(",\"by_kind_ns\":");
  ByKindJson(p.by_kind_ns, out);
  out->append(",\"slices\":[");
  for (size_t i = 0; i < p.slices.size(); ++i) {
    if (i > 0) out->push_back(',');
    Int(out, static_cast<int64_t>(p.slices[i].value));
  }
  out->append("]");
  TopJson(p, out);
  out->append("}");
}

void AppendServingJson(const analysis::Report& report, std::string* out) {
  out->append(",\"step_engine\":");
  if (report.step_engine == ServingEngine::kNone) {
    out->append("null");
  } else {
    exports::AppendJsonString(out, ServingEngineName(report.step_engine));
  }
  out->append(",\"phases\":[");
  for (size_t i = 0; i < report.phases.size(); ++i) {
    const PhaseStat& p = report.phases[i];
    out->append(i == 0 ? "{\"phase\":" : ",{\"phase\":");
    if (p.phase == StepPhase::kNone) {
      out->append("null");
    } else {
      exports::AppendJsonString(out, StepPhaseName(p.phase));
    }
    out->append(",\"steps\":");
    Int(out, p.steps);
    out->append(",\"dur_ns\":");
    Int(out, p.dur_ns);
    out->append(",\"idle_ns\":");
    Int(out, p.idle_ns);
    out->append(",\"tokens\":");
    IntOrNull(out, p.tokens);
    out->append(",\"tokens_per_s\":");
    if (p.tokens_per_s < 0) {
      out->append("null");
    } else {
      exports::AppendJsonDouble(out, p.tokens_per_s);
    }
    out->append(",\"mfu_percent\":");
    if (p.mfu_percent < 0) {
      out->append("null");
    } else {
      exports::AppendJsonDouble(out, p.mfu_percent);
    }
    out->append("}");
  }
  out->append("],\"critical_path\":{\"dur_ns\":");
  Int(out, report.critical_path_total.dur_ns);
  out->append(",\"by_kind_ns\":");
  ByKindJson(report.critical_path_total.by_kind_ns, out);
  TopJson(report.critical_path_total, out);
  out->append(",\"sentence\":");
  exports::AppendJsonString(out, report.critical_path_sentence);
  out->append("}");
}

void WriteStepDetailText(const analysis::Report& report, std::ostream& out) {
  if (report.steps.empty()) return;
  if (analysis::HasServingPhases(report.phases)) {
    out << "\nPhases (steps from " << ServingEngineName(report.step_engine) << ")\n";
    out << "  " << PadCell("phase", 10, false) << PadCell("steps", 8, true)
        << PadCell("time", 12, true) << PadCell("idle", 12, true) << PadCell("tokens", 12, true)
        << PadCell("tokens/s", 14, true) << "\n";
    for (const PhaseStat& p : report.phases) {
      out << "  " << PadCell(std::string(StepPhaseName(p.phase)), 10, false)
          << PadCell(std::to_string(p.steps), 8, true) << PadCell(text::FormatDuration(p.dur_ns), 12, true)
          << PadCell(text::FormatDuration(p.idle_ns), 12, true)
          << PadCell(p.tokens < 0 ? std::string("-") : std::to_string(p.tokens), 12, true)
          << PadCell(p.tokens_per_s < 0 ? std::string("-") : text::FormatFixed(p.tokens_per_s, 1), 14, true)
          << "\n";
    }
  }
  const ReportCriticalPath& total = report.critical_path_total;
  if (total.dur_ns <= 0) return;
  out << "\nCritical path, all steps (" << text::FormatDuration(total.dur_ns) << ")\n";
  for (int k = 0; k < analysis::kPathKindCount; ++k) {
    const DurNs ns = total.by_kind_ns[size_t(k)];
    out << "  " << PadCell(std::string(analysis::PathKindName(static_cast<PathKind>(k))), 12, false)
        << PadCell(text::FormatDuration(ns), 12, true) << PadCell(PercentText(ns, total.dur_ns), 9, true)
        << "\n";
  }
  for (const auto& [name, ns] : total.top) {
    out << "  " << PadCell(text::FormatDuration(ns), 12, true) << "  " << ClipName(name) << "\n";
  }
  if (!report.critical_path_sentence.empty()) out << "  " << report.critical_path_sentence << "\n";
}

void AppendTokensPerSecondJson(const analysis::Report& report, std::string* out) {
  out->push_back('{');
  bool first = true;
  for (const analysis::PhaseStat& p : report.phases) {
    if (p.tokens_per_s < 0) continue;
    out->append(first ? "\"" : ",\"");
    first = false;
    out->append(StepPhaseName(p.phase));
    out->append("\":");
    exports::AppendJsonDouble(out, p.tokens_per_s);
  }
  out->push_back('}');
}

}  // namespace stepline::app
