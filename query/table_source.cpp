// The shared planning helpers of table_source.h.
#include "query/table_source.h"

#include <sqlite3.h>

#include <algorithm>
#include <cmath>

namespace stepline::query {

void TableSource::SubColumn(sqlite3_context* ctx, int64_t row, int64_t /*sub*/, int column) const {
  Column(ctx, row, column);
}

void TableSource::BestIndex(sqlite3_index_info* info) const {
  if (RowIndexColumn() >= 0) {
    BestIndexById(info, RowIndexColumn(), RowCount());
    return;
  }
  info->idxNum = 0;
  info->estimatedCost = static_cast<double>(RowCount()) + 1;
  info->estimatedRows = RowCount();
}

std::vector<RowRange> TableSource::Filter(int idx_num, int, sqlite3_value** argv) const {
  if (RowIndexColumn() >= 0) return FilterById(idx_num, RowCount(), argv);
  return {{0, RowCount()}};
}

bool LowerBound(sqlite3_value* v, bool strict, int64_t* out) {
  switch (sqlite3_value_numeric_type(v)) {
    case SQLITE_INTEGER: {
      const int64_t x = sqlite3_value_int64(v);
      if (strict && x == INT64_MAX) return false;
      *out = strict ? x + 1 : x;
      return true;
    }
    case SQLITE_FLOAT: {
      const double x = sqlite3_value_double(v);
      if (!(x > -9.2e18 && x < 9.2e18)) return false;
      const double c = std::ceil(x);
      *out = static_cast<int64_t>(strict && c == x ? c + 1 : c);
      return true;
    }
    default: return false;
  }
}

bool UpperBound(sqlite3_value* v, bool strict, int64_t* out) {
  switch (sqlite3_value_numeric_type(v)) {
    case SQLITE_INTEGER: {
      const int64_t x = sqlite3_value_int64(v);
      if (strict && x == INT64_MIN) return false;
      *out = strict ? x - 1 : x;
      return true;
    }
    case SQLITE_FLOAT: {
      const double x = sqlite3_value_double(v);
      if (!(x > -9.2e18 && x < 9.2e18)) return false;
      const double f = std::floor(x);
      *out = static_cast<int64_t>(strict && f == x ? f - 1 : f);
      return true;
    }
    default: return false;
  }
}

namespace {

// Bit of a constraint operator within a column's five.
int OpBit(unsigned char op) {
  switch (op) {
    case SQLITE_INDEX_CONSTRAINT_EQ: return 1;
    case SQLITE_INDEX_CONSTRAINT_GE: return 2;
    case SQLITE_INDEX_CONSTRAINT_GT: return 4;
    case SQLITE_INDEX_CONSTRAINT_LE: return 8;
    case SQLITE_INDEX_CONSTRAINT_LT: return 16;
    default: return 0;
  }
}

}  // namespace

int PlanRange(sqlite3_index_info* info, int column, int shift, int* next_argv) {
  int bits = 0;
  // In bit order, so ReadRange meets the values in the order of argvIndex.
  for (int bit = 1; bit < (1 << kRangeBits); bit <<= 1) {
    for (int i = 0; i < info->nConstraint; ++i) {
      const auto& c = info->aConstraint[i];
      if (!c.usable || c.iColumn != column || OpBit(c.op) != bit) continue;
      info->aConstraintUsage[i].argvIndex = ++*next_argv;
      info->aConstraintUsage[i].omit = 0;  // SQLite checks again: the plan keeps a superset
      bits |= bit;
      break;
    }
  }
  return bits << shift;
}

IntRange ReadRange(int idx_num, int shift, sqlite3_value** argv, int* next_arg) {
  IntRange r;
  const int bits = (idx_num >> shift) & ((1 << kRangeBits) - 1);
  for (int bit = 1; bit < (1 << kRangeBits); bit <<= 1) {
    if ((bits & bit) == 0) continue;
    sqlite3_value* v = argv[(*next_arg)++];
    int64_t x = 0;
    if (bit == 1 || bit == 2 || bit == 4) {
      if (LowerBound(v, bit == 4, &x)) r.lo = std::max(r.lo, x), r.narrowed = true;
    }
    if (bit == 1 || bit == 8 || bit == 16) {
      if (UpperBound(v, bit == 16, &x)) r.hi = std::min(r.hi, x), r.narrowed = true;
    }
    // = NULL or = 'text' on an integer column matches nothing, but keeping
    // the rows is still a superset; SQLite drops them.
  }
  return r;
}

void BestIndexById(sqlite3_index_info* info, int column, int64_t rows) {
  int next = 0;
  const int bits = PlanRange(info, column, 0, &next);
  info->idxNum = bits;
  double estimate = static_cast<double>(rows);
  if (bits & 1) {
    estimate = 1;
    info->idxFlags |= SQLITE_INDEX_SCAN_UNIQUE;
  } else if (bits != 0) {
    estimate = std::max(1.0, estimate / 4);
  }
  info->estimatedRows = static_cast<sqlite3_int64>(estimate);
  info->estimatedCost = estimate + 1;
  // Rows come in index order.
  if (info->nOrderBy == 1 && info->aOrderBy[0].iColumn == column && !info->aOrderBy[0].desc) {
    info->orderByConsumed = 1;
  }
}

std::vector<RowRange> FilterById(int idx_num, int64_t rows, sqlite3_value** argv) {
  int next = 0;
  const IntRange r = ReadRange(idx_num, 0, argv, &next);
  const int64_t begin = std::max<int64_t>(r.lo, 0);
  const int64_t end = r.hi >= rows - 1 ? rows : r.hi + 1;
  if (begin >= end) return {};
  return {{begin, end}};
}

}  // namespace stepline::query
