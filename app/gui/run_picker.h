// RunPicker: the File > Open folder modal. Browse to a TensorBoard / XProf
// log directory; every profile run under it (profile_runs.h) is listed with
// its hosts, date and size, newest first. A run of one trace opens that
// trace; a run of several ranks (or hosts) opens the ranks view, all of them
// side by side, unless "Open this rank only" is pressed. The rows are built by RunPickerRows() so tests can read them.
#pragma once

#include <string>
#include <vector>

#include "app/runs/profile_runs.h"
#include "ui/ranks/ranks_view_input.h"

namespace stepline::app {

// One line of the picker's table: a run's first line carries its name and
// date; every line is one host's trace file.
struct RunPickerRow {
  std::string run;   // "" on a run's second and later hosts
  std::string date;  // the file's modification time, local "YYYY-MM-DD HH:MM"
  std::string host;
  std::string size;  // FormatBytes
  std::string path;  // this host's trace
  std::string run_dir;     // the run's folder
  size_t run_traces = 0;   // the run's trace files: two or more open the ranks view
  bool newest = false;
};
std::vector<RunPickerRow> RunPickerRows(const std::vector<ProfileRun>& runs);
// The ranks view's run picker: one choice per run in the given order (newest
// first), `current` the loaded one; empty for fewer than two runs.
std::vector<ui::RanksRunChoice> RanksRunChoices(const std::vector<ProfileRun>& runs, size_t current);

class RunPicker {
 public:
  // Opens the modal on `folder` (the current directory when empty) and scans it.
  void Open(const std::string& folder);
  // What the user chose: one trace, or a run of several ranks for the ranks view.
  struct Choice {
    std::string path;     // one trace file ("" for a run of ranks)
    std::string ranks_run;  // the run's folder when its ranks are to be shown together
  };
  // Draws the modal if open; true with *picked set when something is chosen.
  bool Draw(Choice* picked);
  const std::string& folder() const { return folder_; }
  const std::vector<RunPickerRow>& rows() const { return rows_; }
  const std::string& error() const { return error_; }

 private:
  void Scan();  // lists the subfolders and the runs of folder_
  bool open_requested_ = false;
  std::string folder_;
  std::vector<std::string> subfolders_;
  std::vector<RunPickerRow> rows_;
  std::string error_;
  int selected_ = -1;
};

}  // namespace stepline::app
