// Human units for text output; see text_format.h.
#include "app/text_format.h"

#include <cstdio>

namespace stepline::app {

std::string FormatFixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string FormatCount(uint64_t n) {
  std::string digits = std::to_string(n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return out;
}

std::string FormatDuration(int64_t ns) {
  const double v = static_cast<double>(ns);
  const double mag = v < 0 ? -v : v;
  if (mag < 1e3) return std::to_string(ns) + " ns";
  if (mag < 1e6) return FormatFixed(v / 1e3, 1) + " us";
  if (mag < 1e9) return FormatFixed(v / 1e6, 1) + " ms";
  return FormatFixed(v / 1e9, 3) + " s";
}

std::string FormatBytes(uint64_t bytes) {
  const double v = static_cast<double>(bytes);
  if (bytes < 1000) return std::to_string(bytes) + " B";
  if (v < 1e6) return FormatFixed(v / 1e3, 1) + " KB";
  if (v < 1e9) return FormatFixed(v / 1e6, 1) + " MB";
  return FormatFixed(v / 1e9, 2) + " GB";
}

std::string PadCell(std::string s, size_t width, bool right_align) {
  if (s.size() >= width) return s;
  const std::string fill(width - s.size(), ' ');
  return right_align ? fill + s : s + fill;
}

std::string ClipName(std::string_view name) {
  if (name.size() <= kMaxNameChars) return std::string(name);
  return std::string(name.substr(0, kMaxNameChars - 3)) + "...";
}

}  // namespace stepline::app
