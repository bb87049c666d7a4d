// EventTokenizer: reading one event member, arg or top-level value (see
// event_tokenizer_impl.h). Problems inside a member are recorded with the
// offset of the offending value; only broken structure fails the chunk.
//
// [SECTION] Text and interning
// [SECTION] Event members
// [SECTION] Args and values
#include <utility>

#include "loaders/chrome_json/event_tokenizer_impl.h"
#include "loaders/chrome_json/json_number.h"
#include "loaders/chrome_json/json_validate.h"
#include "model/string_pool.h"

namespace stepline::loaders {
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

// What a raw token is, for messages.
const char* TypeWord(std::string_view token) {
  switch (token.empty() ? ' ' : token.front()) {
    case '{': return "an object";
    case '[': return "an array";
    case '"': return "a string";
    case 't':
    case 'f': return "a boolean";
    case 'n': return "null";
    default:
      return (token.front() == '-' || (token.front() >= '0' && token.front() <= '9')) ? "a number"
                                                                                      : "an invalid literal";
  }
}

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] Text and interning
//-----------------------------------------------------------------------------

bool EventTokenizer::Impl::ReadKey(od::field& f, std::string_view* key) {
  const char* k = f.key().raw();
  const char* doc_end = doc.data + doc.size;
  // Keys are short: scan for the closing quote, noting a backslash.
  const char* q = k;
  while (q < doc_end && *q != '"' && *q != '\\') ++q;
  if (q < doc_end && *q == '"') {
    *key = std::string_view(k, static_cast<size_t>(q - k));
    return true;
  }
  return !f.unescaped_key().get(*key);
}

uint32_t EventTokenizer::Impl::InternText(std::string_view s) {
  if (doc.repaired && std::memchr(s.data(), kInvalidByteMarker, s.size()) != nullptr) {
    scratch.clear();
    for (char c : s) {
      if (c == kInvalidByteMarker)
        scratch += "\xEF\xBF\xBD";  // U+FFFD
      else
        scratch += c;
    }
    return batch->strings.Intern(scratch);
  }
  return batch->strings.Intern(s);
}

uint32_t EventTokenizer::Impl::InternJson(std::string_view raw, size_t cap) {
  if (raw.size() > cap) {
    return batch->strings.Intern("(" + std::to_string(raw.size()) + " bytes of JSON not kept)");
  }
  scratch.resize(raw.size());
  const size_t n = CompactJson(raw, scratch.data());
  scratch.resize(n);
  if (doc.repaired) return InternText(std::string(scratch));  // InternText reuses `scratch`
  return batch->strings.Intern(scratch);
}

bool EventTokenizer::Impl::ReadStringId(od::value& v, uint32_t* id) {
  std::string_view body;
  bool escaped = false;
  const std::string_view token = v.raw_json_token();
  if (!PlainStringBody(token, &body, &escaped)) return false;
  if (!escaped) {
    *id = InternText(body);
    return true;
  }
  std::string_view unescaped;
  if (v.get_string().get(unescaped)) {
    // A bad escape (e.g. a lone surrogate \ud800): keep the text as written.
    Problem(token.data(), DiagCode::kInvalidUtf8, "a string with an invalid escape sequence; kept as written");
    *id = InternText(body);
    return true;
  }
  *id = InternText(unescaped);
  return true;
}

//-----------------------------------------------------------------------------
// [SECTION] Event members
//-----------------------------------------------------------------------------

void EventTokenizer::Impl::ReadPhase(od::value& v, RawEvent* ev, bool* skip) {
  std::string_view body;
  bool escaped = false;
  const std::string_view token = v.raw_json_token();
  if (!PlainStringBody(token, &body, &escaped)) {
    Problem(token.data(), DiagCode::kBadFieldType, std::string("\"ph\" is ") + TypeWord(token) + ", not a string");
    *skip = true;
  } else if (body.size() == 1) {
    ev->ph = body[0];
  } else {
    ev->ph = '?';  // the importer reports it as an unknown phase
    ev->flags |= RawEvent::kBadPhase;
    ev->phase_text = InternText(body);
  }
}

