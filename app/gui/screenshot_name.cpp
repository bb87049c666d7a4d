// Picture and export file naming; see screenshot_name.h.
#include "app/gui/screenshot_name.h"

#include <cstdlib>
#include <filesystem>

namespace stepline::app {
namespace fs = std::filesystem;

std::string ScreenshotFolder() {
  if (const char* dir = std::getenv("STEPLINE_SCREENSHOT_DIR"); dir && *dir) return dir;
  if (const char* home = std::getenv("HOME"); home && *home) {
    std::error_code ec;
    const fs::path pictures = fs::path(home) / "Pictures";
    if (fs::is_directory(pictures, ec)) return pictures.string();
  }
  // Absolute, so the notice after a save says where the file really went.
  std::error_code ec;
  const fs::path cwd = fs::current_path(ec);
  return ec ? "." : cwd.string();
}

std::string TimestampedPath(const std::string& folder, const std::string& stem, const std::string& extension,
                            std::time_t now) {
  std::tm tm{};
  localtime_r(&now, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
  const std::string name = "stepline-" + (stem.empty() ? "" : stem + "-") + stamp;
  const std::string base = (fs::path(folder) / name).string();
  std::string path = base + "." + extension;
  std::error_code ec;
  for (int n = 2; fs::exists(path, ec); ++n) path = base + "-" + std::to_string(n) + "." + extension;
  return path;
}

std::string TimestampedScreenshotPath(const std::string& folder) {
  return TimestampedPath(folder, "", "png", std::time(nullptr));
}

std::string ExpandHome(const std::string& folder) {
  if (folder.empty() || folder[0] != '~' || (folder.size() > 1 && folder[1] != '/')) return folder;
  const char* home = std::getenv("HOME");
  if (home == nullptr || *home == '\0') return folder;
  return std::string(home) + folder.substr(1);
}

}  // namespace stepline::app
