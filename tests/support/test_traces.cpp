// Locating test data; see test_traces.h.
#include "tests/support/test_traces.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace stepline::testing {

std::string TestDataPath(const std::string& name) { return std::string(STEPLINE_TEST_DATA_DIR) + "/" + name; }

std::string SharedTracesDir() {
  namespace fs = std::filesystem;
  if (const char* env = std::getenv("STEPLINE_TRACES"); env && *env) {
    return fs::is_directory(env) ? std::string(env) : std::string();
  }
  fs::path p = fs::path(STEPLINE_SOURCE_DIR).parent_path() / "shared" / "traces";
  return fs::is_directory(p) ? p.string() : std::string();
}

std::vector<std::vector<std::string>> ReadTsvRows(const std::string& name) {
  std::ifstream in(TestDataPath(name));
  std::vector<std::vector<std::string>> rows;
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::vector<std::string>& cells = rows.emplace_back();
    std::istringstream fields(line);
    for (std::string cell; std::getline(fields, cell, '\t');) cells.push_back(cell);
  }
  return rows;
}

std::string SharedTracePath(const std::string& relative) {
  std::string dir = SharedTracesDir();
  return dir.empty() ? std::string() : dir + "/" + relative;
}

}  // namespace stepline::testing
