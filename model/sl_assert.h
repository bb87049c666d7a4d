// SL_ASSERT: programmer errors (broken invariants), never bad input. Like
// IM_ASSERT it is active in every build type, because a silently wrong trace
// is worse than a crash with a message.
#pragma once

#include <cstdio>
#include <cstdlib>

#define SL_ASSERT(cond)                                                                  \
  do {                                                                                   \
    if (!(cond)) {                                                                       \
      std::fprintf(stderr, "%s:%d: assertion failed: %s\n", __FILE__, __LINE__, #cond); \
      std::abort();                                                                      \
    }                                                                                    \
  } while (0)
