// EventTokenizer: simdjson on-demand -> RawEventBatch (see event_tokenizer.h).
//
// Hot path notes: keys and string values are read from the raw document
// (simdjson's raw_json_token) and only unescaped through simdjson when they
// contain a backslash, so most strings are never copied; numbers that carry
// time are converted from their exact decimal text (json_number.h).
//
// [SECTION] Small text helpers
// [SECTION] Impl: document and top level
// [SECTION] Impl: one event
// [SECTION] Impl: args and metadata values
#include "loaders/chrome_json/event_tokenizer.h"

#include <simdjson.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "loaders/chrome_json/json_number.h"
#include "model/string_pool.h"

namespace stepline::loaders {
namespace od = simdjson::ondemand;
using simdjson::error_code;

namespace {

//-----------------------------------------------------------------------------
// [SECTION] Small text helpers
//-----------------------------------------------------------------------------

constexpr size_t kMaxMetadataJsonBytes = size_t{1} << 20;  // larger top-level values are summarized

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string_view TrimRight(std::string_view s) {
  while (!s.empty() && IsSpace(s.back())) s.remove_suffix(1);
  return s;
}

// memchr, inlined for the short strings that dominate (keys, categories).
bool HasByte(const char* p, size_t n, char c) {
  if (n >= 32) return std::memchr(p, c, n) != nullptr;
  for (size_t i = 0; i < n; ++i) {
    if (p[i] == c) return true;
  }
  return false;
}

// A raw string token without its quotes, or false when the token is not a
// string; *escaped when it holds escapes (then simdjson must unescape it).
bool PlainStringBody(std::string_view token, std::string_view* body, bool* escaped) {
  token = TrimRight(token);
  if (token.size() < 2 || token.front() != '"') return false;
  *body = token.substr(1, token.size() - 2);
  *escaped = HasByte(body->data(), body->size(), '\\');
  return true;
}

// The event members the tokenizer reads.
enum class EventKey : uint8_t { kOther, kPh, kTs, kDur, kPid, kTid, kName, kCat, kArgs, kId, kId2, kBindId, kBp,
                                kScope, kS, kFlowIn, kFlowOut };

// Little-endian packing of a key of up to 8 bytes.
constexpr uint64_t Pack(std::string_view s) {
  uint64_t v = 0;
  for (size_t i = s.size(); i-- > 0;) v = v << 8 | static_cast<unsigned char>(s[i]);
  return v;
}

EventKey ClassifyEventKey(std::string_view k) {
  if (k.empty() || k.size() > 8) return EventKey::kOther;
  uint64_t w = 0;
  std::memcpy(&w, k.data(), k.size());
  // One switch on the packed bytes. A key equal to a known one plus trailing
  // NULs ("ph\0", from an escape) packs the same: its last byte is then 0.
  if (((w >> (8 * (k.size() - 1))) & 0xFF) == 0) return EventKey::kOther;
  EventKey kind = EventKey::kOther;
  switch (w) {
    case Pack("ph"): kind = EventKey::kPh; break;
    case Pack("ts"): kind = EventKey::kTs; break;
    case Pack("id"): kind = EventKey::kId; break;
    case Pack("bp"): kind = EventKey::kBp; break;
    case Pack("s"): kind = EventKey::kS; break;
    case Pack("pid"): kind = EventKey::kPid; break;
    case Pack("tid"): kind = EventKey::kTid; break;
    case Pack("dur"): kind = EventKey::kDur; break;
    case Pack("cat"): kind = EventKey::kCat; break;
    case Pack("id2"): kind = EventKey::kId2; break;
    case Pack("name"): kind = EventKey::kName; break;
    case Pack("args"): kind = EventKey::kArgs; break;
    case Pack("scope"): kind = EventKey::kScope; break;
    case Pack("bind_id"): kind = EventKey::kBindId; break;
    case Pack("flow_in"): kind = EventKey::kFlowIn; break;
    case Pack("flow_out"): kind = EventKey::kFlowOut; break;
    default: break;
  }
  return kind;
}

uint64_t HashId(std::string_view text) { return StringPool::Hash(text); }

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
    } else if (!IsSpace(c)) {
      out[n++] = c;
      in_string = c == '"';
    }
  }
  return n;
}

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] Impl: document and top level
//-----------------------------------------------------------------------------

struct EventTokenizer::Impl {
  explicit Impl(bool keep) : keep_args(keep) {}

