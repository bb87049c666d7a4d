// QueryPanel: the window's Query tab. An SQL editor (Ctrl+Enter runs), the
// history of this session's queries, saved queries, and the result as a
// sortable table: copy it (TSV) or save it (CSV), and "Show on timeline" for
// a row that carries a slice id (an `id` column of slice, or `slice_id`) or
// a time range (`ts` and `dur`). The SQL runs in the app (app/gui
// query_backend), on a thread of its own while the window keeps drawing (with
// Cancel): ui sees only the QueryBackend interface below.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ui/view_state.h"

namespace stepline::ui {

// One result: every value as text, and whether it was a number (numbers
// sort as numbers and align right). NULL is "" with is_null.
struct QueryCell {
  std::string text;
  double number = 0;
  bool is_number = false;
  bool is_null = false;
};
struct QueryTable {
  std::vector<std::string> columns;
  std::vector<std::vector<QueryCell>> rows;
  bool truncated = false;
  std::string error;  // "" on success: SQLite's message otherwise
  double ms = 0;      // how long it ran
};

class QueryBackend {
 public:
  virtual ~QueryBackend() = default;
  virtual const Trace* trace() const = 0;  // the trace it queries
  // Runs `sql` and waits for its table.
  virtual QueryTable Run(const std::string& sql, size_t max_rows) = 0;
  // The window's way, so a long query never holds a frame: Start() runs
  // `sql` on the backend's own thread (false while another one runs),
  // TakeFinished() hands its table over once, when it is done, and Cancel()
  // stops it within milliseconds (its table then carries SQLite's
  // "interrupted" error).
  virtual bool Start(const std::string& sql, size_t max_rows) = 0;
  virtual bool Running() const = 0;
  virtual std::optional<QueryTable> TakeFinished() = 0;
  virtual void Cancel() = 0;
  // Saved queries (name, sql), kept by the app between runs.
  virtual std::vector<std::pair<std::string, std::string>> LoadSaved() = 0;
  virtual void StoreSaved(const std::vector<std::pair<std::string, std::string>>& saved) = 0;
  // Writes `csv` to a file named after `stem` in the export folder; the
  // path written, or "" with *error.
  virtual std::string SaveCsv(const std::string& stem, const std::string& csv, std::string* error) = 0;
};

// Where "Show on timeline" goes for result row `row`: its slice (a
// `slice_id` column, or `id` beside `track_id`, within [0, slice_count)),
// else its time range (`ts`, and `dur` when present); neither: both empty.
struct QueryRowTarget {
  SliceId slice = SliceId::None();
  std::optional<TimeRange> range;
};
QueryRowTarget RowTarget(const QueryTable& table, size_t row, size_t slice_count);

class QueryPanel {
 public:
  void Draw(ViewState& state, QueryBackend* backend);

  static constexpr size_t kMaxRows = 100'000;
  static constexpr size_t kMaxHistory = 50;

 private:
  void Run(QueryBackend* backend);
  void TakeResult(QueryTable table);
  void DrawRunning(QueryBackend* backend);
  void DrawResults(ViewState& state);
  void ShowRow(ViewState& state, size_t row);
  std::string Csv() const;

  void SetSql(const std::string& sql);
  std::string Sql() const { return std::string(sql_buf_.data()); }

  // ImGui edits fixed buffers (no std::string binding is linked in).
  std::vector<char> sql_buf_ = std::vector<char>(16384, '\0');
  bool sql_set_ = false;
  std::vector<std::string> history_;  // newest first
  std::vector<std::pair<std::string, std::string>> saved_;
  bool saved_loaded_ = false;
  char save_name_[64] = {};
  QueryTable result_;
  std::vector<size_t> order_;  // result rows in display order
  int selected_ = -1;          // into order_
  std::string notice_;
  const Trace* result_trace_ = nullptr;  // the trace result_ came from
  std::string running_sql_;               // the query the backend runs now ("" when none)
  double running_since_ = 0;              // ImGui::GetTime() when it started
};

}  // namespace stepline::ui