void EventTokenizer::Impl::ReadTime(od::value& v, bool is_ts, RawEvent* ev, bool* skip) {
  const std::string_view token = v.raw_json_token();
  const char* field = is_ts ? "\"ts\"" : "\"dur\"";
  std::string_view text;
  bool was_string = false;
  int64_t ns = 0;
  NumberStatus status = NumberStatus::kNotANumber;
  if (NumericText(token, &text, &was_string)) status = ParseMicrosToNs(text, &ns);
  if (status == NumberStatus::kNotANumber) {
    Problem(token.data(), DiagCode::kBadFieldType,
            std::string(field) + " is not a number (" + (was_string ? "a string" : TypeWord(token)) + ")");
    *skip = true;
  } else if (status == NumberStatus::kOutOfRange) {
    Problem(
        token.data(), DiagCode::kOutOfRange,
        std::string(field) + " " + std::string(TrimRight(token).substr(0, 40)) + " us is beyond the int64 ns range");
    *skip = true;
  } else if (is_ts) {
    ev->ts_ns = ns;
    ev->flags |= RawEvent::kHasTs;
  } else {
    ev->dur_ns = ns;
    ev->flags |= RawEvent::kHasDur;
  }
}

// Numbers (any integer, negative or above 2^31), numeric strings (Kineto
// writes host tids as "1441273664"), Kineto's "stream 7", or any other
// string, kept as a local string id for the importer to key and name.
void EventTokenizer::Impl::ReadPidOrTid(od::value& v, bool is_pid, RawEvent* ev, bool* skip) {
  const std::string_view token = v.raw_json_token();
  std::string_view text;
  bool was_string = false;
  int64_t value = 0;
  bool numeric = false;
  if (NumericText(token, &text, &was_string)) {
    numeric =
        ParseIntegerKey(text, &value) || (!was_string && ParseScaledDecimal(text, 0, &value) == NumberStatus::kOk);
  }
  if (!numeric && was_string && !is_pid && text.starts_with("stream "))
    numeric = ParseIntegerKey(text.substr(7), &value);
  if (numeric) {
    (is_pid ? ev->pid : ev->tid) = value;
    // A repeated key replaces an earlier string id (a fuzz finding: the flag
    // left behind made the number read as a string id, out of range).
    ev->flags &= static_cast<decltype(ev->flags)>(~(is_pid ? RawEvent::kPidIsString : RawEvent::kTidIsString));
  } else {
    uint32_t id = 0;
    if (!ReadStringId(v, &id)) {
      Problem(token.data(), DiagCode::kBadFieldType,
              std::string(is_pid ? "\"pid\"" : "\"tid\"") + " is " + TypeWord(token) + ", not an integer or string");
      *skip = true;
      return;
    }
    (is_pid ? ev->pid : ev->tid) = id;
    ev->flags |= is_pid ? RawEvent::kPidIsString : RawEvent::kTidIsString;
  }
  if (is_pid) ev->flags |= RawEvent::kHasPid;
}

void EventTokenizer::Impl::ReadNameOrCategory(od::value& v, bool is_name, RawEvent* ev, bool* skip) {
  uint32_t id = 0;
  if (!ReadStringId(v, &id)) {
    const std::string_view token = TrimRight(v.raw_json_token());
    if (token.empty() || !(token.front() == '-' || (token.front() >= '0' && token.front() <= '9'))) {
      Problem(token.data(), DiagCode::kBadFieldType,
              std::string(is_name ? "\"name\"" : "\"cat\"") + " is " + TypeWord(token) + ", not a string");
      *skip = true;
      return;
    }
    id = InternText(token);  // a numeric name: keep its text
  }
  (is_name ? ev->name : ev->cat) = id;
}

