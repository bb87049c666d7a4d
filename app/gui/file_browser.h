// FileBrowser: a small ImGui modal to pick a trace file (File > Open). Lists
// one directory at a time, folders first; double-click opens.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace stepline::app {

class FileBrowser {
 public:
  void Open(const std::string& start_dir);
  // Draws the modal if open; returns true and sets *picked when a file is chosen.
  bool Draw(std::string* picked);

 private:
  void List();
  bool open_requested_ = false;
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
