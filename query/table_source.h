// TableSource: one table of the query layer, as SQLite's virtual-table glue
// (virtual_table.cpp) reads it: rows by index, a column value of a row, and
// optionally a plan that narrows the rows from the WHERE and ORDER BY terms
// (xBestIndex / xFilter). Sources read the model's columns in place; the
// glue owns nothing but cursors.
#pragma once

#include <array>
#include <climits>
#include <cstdint>
#include <vector>

struct sqlite3_context;
struct sqlite3_value;
struct sqlite3_index_info;

namespace stepline::query {

// Rows [begin, end) by index.
struct RowRange {
  int64_t begin = 0, end = 0;
};

class TableSource {
 public:
  virtual ~TableSource() = default;
  // "CREATE TABLE x(col TYPE, ...)" as sqlite3_declare_vtab takes it.
  virtual const char* Declaration() const = 0;
  virtual int64_t RowCount() const = 0;
  virtual void Column(sqlite3_context* ctx, int64_t row, int column) const = 0;
  // A column that is an int64 array indexed by row (slice.ts, slice.dur)
  // may say so: the glue then reads the value itself, without a virtual
  // call and a switch per value (a full scan's xColumn is most of what a
  // virtual table adds to SQLite's own per-row work). Null: ask Column().
  virtual const int64_t* Int64Column(int /*column*/) const { return nullptr; }
  // The column whose value is the row index itself (an `id`), or -1. The
  // glue reads it without asking Column(), and the default plan below turns
  // ranges on it into row ranges (BestIndexById).
  virtual int RowIndexColumn() const { return -1; }

  // Tables whose row holds several result rows (arg: a slice's args) say so
  // and count them; others are one result row per index.
  virtual bool HasSubRows() const { return false; }
  virtual int64_t SubRowCount(int64_t /*row*/) const { return 1; }
  virtual void SubColumn(sqlite3_context* ctx, int64_t row, int64_t sub, int column) const;

  // Planning. The default scans everything, or plans by RowIndexColumn()
  // when a source has one. A source fills `info` (costs,
  // argvIndex, idxNum, orderByConsumed) and Filter() turns idxNum and the
  // values back into ranges, in row order. Constraints are never marked
  // omitted, so SQLite checks every row it gets again: a plan only needs
  // to keep a superset of the matching rows.
  virtual void BestIndex(sqlite3_index_info* info) const;
  virtual std::vector<RowRange> Filter(int idx_num, int argc, sqlite3_value** argv) const;
  // A plan may walk the rows in another order: then the ranges Filter()
  // returns are positions in this permutation of the row indexes (null: the
  // rows' own order).
  virtual const uint32_t* RowOrder(int /*idx_num*/) const { return nullptr; }
  // A plan may also keep only the rows whose byte in a column is marked in
  // `keep` (slice.gpu_kind IN (...)): returns that column, or null for all
  // rows. Called after Filter() with the same arguments.
  virtual const uint8_t* KeepColumn(int /*idx_num*/, int /*argc*/, sqlite3_value** /*argv*/,
                                    std::array<bool, 256>* /*keep*/) const {
    return nullptr;
  }
};

// A range plan on one integer column: =, >, >=, <, <= constraints on it
// (the first of each kind) become idxNum bits, five per column, shifted by
// `shift`, and argvIndex values from *next_argv on. PlanRange returns the
// bits; ReadRange turns them and the values back into an inclusive
// [lo, hi] (empty when lo > hi), reading argv from *next_arg on. Plans and
// reads must visit the columns in the same order.
inline constexpr int kRangeBits = 5;
int PlanRange(sqlite3_index_info* info, int column, int shift, int* next_argv);
struct IntRange {
  int64_t lo = INT64_MIN, hi = INT64_MAX;
  bool narrowed = false;  // any constraint applied
};
IntRange ReadRange(int idx_num, int shift, sqlite3_value** argv, int* next_arg);

// The plan many tables share: `column` holds the row index (slice.id,
// track.id, arg.slice_id...), so a range on it is a row range, and ORDER BY
// column ASC comes for free.
void BestIndexById(sqlite3_index_info* info, int column, int64_t rows);
std::vector<RowRange> FilterById(int idx_num, int64_t rows, sqlite3_value** argv);

// Integer bounds from a constraint value: a real rounds toward the keeping
// side; anything else (text, NULL, blob) does not narrow (returns false).
bool LowerBound(sqlite3_value* v, bool strict, int64_t* out);  // rows with x >= *out
bool UpperBound(sqlite3_value* v, bool strict, int64_t* out);  // rows with x <= *out

}  // namespace stepline::query
