// The Query tab; see query_panel.h.
#include "ui/query_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cstring>
#include <numeric>

#include "model/text_format.h"
#include "ui/theme.h"
#include "ui/timeline/timeline_data.h"
#include "ui/tooltip.h"

namespace stepline::ui {
namespace query_panel {

int ColumnIndex(const QueryTable& t, std::string_view name) {
  for (size_t c = 0; c < t.columns.size(); ++c) {
    if (t.columns[c] == name) return static_cast<int>(c);
  }
  return -1;
}

}  // namespace query_panel

void QueryPanel::SetSql(const std::string& sql) {
  const size_t n = std::min(sql.size(), sql_buf_.size() - 1);
  std::memcpy(sql_buf_.data(), sql.data(), n);
  sql_buf_[n] = '\0';
}

void QueryPanel::Run(QueryBackend* backend) {
  const std::string sql = Sql();
  if (sql.empty() || !backend->Start(sql, kMaxRows)) return;  // one at a time: Run is disabled meanwhile
  running_sql_ = sql;
  running_since_ = ImGui::GetTime();
  notice_.clear();
}

void QueryPanel::TakeResult(QueryTable table) {
  result_ = std::move(table);
  order_.resize(result_.rows.size());
  std::iota(order_.begin(), order_.end(), size_t{0});
  selected_ = -1;
  notice_.clear();
  if (result_.error.empty()) {
    std::erase(history_, running_sql_);
    history_.insert(history_.begin(), running_sql_);
    if (history_.size() > kMaxHistory) history_.resize(kMaxHistory);
  }
  running_sql_.clear();
}

void QueryPanel::DrawRunning(QueryBackend* backend) {
  ImGui::Text("Running for %.1f s...", ImGui::GetTime() - running_since_);
  ImGui::SameLine();
  if (ImGui::SmallButton("Cancel")) backend->Cancel();
}

std::string QueryPanel::Csv() const {
  std::string out;
  for (size_t c = 0; c < result_.columns.size(); ++c) {
    if (c) out.push_back(',');
    text::AppendCsvField(result_.columns[c], &out);
  }
  out.push_back('\n');
  for (const size_t r : order_) {
    for (size_t c = 0; c < result_.rows[r].size(); ++c) {
      if (c) out.push_back(',');
      text::AppendCsvField(result_.rows[r][c].text, &out);
    }
    out.push_back('\n');
  }
  return out;
}

QueryRowTarget RowTarget(const QueryTable& table, size_t row, size_t slice_count) {
  using query_panel::ColumnIndex;
  QueryRowTarget target;
  if (row >= table.rows.size()) return target;
  const auto& cells = table.rows[row];
  // A slice id: `slice_id`, else `id` when the row also has slice columns.
  int id_col = ColumnIndex(table, "slice_id");
  if (id_col < 0 && ColumnIndex(table, "id") >= 0 && ColumnIndex(table, "track_id") >= 0) id_col = ColumnIndex(table, "id");
  if (id_col >= 0 && cells[size_t(id_col)].is_number && cells[size_t(id_col)].number >= 0 &&
      cells[size_t(id_col)].number < static_cast<double>(slice_count)) {
    target.slice = SliceId::FromIndex(static_cast<size_t>(cells[size_t(id_col)].number));
    return target;
  }
  const int ts = ColumnIndex(table, "ts"), dur = ColumnIndex(table, "dur");
  if (ts >= 0 && cells[size_t(ts)].is_number) {
    const auto start = static_cast<TimeNs>(cells[size_t(ts)].number);
    const DurNs length = dur >= 0 && cells[size_t(dur)].is_number ? static_cast<DurNs>(cells[size_t(dur)].number) : 0;
    // A margin either side, so what comes before and after shows.
    const DurNs margin = std::max<DurNs>(length / 4, 1000);
    target.range = TimeRange{start - margin, start + length + margin};
  }
  return target;
}

void QueryPanel::ShowRow(ViewState& state, size_t row) {
  const Trace* trace = state.trace();
  if (trace == nullptr) return;
  const QueryRowTarget target = RowTarget(result_, row, trace->slices().size());
  if (!target.slice.is_none()) {
    state.SelectAndReveal(target.slice);
  } else if (target.range) {
    state.requests.fit = *target.range;
  }
}

void QueryPanel::DrawResults(ViewState& state) {
  using query_panel::ColumnIndex;
  if (!result_.error.empty()) {
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kErrorText), "%s", result_.error.c_str());
    return;
  }
  if (result_.columns.empty()) {
    ImGui::TextDisabled("Write SQL above and press Run (Ctrl+Enter). Tables: slice, track, flow, instant, counter, "
                        "arg, step, step_breakdown, gap, op_stat, kernel_stat.");
    return;
  }
  const bool can_show = ColumnIndex(result_, "slice_id") >= 0 ||
                        (ColumnIndex(result_, "id") >= 0 && ColumnIndex(result_, "track_id") >= 0) ||
                        ColumnIndex(result_, "ts") >= 0;
  ImGui::Text("%zu rows%s in %.1f ms", result_.rows.size(), result_.truncated ? " (more not shown)" : "", result_.ms);
  ImGui::SameLine();
  if (ImGui::SmallButton("Copy")) {
    std::string tsv;
    for (size_t c = 0; c < result_.columns.size(); ++c) tsv += (c ? "\t" : "") + result_.columns[c];
    tsv += "\n";
    for (const size_t r : order_) {
      for (size_t c = 0; c < result_.rows[r].size(); ++c) tsv += (c ? "\t" : "") + result_.rows[r][c].text;
      tsv += "\n";
    }
    ImGui::SetClipboardText(tsv.c_str());
    notice_ = "copied";
  }
  ImGui::SameLine();
  if (ImGui::SmallButton("Copy CSV")) {
    ImGui::SetClipboardText(Csv().c_str());
    notice_ = "copied as CSV";
  }
  ImGui::SameLine();
  if (can_show) {
    ImGui::BeginDisabled(selected_ < 0);
    if (ImGui::SmallButton("Show on timeline") && selected_ >= 0) ShowRow(state, order_[static_cast<size_t>(selected_)]);
    ImGui::EndDisabled();
    ImGui::SameLine();
  }
  if (!notice_.empty()) ImGui::TextDisabled("%s", notice_.c_str());

  const int columns = static_cast<int>(std::min<size_t>(result_.columns.size(), 64));
  const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_RowBg | ImGuiTableFlags_Borders |
                                ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY | ImGuiTableFlags_Resizable;
  if (columns == 0 || !ImGui::BeginTable("##query_result", columns, flags)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  for (int c = 0; c < columns; ++c) ImGui::TableSetupColumn(result_.columns[size_t(c)].c_str());
  ImGui::TableHeadersRow();
  if (ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs(); specs && specs->SpecsDirty && specs->SpecsCount > 0) {
    const int col = specs->Specs[0].ColumnIndex;
    const bool descending = specs->Specs[0].SortDirection == ImGuiSortDirection_Descending;
    std::stable_sort(order_.begin(), order_.end(), [&](size_t a, size_t b) {
      const QueryCell& x = result_.rows[a][size_t(col)];
      const QueryCell& y = result_.rows[b][size_t(col)];
      const bool less = x.is_number && y.is_number ? x.number < y.number : x.text < y.text;
      const bool greater = x.is_number && y.is_number ? y.number < x.number : y.text < x.text;
      return descending ? greater : less;
    });
    specs->SpecsDirty = false;
    selected_ = -1;
  }
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(order_.size()));
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const auto& cells = result_.rows[order_[size_t(i)]];
      ImGui::TableNextRow();
      for (int c = 0; c < columns; ++c) {
        ImGui::TableSetColumnIndex(c);
        const QueryCell& cell = cells[size_t(c)];
        if (c == 0) {
          ImGui::PushID(i);
          const std::string label = (cell.is_null ? std::string("NULL") : cell.text) + "##row";
          if (ImGui::Selectable(label.c_str(), selected_ == i, ImGuiSelectableFlags_SpanAllColumns)) selected_ = i;
          if (can_show && ImGui::IsItemHovered() && ImGui::IsMouseDoubleClicked(0)) ShowRow(state, order_[size_t(i)]);
          ImGui::PopID();
        } else if (cell.is_null) {
          ImGui::TextDisabled("NULL");
        } else {
          ImGui::TextUnformatted(cell.text.c_str());
        }
      }
    }
  }
  ImGui::EndTable();
}

