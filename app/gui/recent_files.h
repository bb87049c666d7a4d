// RecentFiles: the last opened traces, kept in the user's config directory
// ($XDG_CONFIG_HOME/stepline/recent.txt, else ~/.config/stepline/recent.txt).
#pragma once

#include <string>
#include <vector>

namespace stepline::app {

class RecentFiles {
 public:
  static constexpr size_t kMax = 12;
  // `path` overrides the file (tests); empty = the XDG location.
  explicit RecentFiles(std::string path = {});
  const std::vector<std::string>& list() const { return list_; }
  // Moves `file` to the front (absolute path) and saves; a failure to save is silent
  // on purpose: the viewer must work on a read-only home.
  void Add(const std::string& file);
  const std::string& path() const { return path_; }

 private:
  void Save() const;
  std::string path_;
  std::vector<std::string> list_;
};

}  // namespace stepline::app
