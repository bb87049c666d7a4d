// Insert; see insert.h.
#include "sqlite/insert.h"

namespace stepline::sqlite {

Insert::Insert(Database* db, const char* table, int columns)
    : db_(db), table_(table), columns_(columns), cells_(size_t(kRowsPerStatement * columns)) {
  full_ = Prepare(kRowsPerStatement);
  failed_ = full_ == nullptr;
}

Insert::~Insert() {
  Finish();
  sqlite3_finalize(full_);
}

sqlite3_stmt* Insert::Prepare(int rows) {
  std::string row = "(?";
  for (int c = 1; c < columns_; ++c) row += ",?";
  row += ")";
  std::string sql = "INSERT INTO " + table_ + " VALUES" + row;
  for (int r = 1; r < rows; ++r) sql += "," + row;
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db_->handle(), sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
    db_->Fail("cannot prepare the insert into " + table_);
    return nullptr;
  }
  return stmt;
}

bool Insert::Flush() {
  if (pending_ == 0 || failed_) return !failed_;
  sqlite3_stmt* stmt = pending_ == kRowsPerStatement ? full_ : Prepare(pending_);
  if (!stmt) {
    failed_ = true;
    return false;
  }
  for (int i = 0; i < pending_ * columns_; ++i) {
    const Value& v = cells_[size_t(i)];
    switch (v.type) {
      case CellType::kNull: sqlite3_bind_null(stmt, i + 1); break;
      case CellType::kInt: sqlite3_bind_int64(stmt, i + 1, v.i); break;
      case CellType::kReal: sqlite3_bind_double(stmt, i + 1, v.d); break;
      case CellType::kText:
        sqlite3_bind_text(stmt, i + 1, v.text.data(), static_cast<int>(v.text.size()), SQLITE_STATIC);
        break;
    }
  }
  const int rc = sqlite3_step(stmt);
  sqlite3_reset(stmt);
  if (stmt != full_) sqlite3_finalize(stmt);
  pending_ = 0;
  owned_.clear();
  if (rc != SQLITE_DONE) {
    db_->Fail("cannot insert into " + table_);
    failed_ = true;
  }
  return !failed_;
}

bool Insert::Row() {
  if (failed_) return false;
  if (++pending_ == kRowsPerStatement) return Flush();
  return true;
}

bool Insert::Finish() { return Flush(); }

}  // namespace stepline::sqlite
