// The load-memory estimate and the budget it is held against (see
// memory_estimate.h). The factors are peak address space over input bytes:
// the least `ulimit -v` under which `stepline info --no-cache` still loads
// (README, "Running out of memory"): a 463 MiB demo Chrome JSON needs
// 850-900 MB, a 46 MiB one 130-135 MB; small real traces of the other
// formats 27-57 MB, mostly the process itself.
#include "loaders/memory_estimate.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "loaders/decode_stream.h"
#include "loaders/load.h"

namespace stepline::loaders {
namespace {

// Peak address space of a load per input byte (decompressed), by format:
// the mapped input, the model, the parse buffers and the threads' stacks.
double LoadFactor(Format format) {
  switch (format) {
    case Format::kChromeJson: return 1.85;
    case Format::kRocprofJson: return 1.85;
    case Format::kXSpace: return 4.0;
    case Format::kPerfetto: return 4.0;
    case Format::kNsysSqlite: return 3.0;
    // The reader releases the input behind it; the model is about the file's size.
    case Format::kTorchMemorySnapshot: return 1.5;
    case Format::kUnknown: break;
  }
  return 1.85;
}
// A compressed trace's content is about this many times its size (JSON traces
// compress 8-15x with gzip; the estimate takes the low end so as not to
// overstate).
constexpr double kCompressionRatio = 8.0;

uint64_t ReadUintFile(const std::string& path, bool* unlimited) {
  *unlimited = false;
  FILE* f = std::fopen(path.c_str(), "re");
  if (f == nullptr) return 0;
  char text[64] = {};
  const size_t n = std::fread(text, 1, sizeof text - 1, f);
  std::fclose(f);
  if (n == 0) return 0;
  if (std::strncmp(text, "max", 3) == 0) {
    *unlimited = true;
    return 0;
  }
  return std::strtoull(text, nullptr, 10);
}

uint64_t MeminfoField(const std::string& meminfo, const char* field) {
  FILE* f = std::fopen(meminfo.c_str(), "re");
  if (f == nullptr) return 0;
  char line[256];
  uint64_t value = 0;
  const size_t len = std::strlen(field);
  while (std::fgets(line, sizeof line, f) != nullptr) {
    if (std::strncmp(line, field, len) == 0) {
      value = std::strtoull(line + len, nullptr, 10) * 1024;
      break;
    }
  }
  std::fclose(f);
  return value;
}

// This process's cgroup path from /proc/self/cgroup: the v2 line
// ("0::/user.slice/x.scope") when `v1_controller` is empty, else the v1 line
// listing it ("4:memory:/docker/abc"); "" when none or the root.
std::string SelfCgroup(const std::string& self_cgroup, std::string_view v1_controller) {
  FILE* f = std::fopen(self_cgroup.c_str(), "re");
  if (f == nullptr) return {};
  char line[512];
  std::string path;
  while (path.empty() && std::fgets(line, sizeof line, f) != nullptr) {
    std::string_view text(line);
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.remove_suffix(1);
    const size_t first = text.find(':');
    const size_t second = first == std::string_view::npos ? first : text.find(':', first + 1);
    if (second == std::string_view::npos) continue;
    const std::string_view controllers = text.substr(first + 1, second - first - 1);
    const bool match = v1_controller.empty()
                           ? text.substr(0, first) == "0" && controllers.empty()
                           : ("," + std::string(controllers) + ",").find("," + std::string(v1_controller) + ",") !=
                                 std::string::npos;
    if (match) path = text.substr(second + 1);
  }
  std::fclose(f);
  return path == "/" ? std::string() : path;
}

// This process's address space now (VmSize).
uint64_t AddressSpaceInUse() {
  FILE* f = std::fopen("/proc/self/statm", "re");
  if (f == nullptr) return 0;
  unsigned long long pages = 0;
  const int got = std::fscanf(f, "%llu", &pages);
  std::fclose(f);
  return got == 1 ? pages * static_cast<uint64_t>(::sysconf(_SC_PAGESIZE)) : 0;
}

void TakeLeast(MemoryBudget* budget, uint64_t bytes, const char* source) {
  if (bytes < budget->bytes) {
    budget->bytes = bytes;
    budget->source = source;
  }
}

// The cgroup limit less its use, from `limit_file` and `usage_file` under
// `dir`; nothing when no limit is set (v2 "max", v1 about 2^63).
void TakeCgroupLimit(MemoryBudget* budget, const std::string& dir, const char* limit_file, const char* usage_file,
                     const char* source) {
  bool unlimited = false;
  const uint64_t limit = ReadUintFile(dir + "/" + limit_file, &unlimited);
  if (unlimited || limit == 0 || limit >= (uint64_t{1} << 60)) return;
  bool ignored = false;
  const uint64_t usage = ReadUintFile(dir + "/" + usage_file, &ignored);
  TakeLeast(budget, limit > usage ? limit - usage : 0, source);
}

}  // namespace

std::string FormatMemory(uint64_t bytes) {
  char text[32];
  if (bytes >= (uint64_t{1} << 30)) {
    std::snprintf(text, sizeof text, "%.1f GB", static_cast<double>(bytes) / double(uint64_t{1} << 30));
  } else if (bytes >= (uint64_t{1} << 20)) {
    std::snprintf(text, sizeof text, "%llu MB", static_cast<unsigned long long>(bytes >> 20));
  } else {
    std::snprintf(text, sizeof text, "%llu KB", static_cast<unsigned long long>((bytes + 1023) >> 10));
  }
  return text;
}

MemoryEstimate EstimateLoadMemory(uint64_t file_bytes, std::string_view head) {
  MemoryEstimate e;
  e.file_bytes = file_bytes;
  if (file_bytes == 0) return e;
  const bool compressed = IsCompressedHead(head);
  // A compressed head is not sniffed (that would mean inflating it): the
  // content is taken to be JSON, by far the most common compressed trace.
  const Format format = compressed ? Format::kChromeJson : SniffFormat(head);
  const double content = compressed ? static_cast<double>(file_bytes) * kCompressionRatio : double(file_bytes);
  e.needed_bytes = kLoadBaseBytes + static_cast<uint64_t>(content * LoadFactor(format));
  e.basis = FormatMemory(file_bytes) + " of " +
            (compressed ? std::string("compressed trace") : std::string(FormatName(format)));
  return e;
}

MemoryEstimate EstimateLoadMemory(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return {};
  struct stat st {};
  MemoryEstimate e;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    char head[128];
    const ssize_t n = ::pread(fd, head, sizeof head, 0);
    e = EstimateLoadMemory(static_cast<uint64_t>(st.st_size), std::string_view(head, n > 0 ? size_t(n) : 0));
  }
  ::close(fd);
  return e;
}

