// Writing JSON text: string escaping and number formatting shared by every
// JSON producer (the Chrome-trace writer, `stepline info --json`, reports).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace stepline::loaders {

// Appends `s` as a quoted JSON string. Control characters are escaped;
// invalid UTF-8 bytes become U+FFFD so the output is always valid JSON.
void AppendJsonString(std::string* out, std::string_view s);
// Appends a double with enough digits to round-trip; NaN/Inf become null.
void AppendJsonDouble(std::string* out, double v);
// Appends ns as microseconds with exactly three decimals ("12.345"), the
// Chrome-trace unit, without going through floating point.
void AppendJsonMicrosFromNs(std::string* out, int64_t ns);

}  // namespace stepline::loaders
