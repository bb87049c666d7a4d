// FileBrowser: the ImGui modal that picks a trace file (File > Open, Compare
// with..., Replace A / B...). A path field with `~` and Tab completion
// (typing narrows the list), a Name / Size / Modified table (folders first,
// files newest first), trace files or all files, the folders of recent files
// as shortcuts, and the keyboard: arrows move, Enter opens a folder or picks
// a file, Backspace goes to the parent, Esc cancels. Its title says what the
// pick is for. The listing logic is in file_listing.h.
#pragma once

#include <string>
#include <vector>

#include "app/gui/file_listing.h"

struct ImGuiInputTextCallbackData;

namespace stepline::app {

class FileBrowser {
 public:
  // Opens the modal on `start_dir` (the current directory when empty) under
  // `title` ("Open trace", "Compare with", "Replace A", ...); `shortcuts` are
  // folders offered on the left (those of recent files).
  void Open(const std::string& start_dir, const std::string& title = "Open trace",
            std::vector<std::string> shortcuts = {});
  const std::string& title() const { return title_; }
  // The modal is up (or about to be): the keyboard is the dialog's.
  bool is_open() const { return open_requested_ || is_open_; }
  const std::string& dir() const { return listing_.dir; }
  const std::string& field() const { return field_text_; }
  // Draws the modal if open; returns true and sets *picked when a file is chosen.
  bool Draw(std::string* picked);

 private:
  void GoTo(const std::string& dir);          // lists `dir` and shows "dir/" in the field
  void SetField(const std::string& text);     // replaces the field's text (also while it is being edited)
  void OnFieldEdited();                       // typing: relist and narrow to the typed name
  bool Activate(const std::string& path, std::string* picked);  // Enter or double-click on a path
  void MoveSelection(int delta);
  static int FieldCallback(::ImGuiInputTextCallbackData* data);

  bool open_requested_ = false;
  bool is_open_ = false;
  std::string title_ = "Open trace";
  std::string popup_id_;  // title_ with a fixed id, so a new title is the same modal
  std::vector<std::string> shortcuts_;
  DirListing listing_;
  std::vector<FileEntry> shown_;  // listing_ filtered by the typed name and the file kind
  bool all_files_ = false;
  int selected_ = -1;             // index into shown_
  bool scroll_to_selected_ = false;
  char field_[1024] = {};
  std::string field_text_;        // what the field holds after this frame
  std::string pending_field_;     // written into the field by its callback
  bool has_pending_field_ = false;
  bool field_follows_selection_ = false;  // the field names the selected row, not typed text
  bool focus_field_ = false;
  int last_click_row_ = -1;  // the row the last single click chose
  std::string reported_rows_;  // where the test events log last placed the first row
};

}  // namespace stepline::app
