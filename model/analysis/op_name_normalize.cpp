// NormalizeOpName; the rules and their order are in op_name_normalize.h.
#include "model/analysis/op_name_normalize.h"

#include <cstddef>

namespace stepline::analysis {
namespace {

bool IsIdentChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsHexDigit(char c) { return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

bool EndsWithOperator(std::string_view text) {
  constexpr std::string_view kOperator = "operator";
  if (!text.ends_with(kOperator)) return false;
  return text.size() == kOperator.size() || !IsIdentChar(text[text.size() - kOperator.size() - 1]);
}

// The index just past the group opened at `open`, or npos when unbalanced.
// In template groups `->` is an arrow, not a closing bracket.
size_t GroupEnd(std::string_view s, size_t open, char open_char, char close_char) {
  int depth = 0;
  for (size_t i = open; i < s.size(); ++i) {
    if (s[i] == open_char) {
      ++depth;
    } else if (s[i] == close_char && !(close_char == '>' && i > 0 && s[i - 1] == '-')) {
      if (--depth == 0) return i + 1;
    }
  }
  return std::string_view::npos;
}

// Rules 1 and 2: drops each `open_char` group that follows an identifier.
std::string RemoveGroups(std::string_view s, char open_char, char close_char) {
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    const bool opens =
        c == open_char && !out.empty() && IsIdentChar(out.back()) && !(open_char == '<' && EndsWithOperator(out));
    if (opens) {
      const size_t end = GroupEnd(s, i, open_char, close_char);
      if (end == std::string_view::npos) {  // unbalanced: keep the rest verbatim
        out.append(s.substr(i));
        break;
      }
      i = end;
      continue;
    }
    out.push_back(c);
    ++i;
  }
  return out;
}

// Rule 3.
std::string MaskHexAddresses(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    const bool at_hex = s[i] == '0' && i + 2 < s.size() && (s[i + 1] == 'x' || s[i + 1] == 'X') &&
                        IsHexDigit(s[i + 2]) && (i == 0 || !IsIdentChar(s[i - 1]));
    if (at_hex) {
      size_t end = i + 2;
      while (end < s.size() && IsHexDigit(s[end])) ++end;
      out.append("0x?");
      i = end;
      continue;
    }
    out.push_back(s[i]);
    ++i;
  }
  return out;
}

bool IsSuffixSeparator(char c) { return c == '_' || c == '#' || c == '.' || c == '-' || c == ':' || c == ' '; }

// Rule 5.
std::string CollapseSpaces(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c == ' ' && (out.empty() || out.back() == ' ')) continue;
    out.push_back(c);
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// Rule 4, then 5 again: removing a suffix can expose spaces and another suffix.
std::string StripNumericSuffixes(std::string s) {
  for (;;) {
    size_t digits = s.size();
    while (digits > 0 && IsDigit(s[digits - 1])) --digits;
    if (digits == s.size() || digits < 2 || !IsSuffixSeparator(s[digits - 1])) return s;
    s.resize(digits - 1);
    s = CollapseSpaces(s);
  }
}

}  // namespace

std::string NormalizeOpName(std::string_view name) {
  std::string s(name);
  // A step that empties the name is skipped: `<lambda>` stays a name.
  auto apply = [&s](std::string next) {
    if (!CollapseSpaces(next).empty()) s = std::move(next);
  };
  // Until nothing changes, so the result is idempotent: a later rule can make
  // an earlier one apply (`f(x)<T>` only reads as a template once `(x)` is
  // gone). Each pass shortens the name or changes nothing but addresses,
  // which are masked once, so this ends.
  for (std::string before; before != s;) {
    before = s;
    apply(RemoveGroups(s, '<', '>'));
    apply(RemoveGroups(s, '(', ')'));
    apply(MaskHexAddresses(s));
    apply(CollapseSpaces(s));
    apply(StripNumericSuffixes(s));
  }
  return s;
}

}  // namespace stepline::analysis
