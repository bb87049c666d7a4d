// What a long session must give back: the resident set (after returning the
// allocator's free memory), the open file descriptors and the threads of
// this process. Shared by the headless and the window long-session tests.
#pragma once

#include <dirent.h>
#include <malloc.h>

#include <cstddef>
#include <cstdint>

#include "app/cli/process_memory.h"

// Built with AddressSanitizer (GCC defines the first, clang has the feature).
#if defined(__SANITIZE_ADDRESS__)
#define STEPLINE_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define STEPLINE_TEST_ASAN 1
#endif
#endif
#ifndef STEPLINE_TEST_ASAN
#define STEPLINE_TEST_ASAN 0
#endif

namespace stepline::app {

// AddressSanitizer keeps freed memory in quarantine (256 MB by default): the
// resident set then measures the quarantine, not the session. Descriptors and
// threads still count.
inline constexpr bool kResidentSetIsMeaningful = STEPLINE_TEST_ASAN == 0;

struct ProcessLevel {
  uint64_t rss = 0;
  size_t fds = 0, threads = 0;
};

inline size_t CountProcessEntries(const char* dir) {
  size_t n = 0;
  if (DIR* d = ::opendir(dir)) {
    while (const dirent* e = ::readdir(d)) n += e->d_name[0] != '.';
    ::closedir(d);
  }
  return n;
}

inline ProcessLevel MeasureProcessLevel() {
#if defined(__GLIBC__)
  malloc_trim(0);  // what the allocator keeps free is not held by the session
#endif
  ProcessLevel l;
  if (auto r = ReadResidentMemory()) l.rss = r->total_bytes;
  l.fds = CountProcessEntries("/proc/self/fd") - 1;  // less the one opendir holds
  l.threads = CountProcessEntries("/proc/self/task");
  return l;
}

}  // namespace stepline::app
