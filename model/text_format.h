// The one text module: durations, counts and bytes for people, CSV quoting
// and JSON string escaping. The CLI, the window and the exporters all use it,
// so a figure reads the same everywhere. Standard library only (it sits in
// model/ so every layer can see it). Decimal units (1 MB = 10^6 bytes).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace stepline::text {

std::string FormatCount(uint64_t n);              // 1234567 -> "1,234,567"
std::string FormatFixed(double v, int decimals);  // printf %.Nf
// Four significant digits, the unit by magnitude: "950 ns", "1.500 µs",
// "12.35 ms", "2.000 s" (negative values keep their sign).
std::string FormatDuration(int64_t ns);
std::string FormatBytes(uint64_t bytes);  // "512 B", "1.4 KB", "18.8 MB", "1.07 GB"

// Appends `field` as one CSV field (RFC 4180): quoted when it holds a comma,
// a quote or a line break, quotes doubled.
void AppendCsvField(std::string_view field, std::string* out);
// Appends `s` as a quoted JSON string. Control characters are escaped;
// invalid UTF-8 bytes become U+FFFD so the output is always valid JSON.
void AppendJsonString(std::string* out, std::string_view s);
// `s` with each invalid UTF-8 byte replaced by U+FFFD, as AppendJsonString
// writes it: text read from a file comes back the same after a save.
std::string ValidUtf8(std::string_view s);

}  // namespace stepline::text
