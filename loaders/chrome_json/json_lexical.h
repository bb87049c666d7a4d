// The JSON byte classes every hand-written reader of the Chrome JSON loader
// shares (chunker, scanner, validator, number reader, chunk repair): one
// definition, so they all agree on what separates tokens.
#pragma once

namespace stepline::loaders {

// JSON's four whitespace bytes (RFC 8259); nothing else is skipped.
constexpr bool IsJsonSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The bytes that end a scalar: brackets, separators and the quote.
constexpr bool IsJsonStructural(char c) {
  return c == '{' || c == '}' || c == '[' || c == ']' || c == ':' || c == ',' || c == '"';
}

}  // namespace stepline::loaders
