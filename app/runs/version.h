// The version `stepline --version` prints: project(VERSION) from the top-level
// CMakeLists.txt, passed to stepline_app as STEPLINE_VERSION.
#pragma once

#include <string_view>

namespace stepline::app {

std::string_view Version();

}  // namespace stepline::app
