// Compare summary: formatting (pure) and the table; see compare_summary.h.
#include "ui/compare/compare_summary.h"

#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "model/analysis/memory_analysis.h"
#include "ui/analysis_format.h"
#include "ui/compare/compare_theme.h"
#include "ui/headline_text.h"
#include "ui/timeline/time_ruler.h"
#include "ui/ui_scale.h"

namespace stepline::ui {

using analysis::Change;
using analysis::SummaryGroup;
using analysis::SummaryRow;
using analysis::SummaryUnit;

std::string FormatSummaryValue(SummaryUnit unit, double value) {
  char buf[48];
  switch (unit) {
    case SummaryUnit::kCount: std::snprintf(buf, sizeof buf, "%.0f", value); return buf;
    case SummaryUnit::kPercent: std::snprintf(buf, sizeof buf, "%.1f%%", value); return buf;
    case SummaryUnit::kNs: return FormatDuration(static_cast<DurNs>(std::llround(value)));
    case SummaryUnit::kBytes: return analysis::FormatMemoryBytes(value);
    case SummaryUnit::kPerSecond: std::snprintf(buf, sizeof buf, "%.1f", value); return buf;
    case SummaryUnit::kRate:  // thousands as k, so a prefill's 204800.0/s fits the column
      if (std::fabs(value) >= 1e4) {
        std::snprintf(buf, sizeof buf, "%.1fk/s", value / 1e3);
      } else {
        std::snprintf(buf, sizeof buf, "%.1f/s", value);
      }
      return buf;
  }
  return "";
}

std::string FormatSummaryDelta(const SummaryRow& row) {
  if (row.delta == 0) return "0";
  const char* sign = row.delta > 0 ? "+" : "-";
  const double magnitude = std::fabs(row.delta);
  if (row.unit == SummaryUnit::kPercent) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%s%.1f pp", sign, magnitude);
    return buf;
  }
  return sign + FormatSummaryValue(row.unit, magnitude);
}

std::string FormatDeltaPercent(const SummaryRow& row) {
  if (std::isnan(row.delta_percent)) return "new";
  if (row.delta_percent == 0) return "0%";
  char buf[48];
  std::snprintf(buf, sizeof buf, "%+.1f%%", row.delta_percent);
  return buf;
}

Change SummaryTone(const SummaryRow& row) {
  const Change c = analysis::ChangeOf(row);
  if (c == Change::kNone) return c;
  // A NaN percentage (A was 0) is a real change, never noise.
  if (!std::isnan(row.delta_percent) && std::fabs(row.delta_percent) < theme::kCompareNeutralPercent) {
    return Change::kNone;
  }
  return c;
}

bool IsEmptySummaryRow(const SummaryRow& row) { return row.group != SummaryGroup::kRun && row.a == 0 && row.b == 0; }

namespace {

// Index of row `index` within its group (rows come in enum order).
size_t IndexInGroup(const analysis::Comparison& c, size_t index) {
  size_t k = 0;
  for (size_t i = 0; i < index; ++i) k += c.summary[i].group == c.summary[index].group;
  return k;
}

uint32_t RowSwatch(const analysis::Comparison& c, size_t index) {
  const size_t k = IndexInGroup(c, index);
  switch (c.summary[index].group) {
    case SummaryGroup::kBreakdown: return theme::kCategoryColors[k];
    case SummaryGroup::kIdleByCause: return theme::kCauseColors[k];
    case SummaryGroup::kRun:
    case SummaryGroup::kMemory:
    case SummaryGroup::kPhase: return 0;
  }
  return 0;
}

const char* GroupTitle(SummaryGroup g) {
  switch (g) {
    case SummaryGroup::kRun: return "Run";
    case SummaryGroup::kBreakdown: return "By category, per step";
    case SummaryGroup::kIdleByCause: return "GPU idle by cause, per step";
    case SummaryGroup::kMemory: return "Memory peaks";
    case SummaryGroup::kPhase: return "By serving phase";
  }
  return "";
}

}  // namespace

std::string SummaryLabel(const analysis::Comparison& c, size_t index) {
  const SummaryRow& row = c.summary[index];
  const size_t k = IndexInGroup(c, index);
  switch (row.group) {
    case SummaryGroup::kBreakdown:
      if (k < analysis::kTimeCategoryCount) return CategoryLabel(static_cast<analysis::TimeCategory>(k));
      break;
    case SummaryGroup::kIdleByCause:
      if (k < analysis::kIdleCauseCount) return CauseLabel(static_cast<analysis::IdleCause>(k));
      break;
    case SummaryGroup::kMemory: break;
    case SummaryGroup::kPhase: {  // "prefill mean step" -> "Prefill: mean step"
      std::string label = row.label;
      const size_t space = label.find(' ');
      if (!label.empty()) label[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(label[0])));
      if (space != std::string::npos) label.replace(space, 1, ": ");
      return label;
    }
    case SummaryGroup::kRun:
      if (row.label == "steps") return "Steps";
      if (row.label == "mean step") return "Mean step time";
      if (row.label.ends_with(" busy")) return row.label + " (kernels)";  // "GPU busy", "TPU busy"
      break;
  }
  return row.label;
}

namespace {

// The value columns as wide as their widest likely text.
struct ValueColumns {
  float value = ImGui::CalcTextSize("000.0 ms").x;
  float delta = ImGui::CalcTextSize("+000.0 ms").x;
  float change = ImGui::CalcTextSize("+1000.0%").x;
  float padding = 2 * ImGui::GetStyle().CellPadding.x + 1;  // per column, plus its border
  float total() const { return 2 * value + delta + change + 5 * padding; }
};

}  // namespace

