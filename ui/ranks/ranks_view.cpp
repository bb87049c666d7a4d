// RanksView (see ranks_view.h).
//
// [SECTION] Rows, sorting, CSV, bar segments
// [SECTION] Drawing
#include "ui/input/test_events.h"
#include "ui/ranks/ranks_view.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "model/analysis/headline.h"
#include "model/text_format.h"
#include "ui/analysis_format.h"
#include "ui/headline_text.h"
#include "ui/ranks/hatch.h"
#include "ui/sortable_table.h"
#include "ui/step_chart.h"
#include "ui/theme.h"
#include "ui/tooltip.h"
#include "ui/ui_scale.h"

namespace stepline::ui {

using analysis::IdleCause;
using analysis::TimeCategory;

//-----------------------------------------------------------------------------
// [SECTION] Rows, sorting, CSV, bar segments
//-----------------------------------------------------------------------------

const char* RanksColumnName(RanksColumn c) {
  static const char* const kNames[kRanksColumnCount] = {"Rank",          "Host",      "Steps", "Step mean",
                                                        "Compute",       "Coll. wait", "Coll. transfer", "Idle",
                                                        "Top idle cause", "Late by",   "Clock offset"};
  return kNames[static_cast<size_t>(c)];
}

std::vector<RanksTableRow> RanksTableRows(const RanksViewInput& input) {
  std::vector<RanksTableRow> rows;
  if (!input.analysis) return rows;
  const analysis::RanksAnalysis& a = *input.analysis;
  for (size_t i = 0; i < a.ranks.size(); ++i) {
    const analysis::RankRow& r = a.ranks[i];
    if (r.input >= input.ranks.size()) continue;
    const analysis::RankSummary& s = input.ranks[r.input];
    RanksTableRow row;
    row.rank = r.rank;
    row.host = s.host;
    row.path = s.path;
    row.steps = r.steps;
    row.step_mean_ns = r.step_mean_ns;
    row.compute_ns = At(r.breakdown_per_step, TimeCategory::kCompute);
    row.wait_ns = r.collective_wait_ns_per_step;
    row.transfer_ns = r.collective_transfer_ns_per_step;
    row.idle_by_cause = r.idle_by_cause_per_step;
    for (int c = static_cast<int>(TimeCategory::kIdleInput); c < analysis::kTimeCategoryCount; ++c) {
      row.idle_ns += r.breakdown_per_step[static_cast<size_t>(c)];
    }
    row.late_ns = r.late_ns;
    row.clock_offset_ns = r.clock_offset_ns;
    row.straggler = a.straggler && a.straggler->row == i;
    row.breakdown = r.breakdown_per_step;
    row.late_by_step = r.late_by_step;
    rows.push_back(std::move(row));
  }
  return rows;
}

namespace {

int TopCause(const RanksTableRow& r) {
  return static_cast<int>(std::max_element(r.idle_by_cause.begin(), r.idle_by_cause.end()) - r.idle_by_cause.begin());
}

}  // namespace

void SortRanksRows(std::vector<RanksTableRow>* rows, RanksColumn column, bool ascending) {
  const auto key = [column](const RanksTableRow& r) -> int64_t {
    switch (column) {
      case RanksColumn::kRank: return r.rank;
      case RanksColumn::kHost: return 0;  // by text below
      case RanksColumn::kSteps: return r.steps;
      case RanksColumn::kStepMean: return r.step_mean_ns;
      case RanksColumn::kCompute: return r.compute_ns;
      case RanksColumn::kWait: return r.wait_ns;
      case RanksColumn::kTransfer: return r.transfer_ns;
      case RanksColumn::kIdle: return r.idle_ns;
      case RanksColumn::kIdleTopCause: return TopCause(r);
      case RanksColumn::kLate: return r.late_ns;
      case RanksColumn::kOffset: return r.clock_offset_ns;
    }
    return 0;
  };
  std::stable_sort(rows->begin(), rows->end(), [&](const RanksTableRow& a, const RanksTableRow& b) {
    if (column == RanksColumn::kHost && a.host != b.host) return ascending ? a.host < b.host : a.host > b.host;
    const int64_t ka = key(a), kb = key(b);
    if (ka != kb) return ascending ? ka < kb : ka > kb;
    return a.rank < b.rank;
  });
}

std::string RanksTableCsv(std::span<const RanksTableRow> rows) {
  std::string out = "rank,host,steps,step_mean_ns,compute_ns,collective_wait_ns,collective_transfer_ns,idle_ns";
  for (int c = 0; c < analysis::kIdleCauseCount; ++c) {
    out += ",idle_" + std::string(analysis::IdleCauseName(static_cast<IdleCause>(c))) + "_ns";
  }
  out += ",late_ns,clock_offset_ns,straggler,path\n";
  for (const RanksTableRow& r : rows) {
    out += std::to_string(r.rank) + ",";
    text::AppendCsvField(r.host, &out);
    for (int64_t v : {r.steps, r.step_mean_ns, r.compute_ns, r.wait_ns, r.transfer_ns, r.idle_ns}) {
      out += "," + std::to_string(v);
    }
    for (DurNs v : r.idle_by_cause) out += "," + std::to_string(v);
    out += "," + std::to_string(r.late_ns) + "," + std::to_string(r.clock_offset_ns) + "," +
           (r.straggler ? "yes" : "no") + ",";
    text::AppendCsvField(r.path, &out);
    out += "\n";
  }
  return out;
}

std::vector<RankBarSegment> RankBarSegments(const RanksTableRow& row) {
  static const char* const kLabels[analysis::kTimeCategoryCount] = {
      "compute", "collective", "memcpy H2D", "memcpy D2H", "memcpy other", "memset",
      "idle: input", "idle: sync", "idle: launch", "idle: host compute", "idle: graph", "idle: other"};
  std::vector<RankBarSegment> out;
  for (int c = 0; c < analysis::kTimeCategoryCount; ++c) {
    const DurNs ns = row.breakdown[static_cast<size_t>(c)];
    const uint32_t color = theme::kCategoryColors[c];
    if (static_cast<TimeCategory>(c) == TimeCategory::kCollective) {
      const DurNs wait = std::min(row.wait_ns, ns);
      out.push_back({wait, color, true, "collective wait"});
      out.push_back({ns - wait, color, false, "collective transfer"});
    } else {
      out.push_back({ns, color, false, kLabels[c]});
    }
  }
  return out;
}

uint32_t LatenessColor(DurNs late, DurNs scale) {
  const double f = scale > 0 ? std::clamp(static_cast<double>(late) / static_cast<double>(scale), -1.0, 1.0) : 0.0;
  const auto mix = [](double a, double b, double t) { return static_cast<uint8_t>(std::lround(a + (b - a) * t)); };
  // From the theme's neutral: late -> (239, 83, 80); early -> (66, 165, 245).
  const uint32_t n = theme::kHeatNeutral;
  const double r = n & 0xFF, g = (n >> 8) & 0xFF, b = (n >> 16) & 0xFF;
  if (f >= 0) return theme::Rgba(mix(r, 239, f), mix(g, 83, f), mix(b, 80, f));
  return theme::Rgba(mix(r, 66, -f), mix(g, 165, -f), mix(b, 245, -f));
}

//-----------------------------------------------------------------------------
// [SECTION] Drawing
//-----------------------------------------------------------------------------

namespace {

constexpr SortableColumn kColumns[kRanksColumnCount] = {
    {"Rank", kColumnDefaultSort, 0, 0, "9999"},
    {"Host", kColumnStretch, 1, 6, nullptr},
    {"Steps", kColumnDescending, 0, 0, kSampleCount},
    {"Step mean", kColumnDescending, 0, 0, kSampleDuration},
    {"Compute", kColumnDescending, 0, 0, kSampleDuration},
    {"Coll. wait", kColumnDescending, 0, 0, kSampleDuration},
    {"Coll. transfer", kColumnDescending, 0, 0, kSampleDuration},
    {"Idle", kColumnDescending, 0, 0, kSampleDuration},
    {"Top idle cause", kColumnFixed, 0, 0, "host_compute 999.9 ms"},
    {"Late by", kColumnDescending, 0, 0, kSampleDuration},
    {"Clock offset", kColumnDescending, 0, 0, kSampleDuration},
};

void Cell(const std::string& text) {
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(text.c_str());
}

}  // namespace

void RanksView::DrawTable(std::vector<RanksTableRow>& rows, float height, std::optional<std::string>* open) {
  if (!ImGui::BeginChild("##ranks_table", ImVec2(0, height))) {
    ImGui::EndChild();
    return;
  }
  const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg |
                                ImGuiTableFlags_Resizable | ImGuiTableFlags_BordersInnerV;
  if (BeginSortableTable("##ranks", kColumns, flags, 1)) {
    int column = 0;
    if (TakeSortChange(&column, &sort_ascending_)) sort_column_ = static_cast<RanksColumn>(column);
    SortRanksRows(&rows, sort_column_, sort_ascending_);
    for (const RanksTableRow& r : rows) {
      ImGui::TableNextRow();
      if (r.straggler) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, theme::kRankStragglerRow);
      ImGui::TableNextColumn();
      const std::string label = std::to_string(r.rank) + (r.straggler ? " *" : "");
      ImGui::Selectable(label.c_str(), false, ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowDoubleClick);
      if (!rows_reported_ && TestEventsOn()) {
        // Where the first row is, for a scripted walk to double-click it.
        rows_reported_ = true;
        const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
        TestEvent("ranks.rows", "x=" + std::to_string(static_cast<int>((a.x + b.x) / 2)) +
                                    " y=" + std::to_string(static_cast<int>((a.y + b.y) / 2)) +
                                    " first=" + std::to_string(r.rank));
      }
      if (ImGui::IsItemHovered()) {
        WrappedTooltip("%s\ndouble-click: open this rank alone", r.path.c_str());
        // The count comes from the clicks' own times (the window's queue).
        if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
          *open = r.path;
          TestEvent("ranks.open", "rank=" + std::to_string(r.rank));
        }
      }
      Cell(r.host.empty() ? "-" : r.host);
      // Steps and the mean step are the rank's headline figures: the one helper draws them.
      const analysis::Headline h = analysis::RankHeadline(r.steps, r.step_mean_ns);
      Cell(HeadlineFigureText("ranks", h, analysis::HeadlineFigure::kSteps, r.path));
      Cell(HeadlineFigureText("ranks", h, analysis::HeadlineFigure::kStepMean, r.path));
      for (DurNs v : {r.compute_ns, r.wait_ns, r.transfer_ns, r.idle_ns}) Cell(text::FormatDuration(v));
      const int top = TopCause(r);
      Cell(r.idle_by_cause[static_cast<size_t>(top)] > 0
               ? std::string(analysis::IdleCauseName(static_cast<IdleCause>(top))) + " " +
                     text::FormatDuration(r.idle_by_cause[static_cast<size_t>(top)])
               : "-");
      Cell(text::FormatDuration(r.late_ns));
      Cell(text::FormatDuration(r.clock_offset_ns));
    }
    ImGui::EndTable();
  }
  ImGui::EndChild();
}

