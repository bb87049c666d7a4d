// JsonWriter: builds the single JSON object that a subcommand's --json mode
// prints. Commas and nesting are tracked here, string escaping is
// export/json_text's, so callers only name keys and values in order.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace stepline::app {

class JsonWriter {
 public:
  JsonWriter& Key(std::string_view key);  // inside an object: the next value's key
  JsonWriter& BeginObject();
  JsonWriter& EndObject();
  JsonWriter& BeginArray();
  JsonWriter& EndArray();

  JsonWriter& String(std::string_view v);
  JsonWriter& Uint(uint64_t v);
  JsonWriter& Int(int64_t v);
  JsonWriter& Fixed(double v, int decimals);  // e.g. 12.345; non-finite becomes null
  JsonWriter& Null();
  JsonWriter& Bool(bool v);
  // A value already written as JSON (a number's text, another writer's
  // object); the caller vouches for its syntax.
  JsonWriter& Raw(std::string_view json);

  // Key + value in one call, for the common flat fields.
  JsonWriter& Field(std::string_view key, uint64_t v) { return Key(key).Uint(v); }
  JsonWriter& Field(std::string_view key, std::string_view v) { return Key(key).String(v); }
  JsonWriter& FieldFixed(std::string_view key, double v, int decimals) { return Key(key).Fixed(v, decimals); }

  // The text so far; complete once every Begin has its End.
  const std::string& text() const { return out_; }
  bool complete() const { return depth_.empty() && !out_.empty(); }

 private:
  void BeforeValue();

  std::string out_;
  std::vector<bool> has_items_;  // per open container: needs a comma before the next item
  std::vector<char> depth_;      // '{' or '[' per open container
  bool after_key_ = false;
};

}  // namespace stepline::app
