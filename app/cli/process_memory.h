// Process-level measurements for `stepline bench`: resident memory from
// /proc/self/statm, CPU time, and running one measurement in a forked child so the
// allocator state of one run (cached free lists, arenas) cannot leak into the
// next. Linux only.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "model/result.h"

namespace stepline::app {

struct ResidentMemory {
  uint64_t total_bytes = 0;  // statm "resident"
  uint64_t anon_bytes = 0;   // resident minus file-backed/shared pages: heap, anonymous mmaps, stacks
};

// Current resident memory of this process; nullopt when /proc is unavailable.
std::optional<ResidentMemory> ReadResidentMemory();

// The peak resident set of this process (VmHWM), and resetting it to the
// current resident set (/proc/self/clear_refs "5"), so a forked measurement
// reads the peak of its own work. nullopt / false when /proc does not allow it.
std::optional<uint64_t> ReadPeakResidentBytes();
bool ResetPeakResident();

// CPU time (user + system, all threads) this process has used so far, ms.
double ProcessCpuMs();

// Runs `measure` in a forked child and returns the bytes it returned. The
// child never returns into the caller (it _exits), so it must not touch the
// parent's streams. Fails with a message when the child crashes or exits
// non-zero. The caller must be single-threaded (fork copies one thread).
Result<std::string, std::string> RunInChild(const std::function<std::string()>& measure);

}  // namespace stepline::app
