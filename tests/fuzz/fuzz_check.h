// Shared by every fuzz target: runs one loader over the input with each
// LoadOptions combination that changes the code path, and aborts (a finding)
// when a loaded model breaks an invariant or the combinations disagree.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "loaders/load.h"
#include "model/result.h"
#include "model/trace.h"

namespace stepline::fuzz {

using LoadFn = std::function<Result<Trace, loaders::LoadError>(const loaders::LoadOptions&)>;

// Loads with threads 1 and 2, args kept and not. Aborts with a message when
// a trace fails Trace::CheckInvariants(), an error has no message, or the
// combinations disagree on success or on the slice/instant/counter/flow counts.
void LoadEveryWay(const LoadFn& load);

}  // namespace stepline::fuzz
