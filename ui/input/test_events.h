// The log of handled actions that a scripted walk reads back
// (scripts/window_walk.sh): one line per action, "search.next index=3",
// "zoom.in", "history.back", "popup.close kind=menu". The app points it at
// the file named by STEPLINE_TEST_EVENTS; unset, nothing is written and an
// action costs one branch. The names are listed in docs/contributing.md.
#pragma once

#include <functional>
#include <string>

namespace stepline::ui {

using TestEventSink = std::function<void(const std::string& line)>;
// The app's writer (ui/ has no file access); empty: events are dropped.
void SetTestEventSink(TestEventSink sink);
bool TestEventsOn();
// `name` then optional " key=value" text, e.g. TestEvent("search.next", "index=3").
void TestEvent(const std::string& name, const std::string& detail = "");

}  // namespace stepline::ui
