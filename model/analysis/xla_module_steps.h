// Steps of an XLA device without step markers: one step per execution of the
// XLA module with the most total device time that runs at least twice
// (jit_train_step, jit_f, ...), read from the device's "XLA Modules" row.
// Step source "xla_module". Pure function of the trace; ComputeSteps asks it
// before falling back to the device-active span.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "model/analysis/step_set.h"
#include "model/trace.h"

namespace stepline::analysis {

// The "XLA Modules" rows (also "XLA Modules - from #N") of device `device_id`
// (-1: of every device).
std::vector<TrackId> XlaModuleTracks(const Trace& trace, int32_t device_id);
bool IsXlaModulesRowName(std::string_view name);

// The executions of the top module of device `device_id`, as steps named
// "<module> <k>" (k from 0), sorted by start; empty when no module of the
// device runs twice. Nested slices of a Modules row are not executions. Each
// step lasts from its execution's start to the next execution's start (the
// idle between them belongs to the step); the last lasts its execution.
std::vector<Step> ComputeXlaModuleSteps(const Trace& trace, int32_t device_id);

}  // namespace stepline::analysis
