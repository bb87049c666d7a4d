// Exact decimal text -> integer conversions for Chrome JSON: microsecond
// timestamps to int64 nanoseconds straight from the digits (a double loses
// nanoseconds beyond ~2^53, i.e. for any epoch-based `ts`), plus the integer
// and id forms that pid/tid/id fields take.
#pragma once

#include <cstdint>
#include <string_view>

namespace stepline::loaders {

// An ASCII digit, without the locale lookup of std::isdigit.
constexpr bool IsDigit(char c) { return c >= '0' && c <= '9'; }

enum class NumberStatus : uint8_t {
  kOk = 0,
  kNotANumber,  // not JSON number syntax (after trimming whitespace)
  kOutOfRange,  // a number, but the result does not fit int64
};

// Parses JSON number text ("-12", "1695835535123456.789", "1.5e3"; leading
// zeros and surrounding whitespace tolerated, as in numeric strings) and
// returns round(value * 10^scale_pow10) in *out. Rounding is half away from
// zero on the first dropped digit: "0.0005" us -> 1 ns, "-0.0005" -> -1 ns,
// "0.00049" -> 0. The result is exact: no floating point is involved.
NumberStatus ParseScaledDecimal(std::string_view text, int scale_pow10, int64_t* out);

// Microseconds (the unit of "ts"/"dur") to nanoseconds.
inline NumberStatus ParseMicrosToNs(std::string_view text, int64_t* ns) { return ParseScaledDecimal(text, 3, ns); }

// A plain decimal integer ("-17", "4294967296"); no fraction or exponent.
// Values in (INT64_MAX, UINT64_MAX] are returned as their two's complement
// bit pattern, so distinct inputs stay distinct keys.
bool ParseIntegerKey(std::string_view text, int64_t* out);

// An event id: a decimal or "0x" hex integer as uint64 (ids are opaque, so a
// negative decimal keeps its two's complement bits). Returns false when the
// text is neither; callers then hash the text.
bool ParseIdText(std::string_view text, uint64_t* out);

// Text that std::to_string(*out) gives back exactly: "0", or 1 to 20 digits
// without a leading zero, up to UINT64_MAX. No sign, space or other byte.
bool ParseCanonicalDecimal(std::string_view text, uint64_t* out);

}  // namespace stepline::loaders
