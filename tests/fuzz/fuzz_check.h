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

// Loads with threads 1 and 2, args kept and not, and returns the first
// finding ("" when none): a trace that fails Trace::CheckInvariants(), an
// error without a message, threads 1 and 2 disagreeing on success or on the
// slice/instant/counter/flow counts, or args changing those counts. The
// regression tests of the normal suite call this on every committed finding.
std::string CheckEveryWay(const LoadFn& load);
// The fuzz targets' form: aborts (a libFuzzer finding) with the message.
void LoadEveryWay(const LoadFn& load);

}  // namespace stepline::fuzz
