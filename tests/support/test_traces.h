// Where the tests find their data: tests/data (committed, tiny) and the
// shared real traces (never committed; ../shared/traces or $STEPLINE_TRACES).
#pragma once

#include <string>
#include <vector>

namespace stepline::testing {

std::string TestDataPath(const std::string& name);  // tests/data/<name>
// The rows of the tab-separated file tests/data/<name> after its header line,
// each split into its cells (the real-trace facts files the scripts write).
std::vector<std::vector<std::string>> ReadTsvRows(const std::string& name);
// Directory of the shared real traces, or "" when absent.
std::string SharedTracesDir();
// Full path of a shared trace (relative to the traces dir); calls GTEST_SKIP
// from the caller's perspective via the macro below when absent.
std::string SharedTracePath(const std::string& relative);
// Writes the PyTorch memory snapshots and paired traces of
// tests/data/memory_snapshots/make_snapshots.py into `dir`; false when
// python3 could not.
bool WriteGeneratedSnapshots(const std::string& dir);
// The same, written once per test process into a temporary folder; "" when
// python3 could not (tests then skip, saying so).
const std::string& GeneratedSnapshotsDir();

}  // namespace stepline::testing

// Skips the current test with a clear message when the shared traces are absent.
#define STEPLINE_REQUIRE_SHARED_TRACES()                                                          \
  do {                                                                                            \
    if (::stepline::testing::SharedTracesDir().empty())                                           \
      GTEST_SKIP() << "shared traces not found at ../shared/traces (set STEPLINE_TRACES to point " \
                      "at them); real-trace test skipped";                                        \
  } while (0)
