// The handled-actions log; see test_events.h.
#include "ui/input/test_events.h"

namespace stepline::ui {
namespace {

TestEventSink& Sink() {
  static TestEventSink sink;
  return sink;
}

}  // namespace

void SetTestEventSink(TestEventSink sink) { Sink() = std::move(sink); }
bool TestEventsOn() { return static_cast<bool>(Sink()); }

void TestEvent(const std::string& name, const std::string& detail) {
  if (!Sink()) return;
  Sink()(detail.empty() ? name : name + " " + detail);
}

}  // namespace stepline::ui
