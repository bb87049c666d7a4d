// Where the viewer's pictures and exports go, and what they are called: a
// timestamped name in a folder the user can set (View menu, remembered in
// the settings; $STEPLINE_SCREENSHOT_DIR), else ~/Pictures if it exists, else
// the current directory.
#pragma once

#include <ctime>
#include <string>

namespace stepline::app {

// The default folder: $STEPLINE_SCREENSHOT_DIR, else ~/Pictures if it is a
// folder, else the current directory (as an absolute path).
std::string ScreenshotFolder();
// folder/stepline-YYYYmmdd-HHMMSS[-N].png, N from 2 when the name is taken.
std::string TimestampedScreenshotPath(const std::string& folder);
// folder/stepline-STEM-YYYYmmdd-HHMMSS[-N].EXT at local time `now`; the first
// name that does not exist yet (N counts from 2). An empty stem gives
// stepline-YYYYmmdd-HHMMSS.
std::string TimestampedPath(const std::string& folder, const std::string& stem, const std::string& extension,
                            std::time_t now);
// A folder typed by the user: "~" and "~/..." expand to $HOME.
std::string ExpandHome(const std::string& folder);

}  // namespace stepline::app
