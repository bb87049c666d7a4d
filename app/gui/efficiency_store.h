// EfficiencyStore: the window's Efficiency settings (the peak TFLOP/s, its
// dtype and the batch size) kept per trace between runs, keyed by the
// trace's absolute path, as tab-separated lines in
// $XDG_CONFIG_HOME/stepline/efficiency.tsv (else ~/.config/...). Per trace,
// not in settings.ini: a batch size belongs to one run, and two traces open
// one after the other may come from different models or devices. The format
// is in docs/guide.md ("Efficiency settings").
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "model/analysis/efficiency.h"

namespace stepline::app {

// $XDG_CONFIG_HOME/stepline/efficiency.tsv, else ~/.config/...; "" without either.
std::string DefaultEfficiencyStorePath();

using EfficiencyByTrace = std::map<std::string, analysis::EfficiencyOptions>;

// One line per trace: path, peak TFLOP/s (0: the table's), dtype ("" the
// trace's), batch size (0: none). Lines starting with '#' are comments; a
// damaged line is skipped and named in `problems` (optional).
EfficiencyByTrace ParseEfficiencyTsv(std::string_view text, std::vector<std::string>* problems = nullptr);
std::string FormatEfficiencyTsv(const EfficiencyByTrace& settings);

class EfficiencyStore {
 public:
  // `file` "" keeps nothing (tests, and a home without a config folder).
  explicit EfficiencyStore(std::string file = {}) : file_(std::move(file)) {}
  const std::string& file() const { return file_; }
  // The settings saved for `trace_path` (absolute or not); the defaults when none.
  analysis::EfficiencyOptions Get(const std::string& trace_path) const;
  // Saves them (all defaults: forgets the trace); false with a message when
  // the file cannot be written. A trace without a path (the demo) is not kept.
  bool Set(const std::string& trace_path, const analysis::EfficiencyOptions& options, std::string* error);

 private:
  std::string file_;
};

}  // namespace stepline::app
