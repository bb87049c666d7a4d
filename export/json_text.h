// Writing JSON text: string escaping and number formatting shared by every
// JSON producer (the Chrome-trace writer, `stepline info --json`, reports).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "model/text_format.h"

namespace stepline::exports {

// JSON string escaping lives in the text module (model/text_format.h).
using text::AppendJsonString;
// Appends an integer in decimal.
void AppendJsonInt(std::string* out, int64_t v);
// Appends a double with enough digits to round-trip; NaN/Inf become null.
void AppendJsonDouble(std::string* out, double v);
// Appends ns as microseconds with exactly three decimals ("12.345"), the
// Chrome-trace unit, without going through floating point.
void AppendJsonMicrosFromNs(std::string* out, int64_t ns);

}  // namespace stepline::exports
