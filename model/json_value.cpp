// The reader and writer of json_value.h.
#include "model/json_value.h"

#include "model/text_format.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace stepline {

const JsonValue* JsonValue::Find(std::string_view key) const {
  for (const auto& [k, v] : members) {
    if (k == key) return &v;
  }
  return nullptr;
}

std::vector<std::string> JsonValue::Keys() const {
  std::vector<std::string> keys;
  for (const auto& member : members) keys.push_back(member.first);
  return keys;
}

namespace {

class Parser {
 public:
  explicit Parser(std::string_view s) : s_(s) {}

  // The whole input must be one value, optionally surrounded by whitespace.
  std::optional<JsonValue> ParseDocument() {
    JsonValue v;
    if (!ParseValue(&v, 0)) return std::nullopt;
    SkipSpace();
    if (pos_ != s_.size()) return std::nullopt;
    return v;
  }
  // Where parsing stopped: the byte a failed document went wrong at.
  size_t offset() const { return pos_; }

 private:
  void SkipSpace() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\r' || s_[pos_] == '\t')) ++pos_;
  }
  bool Consume(char c) {
    SkipSpace();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool Literal(std::string_view word) {
    if (s_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }
  bool ParseString(std::string* out) {
    if (!Consume('"')) return false;
    while (pos_ < s_.size()) {
      const char c = s_[pos_++];
      if (c == '"') return true;
      if (static_cast<unsigned char>(c) < 0x20) return false;
      if (c != '\\') {
        out->push_back(c);
        continue;
      }
      if (pos_ >= s_.size()) return false;
      const char e = s_[pos_++];
      switch (e) {
        case '"':
        case '\\':
        case '/': out->push_back(e); break;
        case 'n': out->push_back('\n'); break;
        case 't': out->push_back('\t'); break;
        case 'r': out->push_back('\r'); break;
        case 'b': out->push_back('\b'); break;
        case 'f': out->push_back('\f'); break;
        case 'u': {
          uint32_t cp = 0;
          if (!Hex4(&cp)) return false;
          if (cp >= 0xD800 && cp < 0xDC00 && s_.substr(pos_, 2) == "\\u") {
            pos_ += 2;
            uint32_t low = 0;
            if (!Hex4(&low)) return false;
            cp = low >= 0xDC00 && low < 0xE000 ? 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00) : 0xFFFD;
          } else if (cp >= 0xD800 && cp < 0xE000) {
            cp = 0xFFFD;
          }
          AppendUtf8(cp, out);
          break;
        }
        default: return false;
      }
    }
    return false;
  }
  bool Hex4(uint32_t* cp) {
    if (pos_ + 4 > s_.size()) return false;
    for (int i = 0; i < 4; ++i) {
      const char h = s_[pos_++];
      const int d = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
      if (d < 0) return false;
      *cp = *cp * 16 + static_cast<uint32_t>(d);
    }
    return true;
  }
  static void AppendUtf8(uint32_t cp, std::string* out) {
    if (cp < 0x80) {
      out->push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }
  bool ParseNumber(JsonValue* v) {
    const size_t start = pos_;
    if (pos_ < s_.size() && s_[pos_] == '-') ++pos_;
    const size_t digits = pos_;
    while (pos_ < s_.size() && std::string_view("0123456789.eE+-").find(s_[pos_]) != std::string_view::npos) ++pos_;
    if (pos_ == digits) return false;
    v->type = JsonValue::Type::kNumber;
    v->text = std::string(s_.substr(start, pos_ - start));
    return v->AsDouble().has_value();
  }
  bool ParseValue(JsonValue* v, int depth) {
    SkipSpace();
    if (pos_ >= s_.size() || depth > 64) return false;
    const char c = s_[pos_];
    if (c == '{') return ParseObject(v, depth);
    if (c == '[') return ParseArray(v, depth);
    if (c == '"') {
      v->type = JsonValue::Type::kString;
      return ParseString(&v->text);
    }
    if (Literal("null")) return true;
    if (Literal("true") || Literal("false")) {
      v->type = JsonValue::Type::kBool;
      v->boolean = s_[pos_ - 1] == 'e' && s_[pos_ - 2] == 'u';
      return true;
    }
    return ParseNumber(v);
  }
  bool ParseObject(JsonValue* v, int depth) {
    v->type = JsonValue::Type::kObject;
    ++pos_;
    if (Consume('}')) return true;
    do {
      std::string key;
      JsonValue member;
      SkipSpace();
      if (!ParseString(&key) || !Consume(':') || !ParseValue(&member, depth + 1)) return false;
      v->members.push_back({std::move(key), std::move(member)});
    } while (Consume(','));
    return Consume('}');
  }
  bool ParseArray(JsonValue* v, int depth) {
    v->type = JsonValue::Type::kArray;
    ++pos_;
    if (Consume(']')) return true;
    do {
      JsonValue item;
      if (!ParseValue(&item, depth + 1)) return false;
      v->items.push_back(std::move(item));
    } while (Consume(','));
    return Consume(']');
  }

  std::string_view s_;
  size_t pos_ = 0;
};

}  // namespace

// nullopt unless `text` is exactly one JSON value (plus whitespace).
std::optional<JsonValue> ParseJson(std::string_view text) {
  return Parser(text).ParseDocument();
}

std::optional<JsonValue> ParseJson(std::string_view text, size_t* error_offset) {
  Parser parser(text);
  std::optional<JsonValue> v = parser.ParseDocument();
  if (!v && error_offset != nullptr) *error_offset = std::min(parser.offset(), text.size());
  return v;
}

void AppendJson(const JsonValue& v, std::string* out) {
  switch (v.type) {
    case JsonValue::Type::kNull: out->append("null"); break;
    case JsonValue::Type::kBool: out->append(v.boolean ? "true" : "false"); break;
    case JsonValue::Type::kNumber: out->append(v.text); break;
    case JsonValue::Type::kString: text::AppendJsonString(out, v.text); break;
    case JsonValue::Type::kArray:
      out->push_back('[');
      for (size_t i = 0; i < v.items.size(); ++i) {
        if (i) out->push_back(',');
        AppendJson(v.items[i], out);
      }
      out->push_back(']');
      break;
    case JsonValue::Type::kObject:
      out->push_back('{');
      for (size_t i = 0; i < v.members.size(); ++i) {
        if (i) out->push_back(',');
        text::AppendJsonString(out, v.members[i].first);
        out->push_back(':');
        AppendJson(v.members[i].second, out);
      }
      out->push_back('}');
      break;
  }
}

std::string ToJson(const JsonValue& v) {
  std::string out;
  AppendJson(v, &out);
  return out;
}

}  // namespace stepline
