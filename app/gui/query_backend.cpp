// The Query tab's backend; see query_backend.h.
#include "app/gui/query_backend.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <variant>

#include "export/safe_write.h"
#include "model/worker_thread.h"
#include "query/query_session.h"
#include "ui/timeline/timeline_data.h"

namespace stepline::app {
namespace query_backend {

std::string SavedQueriesPath() {
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) return std::string(xdg) + "/stepline/queries.tsv";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.config/stepline/queries.tsv";
  return "";
}

// One query a line: NAME<TAB>SQL, with \\, \t and \n escaped in both.
std::string Escape(const std::string& s) {
  std::string out;
  for (const char c : s) {
    if (c == '\\') out += "\\\\";
    else if (c == '\t') out += "\\t";
    else if (c == '\n') out += "\\n";
    else if (c != '\r') out += c;
  }
  return out;
}

std::string Unescape(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 == s.size()) {
      out += s[i];
      continue;
    }
    const char e = s[++i];
    out += e == 't' ? '\t' : e == 'n' ? '\n' : e;
  }
  return out;
}

class SessionBackend final : public ui::QueryBackend {
 public:
  SessionBackend(std::shared_ptr<const Trace> trace, std::string export_folder)
      : trace_(std::move(trace)), export_folder_(std::move(export_folder)) {}
  const Trace* trace() const override { return trace_.get(); }

  ~SessionBackend() override {
    cancel_ = true;  // a query still running stops at SQLite's next progress check
    WaitForWorker();
  }

  ui::QueryTable Run(const std::string& sql, size_t max_rows) override {
    WaitForWorker();
    cancel_ = false;
    return RunNow(sql, max_rows);
  }

  bool Start(const std::string& sql, size_t max_rows) override {
    if (running_) return false;
    WaitForWorker();  // the last one's thread, finished
    cancel_ = false;
    running_ = true;
    try {
      worker_ = WorkerThread([this, sql, max_rows] {
        ui::QueryTable table;
        try {
          table = RunNow(sql, max_rows);
        } catch (const std::bad_alloc&) {
          table = {};
          table.error = "out of memory running the query (try LIMIT, or fewer columns)";
        } catch (const std::exception& e) {
          table = {};
          table.error = e.what();
        }
        const std::lock_guard lock(finished_mutex_);
        finished_ = std::move(table);
        running_ = false;
      });
    } catch (const std::bad_alloc&) {
      running_ = false;
      const std::lock_guard lock(finished_mutex_);
      finished_ = ui::QueryTable{};
      finished_->error = "out of memory: cannot start a thread for the query";
    }
    return true;
  }

  bool Running() const override { return running_; }

  std::optional<ui::QueryTable> TakeFinished() override {
    const std::lock_guard lock(finished_mutex_);
    return std::exchange(finished_, std::nullopt);
  }

  void Cancel() override { cancel_ = true; }

  // On the worker's thread or the caller's, never both: Run() and Start()
  // wait for the worker first.
  ui::QueryTable RunNow(const std::string& sql, size_t max_rows) {
    ui::QueryTable table;
    if (!session_) {
      auto opened = query::QuerySession::Open(*trace_);
      if (!opened) {
        table.error = opened.error();
        return table;
      }
      session_ = std::move(opened).value();
      session_->SetCancelFlag(&cancel_);
    }
    const auto start = std::chrono::steady_clock::now();
    auto result = session_->Run(sql, max_rows);
    table.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (!result) {
      table.error = result.error();
      return table;
    }
    table.columns = result->columns;
    table.truncated = result->truncated;
    table.rows.reserve(result->rows.size());
    for (const auto& row : result->rows) {
      auto& cells = table.rows.emplace_back();
      for (const query::Value& v : row) {
        ui::QueryCell cell;
        cell.text = query::ValueText(v);
        cell.is_null = std::holds_alternative<std::monostate>(v);
        if (const auto* i = std::get_if<int64_t>(&v)) cell.number = static_cast<double>(*i), cell.is_number = true;
        if (const auto* d = std::get_if<double>(&v)) cell.number = *d, cell.is_number = true;
        cells.push_back(std::move(cell));
      }
    }
    return table;
  }

  std::vector<std::pair<std::string, std::string>> LoadSaved() override {
    std::vector<std::pair<std::string, std::string>> saved;
    std::ifstream in(SavedQueriesPath());
    for (std::string line; std::getline(in, line);) {
      const size_t tab = line.find('\t');
      if (tab == std::string::npos) continue;
      saved.emplace_back(Unescape(std::string_view(line).substr(0, tab)), Unescape(std::string_view(line).substr(tab + 1)));
    }
    return saved;
  }

  void StoreSaved(const std::vector<std::pair<std::string, std::string>>& saved) override {
    const std::string path = SavedQueriesPath();
    if (path.empty()) return;
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
    std::string text;
    for (const auto& [name, sql] : saved) text += Escape(name) + "\t" + Escape(sql) + "\n";
    exports::SafeWriteOptions options;
    options.overwrite = true;
    std::string error;
    exports::WriteFileSafely(path, text, options, &error);  // best effort: the list stays in the window
  }

  std::string SaveCsv(const std::string& stem, const std::string& csv, std::string* error) override {
    std::error_code ec;
    std::filesystem::create_directories(export_folder_, ec);
    for (int n = 1; n < 10000; ++n) {
      const std::string path = (std::filesystem::path(export_folder_) / (stem + "-" + std::to_string(n) + ".csv")).string();
      if (std::filesystem::exists(path, ec)) continue;
      if (exports::WriteFileSafely(path, csv, {}, error)) return path;
      return "";
    }
    *error = "no free file name in " + export_folder_;
    return "";
  }

 private:
  std::shared_ptr<const Trace> trace_;
  std::string export_folder_;
  std::unique_ptr<query::QuerySession> session_;
  std::atomic<bool> cancel_{false};
  std::atomic<bool> running_{false};
  std::mutex finished_mutex_;
  std::optional<ui::QueryTable> finished_;  // under finished_mutex_
  WorkerThread worker_;                     // last: joined before the rest goes

  void WaitForWorker() {
    if (worker_.joinable()) worker_.join();
  }
};

}  // namespace query_backend

void UpdateQueryBackend(ui::ViewState* state) {
  const Trace* shown = state->trace();
  if (shown == nullptr) {
    state->query.reset();
    return;
  }
  if (state->query && state->query->trace() == shown) return;
  state->query = std::make_shared<query_backend::SessionBackend>(state->data->trace, state->pictures.export_folder);
}

}  // namespace stepline::app
