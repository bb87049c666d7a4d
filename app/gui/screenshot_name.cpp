// Screenshot file naming.
#include "app/gui/screenshot_name.h"

#include <cstdlib>
#include <ctime>
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
  return ".";
}

std::string TimestampedScreenshotPath(const std::string& folder) {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  localtime_r(&now, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
  std::string base = (fs::path(folder) / (std::string("stepline-") + stamp)).string();
  std::string path = base + ".png";
  std::error_code ec;
  for (int n = 2; fs::exists(path, ec); ++n) path = base + "-" + std::to_string(n) + ".png";
  return path;
}

}  // namespace stepline::app
