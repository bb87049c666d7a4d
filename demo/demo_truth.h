// The ground truth of a generated demo trace, computed from what the emitter
// recorded: per-step kernel/copy/idle time and the cause of every GPU idle
// gap, by the idle-cause rules (docs/analysis.md) applied to the planted host events.
#pragma once

#include <span>

#include "demo/demo_emitter.h"
#include "demo/demo_generator.h"

namespace stepline::demo {

struct DemoStepSpan {
  int64_t step_num;
  TimeNs start_ns, end_ns;
};

// A gap that starts within this long after a sync call ended on the
// launching thread, with no host event in its window, is blamed on sync.
inline constexpr DurNs kSyncProximityNs = 5'000;

DemoTruth ComputeDemoTruth(const DemoRecords& records, std::span<const DemoStepSpan> steps);

}  // namespace stepline::demo
