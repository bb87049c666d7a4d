// The multiply-fold step of the project's word hashes (the string pool's,
// the chunk string table's, the column cache's checksums): the 128-bit
// product of a and b, its halves xor-ed. One definition, so the three keep
// the same step.
#pragma once

#include <cstdint>

namespace stepline {

inline uint64_t MultiplyFold(uint64_t a, uint64_t b) {
  const __uint128_t r = static_cast<__uint128_t>(a) * b;
  return static_cast<uint64_t>(r) ^ static_cast<uint64_t>(r >> 64);
}

}  // namespace stepline