// "id" / "bind_id": a number or string ("0x1f" hex, decimal, else hashed);
// "id2": {"global": x} or {"local": x}, the id is x (async tracks are per
// process anyway).
bool EventTokenizer::Impl::ReadId(od::value& v, EventKey kind, RawEvent* ev, bool* skip) {
  std::string_view token = v.raw_json_token();
  const char* field = kind == EventKey::kId ? "\"id\"" : kind == EventKey::kId2 ? "\"id2\"" : "\"bind_id\"";
  if (kind == EventKey::kId2) {
    od::object id2;
    if (v.get_object().get(id2)) {
      Problem(token.data(), DiagCode::kBadFieldType, "\"id2\" is not an object");
      *skip = true;
      return true;
    }
    bool found = false;
    for (auto member : id2) {
      od::field f;
      if (simdjson::error_code e = std::move(member).get(f)) return FailSimdjson(e, "id2 member");
      if (found) continue;
      od::value inner = f.value();
      token = inner.raw_json_token();
      found = true;
    }
    if (!found) return true;
  }
  std::string_view text;
  bool was_string = false;
  if (!NumericText(token, &text, &was_string)) {
    bool escaped = false;
    if (!PlainStringBody(token, &text, &escaped)) {
      Problem(token.data(), DiagCode::kBadFieldType, std::string(field) + " is " + TypeWord(token));
      *skip = true;
      return true;
    }
  }
  SetEventId(text, kind == EventKey::kBindId, ev);
  return true;
}

//-----------------------------------------------------------------------------
// [SECTION] Args and values
//-----------------------------------------------------------------------------

bool EventTokenizer::Impl::ParseArgs(od::object args, RawEvent* ev) {
  for (auto member : args) {
    od::field field;
    if (simdjson::error_code e = std::move(member).get(field)) return FailSimdjson(e, "args member");
    std::string_view key;
    if (!ReadKey(field, &key)) return FailSimdjson(simdjson::STRING_ERROR, "args key");
    RawArg arg;
    arg.key = InternText(key);
    // Without keep_args only what the importer reads is kept: well-known
    // keys, and everything of C/M events (or while "ph" is still unknown).
    const bool keep = keep_args || arg.key < kWellKnownCount || ev->ph == 0 || ev->ph == 'C' || ev->ph == 'M';
    if (!ReadValue(field.value(), arg.key, &arg, &keep, ev, SIZE_MAX)) return false;
    if (keep) batch->args.push_back(arg);
  }
  return true;
}

bool EventTokenizer::Impl::ReadValue(od::value v, uint32_t key, RawArg* arg, const bool* keep, RawEvent* ev,
                                     size_t json_cap) {
  if (!*keep) return true;  // not consumed: simdjson skips it without copying
  od::json_type type;
  const std::string_view token = v.raw_json_token();
  if (simdjson::error_code e = v.type().get(type)) {
    return Fail(token.data(), std::string("expected a value: ") + simdjson::error_message(e));
  }
  switch (type) {
    case od::json_type::string: {
      // "correlation_id": one distinct string per launch, held as its number
      // when that gives the text back (ArgType::kDecimalString), not interned.
      uint64_t corr = 0;
      std::string_view body;
      bool escaped = false;
      bool is_corr = false;
      if (key == kStrCorrelationId && PlainStringBody(token, &body, &escaped) && !escaped &&
          ParseCanonicalDecimal(body, &corr)) {
        arg->type = ArgType::kDecimalString;
        arg->bits = corr;
        is_corr = true;
      } else {
        uint32_t id = 0;
        ReadStringId(v, &id);
        arg->type = ArgType::kString;
        arg->bits = id;
        is_corr = key == kStrCorrelationId && ParseIdText(batch->strings.Get(id), &corr);
      }
      if (ev != nullptr && is_corr) {
        ev->correlation = corr;
        ev->flags |= RawEvent::kHasCorrelation | RawEvent::kCorrelationFromTb;
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
        arg->bits = InternText(text);
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
        arg->bits = InternText(TrimRight(token));
      } else {
        arg->type = ArgType::kBool;
        arg->bits = b ? 1 : 0;
      }
      return true;
    }
    case od::json_type::null:
      arg->type = ArgType::kJson;
      arg->bits = InternText(TrimRight(token));
      return true;
    case od::json_type::array:
    case od::json_type::object: {
      std::string_view raw;
      simdjson::error_code e;
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
      if (raw.size() <= json_cap) {
        // Kept text must be JSON: it is written verbatim into JSON output.
        std::string expected;
        if (const size_t bad = FindJsonSyntaxError(raw, &expected); bad != std::string_view::npos) {
          return Fail(raw.data() + bad, "in a nested value, " + expected);
        }
      }
      arg->type = ArgType::kJson;
      arg->bits = InternJson(raw, json_cap);
      return true;
    }
  }
  return true;
}

}  // namespace stepline::loaders
