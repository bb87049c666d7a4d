// Steps of a profile without a device "Steps" line: XProf's host step markers
// (trace-formats.md 1.9 rule 5) become one kGpuDerived track named "Steps" on
// the host process, so step analyses read XSpace steps one way.
#pragma once

#include "loaders/xspace/xplane_reader.h"

namespace stepline::loaders::xspace {

// Adds the host "Steps" track when no plane had a "Steps" line and host
// markers were seen. Nested markers (a "train" inside a "train_step") count
// once: only markers not enclosed by another marker of the same thread are
// kept. Returns the number of step slices added.
size_t AddHostStepsTrack(SpaceState* state);

}  // namespace stepline::loaders::xspace
