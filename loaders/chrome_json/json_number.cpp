// Exact decimal conversions; see json_number.h.
#include "loaders/chrome_json/json_number.h"

#include <algorithm>

#include "loaders/chrome_json/json_lexical.h"

namespace stepline::loaders {
namespace {

constexpr int kMaxDigits = 40;            // more significant digits never change an int64 result
constexpr int64_t kExponentCap = 100000;  // |exponents| beyond this saturate (the result is 0 or out of range)

std::string_view Trim(std::string_view s) {
  while (!s.empty() && IsJsonSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsJsonSpace(s.back())) s.remove_suffix(1);
  return s;
}

// The number as sign * 0.digits... scaled: value = digits (as an integer) * 10^exp10.
struct Decimal {
  bool negative = false;
  char digits[kMaxDigits];
  int count = 0;  // significant digits kept (no leading zeros)
  int64_t exp10 = 0;
};

bool Scan(std::string_view s, Decimal* d) {
  size_t i = 0;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) d->negative = s[i++] == '-';
  const size_t int_begin = i;
  auto take = [&](char c, bool fraction) {
    if (d->count == 0 && c == '0') {
      if (fraction) --d->exp10;  // a leading zero after the point still shifts the scale
      return;
    }
    if (d->count < kMaxDigits) {
      d->digits[d->count++] = c;
      if (fraction) --d->exp10;
    } else if (!fraction) {
      ++d->exp10;  // an integer digit we drop still scales the value
    }
  };
  while (i < s.size() && IsDigit(s[i])) take(s[i++], false);
  const bool has_int = i > int_begin;
  bool has_frac = false;
  if (i < s.size() && s[i] == '.') {
    ++i;
    const size_t frac_begin = i;
    while (i < s.size() && IsDigit(s[i])) take(s[i++], true);
    has_frac = i > frac_begin;
    if (!has_frac) return false;
  }
  if (!has_int) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    bool exp_negative = false;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) exp_negative = s[i++] == '-';
    const size_t exp_begin = i;
    int64_t e = 0;
    while (i < s.size() && IsDigit(s[i])) e = std::min<int64_t>(e * 10 + (s[i++] - '0'), kExponentCap);
    if (i == exp_begin) return false;
    d->exp10 += exp_negative ? -e : e;
  }
  return i == s.size();
}

}  // namespace

// The common shapes ("1695835535123456", "1419116105356.596", "-12") with
// scale 0..3, in plain integer arithmetic with overflow checks.
// Returns false to defer to the general path (exponents, long digit runs,
// whitespace, malformed text).
bool ParseSimple(std::string_view text, int scale, int64_t* out) {
  constexpr uint64_t kPow10[] = {1, 10, 100, 1000};
  const char* p = text.data();
  const size_t n = text.size();
  size_t i = 0;
  const bool negative = n > 0 && p[0] == '-';
  if (negative) i = 1;
  const size_t int_begin = i;
  uint64_t int_part = 0;
  while (i < n && IsDigit(p[i]) && i - int_begin < 19) int_part = int_part * 10 + static_cast<uint64_t>(p[i++] - '0');
  const size_t int_digits = i - int_begin;
  if (int_digits == 0 || scale < 0 || scale > 3) return false;
  uint64_t frac = 0;
  int frac_digits = 0;
  bool round_up = false;
  if (i < n && p[i] == '.') {
    const size_t frac_begin = ++i;
    while (i < n && IsDigit(p[i])) {
      if (frac_digits < scale) {
        frac = frac * 10 + static_cast<uint64_t>(p[i] - '0');
        ++frac_digits;
      } else if (i == frac_begin + static_cast<size_t>(scale)) {
        round_up = p[i] >= '5';  // half away from zero on the first dropped digit
      }
      ++i;
    }
    if (i == frac_begin) return false;
  }
  if (i != n) return false;
  uint64_t magnitude;
  if (__builtin_mul_overflow(int_part, kPow10[scale], &magnitude) ||
      __builtin_add_overflow(magnitude, frac * kPow10[scale - frac_digits] + (round_up ? 1 : 0), &magnitude) ||
      magnitude > (uint64_t{1} << 63) - 1) {
    return false;  // the general path decides between the int64 limits and out of range
  }
  *out = negative ? -static_cast<int64_t>(magnitude) : static_cast<int64_t>(magnitude);
  return true;
}

