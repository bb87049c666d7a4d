// The JSON byte classes every hand-written reader of the Chrome JSON loader
// shares (chunker, scanner, validator, number reader, chunk repair): one
// definition, so they all agree on what separates tokens.
#pragma once

#include <cstdint>

namespace stepline::loaders {

// What a JSON grammar walk expects next (the scanner's and the validator's).
enum class JsonExpect : uint8_t {
  kValue,         // any value (after ':' , '[' or ',' in an array)
  kValueOrClose,  // right after '[': a value or ']'
  kKeyOrClose,    // right after '{': a key or '}'
  kKey,           // after ',' in an object
  kColon,         // after a key
  kCommaOrClose,  // after a value inside a container
  kEnd,           // after the top-level value: only whitespace may follow
};

// JSON's four whitespace bytes (RFC 8259); nothing else is skipped.
constexpr bool IsJsonSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The bytes that end a scalar: brackets, separators and the quote.
constexpr bool IsJsonStructural(char c) {
  return c == '{' || c == '}' || c == '[' || c == ']' || c == ':' || c == ',' || c == '"';
}

}  // namespace stepline::loaders
