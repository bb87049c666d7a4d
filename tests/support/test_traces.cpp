// Locating test data; see test_traces.h.
#include "tests/support/test_traces.h"

#include <unistd.h>

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

bool WriteGeneratedSnapshots(const std::string& dir) {
  const std::string cmd =
      "python3 '" + TestDataPath("memory_snapshots/make_snapshots.py") + "' '" + dir + "' > /dev/null 2>&1";
  return std::system(cmd.c_str()) == 0;
}

const std::string& GeneratedSnapshotsDir() {
  static const std::string dir = [] {
    const std::string out =
        (std::filesystem::temp_directory_path() / ("stepline_snapshots_" + std::to_string(::getpid()))).string();
    return WriteGeneratedSnapshots(out) ? out : std::string();
  }();
  return dir;
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
