// ASCII case folding for names (profiler event names, arg keys, flags).
// Trace text is UTF-8 and compared byte-wise; only A-Z fold, as in the "C"
// locale's tolower, without a libc call per character (that call was most of
// the XSpace load time on long kernel names).
#pragma once

#include <algorithm>
#include <string>
#include <string_view>

namespace stepline {

constexpr char AsciiLower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

inline std::string AsciiLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = AsciiLower(c);
  return out;
}

inline bool ContainsIgnoringCase(std::string_view hay, std::string_view needle) {
  return std::search(hay.begin(), hay.end(), needle.begin(), needle.end(),
                     [](char a, char b) { return AsciiLower(a) == AsciiLower(b); }) != hay.end();
}

inline bool StartsWithIgnoringCase(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() &&
         std::equal(prefix.begin(), prefix.end(), s.begin(), [](char a, char b) { return AsciiLower(a) == AsciiLower(b); });
}

}  // namespace stepline
