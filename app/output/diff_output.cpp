// Formatting an analysis::Comparison as JSON or text; see diff_output.h.
#include "app/output/diff_output.h"

#include <algorithm>
#include <cmath>
#include <ostream>
#include <string>

#include "app/output/json_writer.h"
#include "app/output/text_format.h"
#include "model/analysis/headline_record.h"
#include "model/analysis/memory_analysis.h"

namespace stepline::app {
namespace {

using analysis::CompareSide;
using analysis::HeadlineFigure;
using analysis::Comparison;
using analysis::SummaryGroup;
using analysis::SummaryRow;

//-----------------------------------------------------------------------------
// JSON
//-----------------------------------------------------------------------------

void SideJson(const CompareSide& s, JsonWriter* json) {
  json->BeginObject();
  json->Field("path", s.path);
  json->Field("steps", uint64_t{s.steps});
  json->Key("step_mean_ns").Int(s.step_mean_ns);
  json->FieldFixed("gpu_busy_percent", s.gpu_busy_percent, 2);
  json->Field("step_source", analysis::StepSourceName(s.step_source));
  json->Key("first_full_step").Int(s.first_full_step);
  // The figures as text, exactly as the window's headline and `diff` text
  // print them (a side has the mean step without its spread).
  constexpr std::string_view kUse = "diff json";
  json->Key("headline").BeginObject();
  json->Field("steps", analysis::HeadlineValueText(kUse, HeadlineFigure::kSteps, double(s.steps)));
  json->Field("mean_step",
              s.steps > 0 ? analysis::HeadlineValueText(kUse, HeadlineFigure::kMeanStep, double(s.step_mean_ns)) : "-");
  const bool busy = !s.primary_device.empty() && s.steps > 0;
  json->Field("device_busy", busy ? analysis::HeadlineValueText(kUse, HeadlineFigure::kDeviceBusy, s.gpu_busy_percent)
                                  : std::string("-"));
  json->Field("device_idle",
              busy ? analysis::HeadlineValueText(kUse, HeadlineFigure::kDeviceIdle, 100.0 - s.gpu_busy_percent)
                   : std::string("-"));
  json->EndObject();
  json->EndObject();
}

// {name: {a_ns, b_ns, delta_ns}} over the summary rows of one group; the
// values are integer ns, so the doubles of SummaryRow convert exactly.
void GroupJson(const Comparison& c, SummaryGroup group, JsonWriter* json) {
  const std::string unit = group == SummaryGroup::kMemory ? "_bytes" : "_ns";
  json->BeginObject();
  for (const SummaryRow& row : c.summary) {
    if (row.group != group) continue;
    json->Key(row.label).BeginObject();
    json->Key("a" + unit).Int(std::llround(row.a));
    json->Key("b" + unit).Int(std::llround(row.b));
    json->Key("delta" + unit).Int(std::llround(row.delta));
    json->EndObject();
  }
  json->EndObject();
}

// Phase with phase (serving runs): [{phase, a_steps, b_steps, {a,b,delta}_step_mean_ns,
// {a,b,delta}_tokens_per_s, {a,b,delta}_mfu_percent}], unknowns null.
void PhasesJson(const Comparison& c, JsonWriter* json) {
  json->BeginArray();
  auto pair = [json](std::string_view key, double a, double b, int decimals) {
    const std::string k(key);
    auto one = [&](const std::string& name, bool known, double v) {
      json->Key(name);
      if (known) {
        json->Fixed(v, decimals);
      } else {
        json->Null();
      }
    };
    one("a_" + k, a >= 0, a);
    one("b_" + k, b >= 0, b);
    one("delta_" + k, a >= 0 && b >= 0, b - a);
  };
  for (const analysis::PhaseCompareRow& p : c.phases) {
    json->BeginObject();
    json->Field("phase", StepPhaseName(p.phase));
    json->Field("a_steps", uint64_t{p.steps_a});
    json->Field("b_steps", uint64_t{p.steps_b});
    json->Key("a_step_mean_ns").Int(p.step_mean_a_ns);
    json->Key("b_step_mean_ns").Int(p.step_mean_b_ns);
    json->Key("delta_step_mean_ns").Int(p.step_mean_b_ns - p.step_mean_a_ns);
    pair("tokens_per_s", p.tokens_per_s_a, p.tokens_per_s_b, 1);
    pair("mfu_percent", p.mfu_percent_a, p.mfu_percent_b, 2);
    json->EndObject();
  }
  json->EndArray();
}

void OpsJson(const Comparison& c, size_t max_ops, JsonWriter* json) {
  json->BeginArray();
  for (size_t i = 0; i < std::min(max_ops, c.ops.size()); ++i) {
    const analysis::OpDiffRow& op = c.ops[i];
    json->BeginObject();
    json->Field("name", op.name);
    json->Field("kind", analysis::OpKindName(op.kind));
    json->Field("a_count", op.a_count);
    json->Field("b_count", op.b_count);
    json->Key("a_total_ns").Int(op.a_total_ns);
    json->Key("b_total_ns").Int(op.b_total_ns);
    json->Key("delta_ns").Int(op.delta_ns);
    json->FieldFixed("delta_per_step_ns", op.delta_per_step_ns, 1);
    json->Field("presence", analysis::PresenceName(op.presence));
    json->EndObject();
  }
  json->EndArray();
}

//-----------------------------------------------------------------------------
// Text
//-----------------------------------------------------------------------------

std::string Signed(const std::string& text, double v) { return v > 0 ? "+" + text : text; }

// The run's figures and the memory peaks through the headline's formatter
// (headline_record.h), so a diff prints them as the window does.
std::string Value(const SummaryRow& row, double v) {
  constexpr std::string_view kUse = "diff text";
  switch (row.unit) {
    case analysis::SummaryUnit::kCount:
      if (row.group == SummaryGroup::kRun) return analysis::HeadlineValueText(kUse, HeadlineFigure::kSteps, v);
      return FormatCount(uint64_t(std::llround(std::max(v, 0.0))));
    case analysis::SummaryUnit::kNs:
      if (row.group == SummaryGroup::kRun) return analysis::HeadlineValueText(kUse, HeadlineFigure::kMeanStep, v);
      return FormatDuration(std::llround(v));
    case analysis::SummaryUnit::kPercent:
      if (row.group == SummaryGroup::kRun) return analysis::HeadlineValueText(kUse, HeadlineFigure::kDeviceBusy, v);
      return FormatFixed(v, 1) + "%";
    case analysis::SummaryUnit::kBytes:
      return analysis::HeadlineValueText(kUse, HeadlineFigure::kMemoryPeak, std::max(v, 0.0));
    case analysis::SummaryUnit::kPerSecond: return analysis::HeadlineValueText(kUse, HeadlineFigure::kSamplesPerS, v);
    case analysis::SummaryUnit::kRate: return FormatFixed(v, 1) + "/s";
  }
  return "";
}

std::string Delta(const SummaryRow& row) {
  switch (row.unit) {
    case analysis::SummaryUnit::kCount: return Signed(std::to_string(std::llround(row.delta)), row.delta);
    case analysis::SummaryUnit::kNs: return Signed(FormatDuration(std::llround(row.delta)), row.delta);
    // A difference of two percentages is in percentage points.
    case analysis::SummaryUnit::kPercent: return Signed(FormatFixed(row.delta, 1) + " pp", row.delta);
    case analysis::SummaryUnit::kPerSecond: return Signed(FormatFixed(row.delta, 1), row.delta);
    case analysis::SummaryUnit::kBytes:  // in the peaks' units
      return (row.delta < 0 ? "-" : row.delta > 0 ? "+" : "") + analysis::FormatMemoryBytes(std::fabs(row.delta));
    case analysis::SummaryUnit::kRate: return Signed(FormatFixed(row.delta, 1) + "/s", row.delta);
  }
  return "";
}

std::string DeltaPercentText(double percent) {
  if (std::isnan(percent)) return "new";
  return Signed(FormatFixed(percent, 1) + "%", percent);
}

std::string_view Verdict(const SummaryRow& row) {
  switch (analysis::ChangeOf(row)) {
    case analysis::Change::kImprovement: return "better";
    case analysis::Change::kRegression: return "worse";
    case analysis::Change::kNone: return "";
  }
  return "";
}

void SideText(std::string_view letter, const CompareSide& s, std::ostream& out) {
  out << letter << "  " << s.path << ": " << analysis::HeadlineValueText("diff text", HeadlineFigure::kSteps, double(s.steps))
      << (s.steps == 1 ? " step" : " steps");
  if (s.steps > 0) out << " from " << analysis::StepSourceName(s.step_source);
  if (!s.primary_device.empty()) out << ", primary device " << s.primary_device;
  out << "\n";
}

void SummaryText(const Comparison& c, std::ostream& out) {
  constexpr std::string_view kHeadings[] = {"Run", "Step-time breakdown, per-step mean",
                                            "GPU idle by cause, per-step mean", "Memory peaks",
                                            "Serving phases, phase with phase"};
  int group = -1;
  for (const SummaryRow& row : c.summary) {
    if (static_cast<int>(row.group) != group) {
      group = static_cast<int>(row.group);
      out << "\n" << kHeadings[group] << "\n";
      out << "  " << PadCell("", 18, false) << PadCell("A", 12, true) << PadCell("B", 12, true)
          << PadCell("delta", 13, true) << PadCell("delta %", 10, true) << "\n";
    }
    out << "  " << PadCell(row.label, 18, false) << PadCell(Value(row, row.a), 12, true)
        << PadCell(Value(row, row.b), 12, true) << PadCell(Delta(row), 13, true)
        << PadCell(DeltaPercentText(row.delta_percent), 10, true);
    const std::string_view verdict = Verdict(row);
    if (!verdict.empty()) out << "  " << verdict;
    out << "\n";
  }
}

std::string_view PresenceText(analysis::Presence p) {
  switch (p) {
    case analysis::Presence::kBoth: return "";
    case analysis::Presence::kOnlyA: return "only A";
    case analysis::Presence::kOnlyB: return "only B";
  }
  return "";
}

void OpsText(const Comparison& c, size_t max_ops, std::ostream& out) {
  const size_t n = std::min(max_ops, c.ops.size());
  out << "\nTop " << n << " op deltas of " << FormatCount(c.ops.size()) << " (by |B total - A total|; names "
      << (c.names_normalized ? "normalized" : "as recorded") << ")\n";
  if (n == 0) return;
  out << "  " << PadCell("delta", 11, true) << PadCell("per step", 11, true) << PadCell("A count", 10, true)
      << PadCell("B count", 10, true) << PadCell("A total", 11, true) << PadCell("B total", 11, true) << "  "
      << PadCell("kind", 9, false) << PadCell("", 8, false) << "name\n";
  for (size_t i = 0; i < n; ++i) {
    const analysis::OpDiffRow& op = c.ops[i];
    out << "  " << PadCell(Signed(FormatDuration(op.delta_ns), double(op.delta_ns)), 11, true)
        << PadCell(Signed(FormatDuration(std::llround(op.delta_per_step_ns)), op.delta_per_step_ns), 11, true)
        << PadCell(FormatCount(op.a_count), 10, true) << PadCell(FormatCount(op.b_count), 10, true)
        << PadCell(FormatDuration(op.a_total_ns), 11, true) << PadCell(FormatDuration(op.b_total_ns), 11, true) << "  "
        << PadCell(std::string(analysis::OpKindName(op.kind)), 9, false)
        << PadCell(std::string(PresenceText(op.presence)), 8, false) << ClipName(op.name) << "\n";
  }
}

}  // namespace

void WriteDiffJson(const Comparison& c, size_t max_ops, std::ostream& out) {
  JsonWriter json;
  json.BeginObject();
  json.Key("a");
  SideJson(c.a, &json);
  json.Key("b");
  SideJson(c.b, &json);
  json.Key("breakdown");
  GroupJson(c, SummaryGroup::kBreakdown, &json);
  json.Key("idle_by_cause");
  GroupJson(c, SummaryGroup::kIdleByCause, &json);
  json.Key("memory");  // {"GPU 0 peak allocated": {a_bytes, b_bytes, delta_bytes}, ...}
  GroupJson(c, SummaryGroup::kMemory, &json);
  json.Key("phases");  // [] unless both runs are serving runs
  PhasesJson(c, &json);
  json.Key("ops");
  OpsJson(c, max_ops, &json);
  json.Key("verdict").BeginObject();  // step_verdict.h has the definition
  json.Field("result", analysis::VerdictResultName(c.verdict.result));
  json.FieldFixed("change_percent", c.verdict.change_percent, 2);
  json.FieldFixed("confidence", c.verdict.confidence, 4);
  json.FieldFixed("p_value", c.verdict.p_value, 6);
  json.Field("a_steps", uint64_t{c.verdict.a_steps});
  json.Field("b_steps", uint64_t{c.verdict.b_steps});
  json.Field("test", "mann_whitney_u");
  json.EndObject();
  json.EndObject();
  out << json.text() << "\n";
}

void WriteDiffText(const Comparison& c, size_t max_ops, std::ostream& out) {
  SideText("A", c.a, out);
  SideText("B", c.b, out);
  out << "delta = B - A; lower time is better, higher GPU busy is better\n";
  out << "verdict " << analysis::VerdictLine(c.verdict) << "\n";
  SummaryText(c, out);
  OpsText(c, max_ops, out);
}

}  // namespace stepline::app