  TokenizeResult Run(const ChunkSpec& spec, std::string_view input, RawEventBatch* out);
  bool WalkTop(od::document& d, const ChunkSpec& spec);
  bool WalkEvents(od::array events);
  bool ParseEvent(od::object obj, uint64_t offset);
  bool ParseArgs(od::object args, RawEvent* ev);
  // Converts one arg / metadata value. Returns false on a structural failure.
  bool ReadValue(od::value v, uint32_t key, RawArg* arg, bool* keep, RawEvent* ev, size_t json_cap);

  bool ReadKey(od::field& f, std::string_view* key, bool* stable);
  // String field value -> local id; false when not a string (not consumed).
  bool ReadStringId(od::value& v, uint32_t* id);
  uint32_t InternText(std::string_view s, bool stable);
  uint32_t InternJson(std::string_view raw, size_t cap);

  bool Fail(const char* where, std::string message) {
    result.ok = false;
    result.failure_offset = where && doc.Contains(where) ? doc.InputOffset(where) : doc.input_begin;
    result.failure = std::move(message);
    return false;
  }
  bool FailSimdjson(error_code e, const char* what) {
    return Fail(nullptr, std::string(what) + ": " + simdjson::error_message(e));
  }
  void Problem(const char* where, DiagCode code, std::string detail) {
    batch->AddProblem(doc.InputOffset(where), code, std::move(detail));
  }
  void ProblemAt(uint64_t input_offset, DiagCode code, std::string detail) {
    batch->AddProblem(input_offset, code, std::move(detail));
  }

  od::parser parser;
  bool keep_args;
  RawEventBatch* batch = nullptr;
  ChunkDocument doc;
  TokenizeResult result;
  std::string scratch;
};

TokenizeResult EventTokenizer::Impl::Run(const ChunkSpec& spec, std::string_view input, RawEventBatch* out) {
  batch = out;
  result = TokenizeResult{};
  result.ok = true;
  doc = BuildChunkDocument(spec, input, &batch->document, &batch->document_capacity);
  batch->input_begin = spec.begin;
  batch->input_end = spec.end;
  od::document d;
  error_code e = parser.iterate(doc.data, doc.size, doc.size + kDocumentPadding).get(d);
  if (e == simdjson::UTF8_ERROR || e == simdjson::UNESCAPED_CHARS) {
    RepairChunkDocument(&doc, &batch->document, &batch->document_capacity, &batch->problems);
    e = parser.iterate(doc.data, doc.size, doc.size + kDocumentPadding).get(d);
  }
  if (e) {
    FailSimdjson(e, "JSON structure");
    return result;
  }
  if (!WalkTop(d, spec)) return result;
  const char* end = nullptr;
  if (d.current_location().get(end) != simdjson::OUT_OF_BOUNDS) {
    Fail(end, "unexpected content after the end of the JSON value");
    return result;
  }
  // Repair problems come first in `problems`; keep them in input order.
  std::stable_sort(batch->problems.begin(), batch->problems.end(),
                   [](const RawProblem& a, const RawProblem& b) { return a.offset < b.offset; });
  return result;
}

bool EventTokenizer::Impl::WalkTop(od::document& d, const ChunkSpec& spec) {
  od::json_type type;
  if (error_code e = d.type().get(type)) return FailSimdjson(e, "top-level value");
  if (type == od::json_type::array) {
    if (spec.object_form && (spec.starts_document || spec.ends_document)) {
      return Fail(doc.data, "expected the top-level object");
    }
    od::array events;
    if (error_code e = d.get_array().get(events)) return FailSimdjson(e, "events array");
    result.saw_events = true;
    return WalkEvents(events);
  }
  if (type != od::json_type::object || !spec.object_form) return Fail(doc.data, "expected a JSON array of events");
  od::object top;
  if (error_code e = d.get_object().get(top)) return FailSimdjson(e, "top-level object");
  for (auto field_result : top) {
    od::field field;
    if (error_code e = std::move(field_result).get(field)) return FailSimdjson(e, "top-level key");
    if (result.saw_events && !spec.ends_document) {
      return Fail(field.key().raw(), "a key follows traceEvents in a chunk that must end with it");
    }
    std::string_view key;
    bool stable = true;
    if (!ReadKey(field, &key, &stable)) return FailSimdjson(simdjson::STRING_ERROR, "top-level key");
    od::value value = field.value();
    if (key == "traceEvents") {
      if (result.saw_events) continue;  // a duplicate key: the first array wins
      od::array events;
      if (value.get_array().get(events)) return Fail(key.data(), "\"traceEvents\" is not an array");
      result.saw_events = true;
      if (!WalkEvents(events)) return false;
      continue;
    }
    RawArg arg;
    arg.key = InternText(key, stable);
    bool keep = true;
    if (!ReadValue(value, arg.key, &arg, &keep, nullptr, kMaxMetadataJsonBytes)) return false;
    batch->metadata.push_back(arg);
  }
  return true;
}

