// FileBrowser: a small ImGui modal to pick a trace file (File > Open, Compare
// with..., Replace A / B...). Lists one directory at a time, folders first;
// double-click opens. Its title says what the pick is for.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace stepline::app {

class FileBrowser {
 public:
  // Opens the modal on `start_dir` (the current directory when empty) under
  // `title` ("Open trace", "Compare with", "Replace A", ...).
  void Open(const std::string& start_dir, const std::string& title = "Open trace");
  const std::string& title() const { return title_; }
  // Draws the modal if open; returns true and sets *picked when a file is chosen.
  bool Draw(std::string* picked);

 private:
  void List();
  bool open_requested_ = false;
  std::string title_ = "Open trace";
  std::string popup_id_;  // title_ with a fixed id, so a new title is the same modal
  std::string dir_;
  struct Entry {
    std::string name;
    bool is_dir;
    uintmax_t size;
  };
  std::vector<Entry> entries_;
  std::string error_;
  int selected_ = -1;
};

}  // namespace stepline::app
