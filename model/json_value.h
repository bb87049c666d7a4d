// JsonValue: a small JSON tree reader and writer for the small documents
// Stepline reads back (saved baselines, notes, MCP requests) and for the
// tests that check the --json outputs. Not for traces: those go through
// simdjson in loaders/. Keeps object keys in order and duplicates visible;
// numbers keep their text so 64-bit integers convert exactly.
#pragma once

#include <charconv>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace stepline {

struct JsonMember;  // a key and its value, defined below

struct JsonValue {
  enum class Type { kNull, kBool, kNumber, kString, kArray, kObject };
  Type type = Type::kNull;
  bool boolean = false;
  std::string text;                                        // kNumber: the literal; kString: the unescaped value
  std::vector<JsonValue> items;                            // kArray
  std::vector<JsonMember> members;                         // kObject, in order

  bool is_null() const { return type == Type::kNull; }
  // Member by key, or nullptr (also for non-objects).
  const JsonValue* Find(std::string_view key) const;
  std::vector<std::string> Keys() const;
  std::optional<uint64_t> AsUint() const {
    uint64_t v = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (type != Type::kNumber || ec != std::errc() || ptr != text.data() + text.size()) return std::nullopt;
    return v;
  }
  std::optional<int64_t> AsInt() const {
    int64_t v = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (type != Type::kNumber || ec != std::errc() || ptr != text.data() + text.size()) return std::nullopt;
    return v;
  }
  std::optional<double> AsDouble() const {
    double v = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (type != Type::kNumber || ec != std::errc() || ptr != text.data() + text.size()) return std::nullopt;
    return v;
  }
};

// Not std::pair<std::string, JsonValue>: with libstdc++, clang instantiates
// the pair's constructor constraints while JsonValue is incomplete and fails.
struct JsonMember {
  std::string first;
  JsonValue second;
};

// nullopt unless `text` is exactly one JSON value (plus whitespace). \u
// escapes become UTF-8 (a lone surrogate becomes U+FFFD).
std::optional<JsonValue> ParseJson(std::string_view text);
// The same; on failure `*error_offset` is the byte where the text stopped
// being JSON (for a message that names it).
std::optional<JsonValue> ParseJson(std::string_view text, size_t* error_offset);

// Writes `v` back as compact JSON: numbers as their original text, keys in
// their order. ParseJson(ToJson(v)) == v.
std::string ToJson(const JsonValue& v);
void AppendJson(const JsonValue& v, std::string* out);

}  // namespace stepline
