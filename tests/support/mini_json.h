// A minimal JSON reader for the app tests, which check the --json outputs of
// the subcommands without linking simdjson (only stepline_loaders sees it).
// Keeps object keys in order and duplicates visible; numbers keep their text
// so 64-bit integers compare exactly. The parser is compiled once, optimized
// (mini_json.cpp, tests/CMakeLists.txt): at the tests' -O0 under the
// sanitizers, parsing `report --json` of every shared trace took most of a
// test's time.
#pragma once

#include <charconv>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace stepline::testing {

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

// nullopt unless `text` is exactly one JSON value (plus whitespace).
std::optional<JsonValue> ParseJson(std::string_view text);

}  // namespace stepline::testing