void RanksView::DrawBars(const std::vector<RanksTableRow>& rows, float width, float height) {
  if (rows.empty() || height < 20) return;
  const float s = UiScale();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float label_w = 70.f * s;
  const float row_h = std::clamp(height / static_cast<float>(rows.size()), 2.f, 22.f * s);
  DurNs max_ns = 1;
  for (const RanksTableRow& r : rows) {
    DurNs total = 0;
    for (DurNs v : r.breakdown) total += v;
    max_ns = std::max(max_ns, total);
  }
  const float plot_w = std::max(10.f, width - label_w - 8.f * s);
  for (size_t i = 0; i < rows.size(); ++i) {
    const RanksTableRow& r = rows[i];
    const float y0 = p.y + row_h * static_cast<float>(i), y1 = y0 + row_h - (row_h > 6 ? 2.f : 0.f);
    if (row_h >= ImGui::GetFontSize()) {
      const std::string label = "rank " + std::to_string(r.rank);
      dl->AddText(ImVec2(p.x, y0 + (row_h - ImGui::GetFontSize()) / 2), r.straggler ? theme::kErrorText : theme::kCardLabel,
                  label.c_str());
    }
    float x = p.x + label_w;
    for (const RankBarSegment& seg : RankBarSegments(r)) {
      if (seg.ns <= 0) continue;
      const float w = static_cast<float>(static_cast<double>(seg.ns) / static_cast<double>(max_ns) * plot_w);
      const ImVec2 a(x, y0), b(x + w, y1);
      dl->AddRectFilled(a, b, seg.hatched ? (seg.color & 0x00FFFFFFu) | 0x60000000u : seg.color);
      if (seg.hatched) Hatch(dl, a, b, theme::kRankWaitBarHatch, 5.f * s);
      if (ImGui::IsMouseHoveringRect(a, b)) {
        WrappedTooltip("rank %d: %s %s per step", r.rank, seg.label, text::FormatDuration(seg.ns).c_str());
      }
      x += w;
    }
  }
  ImGui::Dummy(ImVec2(width, row_h * static_cast<float>(rows.size())));
}