NumberStatus ParseScaledDecimal(std::string_view text, int scale_pow10, int64_t* out) {
  if (ParseSimple(text, scale_pow10, out)) return NumberStatus::kOk;
  Decimal d;
  if (!Scan(Trim(text), &d)) return NumberStatus::kNotANumber;
  *out = 0;
  if (d.count == 0) return NumberStatus::kOk;  // zero, whatever its exponent
  const int64_t exp10 = d.exp10 + scale_pow10;
  // Integer part = the first `keep` digits; the next digit decides rounding.
  const int64_t keep = d.count + exp10;
  if (keep > 19) return NumberStatus::kOutOfRange;
  // keep <= 19 digits, so the magnitude (< 10^19) fits uint64 with room to round.
  uint64_t magnitude = 0;
  for (int64_t k = 0; k < keep; ++k)
    magnitude = magnitude * 10 + static_cast<uint64_t>(k < d.count ? d.digits[k] - '0' : 0);
  if (keep >= 0 && keep < d.count && d.digits[keep] >= '5') ++magnitude;  // half away from zero
  const uint64_t limit = d.negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
  if (magnitude > limit) return NumberStatus::kOutOfRange;
  *out = d.negative ? static_cast<int64_t>(~magnitude + 1) : static_cast<int64_t>(magnitude);
  return NumberStatus::kOk;
}

bool ParseIntegerKey(std::string_view text, int64_t* out) {
  text = Trim(text);
  bool negative = false;
  if (!text.empty() && text.front() == '-') {
    negative = true;
    text.remove_prefix(1);
  }
  if (text.empty() || text.size() > 20) return false;
  uint64_t v = 0;
  for (char c : text) {
    if (!IsDigit(c)) return false;
    if (__builtin_mul_overflow(v, uint64_t{10}, &v) || __builtin_add_overflow(v, static_cast<uint64_t>(c - '0'), &v)) {
      return false;
    }
  }
  if (negative && v > uint64_t{1} << 63) return false;
  *out = static_cast<int64_t>(negative ? ~v + 1 : v);
  return true;
}

bool ParseIdText(std::string_view text, uint64_t* out) {
  text = Trim(text);
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    text.remove_prefix(2);
    if (text.size() > 16) return false;
    uint64_t v = 0;
    for (char c : text) {
      int digit;
      if (IsDigit(c))
        digit = c - '0';
      else if (c >= 'a' && c <= 'f')
        digit = c - 'a' + 10;
      else if (c >= 'A' && c <= 'F')
        digit = c - 'A' + 10;
      else
        return false;
      v = v << 4 | static_cast<uint64_t>(digit);
    }
    *out = v;
    return true;
  }
  int64_t v = 0;
  if (!ParseIntegerKey(text, &v)) return false;
  *out = static_cast<uint64_t>(v);
  return true;
}

bool ParseCanonicalDecimal(std::string_view text, uint64_t* out) {
  if (text.empty() || text.size() > 20 || (text[0] == '0' && text.size() > 1)) return false;
  uint64_t v = 0;
  if (text.size() <= 19) {  // below 10^19: no overflow, no test per digit (every launch's correlation_id)
    for (char c : text) {
      if (!IsDigit(c)) return false;
      v = v * 10 + static_cast<uint64_t>(c - '0');
    }
    *out = v;
    return true;
  }
  for (char c : text) {
    if (!IsDigit(c)) return false;
    const auto digit = static_cast<uint64_t>(c - '0');
    if (v > (UINT64_MAX - digit) / 10) return false;
    v = v * 10 + digit;
  }
  *out = v;
  return true;
}

}  // namespace stepline::loaders