bool EventTokenizer::Impl::WalkEvents(od::array events) {
  for (auto element : events) {
    od::value v;
    if (error_code e = std::move(element).get(v)) return FailSimdjson(e, "event");
    const char* start = v.raw_json_token().data();
    od::object obj;
    if (v.get_object().get(obj)) {
      od::json_type type;
      if (error_code e = v.type().get(type)) return Fail(start, std::string("expected an event: ") +
                                                                   simdjson::error_message(e));
      Problem(start, DiagCode::kBadFieldType, "an event is not a JSON object; skipped");
      continue;
    }
    if (!ParseEvent(obj, doc.InputOffset(start))) return false;
  }
  return true;
}

//-----------------------------------------------------------------------------
// [SECTION] Impl: one event
//-----------------------------------------------------------------------------

bool EventTokenizer::Impl::ReadKey(od::field& f, std::string_view* key, bool* stable) {
  const char* k = f.key().raw();
  const char* doc_end = doc.data + doc.size;
  // Keys are short: scan for the closing quote, noting a backslash.
  const char* q = k;
  while (q < doc_end && *q != '"' && *q != '\\') ++q;
  if (q < doc_end && *q == '"') {
    *key = std::string_view(k, static_cast<size_t>(q - k));
    *stable = true;
    return true;
  }
  *stable = false;
  return !f.unescaped_key().get(*key);
}

uint32_t EventTokenizer::Impl::InternText(std::string_view s, bool stable) {
  if (doc.repaired && std::memchr(s.data(), kInvalidByteMarker, s.size()) != nullptr) {
    scratch.clear();
    for (char c : s) {
      if (c == kInvalidByteMarker) scratch += "\xEF\xBF\xBD";  // U+FFFD
      else scratch += c;
    }
    return batch->strings.InternCopy(scratch);
  }
  return stable ? batch->strings.Intern(s) : batch->strings.InternCopy(s);
}

uint32_t EventTokenizer::Impl::InternJson(std::string_view raw, size_t cap) {
  if (raw.size() > cap) {
    return batch->strings.InternCopy("(" + std::to_string(raw.size()) + " bytes of JSON not kept)");
  }
  char* out = batch->strings.Allocate(raw.size());
  const size_t n = CompactJson(raw, out);
  return InternText(std::string_view(out, n), true);
}

bool EventTokenizer::Impl::ReadStringId(od::value& v, uint32_t* id) {
  std::string_view body;
  bool escaped = false;
  const std::string_view token = v.raw_json_token();
  if (!PlainStringBody(token, &body, &escaped)) return false;
  if (!escaped) {
    *id = InternText(body, true);
    return true;
  }
  std::string_view unescaped;
  if (v.get_string().get(unescaped)) {
    // A bad escape (e.g. a lone surrogate \ud800): keep the text as written.
    Problem(token.data(), DiagCode::kInvalidUtf8, "a string with an invalid escape sequence; kept as written");
    *id = InternText(body, true);
    return true;
  }
  *id = InternText(unescaped, false);
  return true;
}

namespace {

// The text of a number or numeric string for a time/key field; false when
// the value is neither.
bool NumericText(std::string_view token, std::string_view* text, bool* was_string) {
  token = TrimRight(token);
  if (token.empty()) return false;
  const char c = token.front();
  if (c == '"') {
    bool escaped = false;
    if (!PlainStringBody(token, text, &escaped) || escaped) return false;
    *was_string = true;
    return true;
  }
  if (c == '-' || (c >= '0' && c <= '9')) {
    *text = token;
    *was_string = false;
    return true;
  }
  return false;
}

const char* TypeWord(std::string_view token) {
  switch (token.empty() ? ' ' : token.front()) {
    case '{': return "an object";
    case '[': return "an array";
    case '"': return "a string";
    case 't':
    case 'f': return "a boolean";
    case 'n': return "null";
    default: return "an invalid literal";
  }
}

}  // namespace

