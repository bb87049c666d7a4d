// NsysTable: a SELECT built from the columns a table actually has.
#include "loaders/nsys/nsys_table.h"

#include <algorithm>

namespace stepline::loaders::nsys {

bool NsysTable::HasColumn(std::string_view column) const {
  return std::find(columns_.begin(), columns_.end(), column) != columns_.end();
}

int NsysTable::Want(std::initializer_list<std::string_view> spellings) {
  for (std::string_view s : spellings) {
    if (!HasColumn(s)) continue;
    selected_.push_back(sqlite::QuoteIdentifier(s));
    return static_cast<int>(selected_.size()) - 1;
  }
  return kAbsent;
}

std::string NsysTable::Sql(std::string_view tail) const {
  std::string sql = "SELECT ";
  for (size_t i = 0; i < selected_.size(); ++i) sql += (i ? ", " : "") + selected_[i];
  if (selected_.empty()) sql += "1";
  sql += " FROM " + sqlite::QuoteIdentifier(name_);
  if (!tail.empty()) sql += " " + std::string(tail);
  return sql;
}

std::string NsysTable::TimeOrder() const {
  if (!HasColumn("start")) return {};
  std::string order = "ORDER BY ";
  bool first = true;
  for (std::string_view c : {"start", "end", "deviceId", "contextId", "streamId", "globalPid", "globalTid",
                             "correlationId", "eventType", "nameId", "shortName", "textId", "text"}) {
    if (!HasColumn(c)) continue;
    order += (first ? "" : ", ") + sqlite::QuoteIdentifier(c);
    first = false;
  }
  return order;
}

}  // namespace stepline::loaders::nsys
