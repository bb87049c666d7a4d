// The sqlite3_module behind every TableSource; see virtual_table.h. A
// cursor walks the ranges Filter() returned, row by row (and, for sources
// with sub-rows, sub-row by sub-row).
#include "query/virtual_table.h"

#include <sqlite3.h>

#include <new>
#include <vector>

namespace stepline::query {
namespace {

struct Table {
  sqlite3_vtab base{};  // first: SQLite casts between the two
  const TableSource* source = nullptr;
};

struct Cursor {
  sqlite3_vtab_cursor base{};
  const TableSource* source = nullptr;
  std::vector<RowRange> ranges;
  size_t range = 0;
  int64_t row = 0, end = 0;  // within ranges[range]
  int64_t sub = 0;           // sub-row, for HasSubRows sources
  bool sub_rows = false;
  const uint32_t* order = nullptr;  // RowOrder(): `row` is a position in it
  const uint8_t* keep_column = nullptr;  // KeepColumn(): rows whose byte is not in `keep` are skipped
  std::array<bool, 256> keep{};
  // Columns the glue reads itself (TableSource::Int64Column, RowIndexColumn).
  static constexpr int kDirectColumns = 16;
  std::array<const int64_t*, kDirectColumns> direct{};
  int row_index_column = -1;
  int64_t Row() const { return order != nullptr ? int64_t{order[row]} : row; }
  bool Kept() const { return keep_column == nullptr || keep[keep_column[Row()]]; }
};

// Moves to the first valid (row, sub) at or after the current one.
void Settle(Cursor* c) {
  for (;;) {
    if (c->row >= c->end) {
      if (++c->range >= c->ranges.size()) return;
      c->row = c->ranges[c->range].begin;
      c->end = c->ranges[c->range].end;
      c->sub = 0;
      continue;
    }
    if (!c->Kept()) {
      ++c->row;
      continue;
    }
    if (!c->sub_rows || c->sub < c->source->SubRowCount(c->row)) return;
    ++c->row;
    c->sub = 0;
  }
}

int Connect(sqlite3* db, void* aux, int, const char* const*, sqlite3_vtab** out, char** err) {
  const auto* source = static_cast<const TableSource*>(aux);
  if (const int rc = sqlite3_declare_vtab(db, source->Declaration()); rc != SQLITE_OK) {
    *err = sqlite3_mprintf("%s", sqlite3_errmsg(db));
    return rc;
  }
  auto* table = new (std::nothrow) Table;
  if (table == nullptr) return SQLITE_NOMEM;
  table->source = source;
  *out = &table->base;
  return SQLITE_OK;
}

int Disconnect(sqlite3_vtab* vtab) {
  delete reinterpret_cast<Table*>(vtab);
  return SQLITE_OK;
}

int BestIndex(sqlite3_vtab* vtab, sqlite3_index_info* info) {
  reinterpret_cast<Table*>(vtab)->source->BestIndex(info);
  return SQLITE_OK;
}

int Open(sqlite3_vtab* vtab, sqlite3_vtab_cursor** out) {
  auto* c = new (std::nothrow) Cursor;
  if (c == nullptr) return SQLITE_NOMEM;
  c->source = reinterpret_cast<Table*>(vtab)->source;
  c->sub_rows = c->source->HasSubRows();
  if (!c->sub_rows) {
    for (int i = 0; i < Cursor::kDirectColumns; ++i) c->direct[size_t(i)] = c->source->Int64Column(i);
    c->row_index_column = c->source->RowIndexColumn();
  }
  *out = &c->base;
  return SQLITE_OK;
}

int Close(sqlite3_vtab_cursor* cur) {
  delete reinterpret_cast<Cursor*>(cur);
  return SQLITE_OK;
}

int Filter(sqlite3_vtab_cursor* cur, int idx_num, const char*, int argc, sqlite3_value** argv) {
  auto* c = reinterpret_cast<Cursor*>(cur);
  c->ranges = c->source->Filter(idx_num, argc, argv);
  c->order = c->source->RowOrder(idx_num);
  c->keep_column = c->source->KeepColumn(idx_num, argc, argv, &c->keep);
  c->range = 0;
  c->sub = 0;
  c->row = c->end = 0;
  if (!c->ranges.empty()) {
    c->row = c->ranges[0].begin;
    c->end = c->ranges[0].end;
  }
  Settle(c);
  return SQLITE_OK;
}

int Next(sqlite3_vtab_cursor* cur) {
  auto* c = reinterpret_cast<Cursor*>(cur);
  if (c->sub_rows) {
    ++c->sub;
  } else {
    ++c->row;
    if (c->row < c->end && c->Kept()) return SQLITE_OK;  // the common case, kept short
  }
  Settle(c);
  return SQLITE_OK;
}

int Eof(sqlite3_vtab_cursor* cur) {
  const auto* c = reinterpret_cast<const Cursor*>(cur);
  return c->range >= c->ranges.size() ? 1 : 0;
}

int ColumnValue(sqlite3_vtab_cursor* cur, sqlite3_context* ctx, int column) {
  const auto* c = reinterpret_cast<const Cursor*>(cur);
  if (column >= 0 && column < Cursor::kDirectColumns && c->direct[size_t(column)] != nullptr) {
    sqlite3_result_int64(ctx, c->direct[size_t(column)][c->Row()]);
  } else if (column == c->row_index_column) {
    sqlite3_result_int64(ctx, c->Row());
  } else if (c->sub_rows) {
    c->source->SubColumn(ctx, c->row, c->sub, column);
  } else {
    c->source->Column(ctx, c->Row(), column);
  }
  return SQLITE_OK;
}

int RowId(sqlite3_vtab_cursor* cur, sqlite3_int64* out) {
  const auto* c = reinterpret_cast<const Cursor*>(cur);
  // Sub-rows: a row holds fewer than 2^20 of them (an arg set's size).
  *out = c->sub_rows ? (c->row << 20) + c->sub : c->Row();
  return SQLITE_OK;
}

void DestroySource(void* aux) { delete static_cast<TableSource*>(aux); }

const sqlite3_module kModule = [] {
  sqlite3_module m{};
  m.iVersion = 1;
  m.xCreate = nullptr;  // eponymous-only: no CREATE VIRTUAL TABLE
  m.xConnect = Connect;
  m.xBestIndex = BestIndex;
  m.xDisconnect = Disconnect;
  m.xDestroy = Disconnect;
  m.xOpen = Open;
  m.xClose = Close;
  m.xFilter = Filter;
  m.xNext = Next;
  m.xEof = Eof;
  m.xColumn = ColumnValue;
  m.xRowid = RowId;
  return m;
}();

}  // namespace

bool RegisterTable(sqlite3* db, const std::string& name, std::unique_ptr<TableSource> source, std::string* error) {
  TableSource* raw = source.release();
  // On failure SQLite calls DestroySource itself.
  if (sqlite3_create_module_v2(db, name.c_str(), &kModule, raw, DestroySource) != SQLITE_OK) {
    *error = "cannot register table " + name + ": " + sqlite3_errmsg(db);
    return false;
  }
  return true;
}

}  // namespace stepline::query