MemoryBudget AvailableMemory() { return AvailableMemory(MemorySources{}); }

MemoryBudget AvailableMemory(const MemorySources& sources) {
  MemoryBudget budget;
  if (const uint64_t available = MeminfoField(sources.meminfo, "MemAvailable:"); available > 0) {
    TakeLeast(&budget, available, "MemAvailable");
  }
  // The limits of the hierarchy's root (a container's namespace) and of this
  // process's own cgroup (a systemd scope, a batch job), v2 and v1.
  const std::string v2 = sources.cgroup_root, v1 = sources.cgroup_root + "/memory";
  for (const std::string& dir : {v2, v2 + SelfCgroup(sources.self_cgroup, "")}) {
    TakeCgroupLimit(&budget, dir, "memory.max", "memory.current", "cgroup memory.max");
  }
  for (const std::string& dir : {v1, v1 + SelfCgroup(sources.self_cgroup, "memory")}) {
    TakeCgroupLimit(&budget, dir, "memory.limit_in_bytes", "memory.usage_in_bytes", "cgroup memory.limit_in_bytes");
  }
  struct rlimit limit {};
  if (sources.address_space_limit && ::getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
    const uint64_t used = AddressSpaceInUse();
    const uint64_t cap = static_cast<uint64_t>(limit.rlim_cur);
    TakeLeast(&budget, cap > used ? cap - used : 0, "address-space limit (ulimit -v)");
  }
  return budget;
}

bool ShouldWarnBeforeLoad(const MemoryEstimate& estimate, const MemoryBudget& budget) {
  return estimate.needed_bytes > 0 && budget.bytes != UINT64_MAX && estimate.needed_bytes > budget.bytes;
}

MemoryEstimate AddEstimates(const std::vector<MemoryEstimate>& parts) {
  MemoryEstimate sum;
  for (const MemoryEstimate& part : parts) {
    sum.file_bytes += part.file_bytes;
    if (part.needed_bytes == 0) continue;
    const uint64_t counted = sum.needed_bytes == 0 ? 0 : std::min(part.needed_bytes, kLoadBaseBytes);
    sum.needed_bytes += part.needed_bytes - counted;
    sum.basis += (sum.basis.empty() ? "" : " + ") + part.basis;
  }
  return sum;
}

std::string MemoryWarning(const std::string& path, const MemoryEstimate& estimate, const MemoryBudget& budget) {
  return MemoryWarning(path, "the trace needs", estimate, budget);
}

std::string MemoryWarning(const std::string& subject, std::string_view they_need, const MemoryEstimate& estimate,
                          const MemoryBudget& budget) {
  if (!ShouldWarnBeforeLoad(estimate, budget)) return {};
  return subject + ": " + std::string(they_need) + " about " + FormatMemory(estimate.needed_bytes) + " to load (" +
         estimate.basis + ") but only " + FormatMemory(budget.bytes) + " is available (" + budget.source +
         "); the load may fail";
}

std::string OutOfMemoryMessage(std::string_view what, const MemoryEstimate& estimate, const MemoryBudget& budget) {
  std::string text = "out of memory during " + std::string(what);
  if (estimate.needed_bytes > 0) {
    text += ": the trace needs about " + FormatMemory(estimate.needed_bytes) + " (" + estimate.basis + ")";
  }
  if (budget.bytes != UINT64_MAX) {
    text += std::string(estimate.needed_bytes > 0 ? ", " : ": ") + FormatMemory(budget.bytes) + " is available (" +
            budget.source + ")";
  }
  text += "; try closing other traces or programs, raising the limit, or a machine with more memory";
  return text;
}

}  // namespace stepline::loaders
