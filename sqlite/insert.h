// Insert: the SQLite export's batched rows (multi-row INSERTs with
// positional binds) into a Database opened for writing.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "sqlite/database.h"

namespace stepline::sqlite {

// Rows for one table, inserted kRowsPerStatement at a time through one
// multi-row INSERT (per-statement overhead dominates narrow rows). Values
// are bound column by column (1-based) into the current row; Row() ends it.
// Text() is not copied: it must stay valid until Finish() (StringPool views
// do); OwnedText() keeps its string until the rows holding it are inserted.
class Insert {
 public:
  static constexpr int kRowsPerStatement = 64;
  Insert(Database* db, const char* table, int columns);
  ~Insert();  // Finish()es
  Insert(const Insert&) = delete;
  Insert& operator=(const Insert&) = delete;

  void Int(int column, int64_t v) { Cell(column) = {CellType::kInt, v, 0, {}}; }
  void Real(int column, double v) { Cell(column) = {CellType::kReal, 0, v, {}}; }
  void Text(int column, std::string_view v) { Cell(column) = {CellType::kText, 0, 0, v}; }
  // Text made for the row (a number's digits): kept here until the row is run.
  void OwnedText(int column, std::string v) { Text(column, owned_.emplace_back(std::move(v))); }
  void Null(int column) { Cell(column) = {CellType::kNull, 0, 0, {}}; }
  // A name that may be absent: NULL for "".
  void TextOrNull(int column, std::string_view v) { v.empty() ? Null(column) : Text(column, v); }
  bool Row();     // false (error recorded on the db) once an insert failed
  bool Finish();  // inserts the rows still buffered

 private:
  enum class CellType : uint8_t { kNull, kInt, kReal, kText };
  struct Value {
    CellType type = CellType::kNull;
    int64_t i = 0;
    double d = 0;
    std::string_view text;
  };
  Value& Cell(int column) { return cells_[size_t(pending_ * columns_ + column - 1)]; }
  sqlite3_stmt* Prepare(int rows);
  bool Flush();

  Database* db_;
  std::string table_;
  int columns_;
  int pending_ = 0;  // rows buffered in cells_
  std::vector<Value> cells_;
  std::deque<std::string> owned_;  // OwnedText() of the buffered rows; a deque: appending moves none
  sqlite3_stmt* full_ = nullptr;  // kRowsPerStatement rows
  bool failed_ = false;
};

}  // namespace stepline::sqlite
