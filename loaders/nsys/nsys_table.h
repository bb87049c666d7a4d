// NsysTable: one SELECT over an Nsight export table whose columns vary
// between Nsight versions. Each wanted field lists its spellings, newest
// first; the first one present is read, and a field with none present reads
// as NULL (an absent column is not an error).
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "sqlite/database.h"

namespace stepline::loaders::nsys {

class NsysTable {
 public:
  static constexpr int kAbsent = -1;

  NsysTable(std::string name, std::vector<std::string> columns)
      : name_(std::move(name)), columns_(std::move(columns)) {}

  const std::string& name() const { return name_; }
  bool HasColumn(std::string_view column) const;
  // Adds a field to the SELECT list; returns its result column, or kAbsent
  // when the table has none of the spellings.
  int Want(std::initializer_list<std::string_view> spellings);
  // "SELECT <fields> FROM <table> <tail>" (tail: ORDER BY ..., or empty).
  std::string Sql(std::string_view tail = {}) const;
  // "ORDER BY start, end, ..." over the columns of this table that place a
  // row in time (ties broken by device, stream, thread, correlation, name),
  // or "" without a start column. Nsight Systems 2025.6 and later writes
  // rows out of time order; without this, rows of equal sort keys elsewhere
  // (kernel groups of equal totals in the report) came out in file order.
  std::string TimeOrder() const;

 private:
  std::string name_;
  std::vector<std::string> columns_;
  std::vector<std::string> selected_;
};

// Reads a field that may be absent: `fallback` when absent or NULL.
inline int64_t IntOr(const sqlite::Query& q, int col, int64_t fallback) {
  if (col == NsysTable::kAbsent) return fallback;
  // SQLite reads NULL as 0, so a 0 fallback needs no type check.
  return fallback == 0 || !q.IsNull(col) ? q.Int(col) : fallback;
}

}  // namespace stepline::loaders::nsys
