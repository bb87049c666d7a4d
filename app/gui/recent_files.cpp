// RecentFiles persistence.
#include "app/gui/recent_files.h"

#include "export/safe_write.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace stepline::app {
namespace fs = std::filesystem;

namespace {
std::string DefaultPath() {
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) return std::string(xdg) + "/stepline/recent.txt";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.config/stepline/recent.txt";
  return {};
}
}  // namespace

RecentFiles::RecentFiles(std::string path) : path_(path.empty() ? DefaultPath() : std::move(path)) {
  if (path_.empty()) return;
  std::ifstream in(path_);
  std::string line;
  while (std::getline(in, line) && list_.size() < kMax) {
    if (!line.empty()) list_.push_back(line);
  }
}

void RecentFiles::Add(const std::string& file) {
  std::error_code ec;
  std::string abs = fs::absolute(file, ec).lexically_normal().string();
  if (ec) abs = file;
  list_.erase(std::remove(list_.begin(), list_.end(), abs), list_.end());
  list_.insert(list_.begin(), abs);
  if (list_.size() > kMax) list_.resize(kMax);
  Save();
}

// Atomic like the settings (safe_write.h): a crash leaves the old list or
// the new one, never a half-written file.
void RecentFiles::Save() const {
  if (path_.empty()) return;
  std::error_code ec;
  fs::create_directories(fs::path(path_).parent_path(), ec);
  std::string text;
  for (const std::string& f : list_) text += f + '\n';
  exports::SafeWriteOptions options;
  options.overwrite = true;  // our own file, replaced whole by the rename
  std::string error;
  exports::WriteFileSafely(path_, text, options, &error);
}

}  // namespace stepline::app
