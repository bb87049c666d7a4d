// Where the viewer's F12 screenshots go: a timestamped name in a folder the
// user can set ($STEPLINE_SCREENSHOT_DIR), else ~/Pictures if it exists, else
// the current directory.
#pragma once

#include <string>

namespace stepline::app {

std::string ScreenshotFolder();
std::string TimestampedScreenshotPath(const std::string& folder);  // folder/stepline-YYYYmmdd-HHMMSS[-N].png

}  // namespace stepline::app
