// How much memory loading a trace needs, how much this process may still
// have, and the message a load or analysis gives when an allocation fails.
// Running out of memory fails one piece of work (a command exits 1, a window
// job fails with a notice); it is never a crash. The estimate is made from the
// file's size and first bytes before the load starts, so the CLI can say at
// the start, and the window ask, when a trace will not fit.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace stepline::loaders {

struct MemoryEstimate {
  uint64_t file_bytes = 0;    // on disk (0: unknown, e.g. a pipe)
  uint64_t needed_bytes = 0;  // about the peak of a load (address space), 0 when unknown
  std::string basis;          // what it was estimated from: "486 MB of chrome-json"
};

// The address space a process has before any trace (code, libraries, thread
// stacks, the allocator's arenas), part of every estimate.
inline constexpr uint64_t kLoadBaseBytes = uint64_t{40} << 20;

// From the file's size and its first bytes (format, gzip/zstd). Reads at most
// a few KB; an unreadable path gives an estimate of 0 (the load will say why).
MemoryEstimate EstimateLoadMemory(const std::string& path);
// The same from a size and the file's first bytes (tests).
MemoryEstimate EstimateLoadMemory(uint64_t file_bytes, std::string_view head);

// Traces held at the same time (both sides of a comparison, the ranks a
// rank set loads at once): the estimates added up with the process counted
// once; the bases joined with " + ". Unknown parts (0) add nothing.
MemoryEstimate AddEstimates(const std::vector<MemoryEstimate>& parts);

struct MemoryBudget {
  uint64_t bytes = UINT64_MAX;  // UINT64_MAX: no limit known
  std::string source;           // "MemAvailable", "cgroup memory.max", "address-space limit (ulimit -v)"
};
// Where the budget is read from; tests point these at fake files.
struct MemorySources {
  std::string meminfo = "/proc/meminfo";
  // cgroup v2: memory.max and memory.current here; v1: memory/memory.limit_in_bytes
  // and memory/memory.usage_in_bytes (a limit near 2^63 is v1's "none").
  std::string cgroup_root = "/sys/fs/cgroup";
  // "0::/user.slice/..." names this process's v2 cgroup under cgroup_root,
  // read when cgroup_root itself has no memory.max (outside a container).
  std::string self_cgroup = "/proc/self/cgroup";
  bool address_space_limit = true;  // RLIMIT_AS against /proc/self/statm
};
// The least of MemAvailable, the cgroup's limit (v2 memory.max or v1
// memory.limit_in_bytes) less its current use, and RLIMIT_AS less this
// process's address space.
MemoryBudget AvailableMemory(const MemorySources& sources);
MemoryBudget AvailableMemory();

// Whether to ask before loading (the window's Load anyway / Cancel, the
// CLI's line on stderr): the estimate exceeds the budget.
bool ShouldWarnBeforeLoad(const MemoryEstimate& estimate, const MemoryBudget& budget);

// "stepline info: run.json: the trace needs about 1.1 GB to load (486 MB of
// chrome-json) but only 700 MB is available (address-space limit (ulimit -v))";
// empty when the estimate fits or either number is unknown.
std::string MemoryWarning(const std::string& path, const MemoryEstimate& estimate, const MemoryBudget& budget);
// The same for what `subject` names, with its verb: ("a.json and b.json",
// "the two traces loaded at once need"), ("run", "the 2 ranks loaded at once need").
std::string MemoryWarning(const std::string& subject, std::string_view they_need, const MemoryEstimate& estimate,
                          const MemoryBudget& budget);

// The message of work that ran out of memory: what ran out, about what the
// trace needs, what is available and what to try.
// `what`: "loading", "the analysis", "comparing", "the SQLite export", ...
std::string OutOfMemoryMessage(std::string_view what, const MemoryEstimate& estimate,
                               const MemoryBudget& budget = AvailableMemory());

// "1.1 GB", "700 MB", "12 KB".
std::string FormatMemory(uint64_t bytes);

}  // namespace stepline::loaders
