// FindJsonSyntaxError: a strict check of one nested JSON value that the
// loader keeps as text (an arg such as "Input Dims": [[2,3]]). simdjson's
// on-demand parser hands such values over by skipping brackets, without
// validating what lies between them, so a damaged value would be kept and
// later written verbatim into JSON output (report --json, exports).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace stepline::loaders {

// The offset in `text` of the first byte where it stops being one valid
// JSON value (text.size() when it ends early), with what was expected there
// in *expected; std::string_view::npos when it is valid. Scalars are checked
// as the exact scanner checks them (json_scanner.h): any run of bytes that
// is neither whitespace, structural nor a quote.
size_t FindJsonSyntaxError(std::string_view text, std::string* expected);

// Copies JSON text into `out` (room for raw.size() bytes) without the
// whitespace outside strings; returns the bytes written. Kept args are
// stored in this compact form.
size_t CompactJson(std::string_view raw, char* out);

// Length of the valid UTF-8 sequence at p (1..4; no overlong forms,
// surrogates or code points past U+10FFFF), or 0 when invalid: what
// simdjson's validation rejects, byte by byte.
size_t Utf8SequenceLength(const unsigned char* p, const unsigned char* end);

}  // namespace stepline::loaders
