// JSON text building for --json outputs; see json_writer.h.
#include "app/output/json_writer.h"

#include <cmath>
#include <cstdio>

#include "export/json_text.h"
#include "model/sl_assert.h"

namespace stepline::app {

void JsonWriter::BeforeValue() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  SL_ASSERT((depth_.empty() || depth_.back() == '[') && "object members need a Key() first");
  if (!has_items_.empty()) {
    if (has_items_.back()) out_.push_back(',');
    has_items_.back() = true;
  }
}

JsonWriter& JsonWriter::Key(std::string_view key) {
  SL_ASSERT(!depth_.empty() && depth_.back() == '{' && !after_key_ && "Key() belongs inside an object");
  if (has_items_.back()) out_.push_back(',');
  has_items_.back() = true;
  exports::AppendJsonString(&out_, key);
  out_.push_back(':');
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::BeginObject() {
  BeforeValue();
  out_.push_back('{');
  depth_.push_back('{');
  has_items_.push_back(false);
  return *this;
}

JsonWriter& JsonWriter::EndObject() {
  SL_ASSERT(!depth_.empty() && depth_.back() == '{' && !after_key_);
  out_.push_back('}');
  depth_.pop_back();
  has_items_.pop_back();
  return *this;
}

JsonWriter& JsonWriter::BeginArray() {
  BeforeValue();
  out_.push_back('[');
  depth_.push_back('[');
  has_items_.push_back(false);
  return *this;
}

JsonWriter& JsonWriter::EndArray() {
  SL_ASSERT(!depth_.empty() && depth_.back() == '[');
  out_.push_back(']');
  depth_.pop_back();
  has_items_.pop_back();
  return *this;
}

JsonWriter& JsonWriter::String(std::string_view v) {
  BeforeValue();
  exports::AppendJsonString(&out_, v);
  return *this;
}

JsonWriter& JsonWriter::Uint(uint64_t v) {
  BeforeValue();
  out_ += std::to_string(v);
  return *this;
}

JsonWriter& JsonWriter::Int(int64_t v) {
  BeforeValue();
  out_ += std::to_string(v);
  return *this;
}

JsonWriter& JsonWriter::Fixed(double v, int decimals) {
  if (!std::isfinite(v)) return Null();
  BeforeValue();
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  out_ += buf;
  return *this;
}

JsonWriter& JsonWriter::Null() {
  BeforeValue();
  out_ += "null";
  return *this;
}

JsonWriter& JsonWriter::Raw(std::string_view json) {
  BeforeValue();
  out_ += json;
  return *this;
}

JsonWriter& JsonWriter::Bool(bool v) {
  BeforeValue();
  out_ += v ? "true" : "false";
  return *this;
}

}  // namespace stepline::app
