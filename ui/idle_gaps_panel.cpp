// IdleGapsPanel: filter, sort, histogram and table of the idle gaps.
//
// [SECTION] Filter, sort, histogram (pure)
// [SECTION] Drawing
#include "ui/idle_gaps_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "ui/analysis_format.h"
#include "ui/analysis_tables.h"
#include "ui/sortable_table.h"
#include "ui/theme.h"
#include "ui/timeline/time_ruler.h"
#include "ui/tooltip.h"
#include "ui/ui_scale.h"

namespace stepline::ui {

//-----------------------------------------------------------------------------
// [SECTION] Filter, sort, histogram (pure)
//-----------------------------------------------------------------------------

std::vector<uint32_t> FilterGaps(const AnalysisData& a, uint32_t cause_mask, DurNs min_dur_ns) {
  std::vector<uint32_t> rows;
  for (uint32_t i = 0; i < a.gaps.size(); ++i) {
    const analysis::IdleGap& g = a.gaps[i];
    if ((cause_mask >> static_cast<unsigned>(g.cause) & 1u) && g.dur_ns() >= min_dur_ns) rows.push_back(i);
  }
  return rows;
}

void SortGaps(const Trace& trace, const AnalysisData& a, GapColumn column, bool ascending, std::vector<uint32_t>* rows) {
  auto blamed_name = [&](uint32_t i) {
    const auto& ev = a.gaps[i].cause_events;
    return ev.empty() ? std::string_view() : trace.str(trace.slices().name()[ev.front().slice.index()]);
  };
  if (column == GapColumn::kBlamed) {
    // By the first blamed event's name, then start, then row.
    auto less = [&](uint32_t x, uint32_t y) {
      const std::string_view p = blamed_name(x), q = blamed_name(y);
      if (p != q) return p < q;
      const analysis::IdleGap& g = a.gaps[x];
      const analysis::IdleGap& h = a.gaps[y];
      return g.start_ns != h.start_ns ? g.start_ns < h.start_ns : x < y;
    };
    std::stable_sort(rows->begin(), rows->end(), [&](uint32_t x, uint32_t y) { return ascending ? less(x, y) : less(y, x); });
    return;
  }
  // A numeric column: the same total order (column, start, row) sorted on
  // keys pulled out once, not through the gaps (1M gaps in the 10M-slice
  // demo: this sort runs on the UI thread when the analysis arrives).
  struct Key {
    int64_t column, start_ns;
    uint32_t row;
    auto operator<=>(const Key&) const = default;
  };
  std::vector<Key> keys;
  keys.reserve(rows->size());
  for (uint32_t i : *rows) {
    const analysis::IdleGap& g = a.gaps[i];
    int64_t k = 0;
    switch (column) {
      case GapColumn::kDevice: k = a.gap_device[i]; break;
      case GapColumn::kDuration: k = g.dur_ns(); break;
      case GapColumn::kStep: k = g.step; break;
      case GapColumn::kCause: k = static_cast<int64_t>(g.cause); break;
      case GapColumn::kStart:
      case GapColumn::kBlamed: break;
    }
    keys.push_back({k, g.start_ns, i});
  }
  if (ascending) {
    std::sort(keys.begin(), keys.end());
  } else {
    std::sort(keys.begin(), keys.end(), [](const Key& x, const Key& y) { return y < x; });
  }
  for (size_t j = 0; j < keys.size(); ++j) (*rows)[j] = keys[j].row;
}

DurationHistogram ComputeDurationHistogram(const AnalysisData& a, const std::vector<uint32_t>& rows, int bins) {
  DurationHistogram h;
  if (rows.empty() || bins <= 0) return h;
  DurNs lo = INT64_MAX, hi = 0;
  for (uint32_t i : rows) {
    lo = std::min(lo, a.gaps[i].dur_ns());
    hi = std::max(hi, a.gaps[i].dur_ns());
  }
  lo = std::max<DurNs>(1, lo);
  hi = std::max(hi, lo + 1);
  // Gap durations span decades (ns launch bubbles to ms input stalls): log bins.
  const double l0 = std::log(static_cast<double>(lo)), l1 = std::log(static_cast<double>(hi) + 1);
  for (int b = 0; b <= bins; ++b) {
    h.edges.push_back(static_cast<DurNs>(std::exp(l0 + (l1 - l0) * b / bins)));
  }
  h.edges.front() = lo;
  h.edges.back() = hi + 1;
  h.counts.assign(bins, 0);
  for (uint32_t i : rows) {
    const DurNs d = std::max<DurNs>(1, a.gaps[i].dur_ns());
    const auto it = std::upper_bound(h.edges.begin(), h.edges.end(), d);
    const int b = std::clamp(static_cast<int>(it - h.edges.begin()) - 1, 0, bins - 1);
    ++h.counts[b];
  }
  return h;
}

GapColumnSamples WidestGapValues(const Trace& trace, const AnalysisData& a) {
  GapColumnSamples out;
  const auto keep_wider = [](std::string* best, const std::string& v) {
    if (best->empty() || ImGui::CalcTextSize(v.c_str()).x > ImGui::CalcTextSize(best->c_str()).x) *best = v;
  };
  const TimeNs origin = trace.span().start_ns;
  // Every distinct step and cause once; times by their longest text.
  std::vector<bool> step_seen(a.report.steps.size(), false), cause_seen(analysis::kIdleCauseCount, false);
  for (size_t i = 0; i < a.gaps.size(); ++i) {
    const analysis::IdleGap& g = a.gaps[i];
    keep_wider(&out.device, a.report.devices[a.gap_device[i]].name);
    keep_wider(&out.start, FormatDuration(g.start_ns - origin));
    keep_wider(&out.duration, FormatDuration(g.dur_ns()));
    if (g.step >= 0 && !step_seen[static_cast<size_t>(g.step)]) {
      step_seen[static_cast<size_t>(g.step)] = true;
      keep_wider(&out.step, a.report.steps[static_cast<size_t>(g.step)].name);
    }
    if (!cause_seen[static_cast<size_t>(g.cause)]) {
      cause_seen[static_cast<size_t>(g.cause)] = true;
      keep_wider(&out.cause, std::string("WW ") + CauseLabel(g.cause));  // "WW": the swatch
    }
  }
  return out;
}

//-----------------------------------------------------------------------------
// [SECTION] Drawing
//-----------------------------------------------------------------------------

namespace {

// In GapColumn order; the longest gaps first by default. The cause cell is a
// swatch and the label: its sample counts the swatch as two characters.
constexpr SortableColumn kGapTableColumns[] = {
    {"Device", kColumnFixed, 0, 0, "GPU 0"},
    {"Start", kColumnFixed, 0, 0, kSampleDuration},
    {"Duration", kColumnDescending | kColumnDefaultSort, 0, 0, kSampleDuration},
    {"Step", kColumnFixed, 0, 0, "ProfilerStep#99"},
    {"Cause", kColumnFixed, 0, 0, "WW host compute"},
    {"Blamed host events", kColumnStretch, 0, theme::kNameColumnMinEm}};

}  // namespace

void IdleGapsPanel::Refresh(const ViewState& state) {
  const AnalysisData& a = state.data->analysis;
  if (built_generation_ != state.data->generation || built_mask_ != state.links.gap_cause_mask ||
      built_min_ns_ != state.links.gap_min_dur_ns) {
    if (built_generation_ != state.data->generation) samples_ = WidestGapValues(*state.trace(), a);
    built_generation_ = state.data->generation;
    built_mask_ = state.links.gap_cause_mask;
    built_min_ns_ = state.links.gap_min_dur_ns;
    rows_ = FilterGaps(a, built_mask_, built_min_ns_);
    histogram_ = ComputeDurationHistogram(a, rows_, theme::kHistogramBins);
    sort_dirty_ = true;
  }
  if (sort_dirty_) {
    SortGaps(*state.trace(), a, sort_column_, sort_ascending_, &rows_);
    sort_dirty_ = false;
  }
}

void IdleGapsPanel::MenuItems(const ViewState& state, std::vector<ExportRequest>* exports) const {
  const Trace& trace = *state.trace();
  const AnalysisData& a = state.data->analysis;
  TableExportMenuItems("gaps table", "gaps", [&] { return GapsTable(trace, a, rows_); }, exports);
}

void IdleGapsPanel::Draw(ViewState& state) {
  if (state.data->analysis.gaps.empty()) {
    ImGui::TextDisabled("No GPU idle gaps: the trace has no kernels, or they run back to back.");
    return;
  }
  DrawFilters(state);
  Refresh(state);
  const float s = UiScale();
  const float hist_w =
      SideChartWidth(ImGui::GetContentRegionAvail().x, SortableTableMinWidth(kGapTableColumns),
                     theme::kGapHistogramWidth * s, theme::kGapHistogramShare, theme::kSideChartMinWidth * s);
  ImGui::BeginChild("##gap_table", ImVec2(-hist_w, 0));
  DrawTable(state);
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginGroup();
  // Wrapped: the histogram may be at its minimum width beside a wide table.
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + hist_w - theme::kSideChartGap * s);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("Durations of the %zu gaps listed (log-log)", rows_.size());
  ImGui::PopStyleColor();
  ImGui::PopTextWrapPos();
  // As tall as the pane allows, up to a cap: short bins stay visible.
  const float hist_h = std::clamp(ImGui::GetContentRegionAvail().y - 4 * s, theme::kHistogramHeight * s,
                                  theme::kHistogramMaxHeight * s);
  DrawHistogram(state, hist_w - theme::kSideChartGap * s, hist_h);
  ImGui::EndGroup();
}

