// Tables as text: one header and rows of cells, written as CSV (RFC 4180:
// fields with a comma, quote or line break are quoted, quotes doubled) for
// files, or as TSV for the clipboard (spreadsheets paste it into cells).
// Also the request a panel hands the app to save text in a file: ui never
// touches files, the app writes them safely. Shared with the compare view.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "model/text_format.h"

namespace stepline::ui {

struct TextTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;  // each as long as `header`
};

// Text the app should save: `text` in a new file named after `stem`
// (e.g. "ops": the app adds a timestamp and the extension).
struct ExportRequest {
  std::string stem;       // short name of what it holds: "ops", "gaps", "step-chart"
  std::string extension;  // "csv", "svg"
  std::string text;
};

// One CSV field, quoted when RFC 4180 requires it (the text module's).
using text::AppendCsvField;
// Header line then one line per row, "\n" line ends; fields quoted as needed.
std::string ToCsv(const TextTable& table);
// Tab-separated, "\n" line ends. Tabs and line breaks inside a cell become
// spaces (TSV has no quoting that spreadsheets agree on).
std::string ToTsv(const TextTable& table);

// Exact numbers for exports: integers as written, percentages with 3 decimals.
std::string IntCell(int64_t v);
std::string FixedCell(double v, int decimals);

// The two menu items every table offers, for a context menu: "Copy <what>
// as TSV" (to the clipboard) and "Save <what> as CSV" (appends a request
// named `stem` to `out`). `build` runs only when an item is clicked.
void TableExportMenuItems(const char* what, const char* stem, const std::function<TextTable()>& build,
                          std::vector<ExportRequest>* out);

}  // namespace stepline::ui
