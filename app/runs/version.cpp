// See version.h. Compiled into stepline_app, which gets STEPLINE_VERSION.
#include "app/runs/version.h"

#ifndef STEPLINE_VERSION
#error "STEPLINE_VERSION must come from the build (app/CMakeLists.txt)"
#endif

namespace stepline::app {

std::string_view Version() { return STEPLINE_VERSION; }

}  // namespace stepline::app
