// The column padding and name clipping of the report and diff tables; the
// units (counts, durations, bytes) are the text module's, named here so the
// subcommands call them unqualified.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>

#include "model/text_format.h"

namespace stepline::app {

// The units come from the one text module (model/text_format.h).
using text::FormatBytes;
using text::FormatCount;
using text::FormatDuration;
using text::FormatFixed;

// `s` padded with spaces to `width` characters (never cut), on the left when `right_align`.
std::string PadCell(std::string s, size_t width, bool right_align);
// `name` cut to kMaxNameChars with a "..." ending, so one long kernel name
// cannot stretch a whole text table.
inline constexpr size_t kMaxNameChars = 96;
std::string ClipName(std::string_view name);

// "label            value\n": the value column of `info` and `report` text
// starts at kLabelWidth (one space after a longer label).
inline constexpr size_t kLabelWidth = 17;
void LabelledLine(std::ostream& out, std::string_view label, const std::string& value);

}  // namespace stepline::app
