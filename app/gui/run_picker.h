// RunPicker: the File > Open folder modal. Browse to a TensorBoard / XProf
// log directory; every profile run under it (profile_runs.h) is listed with
// its hosts, date and size, newest first, and a double-click opens one host's
// trace. The rows are built by RunPickerRows() so tests can read them.
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
  std::string path;  // what a double-click opens
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
  // Draws the modal if open; true with *picked set when a trace is chosen.
  bool Draw(std::string* picked);
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
