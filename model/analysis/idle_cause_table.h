// IdleCauseTable: the user-extendable name patterns that say what a host event
// is doing (input, sync, launch, host_compute, ignore) when it explains a GPU
// idle gap. The analysis takes the parsed table as input; reading the file
// (assets/idle_cause_patterns.tsv) is the app's job. The same table is
// embedded as kDefaultIdleCauseTsv so the analysis works without the file.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/analysis/time_category.h"

namespace stepline::analysis {

// The text of assets/idle_cause_patterns.tsv (a test keeps them identical).
extern const std::string_view kDefaultIdleCauseTsv;

// Case-insensitive glob over the whole text: '*' any run, '?' one character.
bool GlobMatch(std::string_view pattern, std::string_view text);

class IdleCauseTable {
 public:
  struct Row {
    HostCategory category = HostCategory::kNone;
    std::string pattern;
  };

  // The embedded default table (parsed once).
  static const IdleCauseTable& Default();
  // Parses TSV rows "CATEGORY<TAB>PATTERN[<TAB>comment]"; '#' lines and blank
  // lines are skipped. Returns false and sets `error` ("line 7: unknown
  // category \"inptu\"") on the first bad row; `out` is then unchanged.
  static bool Parse(std::string_view tsv, IdleCauseTable* out, std::string* error);

  void Add(HostCategory category, std::string pattern);
  // The category of the last row whose pattern matches `name`; kNone if none.
  HostCategory Classify(std::string_view name) const;
  std::span<const Row> rows() const { return rows_; }

 private:
  // Each row's pattern lowercased once, with its longest run of literal
  // characters: a name that lacks that run cannot match, and one substring
  // search says so far faster than the glob (most names match no row).
  struct Compiled {
    std::string pattern;  // lowercase
    std::string literal;  // lowercase, no '*' or '?'; may be empty
  };
  std::vector<Row> rows_;
  std::vector<Compiled> compiled_;  // parallel to rows_
};

}  // namespace stepline::analysis
