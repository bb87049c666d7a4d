// Resident memory and forked measurements; see process_memory.h.
#include "app/cli/process_memory.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "loaders/posix_io.h"

namespace stepline::app {
namespace {

std::string ReadAll(int fd) {
  std::string data;
  char chunk[4096];
  for (;;) {
    const ssize_t n = loaders::ReadSome(fd, chunk, sizeof chunk);
    if (n <= 0) break;
    data.append(chunk, static_cast<size_t>(n));
  }
  return data;
}

}  // namespace

std::optional<uint64_t> ReadPeakResidentBytes() {
  std::FILE* file = std::fopen("/proc/self/status", "r");
  if (file == nullptr) return std::nullopt;
  char line[256];
  std::optional<uint64_t> peak;
  while (std::fgets(line, sizeof line, file) != nullptr) {
    unsigned long long kib = 0;
    if (std::sscanf(line, "VmHWM: %llu kB", &kib) == 1) {
      peak = uint64_t(kib) * 1024;
      break;
    }
  }
  std::fclose(file);
  return peak;
}

bool ResetPeakResident() {
  std::FILE* file = std::fopen("/proc/self/clear_refs", "w");
  if (file == nullptr) return false;
  const bool ok = std::fputs("5", file) >= 0;
  return std::fclose(file) == 0 && ok;
}

std::optional<ResidentMemory> ReadResidentMemory() {
  // statm fields, in pages: size resident shared text lib data dt.
  std::FILE* file = std::fopen("/proc/self/statm", "r");
  if (file == nullptr) return std::nullopt;
  unsigned long long size_pages = 0, resident_pages = 0, shared_pages = 0;
  const int fields = std::fscanf(file, "%llu %llu %llu", &size_pages, &resident_pages, &shared_pages);
  std::fclose(file);
  if (fields != 3) return std::nullopt;
  const auto page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  ResidentMemory memory;
  memory.total_bytes = resident_pages * page;
  memory.anon_bytes = (resident_pages - std::min(shared_pages, resident_pages)) * page;
  return memory;
}

double ProcessCpuMs() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto ms = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_usec) / 1e3;
  };
  return ms(usage.ru_utime) + ms(usage.ru_stime);
}

Result<std::string, std::string> RunInChild(const std::function<std::string()>& measure) {
  int fds[2];
  if (pipe(fds) != 0) return MakeUnexpected(std::string("pipe: ") + std::strerror(errno));
  const pid_t pid = fork();
  if (pid < 0) {
    const int fork_errno = errno;
    close(fds[0]);
    close(fds[1]);
    return MakeUnexpected(std::string("fork: ") + std::strerror(fork_errno));
  }
  if (pid == 0) {
    close(fds[0]);
    const bool written = loaders::WriteAll(fds[1], measure());
    close(fds[1]);
    _exit(written ? 0 : 3);  // no atexit handlers, no stream flushing in the copy
  }
  close(fds[1]);
  std::string data = ReadAll(fds[0]);
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status)) {
    return MakeUnexpected("measurement child killed by signal " + std::to_string(WTERMSIG(status)));
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return MakeUnexpected("measurement child exited with status " + std::to_string(WEXITSTATUS(status)));
  }
  return data;
}

}  // namespace stepline::app
