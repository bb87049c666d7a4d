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
// The address space a process has before any trace: code, libraries, thread
// stacks (each parse thread reserves 8 MB) and the allocator's arenas.
constexpr uint64_t kBaseBytes = uint64_t{40} << 20;
// A compressed trace's content is about this many times its size (JSON traces
// compress 8-15x with gzip; the estimate takes the low end so as not to
// overstate).
constexpr double kCompressionRatio = 8.0;

uint64_t ReadUintFile(const char* path, bool* unlimited) {
  *unlimited = false;
  FILE* f = std::fopen(path, "re");
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

uint64_t MeminfoField(const char* field) {
  FILE* f = std::fopen("/proc/meminfo", "re");
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
  e.needed_bytes = kBaseBytes + static_cast<uint64_t>(content * LoadFactor(format));
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

MemoryBudget AvailableMemory() {
  MemoryBudget budget;
  if (const uint64_t available = MeminfoField("MemAvailable:"); available > 0) {
    TakeLeast(&budget, available, "MemAvailable");
  }
  bool unlimited = false;
  const uint64_t max = ReadUintFile("/sys/fs/cgroup/memory.max", &unlimited);
  if (!unlimited && max > 0) {
    bool ignored = false;
    const uint64_t current = ReadUintFile("/sys/fs/cgroup/memory.current", &ignored);
    TakeLeast(&budget, max > current ? max - current : 0, "cgroup memory.max");
  }
  struct rlimit limit {};
  if (::getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
    const uint64_t used = AddressSpaceInUse();
    const uint64_t cap = static_cast<uint64_t>(limit.rlim_cur);
    TakeLeast(&budget, cap > used ? cap - used : 0, "address-space limit (ulimit -v)");
  }
  return budget;
}

std::string MemoryWarning(const std::string& path, const MemoryEstimate& estimate, const MemoryBudget& budget) {
  if (estimate.needed_bytes == 0 || budget.bytes == UINT64_MAX || estimate.needed_bytes <= budget.bytes) return {};
  return path + ": the trace needs about " + FormatMemory(estimate.needed_bytes) + " to load (" + estimate.basis +
         ") but only " + FormatMemory(budget.bytes) + " is available (" + budget.source + "); the load may fail";
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
