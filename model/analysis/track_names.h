// Display names of tracks, shared by the report, the CLI and the window.
#pragma once

#include <string>

#include "model/trace.h"

namespace stepline::analysis {

// The display name of a track: its name, else "tid N".
std::string TrackDisplayName(const Trace& trace, TrackId track);

}  // namespace stepline::analysis