void RanksView::DrawHeatMap(const std::vector<RanksTableRow>& rows, float width, float height) {
  size_t steps = 0;
  DurNs scale = 1;
  for (const RanksTableRow& r : rows) {
    steps = std::max(steps, r.late_by_step.size());
    for (DurNs v : r.late_by_step) scale = std::max(scale, v < 0 ? -v : v);
  }
  if (rows.empty() || steps == 0 || width < 20 || height < 10) return;
  const float s = UiScale();
  const float row_h = std::clamp(height / static_cast<float>(rows.size()), 2.f, 22.f * s);
  const size_t per = std::max<size_t>(1, static_cast<size_t>(std::ceil(static_cast<float>(steps) / (width / 2.f))));
  const size_t cols = (steps + per - 1) / per;
  const float cell_w = width / static_cast<float>(cols);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  for (size_t i = 0; i < rows.size(); ++i) {
    const RanksTableRow& r = rows[i];
    const float y0 = p.y + row_h * static_cast<float>(i), y1 = y0 + row_h - (row_h > 6 ? 2.f : 0.f);
    for (size_t c = 0; c < cols; ++c) {
      DurNs sum = 0;
      size_t n = 0;
      for (size_t k = c * per; k < std::min(steps, (c + 1) * per); ++k) {
        if (k < r.late_by_step.size()) sum += r.late_by_step[k], ++n;
      }
      const DurNs late = n ? sum / static_cast<DurNs>(n) : 0;
      const ImVec2 a(p.x + cell_w * static_cast<float>(c), y0), b(a.x + std::max(1.f, cell_w - 1.f), y1);
      dl->AddRectFilled(a, b, LatenessColor(late, scale));
      if (ImGui::IsMouseHoveringRect(a, b)) {
        const size_t last = std::min(steps, (c + 1) * per) - 1;
        WrappedTooltip("rank %d, step %zu%s: %s late", r.rank, c * per,
                          last > c * per ? (" to " + std::to_string(last)).c_str() : "",
                          text::FormatDuration(late).c_str());
      }
    }
  }
  ImGui::Dummy(ImVec2(width, row_h * static_cast<float>(rows.size())));
}

