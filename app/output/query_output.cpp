// Printing query results; see query_output.h.
#include "app/output/query_output.h"

#include <algorithm>
#include <cmath>
#include <ostream>
#include <variant>

#include "app/output/json_writer.h"
#include "model/text_format.h"

namespace stepline::app {
namespace query_text {

constexpr size_t kMaxCellWidth = 60;

bool IsNumber(const query::Value& v) {
  return std::holds_alternative<int64_t>(v) || std::holds_alternative<double>(v);
}

std::string Cell(const query::Value& v) {
  if (std::holds_alternative<std::monostate>(v)) return "NULL";
  std::string text = query::ValueText(v);
  std::replace(text.begin(), text.end(), '\n', ' ');
  std::replace(text.begin(), text.end(), '\t', ' ');
  if (text.size() > kMaxCellWidth) text = text.substr(0, kMaxCellWidth - 3) + "...";
  return text;
}

}  // namespace query_text

void WriteQueryTable(const query::QueryResult& r, std::ostream& out) {
  using namespace query_text;
  std::vector<size_t> width(r.columns.size());
  for (size_t c = 0; c < r.columns.size(); ++c) width[c] = std::min(r.columns[c].size(), kMaxCellWidth);
  std::vector<std::vector<std::string>> cells;
  cells.reserve(r.rows.size());
  for (const auto& row : r.rows) {
    auto& line = cells.emplace_back();
    for (size_t c = 0; c < row.size(); ++c) {
      line.push_back(Cell(row[c]));
      width[c] = std::max(width[c], line.back().size());
    }
  }
  const auto pad = [&out](const std::string& s, size_t w, bool right) {
    const std::string fill(w > s.size() ? w - s.size() : 0, ' ');
    out << (right ? fill + s : s + fill);
  };
  for (size_t c = 0; c < r.columns.size(); ++c) {
    if (c) out << "  ";
    pad(r.columns[c].substr(0, kMaxCellWidth), width[c], false);
  }
  out << "\n";
  for (size_t c = 0; c < r.columns.size(); ++c) out << (c ? "  " : "") << std::string(width[c], '-');
  out << "\n";
  for (size_t i = 0; i < cells.size(); ++i) {
    for (size_t c = 0; c < cells[i].size(); ++c) {
      if (c) out << "  ";
      pad(cells[i][c], width[c], IsNumber(r.rows[i][c]));
    }
    out << "\n";
  }
  out << "(" << r.rows.size() << (r.rows.size() == 1 ? " row" : " rows")
      << (r.truncated ? ", more not shown: --max-rows" : "") << ")\n";
}

void AppendQueryCsv(const query::QueryResult& r, std::string* out) {
  using namespace query_text;
  for (size_t c = 0; c < r.columns.size(); ++c) {
    if (c) out->push_back(',');
    text::AppendCsvField(r.columns[c], out);
  }
  out->push_back('\n');
  for (const auto& row : r.rows) {
    for (size_t c = 0; c < row.size(); ++c) {
      if (c) out->push_back(',');
      text::AppendCsvField(query::ValueText(row[c]), out);
    }
    out->push_back('\n');
  }
}

void WriteQueryJson(const query::QueryResult& r, std::ostream& out) {
  using namespace query_text;
  JsonWriter json;
  json.BeginObject();
  json.Key("columns").BeginArray();
  for (const std::string& c : r.columns) json.String(c);
  json.EndArray();
  json.Key("rows").BeginArray();
  for (const auto& row : r.rows) {
    json.BeginArray();
    for (const query::Value& v : row) {
      if (const auto* i = std::get_if<int64_t>(&v)) {
        json.Int(*i);
      } else if (const auto* d = std::get_if<double>(&v)) {
        // Fixed() would round; a real keeps its shortest exact text.
        if (std::isfinite(*d)) {
          json.Raw(query::ValueText(v));
        } else {
          json.Null();
        }
      } else if (const auto* s = std::get_if<std::string>(&v)) {
        json.String(*s);
      } else {
        json.Null();
      }
    }
    json.EndArray();
  }
  json.EndArray();
  json.Field("row_count", uint64_t{r.rows.size()});
  json.Key("truncated").Bool(r.truncated);
  json.EndObject();
  out << json.text() << "\n";
}

}  // namespace stepline::app
