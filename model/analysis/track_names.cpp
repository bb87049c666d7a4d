// TrackDisplayName.
#include "model/analysis/track_names.h"

namespace stepline::analysis {

std::string TrackDisplayName(const Trace& trace, TrackId track) {
  const StringId name = trace.tracks().name(track);
  if (!name.is_none()) return std::string(trace.str(name));
  return "tid " + std::to_string(trace.tracks().tid(track));
}

}  // namespace stepline::analysis
