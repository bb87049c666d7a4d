// The fast scanner's number reader (fast_event_scanner.cpp): a JSON number
// read once, with its value when that is cheap (integers, and times like
// "475396.870"), 8 digits at a time. Everything here is inline: it runs for
// every ts, dur, pid and tid of a trace, inside the scanner's loop.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

#include "loaders/chrome_json/json_lexical.h"
#include "loaders/chrome_json/json_number.h"

namespace stepline::loaders::fast_number {

// 10^k for the k digits (0 to 8) one load reads.
inline constexpr uint64_t kPow10[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};

// What may follow a scalar: the end, whitespace, a separator or a closer.
constexpr bool EndsScalar(char c) { return IsJsonSpace(c) || c == ',' || c == '}' || c == ']'; }

// One JSON number, read once: its text, and its value while that is cheap
// (the shapes traces write: integers, and times like "475396.870").
struct Number {
  std::string_view text;
  bool integral = true;  // no fraction and no exponent
  bool negative = false;
  bool exponent = false;
  int int_digits = 0;
  uint64_t int_part = 0;  // the integer digits' value when int_digits <= 19
  uint32_t frac3 = 0;     // the first three fraction digits, zero-padded
  bool round_up = false;  // the fourth fraction digit is >= 5
};

// How many of the 8 bytes at p are ASCII digits before the first other
// byte (8: all). A byte is a digit when its high nibble is 3 both as it is
// and plus 6; a carry out of a byte >= 0xFA only reaches bytes after the
// first non-digit, which do not count.
inline int LeadingDigits8(const char* p) {
  uint64_t w;
  std::memcpy(&w, p, 8);
  constexpr uint64_t kHigh = 0xF0F0F0F0F0F0F0F0ull, kThrees = 0x3030303030303030ull;
  const uint64_t other = ((w & kHigh) ^ kThrees) | (((w + 0x0606060606060606ull) & kHigh) ^ kThrees);
  return other == 0 ? 8 : __builtin_ctzll(other) >> 3;
}

// The value of the k digits (1 to 8) at p, 8 bytes readable: the digits
// shifted to the top as if led by zeros, then combined pairwise (fast_float's
// eight-digit step). A borrow from a byte past the digits is shifted out.
inline uint64_t DigitsValue8(const char* p, int k) {
  uint64_t w;
  std::memcpy(&w, p, 8);
  w = (w - 0x3030303030303030ull) << (8 * (8 - k));
  w = w * 10 + (w >> 8);
  return ((w & 0x000000FF000000FFull) * 0x000F424000000064ull +
          ((w >> 16) & 0x000000FF000000FFull) * 0x0000271000000001ull) >>
         32;
}

// The end of the run of digits at p (p itself when none); with 8 bytes
// readable, 8 at a time: a byte loop's exit, at a different digit for each
// number, was the branch the predictor missed most in this function (perf
// annotate). `value`, when given, gets the digits' value (wrapping past 19
// digits, as the byte loop did).
inline const char* DigitRun(const char* p, const char* end, uint64_t* value) {
  uint64_t v = 0;
  while (end - p >= 8) {
    const int k = LeadingDigits8(p);
    if (k > 0 && value != nullptr) v = v * kPow10[k] + DigitsValue8(p, k);
    p += k;
    if (k < 8) {
      if (value != nullptr) *value = v;
      return p;
    }
  }
  for (; p < end && IsDigit(*p); ++p) v = v * 10 + static_cast<uint64_t>(*p - '0');
  if (value != nullptr) *value = v;
  return p;
}

// The shapes nearly every number of a trace has: an integer of up to 16
// digits (pid, tid, ids, byte counts) and a time of up to 16 integer digits
// and exactly 3 decimals ("475396.870", "1695835535123456.789": Kineto's
// microseconds since the epoch), read 8 digits a load. Inline into the
// scanner's time, pid/tid, id and arg-number readers, which take the value
// without a Number, and first in ReadNumber (perf: ReadNumber was a fifth of
// the tokenizer's time). nullptr when p holds anything else (ReadNumber's
// general path answers then).
struct ShortNumber {
  uint64_t int_part = 0;
  uint32_t frac3 = 0;
  int int_digits = 0;
  bool fraction = false;
};
[[gnu::always_inline]] inline const char* ReadShortNumber(const char* p, const char* end, ShortNumber* n) {
  if (end - p < 32) return nullptr;  // 16 digits, the point, 3 decimals and the next load's 8 bytes
  int k = LeadingDigits8(p);
  uint64_t value = 0;
  if (k < 8) {
    if (k == 0) return nullptr;
    value = DigitsValue8(p, k);
  } else {
    const int more = LeadingDigits8(p + 8);
    if (more == 8 && LeadingDigits8(p + 16) != 0) return nullptr;  // 17 digits or more
    value = DigitsValue8(p, 8);
    if (more > 0) value = value * kPow10[more] + DigitsValue8(p + 8, more);
    k = 8 + more;
  }
  if (p[0] == '0' && k != 1) return nullptr;  // a leading zero: not JSON, the walk judges
  const char after = p[k];
  if (EndsScalar(after)) {
    n->int_part = value;
    n->int_digits = k;
    return p + k;
  }
  if (after != '.' || LeadingDigits8(p + k + 1) != 3 || !EndsScalar(p[k + 4])) return nullptr;
  n->int_part = value;
  n->int_digits = k;
  n->frac3 = static_cast<uint32_t>(DigitsValue8(p + k + 1, 3));
  n->fraction = true;
  return p + k + 4;
}

// Reads the JSON number at p (RFC 8259 grammar); nullptr when the bytes are
// not exactly one number.
// Internal linkage, as it had in the scanner's file: GCC then specialises it for
// its callers there (a .constprop clone: 2.5 M fewer instructions for the
// 42 MB demo, callgrind).
static inline const char* ReadNumber(const char* p, const char* end, Number* n) {
  const char* start = p;
  if (ShortNumber sn; const char* e = ReadShortNumber(p, end, &sn)) {
    n->int_part = sn.int_part;
    n->int_digits = sn.int_digits;
    n->frac3 = sn.frac3;
    n->integral = !sn.fraction;
    n->text = std::string_view(p, static_cast<size_t>(e - p));
    return e;
  }
  if (p < end && *p == '-') {
    n->negative = true;
    ++p;
  }
  if (p == end) return nullptr;
  const char* int_begin = p;
  if (*p == '0') {
    ++p;
  } else if (*p >= '1' && *p <= '9') {
    p = DigitRun(p, end, &n->int_part);
  } else {
    return nullptr;
  }
  if (p - int_begin > 40) return nullptr;  // more digits than any int64 or exact time: simdjson's
  n->int_digits = static_cast<int>(p - int_begin);
  if (p < end && *p == '.') {
    const char* frac_begin = ++p;
    p = DigitRun(p, end, nullptr);
    const long frac_digits = p - frac_begin;
    if (frac_digits == 0) return nullptr;
    // Traces write microseconds with three decimals: one expression, not a
    // loop with a test per digit.
    const auto digit = [&](long k) { return k < frac_digits ? static_cast<uint32_t>(frac_begin[k] - '0') : 0u; };
    n->frac3 = frac_digits >= 3
                   ? static_cast<uint32_t>(frac_begin[0] - '0') * 100 +
                         static_cast<uint32_t>(frac_begin[1] - '0') * 10 + static_cast<uint32_t>(frac_begin[2] - '0')
                   : digit(0) * 100 + digit(1) * 10;
    n->round_up = frac_digits > 3 && frac_begin[3] >= '5';
    n->integral = false;
  }
  if (p < end && (*p == 'e' || *p == 'E')) {
    ++p;
    if (p < end && (*p == '+' || *p == '-')) ++p;
    if (p == end || !IsDigit(*p)) return nullptr;
    while (p < end && IsDigit(*p)) ++p;
    n->integral = false;
    n->exponent = true;
  }
  if (p < end && !EndsScalar(*p)) return nullptr;
  n->text = std::string_view(start, static_cast<size_t>(p - start));
  return p;
}

// ParseMicrosToNs's answer, from the digits already read when the number has
// no exponent and few integer digits (no overflow); the parse otherwise.
inline NumberStatus MicrosToNs(const Number& n, int64_t* ns) {
  if (n.exponent || n.int_digits > 15) return ParseMicrosToNs(n.text, ns);
  const auto magnitude = static_cast<int64_t>(n.int_part * 1000 + n.frac3 + (n.round_up ? 1 : 0));
  *ns = n.negative ? -magnitude : magnitude;
  return NumberStatus::kOk;
}

}  // namespace stepline::loaders::fast_number