namespace {

// Width of a checkbox with `label`.
float CheckboxWidth(const char* label) {
  return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label).x;
}

}  // namespace

void IdleGapsPanel::DrawFilters(ViewState& state) {
  const auto& by_cause = state.data->analysis.report.idle_by_cause;
  const float s = UiScale();
  const float group_gap = 12.f * s, swatch_gap = 3.f * s;
  for (int c = 0; c < analysis::kIdleCauseCount; ++c) {
    const auto cause = static_cast<analysis::IdleCause>(c);
    bool on = state.links.gap_cause_mask >> c & 1u;
    if (c > 0) SameLineIfFits(theme::kLegendSwatch * s + swatch_gap + CheckboxWidth(CauseLabel(cause)), group_gap);
    // Swatch tight against its checkbox, a wider gap to the next cause, so
    // each colour reads as its own label's.
    ColorSwatch(CauseColor(cause), swatch_gap);
    if (ImGui::Checkbox(CauseLabel(cause), &on)) state.links.gap_cause_mask ^= 1u << c;
    if (ImGui::IsItemHovered()) WrappedTooltip("%s of idle time on the primary device", FormatDuration(by_cause[c]).c_str());
  }
  SameLineIfFits(ImGui::CalcTextSize("all").x + 2 * ImGui::GetStyle().FramePadding.x, group_gap);
  if (ImGui::SmallButton("all")) state.links.gap_cause_mask = (1u << analysis::kIdleCauseCount) - 1;
  const float drag_w = 120 * s;
  SameLineIfFits(drag_w + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize("min duration").x, group_gap);
  ImGui::SetNextItemWidth(drag_w);
  float min_dur_us = static_cast<float>(static_cast<double>(state.links.gap_min_dur_ns) / 1e3);
  if (ImGui::DragFloat("min duration", &min_dur_us, 1.f, 0.f, 1e6f, "%.0f us", ImGuiSliderFlags_Logarithmic)) {
    state.links.gap_min_dur_ns = std::llround(static_cast<double>(min_dur_us) * 1e3);
  }
  SameLineIfFits(CheckboxWidth("shade on timeline"), group_gap);
  ImGui::Checkbox("shade on timeline", &state.links.show_gap_overlay);
}

