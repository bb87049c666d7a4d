// The baselines folder; see baseline_store.h.
#include "app/cli/baseline_store.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include "app/output/baseline_json.h"
#include "export/safe_write.h"

namespace stepline::app {

Result<std::string, std::string> BaselinePath(const std::string& name) {
  bool ok = !name.empty() && name[0] != '.' && name.size() <= 200;
  for (const char c : name) {
    const bool allowed = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                         c == '_' || c == '-';
    ok = ok && allowed;
  }
  if (!ok) return MakeUnexpected("bad baseline name \"" + name + "\" (use letters, digits, '.', '_', '-')");
  std::string folder;
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) {
    folder = std::string(xdg) + "/stepline/baselines";
  } else if (const char* home = std::getenv("HOME"); home && *home) {
    folder = std::string(home) + "/.config/stepline/baselines";
  } else {
    return MakeUnexpected(std::string("no baselines folder (neither XDG_CONFIG_HOME nor HOME is set)"));
  }
  return folder + "/" + name + ".json";
}

Result<std::optional<analysis::SavedRun>, std::string> LoadBaseline(const std::string& name) {
  auto path = BaselinePath(name);
  if (!path) return MakeUnexpected(path.error());
  std::ifstream in(*path, std::ios::binary);
  if (!in) return std::optional<analysis::SavedRun>();
  std::ostringstream text;
  text << in.rdbuf();
  auto run = SavedRunFromJson(text.str());
  if (!run) return MakeUnexpected(*path + ": " + run.error());
  return std::optional<analysis::SavedRun>(std::move(run).value());
}

std::string SaveBaseline(const std::string& name, const analysis::SavedRun& run) {
  auto path = BaselinePath(name);
  if (!path) return path.error();
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(*path).parent_path(), ec);
  if (ec) return "cannot create " + std::filesystem::path(*path).parent_path().string() + ": " + ec.message();
  std::string error;
  exports::SafeWriteOptions options;
  options.overwrite = true;
  if (!exports::WriteFileSafely(*path, SavedRunToJson(run), options, &error)) return error;
  return "";
}

}  // namespace stepline::app
