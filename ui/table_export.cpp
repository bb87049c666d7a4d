// CSV / TSV writing and the table export menu items; see table_export.h.
#include "ui/table_export.h"

#include <imgui.h>

#include <cstdio>

#include "ui/tooltip.h"

namespace stepline::ui {

namespace {

void AppendCsvLine(const std::vector<std::string>& cells, std::string* out) {
  for (size_t i = 0; i < cells.size(); ++i) {
    if (i > 0) out->push_back(',');
    AppendCsvField(cells[i], out);
  }
  out->push_back('\n');
}

void AppendTsvLine(const std::vector<std::string>& cells, std::string* out) {
  for (size_t i = 0; i < cells.size(); ++i) {
    if (i > 0) out->push_back('\t');
    for (char c : cells[i]) out->push_back(c == '\t' || c == '\n' || c == '\r' ? ' ' : c);
  }
  out->push_back('\n');
}

}  // namespace

std::string ToCsv(const TextTable& table) {
  std::string out;
  AppendCsvLine(table.header, &out);
  for (const auto& row : table.rows) AppendCsvLine(row, &out);
  return out;
}

std::string ToTsv(const TextTable& table) {
  std::string out;
  AppendTsvLine(table.header, &out);
  for (const auto& row : table.rows) AppendTsvLine(row, &out);
  return out;
}

std::string IntCell(int64_t v) { return std::to_string(v); }

std::string FixedCell(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

void TableExportMenuItems(const char* what, const char* stem, const std::function<TextTable()>& build,
                          std::vector<ExportRequest>* out) {
  const std::string copy = std::string("Copy ") + what + " as TSV";
  const std::string save = std::string("Save ") + what + " as CSV";
  if (ImGui::MenuItem(copy.c_str())) ImGui::SetClipboardText(ToTsv(build()).c_str());
  if (ImGui::IsItemHovered()) WrappedTooltip("Tab-separated, for pasting into a spreadsheet");
  if (ImGui::MenuItem(save.c_str())) out->push_back(ExportRequest{stem, "csv", ToCsv(build())});
}

}  // namespace stepline::ui
