// EventTokenizer::Impl, shared by event_tokenizer.cpp (the document and
// event walk) and event_fields.cpp (reading one member or arg). Internal to
// loaders/chrome_json, and its only header that includes simdjson.
#pragma once

#include <simdjson.h>

#include <cstring>
#include <string>
#include <string_view>

#include "loaders/chrome_json/event_key.h"
#include "loaders/chrome_json/event_tokenizer.h"
#include "loaders/chrome_json/json_lexical.h"
#include "loaders/chrome_json/json_number.h"
#include "model/string_pool.h"

namespace stepline::loaders {

namespace od = simdjson::ondemand;

// raw_json_token() runs to the next structural character: drop the spaces.
inline std::string_view TrimRight(std::string_view s) {
  while (!s.empty() && IsJsonSpace(s.back())) s.remove_suffix(1);
  return s;
}

// memchr, inlined for the short strings that dominate (keys, categories).
inline bool HasByte(const char* p, size_t n, char c) {
  if (n >= 32) return std::memchr(p, c, n) != nullptr;
  for (size_t i = 0; i < n; ++i) {
    if (p[i] == c) return true;
  }
  return false;
}

// A raw string token without its quotes, or false when the token is not a
// string; *escaped when it holds escapes (then simdjson must unescape it).
inline bool PlainStringBody(std::string_view token, std::string_view* body, bool* escaped) {
  token = TrimRight(token);
  if (token.size() < 2 || token.front() != '"') return false;
  *body = token.substr(1, token.size() - 2);
  *escaped = HasByte(body->data(), body->size(), '\\');
  return true;
}

// "id" or "bind_id" from its text: an integer (decimal or 0x hex), else the
// text's hash. Both tokenizer paths read ids this way.
inline void SetEventId(std::string_view text, bool is_bind_id, RawEvent* ev) {
  uint64_t id = 0;
  if (!ParseIdText(text, &id)) id = StringPool::Hash(text);
  if (is_bind_id) {
    ev->flags |= RawEvent::kHasBindId;
    ev->bind_id = id;
  } else {
    ev->flags |= RawEvent::kHasId;
    ev->id = id;
  }
}

struct EventTokenizer::Impl {
  explicit Impl(bool keep) : keep_args(keep) {}

  // --- event_tokenizer.cpp: document, top level, events --------------------
  TokenizeResult Run(const ChunkSpec& spec, std::string_view input, RawEventBatch* out);
  bool TryFastPath(const ChunkSpec& spec, std::string_view input);
  bool WalkTop(od::document& d, const ChunkSpec& spec);
  bool WalkEvents(od::array events);
  bool ParseEvent(od::object obj, uint64_t offset);

  // --- event_fields.cpp: one member of an event -----------------------------
  // Each records a problem and sets *skip when the member makes the event
  // unusable; those returning bool return false on a structural failure.
  void ReadPhase(od::value& v, RawEvent* ev, bool* skip);
  void ReadTime(od::value& v, bool is_ts, RawEvent* ev, bool* skip);
  void ReadPidOrTid(od::value& v, bool is_pid, RawEvent* ev, bool* skip);
  void ReadNameOrCategory(od::value& v, bool is_name, RawEvent* ev, bool* skip);
  bool ReadId(od::value& v, EventKey kind, RawEvent* ev, bool* skip);
  bool ParseArgs(od::object args, RawEvent* ev);
  // One arg or top-level value into *arg (when *keep); `ev` (may be null)
  // collects the well-known args the importer needs.
  bool ReadValue(od::value v, uint32_t key, RawArg* arg, const bool* keep, RawEvent* ev, size_t json_cap);

  bool ReadKey(od::field& f, std::string_view* key);  // raw when unescaped, else simdjson's copy
  // String value -> local id; false when not a string (value not consumed).
  bool ReadStringId(od::value& v, uint32_t* id);
  uint32_t InternText(std::string_view s);
  uint32_t InternJson(std::string_view raw, size_t cap);

  bool Fail(const char* where, std::string message) {
    result.ok = false;
    result.failure_offset = where != nullptr && doc.Contains(where) ? doc.InputOffset(where) : doc.input_begin;
    result.failure = std::move(message);
    return false;
  }
  bool FailSimdjson(simdjson::error_code e, const char* what) {
    return Fail(nullptr, std::string(what) + ": " + simdjson::error_message(e));
  }
  void Problem(const char* where, DiagCode code, std::string detail) {
    batch->AddProblem(doc.InputOffset(where), code, std::move(detail));
  }

  od::parser parser;
  std::unique_ptr<char[]> doc_buffer;  // this thread's chunk copies, reused chunk after chunk
  size_t doc_capacity = 0;
  bool keep_args;
  bool fast_path = true;
  uint64_t fast_chunks = 0;
  uint64_t fast_give_ups = 0;
  RawEventBatch* batch = nullptr;
  ChunkDocument doc;
  TokenizeResult result;
  std::string scratch;
};

}  // namespace stepline::loaders
