// The fast scanner's string scan (fast_event_scanner.cpp): where a JSON
// string's plain ASCII run ends. Inline: it runs for every string of every
// event.
#pragma once

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace stepline::loaders {

// A byte that ends a string's plain ASCII run: the quote, an escape, a raw
// control byte (which JSON forbids in strings) or a non-ASCII byte (whose
// UTF-8 sequence is checked there, as simdjson checks the whole document).
constexpr bool IsStringStop(char c) {
  return c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x80;
}

// The first string stop in [p, end), or end. Names are tens of bytes, so
// 16 at a time (SSE2 is part of x86-64).
inline const char* FindStringStop(const char* p, const char* end) {
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i control_max = _mm_set1_epi8(0x1F);
  while (end - p >= 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i control = _mm_cmpeq_epi8(_mm_min_epu8(v, control_max), v);  // v <= 0x1F, unsigned
    const __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)), control);
    const int mask = _mm_movemask_epi8(hit) | _mm_movemask_epi8(v);  // the sign bits: bytes >= 0x80
    if (mask != 0) return p + __builtin_ctz(static_cast<unsigned>(mask));
    p += 16;
  }
#endif
  while (p < end && !IsStringStop(*p)) ++p;
  return p;
}

}  // namespace stepline::loaders