float SummaryTableWidth(const analysis::Comparison& c) { return SummaryLabelWidth(c) + ValueColumns().total(); }

float SummaryLabelWidth(const analysis::Comparison& c) {
  const float swatch = theme::kLegendSwatch * UiScale() + ImGui::GetStyle().ItemSpacing.x;
  float widest = 0;
  for (size_t i = 0; i < c.summary.size(); ++i) {
    const float w = ImGui::CalcTextSize(SummaryLabel(c, i).c_str()).x + (RowSwatch(c, i) != 0 ? swatch : 0.f);
    widest = std::max(widest, w);
  }
  return widest;
}

void DrawCompareSummary(const analysis::Comparison& c, const analysis::Headline* heads) {
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
  const float width = ImGui::GetContentRegionAvail().x;
  // The verdict of `stepline diff` (step_verdict.h), in the same words.
  const analysis::VerdictResult result = c.verdict.result;
  const ImU32 verdict_color = result == analysis::VerdictResult::kSlower   ? theme::kRegression
                              : result == analysis::VerdictResult::kFaster ? theme::kImprovement
                                                                           : ImGui::GetColorU32(ImGuiCol_Text);
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(verdict_color), "Verdict %s",
                     analysis::VerdictLine(c.verdict).c_str());
  if (!ImGui::BeginTable("##compare_summary", 5, flags)) return;
  // The label column takes what the values leave, but never less than its
  // longest label (a number without its name says nothing): when the column
  // is too narrow for both, the change column clips. Group titles may clip.
  const ValueColumns v;
  const float label_w = std::max(SummaryLabelWidth(c), width - v.total());
  ImGui::TableSetupColumn("Metric", ImGuiTableColumnFlags_WidthFixed, label_w);
  ImGui::TableSetupColumn("A", ImGuiTableColumnFlags_WidthFixed, v.value);
  ImGui::TableSetupColumn("B", ImGuiTableColumnFlags_WidthFixed, v.value);
  ImGui::TableSetupColumn("B - A", ImGuiTableColumnFlags_WidthFixed, v.delta);
  ImGui::TableSetupColumn("change", ImGuiTableColumnFlags_WidthFixed, v.change);
  ImGui::TableHeadersRow();
  const ImVec4 a_color = ImGui::ColorConvertU32ToFloat4(theme::kRunA);
  const ImVec4 b_color = ImGui::ColorConvertU32ToFloat4(theme::kRunB);
  int group = -1;
  for (size_t i = 0; i < c.summary.size(); ++i) {
    const SummaryRow& row = c.summary[i];
    const bool empty = IsEmptySummaryRow(row);
    if (static_cast<int>(row.group) != group) {
      group = static_cast<int>(row.group);
      if (row.group != SummaryGroup::kRun) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextDisabled("%s", GroupTitle(row.group));
      }
    }
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    if (const uint32_t swatch = RowSwatch(c, i)) ColorSwatch(swatch);
    if (empty) {
      // Listed like `stepline diff` lists it, but out of the way: all zeros.
      ImGui::TextDisabled("%s", SummaryLabel(c, i).c_str());
      const std::string zero = FormatSummaryValue(row.unit, 0);
      for (const char* cell : {zero.c_str(), zero.c_str(), "0"}) {
        ImGui::TableNextColumn();
        ImGui::TextDisabled("%s", cell);
      }
      ImGui::TableNextColumn();  // no change to speak of
      continue;
    }
    ImGui::TextUnformatted(SummaryLabel(c, i).c_str());
    // The run rows' values are headline figures: drawn through the one helper.
    std::string cells[2] = {FormatSummaryValue(row.unit, row.a), FormatSummaryValue(row.unit, row.b)};
    // By label: serving runs have no overall "mean step" row (the phase rows replace it).
    const bool headline_row = row.label == "steps" || row.label == "mean step" || row.label.ends_with(" busy");
    if (heads != nullptr && row.group == SummaryGroup::kRun && headline_row) {
      const analysis::HeadlineFigure figure = row.label == "steps"       ? analysis::HeadlineFigure::kSteps
                                              : row.label == "mean step" ? analysis::HeadlineFigure::kStepMean
                                                                         : analysis::HeadlineFigure::kDeviceBusy;
      cells[0] = HeadlineFigureText("compare", heads[0], figure, "A");
      cells[1] = HeadlineFigureText("compare", heads[1], figure, "B");
    } else if (heads != nullptr && row.unit == SummaryUnit::kPerSecond) {
      cells[0] = HeadlineFigureText("compare", heads[0], analysis::HeadlineFigure::kSamplesPerS, "A");
      cells[1] = HeadlineFigureText("compare", heads[1], analysis::HeadlineFigure::kSamplesPerS, "B");
    }
    ImGui::TableNextColumn();
    ImGui::TextColored(a_color, "%s", cells[0].c_str());
    ImGui::TableNextColumn();
    ImGui::TextColored(b_color, "%s", cells[1].c_str());
    const Change tone = SummaryTone(row);
    const ImVec4 delta_color = tone == Change::kImprovement  ? ImGui::ColorConvertU32ToFloat4(theme::kImprovement)
                               : tone == Change::kRegression ? ImGui::ColorConvertU32ToFloat4(theme::kRegression)
                                                             : ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled);
    ImGui::TableNextColumn();
    ImGui::TextColored(delta_color, "%s", FormatSummaryDelta(row).c_str());
    ImGui::TableNextColumn();
    ImGui::TextColored(delta_color, "%s", FormatDeltaPercent(row).c_str());
  }
  ImGui::EndTable();
}

}  // namespace stepline::ui