void IdleGapsPanel::DrawHistogram(const ViewState& state, float width, float height) {
  (void)state;
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("##gap_hist", ImVec2(std::max(width, 10.f), height));
  if (histogram_.counts.empty()) return;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  // Heights on a log scale of the count: a handful of long stalls must stay
  // visible next to thousands of launch bubbles.
  const uint32_t peak = *std::max_element(histogram_.counts.begin(), histogram_.counts.end());
  const float log_peak = std::log1p(static_cast<float>(peak));
  const float label_h = ImGui::GetFontSize();
  // The peak count at the top right names the (log) height scale.
  const std::string peak_label = "peak " + std::to_string(peak) + (peak == 1 ? " gap" : " gaps");
  dl->AddText(ImVec2(p.x + width - ImGui::CalcTextSize(peak_label.c_str()).x, p.y), theme::kCardLabel,
              peak_label.c_str());
  const float top = label_h + 2;
  const float plot_h = height - label_h - 2 - top;
  const float bar_w = width / static_cast<float>(histogram_.counts.size());
  int hovered = -1;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  for (size_t b = 0; b < histogram_.counts.size(); ++b) {
    const float x0 = p.x + bar_w * static_cast<float>(b);
    const float h = plot_h * std::log1p(static_cast<float>(histogram_.counts[b])) / std::max(log_peak, 1e-3f);
    dl->AddRectFilled(ImVec2(x0, p.y + top + plot_h - h), ImVec2(x0 + bar_w - 1, p.y + top + plot_h), theme::kBarFill);
    if (ImGui::IsItemHovered() && mouse.x >= x0 && mouse.x < x0 + bar_w) hovered = static_cast<int>(b);
  }
  dl->AddLine(ImVec2(p.x, p.y + top + plot_h), ImVec2(p.x + width, p.y + top + plot_h), theme::kChartAxis);
  dl->AddText(ImVec2(p.x, p.y + top + plot_h + 1), theme::kCardLabel, FormatDuration(histogram_.edges.front()).c_str());
  const std::string hi = FormatDuration(histogram_.edges.back());
  dl->AddText(ImVec2(p.x + width - ImGui::CalcTextSize(hi.c_str()).x, p.y + top + plot_h + 1), theme::kCardLabel,
              hi.c_str());
  if (hovered >= 0) {
    WrappedTooltip("%s .. %s: %u gaps", FormatDuration(histogram_.edges[hovered]).c_str(),
                      FormatDuration(histogram_.edges[hovered + 1]).c_str(), histogram_.counts[hovered]);
  }
}

