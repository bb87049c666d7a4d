// What the cmd_*_test.cpp files share: running a subcommand with its output
// captured, reading a file it wrote, a scratch directory, requiring a JSON
// member, and writing a small demo trace to disk for a command to load.
// In stepline::app, where those tests live, so they call them unqualified.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "app/cli/commands.h"
#include "demo/demo_generator.h"
#include "export/chrome_json_writer.h"
#include "model/json_value.h"
#include "tests/support/file_bytes.h"

namespace stepline::app {

struct RunOutput {
  int code = 0;
  std::string out, err;
};

// `command` (RunReport, RunDiff, ...) on `args`, its streams as strings.
inline RunOutput RunCommand(int (*command)(const Args&, std::ostream&, std::ostream&), const Args& args) {
  std::ostringstream out, err;
  RunOutput r;
  r.code = command(args, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

inline std::string ReadFile(const std::string& path) { return ::stepline::testing::ReadFileBytes(path); }

// An empty directory `name`-<pid> under the system temp directory: the pid
// keeps parallel test processes apart, and a leftover of a crashed run is
// cleared first.
inline std::filesystem::path MakeScratchDir(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// MakeScratchDir(name), removed again when the test process ends (ctest runs
// each test in its own process), so tests that write many files leave none.
inline std::filesystem::path MakeScratchDirRemovedAtExit(const std::string& name) {
  struct Registry {
    std::vector<std::filesystem::path> dirs;
    ~Registry() {
      for (const auto& dir : dirs) {
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
      }
    }
  };
  static Registry registry;
  return registry.dirs.emplace_back(MakeScratchDir(name));
}

// A JSON number as an integer; -1 when it is not a number.
inline int64_t Number(const ::stepline::JsonValue& v) {
  return static_cast<int64_t>(v.AsDouble().value_or(-1));
}

// A member that must exist; a failure (not a crash) when it does not.
inline const ::stepline::JsonValue& Member(const ::stepline::JsonValue& object,
                                                    std::string_view key) {
  static const ::stepline::JsonValue kMissing;
  const ::stepline::JsonValue* v = object.Find(key);
  if (v == nullptr) ADD_FAILURE() << "no member \"" << key << "\"";
  return v ? *v : kMissing;
}

// A 3-step demo `scenario` as Chrome JSON at `path`. Its ground truth is not
// computed: the command tests check the commands, not the generator.
inline void WriteDemoJson(const char* scenario, demo::DemoStyle style, const std::string& path) {
  demo::DemoOptions demo;
  demo.scenario = scenario;
  demo.style = style;
  demo.steps = 3;
  demo.compute_truth = false;
  auto trace = demo::GenerateDemoTrace(demo);
  ASSERT_TRUE(trace.ok()) << trace.error();
  auto written = exports::WriteChromeJsonFile(*trace, path);
  ASSERT_TRUE(written.ok()) << written.error();
}

}  // namespace stepline::app
