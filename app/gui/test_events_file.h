// STEPLINE_TEST_EVENTS=<file>: the window appends each handled action to the
// file, one line each (ui/input/test_events.h), for the scripted walk
// (scripts/window_walk.sh) to read back. Unset: no file, no cost.
#pragma once

#include <string>

namespace stepline::app {

// Points the ui's test events at the file named by STEPLINE_TEST_EVENTS, if
// set. False with *error when the file cannot be opened.
bool InstallTestEventsLog(std::string* error);

}  // namespace stepline::app
