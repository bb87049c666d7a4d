// FindJsonSyntaxError (see json_validate.h): the exact scanner's grammar
// (json_scanner.cpp) for one value, without its trace-shape bookkeeping.
#include "loaders/chrome_json/json_validate.h"

#include <vector>

#include "loaders/chrome_json/json_lexical.h"

namespace stepline::loaders {
namespace {

bool IsHex(char h) { return (h >= '0' && h <= '9') || (h >= 'a' && h <= 'f') || (h >= 'A' && h <= 'F'); }

// Past the string opening at text[i] (a quote), or npos with *error set
// and *what naming what was expected there.
size_t SkipString(std::string_view text, size_t i, size_t* error, const char** what) {
  *what = "a valid escape in a string";
  for (++i; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') return i + 1;
    if (c != '\\') continue;
    if (i + 1 >= text.size()) break;
    const char e = text[i + 1];
    if (e == 'u') {
      for (size_t k = 2; k < 6; ++k) {
        if (i + k >= text.size() || !IsHex(text[i + k])) {
          *error = i;
          return std::string_view::npos;
        }
      }
      i += 5;
    } else if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r' || e == 't') {
      ++i;
    } else {
      *error = i;
      return std::string_view::npos;
    }
  }
  *error = text.size();
  *what = "the string's closing quote";
  return std::string_view::npos;
}

using Expect = JsonExpect;

const char* Describe(Expect e, char open) {
  switch (e) {
    case Expect::kValue: return "a value";
    case Expect::kValueOrClose: return "a value or ']'";
    case Expect::kKeyOrClose: return "a string key or '}'";
    case Expect::kKey: return "a string key";
    case Expect::kColon: return "':' after an object key";
    case Expect::kCommaOrClose:
      return open == '{' ? "',' or '}' after an object member" : "',' or ']' after an array element";
    case Expect::kEnd: return "the end of the value";
  }
  return "";
}

}  // namespace

size_t FindJsonSyntaxError(std::string_view text, std::string* expected) {
  std::vector<char> stack;
  Expect expect = Expect::kValue;
  const auto fail = [&](size_t at, const char* what = nullptr) {
    *expected =
        std::string("expected ") + (what != nullptr ? what : Describe(expect, stack.empty() ? '[' : stack.back()));
    return at;
  };
  size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (IsJsonSpace(c)) {
      ++i;
      continue;
    }
    switch (expect) {
      case Expect::kEnd: return fail(i);
      case Expect::kColon:
        if (c != ':') return fail(i);
        expect = Expect::kValue;
        ++i;
        continue;
      case Expect::kKey:
      case Expect::kKeyOrClose:
        if (c == '}' && expect == Expect::kKeyOrClose) break;  // closed below
        if (c != '"') return fail(i);
        {
          size_t error = 0;
          const char* what = nullptr;
          const size_t next = SkipString(text, i, &error, &what);
          if (next == std::string_view::npos) return fail(error, what);
          i = next;
        }
        expect = Expect::kColon;
        continue;
      case Expect::kCommaOrClose:
        if (c == ',') {
          expect = stack.back() == '{' ? Expect::kKey : Expect::kValue;
          ++i;
          continue;
        }
        if (c != '}' && c != ']') return fail(i);
        break;  // closed below
      case Expect::kValue:
      case Expect::kValueOrClose:
        if (c == ']' && expect == Expect::kValueOrClose) break;  // closed below
        if (c == '{' || c == '[') {
          stack.push_back(static_cast<char>(c));
          expect = c == '{' ? Expect::kKeyOrClose : Expect::kValueOrClose;
          ++i;
          continue;
        }
        if (c == '"') {
          size_t error = 0;
          const char* what = nullptr;
          const size_t next = SkipString(text, i, &error, &what);
          if (next == std::string_view::npos) return fail(error, what);
          i = next;
        } else {
          if (IsJsonStructural(c)) return fail(i);
          while (i < text.size() && !IsJsonSpace(static_cast<unsigned char>(text[i])) &&
                 !IsJsonStructural(static_cast<unsigned char>(text[i]))) {
            ++i;
          }
        }
        expect = stack.empty() ? Expect::kEnd : Expect::kCommaOrClose;
        continue;
    }
    // A closing bracket where one may stand: it must match its opener.
    if ((c == '}') != (stack.back() == '{')) return fail(i);
    stack.pop_back();
    expect = stack.empty() ? Expect::kEnd : Expect::kCommaOrClose;
    ++i;
  }
  if (expect != Expect::kEnd) return fail(text.size());
  return std::string_view::npos;
}

// Copies JSON text without the whitespace outside strings.
size_t CompactJson(std::string_view raw, char* out) {
  size_t n = 0;
  bool in_string = false;
  for (size_t i = 0; i < raw.size(); ++i) {
    const char c = raw[i];
    if (in_string) {
      out[n++] = c;
      if (c == '\\' && i + 1 < raw.size()) {
        out[n++] = raw[++i];
      } else if (c == '"') {
        in_string = false;
      }
    } else if (!IsJsonSpace(c)) {
      out[n++] = c;
      in_string = c == '"';
    }
  }
  return n;
}

size_t Utf8SequenceLength(const unsigned char* p, const unsigned char* end) {
  const unsigned char c = p[0];
  if (c < 0x80) return 1;
  size_t len;
  uint32_t min;
  uint32_t cp;
  if ((c & 0xE0) == 0xC0) {
    len = 2, min = 0x80, cp = c & 0x1F;
  } else if ((c & 0xF0) == 0xE0) {
    len = 3, min = 0x800, cp = c & 0x0F;
  } else if ((c & 0xF8) == 0xF0) {
    len = 4, min = 0x10000, cp = c & 0x07;
  } else {
    return 0;
  }
  if (static_cast<size_t>(end - p) < len) return 0;
  for (size_t k = 1; k < len; ++k) {
    if ((p[k] & 0xC0) != 0x80) return 0;
    cp = cp << 6 | (p[k] & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

}  // namespace stepline::loaders
