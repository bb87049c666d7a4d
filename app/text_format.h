// Human units for the subcommands' text output: counts with thousands
// separators, durations and byte sizes with a unit picked by magnitude.
// Decimal units throughout (1 MB = 10^6 bytes), as in README's figures.
// Also the column padding and name clipping of the report and diff tables.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace stepline::app {

std::string FormatCount(uint64_t n);              // 1234567 -> "1,234,567"
std::string FormatDuration(int64_t ns);           // "850 ns", "12.3 us", "4.5 ms", "2.601 s"
std::string FormatBytes(uint64_t bytes);          // "512 B", "1.4 KB", "18.8 MB", "1.07 GB"
std::string FormatFixed(double v, int decimals);  // printf %.Nf

// `s` padded with spaces to `width` characters (never cut), on the left when `right_align`.
std::string PadCell(std::string s, size_t width, bool right_align);
// `name` cut to kMaxNameChars with a "..." ending, so one long kernel name
// cannot stretch a whole text table.
inline constexpr size_t kMaxNameChars = 96;
std::string ClipName(std::string_view name);

}  // namespace stepline::app
