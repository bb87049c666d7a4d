// The test events file; see test_events_file.h.
#include "app/gui/test_events_file.h"

#include <cstdio>
#include <cstdlib>
#include <memory>

#include "ui/input/test_events.h"

namespace stepline::app {

bool InstallTestEventsLog(std::string* error) {
  const char* path = std::getenv("STEPLINE_TEST_EVENTS");
  if (path == nullptr || *path == '\0') return true;
  std::shared_ptr<std::FILE> file(std::fopen(path, "a"), [](std::FILE* f) {
    if (f != nullptr) std::fclose(f);
  });
  if (!file) {
    *error = std::string("cannot open STEPLINE_TEST_EVENTS file ") + path;
    return false;
  }
  // Flushed per line: the walk reads the file while the window runs.
  ui::SetTestEventSink([file](const std::string& line) {
    std::fputs(line.c_str(), file.get());
    std::fputc('\n', file.get());
    std::fflush(file.get());
  });
  return true;
}

}  // namespace stepline::app