void QueryPanel::Draw(ViewState& state, QueryBackend* backend) {
  if (backend == nullptr) {
    ImGui::TextDisabled("No trace to query.");
    return;
  }
  if (backend->trace() != result_trace_) {  // another trace: its rows are not this one's
    result_ = {};
    order_.clear();
    selected_ = -1;
    running_sql_.clear();  // a new backend runs nothing yet
    result_trace_ = backend->trace();
  }
  if (auto finished = backend->TakeFinished()) TakeResult(std::move(*finished));
  if (!sql_set_) {
    SetSql("SELECT name, count(*) AS n, sum(dur) AS total_ns\nFROM slice GROUP BY name\nORDER BY total_ns DESC LIMIT 50");
    sql_set_ = true;
  }
  if (!saved_loaded_) {
    saved_ = backend->LoadSaved();
    saved_loaded_ = true;
  }
  const float editor_width = ImGui::GetContentRegionAvail().x * 0.62f;
  ImGui::BeginGroup();
  ImGui::InputTextMultiline("##sql", sql_buf_.data(), sql_buf_.size(), ImVec2(editor_width, ImGui::GetTextLineHeight() * 5.5f));
  const bool run_key = ImGui::IsItemFocused() && ImGui::GetIO().KeyCtrl &&
                       ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter), false);
  const bool running = backend->Running();
  ImGui::BeginDisabled(running);
  if ((ImGui::Button("Run") || run_key) && !running) Run(backend);
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (ImGui::Button("Save CSV") && result_.error.empty() && !result_.columns.empty()) {
    std::string error;
    const std::string path = backend->SaveCsv("query", Csv(), &error);
    notice_ = path.empty() ? error : "saved " + path;
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10);
  ImGui::InputTextWithHint("##save_name", "name", save_name_, sizeof save_name_);
  ImGui::SameLine();
  ImGui::BeginDisabled(save_name_[0] == '\0');
  if (ImGui::Button("Save query")) {
    const std::string name = save_name_;
    std::erase_if(saved_, [&](const auto& s) { return s.first == name; });
    saved_.insert(saved_.begin(), {name, Sql()});
    backend->StoreSaved(saved_);
    save_name_[0] = '\0';
  }
  ImGui::EndDisabled();
  ImGui::EndGroup();
  ImGui::SameLine();
  // History and saved queries: a click loads one into the editor.
  ImGui::BeginChild("##query_lists", ImVec2(0, ImGui::GetTextLineHeight() * 7.5f), true);
  if (ImGui::BeginTabBar("##query_list_tabs")) {
    if (ImGui::BeginTabItem("Saved")) {
      if (saved_.empty()) ImGui::TextDisabled("Name a query and press Save query.");
      for (size_t i = 0; i < saved_.size(); ++i) {
        ImGui::PushID(static_cast<int>(i));
        if (ImGui::Selectable(saved_[i].first.c_str())) SetSql(saved_[i].second);
        if (ImGui::IsItemHovered()) WrappedTooltip("%s", saved_[i].second.c_str());
        ImGui::PopID();
      }
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("History")) {
      if (history_.empty()) ImGui::TextDisabled("Queries run in this session.");
      for (size_t i = 0; i < history_.size(); ++i) {
        ImGui::PushID(static_cast<int>(i));
        std::string line = history_[i].substr(0, history_[i].find('\n'));
        if (ImGui::Selectable(line.c_str())) SetSql(history_[i]);
        if (ImGui::IsItemHovered()) WrappedTooltip("%s", history_[i].c_str());
        ImGui::PopID();
      }
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
  }
  ImGui::EndChild();
  if (running) {
    DrawRunning(backend);
    return;
  }
  DrawResults(state);
}

}  // namespace stepline::ui