bool EventTokenizer::Impl::ParseEvent(od::object obj, uint64_t offset) {
  RawEvent ev;
  ev.offset = offset;
  ev.args_begin = ev.args_end = static_cast<uint32_t>(batch->args.size());
  bool any_field = false;
  bool skip = false;
  uint64_t scope_hash = 0;
  // Records a field problem; the event is dropped at the end.
  auto bad_field = [&](std::string_view token, DiagCode code, std::string detail) {
    Problem(token.data(), code, std::move(detail));
    skip = true;
  };
  for (auto field_result : obj) {
    od::field field;
    if (error_code e = std::move(field_result).get(field)) return FailSimdjson(e, "event member");
    any_field = true;
    std::string_view key;
    bool stable = true;
    if (!ReadKey(field, &key, &stable)) return FailSimdjson(simdjson::STRING_ERROR, "event key");
    const EventKey kind = ClassifyEventKey(key);
    if (kind == EventKey::kOther) continue;  // tts, tdur, cname, sf, stack, ...: not modeled
    od::value v = field.value();
    if (kind == EventKey::kPh) {
      std::string_view body;
      bool escaped = false;
      const std::string_view token = v.raw_json_token();
      if (!PlainStringBody(token, &body, &escaped)) {
        bad_field(token, DiagCode::kBadFieldType, std::string("\"ph\" is ") + TypeWord(token) + ", not a string");
      } else if (body.size() == 1) {
        ev.ph = body[0];
      } else {
        ev.ph = '?';
        ev.flags |= RawEvent::kBadPhase;
        ev.phase_text = InternText(body, true);
      }
    } else if (kind == EventKey::kTs || kind == EventKey::kDur) {
      const std::string_view token = v.raw_json_token();
      std::string_view text;
      bool was_string = false;
      int64_t ns = 0;
      const bool is_ts = kind == EventKey::kTs;
      NumberStatus status = NumberStatus::kNotANumber;
      if (NumericText(token, &text, &was_string)) status = ParseMicrosToNs(text, &ns);
      if (status == NumberStatus::kNotANumber) {
        bad_field(token, DiagCode::kBadFieldType,
                  std::string(is_ts ? "\"ts\"" : "\"dur\"") + " is not a number (" + (was_string ? "a string" : TypeWord(token)) + ")");
      } else if (status == NumberStatus::kOutOfRange) {
        bad_field(token, DiagCode::kOutOfRange,
                  std::string(is_ts ? "\"ts\"" : "\"dur\"") + " " + std::string(TrimRight(token).substr(0, 40)) +
                      " us is beyond the int64 nanosecond range");
      } else if (is_ts) {
        ev.ts_ns = ns;
        ev.flags |= RawEvent::kHasTs;
      } else {
        ev.dur_ns = ns;
        ev.flags |= RawEvent::kHasDur;
      }
    } else if (kind == EventKey::kPid || kind == EventKey::kTid) {
      const bool is_pid = kind == EventKey::kPid;
      const std::string_view token = v.raw_json_token();
      std::string_view text;
      bool was_string = false;
      int64_t value = 0;
      bool numeric = false;
      if (NumericText(token, &text, &was_string)) {
        numeric = ParseIntegerKey(text, &value) ||
                  (!was_string && ParseScaledDecimal(text, 0, &value) == NumberStatus::kOk);
      }
      if (!numeric && was_string && !is_pid && text.starts_with("stream ")) {
        numeric = ParseIntegerKey(text.substr(7), &value);  // Kineto "stream 7"
      }
      if (numeric) {
        (is_pid ? ev.pid : ev.tid) = value;
      } else {
        uint32_t id = 0;
        if (!ReadStringId(v, &id)) {
          bad_field(token, DiagCode::kBadFieldType,
                    std::string(is_pid ? "\"pid\"" : "\"tid\"") + " is " + TypeWord(token) + ", not a number or string");
          continue;
        }
        (is_pid ? ev.pid : ev.tid) = id;
        ev.flags |= is_pid ? RawEvent::kPidIsString : RawEvent::kTidIsString;
      }
      if (is_pid) ev.flags |= RawEvent::kHasPid;
    } else if (kind == EventKey::kName || kind == EventKey::kCat) {
      uint32_t id = 0;
      if (!ReadStringId(v, &id)) {
        const std::string_view token = TrimRight(v.raw_json_token());
        if (!token.empty() && (token.front() == '-' || (token.front() >= '0' && token.front() <= '9'))) {
          id = InternText(token, true);  // a numeric name: keep its text
        } else {
          bad_field(token, DiagCode::kBadFieldType, "\"" + std::string(key) + "\" is " + TypeWord(token) + ", not a string");
          continue;
        }
      }
      (kind == EventKey::kName ? ev.name : ev.cat) = id;
    } else if (kind == EventKey::kArgs) {
      od::object args;
      if (v.get_object().get(args)) {
        const std::string_view token = v.raw_json_token();
        Problem(token.data(), DiagCode::kBadFieldType, std::string("\"args\" is ") + TypeWord(token) + ", not an object; ignored");
        continue;
      }
      if (!ParseArgs(args, &ev)) return false;
    } else if (kind == EventKey::kId || kind == EventKey::kBindId || kind == EventKey::kId2) {
      std::string_view token = v.raw_json_token();
      if (kind == EventKey::kId2) {
        // {"global": x} or {"local": x}: the id is x (async tracks are per process anyway).
        od::object id2;
        if (v.get_object().get(id2)) {
          bad_field(token, DiagCode::kBadFieldType, "\"id2\" is not an object");
          continue;
        }
        bool found = false;
        for (auto member : id2) {
          od::field f;
          if (error_code e = std::move(member).get(f)) return FailSimdjson(e, "id2 member");
          if (found) continue;
          od::value inner = f.value();
          token = inner.raw_json_token();
          found = true;
        }
        if (!found) continue;
      }
      std::string_view text;
      bool was_string = false;
      uint64_t id = 0;
      if (!NumericText(token, &text, &was_string)) {
        bool escaped = false;
        if (!PlainStringBody(token, &text, &escaped)) {
          bad_field(token, DiagCode::kBadFieldType, "\"" + std::string(key) + "\" is " + TypeWord(token));
          continue;
        }
      }
      if (!ParseIdText(text, &id)) id = HashId(text);
      if (kind == EventKey::kBindId) {
        ev.flags |= RawEvent::kHasBindId;
        ev.bind_id = id;
      } else {
        ev.flags |= RawEvent::kHasId;
        ev.id = id;
      }
    } else if (kind == EventKey::kBp || kind == EventKey::kS || kind == EventKey::kScope) {
      std::string_view body;
      bool escaped = false;
      if (!PlainStringBody(v.raw_json_token(), &body, &escaped) || body.empty()) continue;
      if (kind == EventKey::kBp) {
        if (body == "e") ev.flags |= RawEvent::kBindEnclosing;
      } else if (kind == EventKey::kS) {
        ev.scope = body[0];
      } else {
        scope_hash = HashId(body);
      }
    } else if (kind == EventKey::kFlowIn || kind == EventKey::kFlowOut) {
      bool b = false;
      if (v.get_bool().get(b) || !b) continue;
      ev.flags |= kind == EventKey::kFlowIn ? RawEvent::kFlowIn : RawEvent::kFlowOut;
    }
  }
  ev.args_end = static_cast<uint32_t>(batch->args.size());
  if (!any_field) return true;  // {} terminator (TensorFlow writes one): ignored
  if (skip) {
    batch->args.resize(ev.args_begin);
    return true;
  }
  if (ev.ph == 0) {
    ProblemAt(offset, DiagCode::kMissingField, "an event without \"ph\"; skipped");
    batch->args.resize(ev.args_begin);
    return true;
  }
  if (scope_hash != 0) ev.id ^= scope_hash * 0x9E3779B97F4A7C15ull;
  batch->events.push_back(ev);
  return true;
}