// A TensorBoard tree with several runs: the run on screen and a button that
// shows the list of every run (hosts, date, size), newest first; clicking a
// row asks for that run (TakeRunChoice).
void RanksView::DrawRunPicker(const RanksViewInput& input) {
  for (const RanksRunChoice& c : input.runs) {
    if (!c.current) continue;
    ImGui::AlignTextToFramePadding();
    ImGui::Text("Run %s", c.run.c_str());
    ImGui::SameLine();
    ImGui::TextDisabled("(%zu %s, %s, %s; %zu runs in this folder)", c.hosts, c.hosts == 1 ? "host" : "hosts",
                        c.date.c_str(), c.size.c_str(), input.runs.size());
    ImGui::SameLine();
  }
  if (ImGui::SmallButton(run_list_open_ ? "Hide runs" : "Other runs...")) run_list_open_ = !run_list_open_;
  if (!run_list_open_) return;
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
  const float h = (static_cast<float>(std::min<size_t>(input.runs.size(), 8)) + 1.2f) * ImGui::GetTextLineHeightWithSpacing();
  if (!ImGui::BeginTable("##ranks_runs", 4, flags, ImVec2(std::min(ImGui::GetContentRegionAvail().x, 620.f * UiScale()), h))) {
    return;
  }
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("Run", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn("Hosts");
  ImGui::TableSetupColumn("Date");
  ImGui::TableSetupColumn("Size");
  ImGui::TableHeadersRow();
  for (size_t i = 0; i < input.runs.size(); ++i) {
    const RanksRunChoice& c = input.runs[i];
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::PushID(static_cast<int>(i));
    const std::string label = c.run + (c.current ? "  (on screen)" : i == 0 ? "  (newest)" : "");
    if (ImGui::Selectable(label.c_str(), c.current, ImGuiSelectableFlags_SpanAllColumns) && !c.current) {
      run_choice_ = c.dir;
      run_list_open_ = false;
    }
    ImGui::PopID();
    ImGui::TableNextColumn();
    ImGui::Text("%zu", c.hosts);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(c.date.c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(c.size.c_str());
  }
  ImGui::EndTable();
}

std::optional<std::string> RanksView::Draw(const RanksViewInput& input) {
  std::optional<std::string> open;
  std::vector<RanksTableRow> rows = RanksTableRows(input);
  const analysis::RanksAnalysis* a = input.analysis;
  if (input.runs.size() > 1) DrawRunPicker(input);
  ImGui::Text("%s: %zu ranks", input.title.c_str(), rows.size());
  if (a) {
    ImGui::SameLine();
    ImGui::TextDisabled("(world size %d; %llu collectives matched, %llu unmatched%s)", a->world_size,
                        static_cast<unsigned long long>(a->matched), static_cast<unsigned long long>(a->unmatched),
                        a->missing_ranks.empty() ? "" : "; some ranks missing");
    ImGui::SameLine();
    if (ImGui::SmallButton("Copy CSV")) {
      SortRanksRows(&rows, sort_column_, sort_ascending_);
      ImGui::SetClipboardText(RanksTableCsv(rows).c_str());
    }
    for (const std::string& r : a->recommendations) {
      ImGui::PushStyleColor(ImGuiCol_Text, theme::kAdviceText);
      ImGui::TextWrapped("%s", PlainCodeSpans(r).c_str());
      ImGui::PopStyleColor();
    }
    if (a->recommendations.empty()) ImGui::TextDisabled("No straggler: no rank arrives later than 5%% of its step.");
  }
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float table_h = std::min(avail.y * 0.3f, (static_cast<float>(rows.size()) + 1.5f) * ImGui::GetFrameHeightWithSpacing());
  DrawTable(rows, table_h, &open);
  ImGui::Spacing();
  // The timeline: as tall as its lane groups need, at most 55% of the rest.
  if (a) {
    const float s = UiScale();
    RanksTimelineLayout layout;
    layout.compute_lanes = RanksComputeLanes(input.ranks);
    const float lanes_h = layout.group_h() * s * static_cast<float>(rows.size());
    const float need = ImGui::GetFrameHeightWithSpacing() + RanksTimelineLayout{}.ruler_h * s + lanes_h + 2.f;
    timeline_.Draw(input, ImGui::GetContentRegionAvail().x, std::min(need, ImGui::GetContentRegionAvail().y * 0.55f));
    ImGui::Spacing();
  }
  const float full_w = ImGui::GetContentRegionAvail().x;
  const float bars_w = std::floor(full_w * 0.58f), gap = 12.f * UiScale();
  const ImVec2 top = ImGui::GetCursorScreenPos();
  ImGui::TextDisabled("Per-step time by rank (collective wait hatched)");
  analysis::CategoryNs mean{};
  for (const RanksTableRow& r : rows) {
    for (size_t c = 0; c < mean.size(); ++c) mean[c] += r.breakdown[c];
  }
  // The legend wraps at its region's width: a child as wide as the bars, as
  // tall as the lines it needs (the same wrapping rule as DrawCategoryLegend).
  int lines = 1;
  float used = -1;
  for (int c = 0; c < analysis::kTimeCategoryCount; ++c) {
    if (mean[static_cast<size_t>(c)] <= 0) continue;
    const float w = ImGui::GetFontSize() + ImGui::CalcTextSize(CategoryLabel(static_cast<TimeCategory>(c))).x +
                    ImGui::GetStyle().ItemSpacing.x * 3;
    if (used >= 0 && used + w < bars_w) {
      used += w;
    } else {
      lines += used >= 0 ? 1 : 0;
      used = w;
    }
  }
  ImGui::BeginChild("##ranks_legend", ImVec2(bars_w, static_cast<float>(lines) * ImGui::GetTextLineHeightWithSpacing()),
                    false, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoBackground);
  DrawCategoryLegend(mean);
  ImGui::EndChild();
  const float bars_top = ImGui::GetCursorScreenPos().y;
  const ImVec2 rest = ImGui::GetContentRegionAvail();
  DrawBars(rows, bars_w, rest.y);
  // The heat map beside the bars, its rows level with theirs.
  ImGui::SetCursorScreenPos(ImVec2(top.x + bars_w + gap, top.y));
  ImGui::TextDisabled("Lateness by step (red: after the median arrival, blue: before)");
  ImGui::SetCursorScreenPos(ImVec2(top.x + bars_w + gap, bars_top));
  DrawHeatMap(rows, full_w - bars_w - gap, rest.y);
  return open;
}

}  // namespace stepline::ui