void IdleGapsPanel::DrawTable(ViewState& state) {
  const Trace& trace = *state.trace();
  const AnalysisData& a = state.data->analysis;
  const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg |
                                ImGuiTableFlags_Resizable | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_Hideable;
  // The device stays put when the rest scrolls sideways.
  // Each fixed column as wide as its widest value (any row, not only those
  // on screen when the table first fitted itself).
  SortableColumn columns[std::size(kGapTableColumns)];
  std::copy(std::begin(kGapTableColumns), std::end(kGapTableColumns), columns);
  const std::string* samples[] = {&samples_.device, &samples_.start, &samples_.duration, &samples_.step,
                                  &samples_.cause};
  for (size_t c = 0; c < std::size(samples); ++c) {
    if (samples[c]->empty()) continue;
    columns[c].sample = samples[c]->c_str();
    columns[c].style = static_cast<uint8_t>(columns[c].style | kColumnSampleWidth);
  }
  if (!BeginSortableTable("##gaps", columns, flags, 1)) return;
  if (int column = 0; TakeSortChange(&column, &sort_ascending_)) {
    sort_column_ = static_cast<GapColumn>(column);
    SortGaps(trace, a, sort_column_, sort_ascending_, &rows_);
  }
  const TimeNs origin = trace.span().start_ns;
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(rows_.size()));
  while (clipper.Step()) {
    for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
      const uint32_t i = rows_[r];
      const analysis::IdleGap& g = a.gaps[i];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::PushID(static_cast<int>(i));
      if (ImGui::Selectable(a.report.devices[a.gap_device[i]].name.c_str(),
                            state.links.selected_gap == static_cast<int32_t>(i), ImGuiSelectableFlags_SpanAllColumns)) {
        state.SelectGap(static_cast<int32_t>(i));
      }
      ImGui::PopID();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(FormatDuration(g.start_ns - origin).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(FormatDuration(g.dur_ns()).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(g.step >= 0 ? a.report.steps[g.step].name.c_str() : "-");
      ImGui::TableNextColumn();
      ColorSwatch(CauseColor(g.cause));
      ImGui::TextUnformatted(CauseLabel(g.cause));
      ImGui::TableNextColumn();
      std::string blamed;
      for (const analysis::BlamedEvent& e : g.cause_events) {
        if (!blamed.empty()) blamed += ", ";
        blamed += trace.str(trace.slices().name()[e.slice.index()]);
      }
      ImGui::TextUnformatted(blamed.empty() ? "-" : blamed.c_str());
    }
  }
  ImGui::EndTable();
}

}  // namespace stepline::ui