//-----------------------------------------------------------------------------
// [SECTION] Impl: args and metadata values
//-----------------------------------------------------------------------------

bool EventTokenizer::Impl::ParseArgs(od::object args, RawEvent* ev) {
  for (auto member : args) {
    od::field field;
    if (error_code e = std::move(member).get(field)) return FailSimdjson(e, "args member");
    std::string_view key;
    bool stable = true;
    if (!ReadKey(field, &key, &stable)) return FailSimdjson(simdjson::STRING_ERROR, "args key");
    RawArg arg;
    arg.key = InternText(key, stable);
    // Without keep_args only what the importer reads is kept: well-known
    // keys, and everything of C/M events (or while "ph" is still unknown).
    bool keep = keep_args || arg.key < kWellKnownCount || ev->ph == 0 || ev->ph == 'C' || ev->ph == 'M';
    if (!ReadValue(field.value(), arg.key, &arg, &keep, ev, SIZE_MAX)) return false;
    if (keep) batch->args.push_back(arg);
  }
  return true;
}

bool EventTokenizer::Impl::ReadValue(od::value v, uint32_t key, RawArg* arg, bool* keep, RawEvent* ev,
                                     size_t json_cap) {
  if (!*keep) return true;  // not consumed: simdjson skips it without copying
  od::json_type type;
  const std::string_view token = v.raw_json_token();
  if (error_code e = v.type().get(type)) return Fail(token.data(), std::string("expected a value: ") + simdjson::error_message(e));
  switch (type) {
    case od::json_type::string: {
      uint32_t id = 0;
      ReadStringId(v, &id);
      arg->type = ArgType::kString;
      arg->bits = id;
      if (ev != nullptr && key == kStrCorrelationId) {
        uint64_t corr = 0;
        if (ParseIdText(batch->strings.Get(id), &corr)) {
          ev->correlation = corr;
          ev->flags |= RawEvent::kHasCorrelation | RawEvent::kCorrelationFromTb;
        }
      } else if (ev != nullptr && key == kStrMemcpyDetails) {
        ev->flags |= RawEvent::kHasMemcpyDetails;
      }
      return true;
    }
    case od::json_type::number: {
      const std::string_view text = TrimRight(token);
      bool integral = true;
      for (char c : text) integral &= c != '.' && c != 'e' && c != 'E';
      int64_t i = 0;
      uint64_t u = 0;
      double d = 0;
      if (integral && text.front() == '-' && !v.get_int64().get(i)) {
        arg->type = ArgType::kInt;
        arg->bits = static_cast<uint64_t>(i);
      } else if (integral && text.front() != '-' && !v.get_uint64().get(u)) {
        arg->type = u <= static_cast<uint64_t>(INT64_MAX) ? ArgType::kInt : ArgType::kUint;
        arg->bits = u;
      } else if (!v.get_double().get(d)) {
        arg->type = ArgType::kDouble;
        std::memcpy(&arg->bits, &d, sizeof d);
      } else {
        arg->type = ArgType::kJson;  // e.g. beyond double range: keep the text
        arg->bits = InternText(text, true);
      }
      if (ev != nullptr && key == kStrCorrelation && arg->type != ArgType::kDouble && arg->type != ArgType::kJson) {
        ev->correlation = arg->bits;
        ev->flags |= RawEvent::kHasCorrelation;
      }
      return true;
    }
    case od::json_type::boolean: {
      bool b = false;
      if (v.get_bool().get(b)) {
        arg->type = ArgType::kJson;  // an invalid literal such as "tru": keep the text
        arg->bits = InternText(TrimRight(token), true);
      } else {
        arg->type = ArgType::kBool;
        arg->bits = b ? 1 : 0;
      }
      return true;
    }
    case od::json_type::null:
      arg->type = ArgType::kJson;
      arg->bits = InternText(TrimRight(token), true);
      return true;
    case od::json_type::array:
    case od::json_type::object: {
      std::string_view raw;
      error_code e;
      if (type == od::json_type::array) {
        od::array a;
        e = v.get_array().get(a);
        if (!e) e = a.raw_json().get(raw);
      } else {
        od::object o;
        e = v.get_object().get(o);
        if (!e) e = o.raw_json().get(raw);
      }
      if (e) return Fail(token.data(), std::string("nested value: ") + simdjson::error_message(e));
      arg->type = ArgType::kJson;
      arg->bits = InternJson(raw, json_cap);
      return true;
    }
  }
  return true;
}

EventTokenizer::EventTokenizer(bool keep_args) : impl_(std::make_unique<Impl>(keep_args)) {}
EventTokenizer::~EventTokenizer() = default;

TokenizeResult EventTokenizer::Tokenize(const ChunkSpec& spec, std::string_view input, RawEventBatch* batch) {
  return impl_->Run(spec, input, batch);
}

}  // namespace stepline::loaders
