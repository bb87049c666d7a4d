// EventTokenizer: simdjson on-demand -> RawEventBatch (see event_tokenizer.h).
// This file walks the document and the events; event_fields.cpp reads each
// member.
//
// Hot path notes: keys and string values are read from the raw document
// (simdjson's raw_json_token) and only unescaped through simdjson when they
// contain a backslash, so most strings are never copied; numbers that carry
// time are converted from their exact decimal text (json_number.h).
#include <algorithm>
#include <utility>

#include "loaders/chrome_json/event_tokenizer_impl.h"
#include "loaders/chrome_json/fast_event_scanner.h"
#include "model/string_pool.h"

namespace stepline::loaders {
namespace {

constexpr size_t kMaxMetadataJsonBytes = size_t{1} << 20;  // larger top-level values are summarized

}  // namespace

TokenizeResult EventTokenizer::Impl::Run(const ChunkSpec& spec, std::string_view input, RawEventBatch* out) {
  batch = out;
  result = TokenizeResult{};
  result.ok = true;
  const bool read_fast = TryFastPath(spec, input);  // a give-up leaves the batch cleared
  batch->input_begin = spec.begin;
  batch->input_end = spec.end;
  if (read_fast) return result;
  doc = BuildChunkDocument(spec, input, &doc_buffer, &doc_capacity);
  od::document d;
  simdjson::error_code e = parser.iterate(doc.data, doc.size, doc.size + kDocumentPadding).get(d);
  if (e == simdjson::UTF8_ERROR || e == simdjson::UNESCAPED_CHARS) {
    RepairChunkDocument(&doc, &doc_buffer, &doc_capacity, &batch->problems);
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

// A trace whose chunks keep giving up (escaped names everywhere, say) would
// be read twice: after 3 give-ups, try again only while they stay under a
// fifth of the tries.
bool EventTokenizer::Impl::TryFastPath(const ChunkSpec& spec, std::string_view input) {
  if (!fast_path || !FastPathApplies(spec)) return false;
  if (fast_give_ups >= 3 && fast_give_ups * 4 > fast_chunks) return false;
  if (ScanChunkEventsFast(spec, input, keep_args, batch)) {
    ++fast_chunks;
    result.saw_events = true;
    return true;
  }
  ++fast_give_ups;
  batch->Clear();
  return false;
}

bool EventTokenizer::Impl::WalkTop(od::document& d, const ChunkSpec& spec) {
  od::json_type type;
  if (simdjson::error_code e = d.type().get(type)) return FailSimdjson(e, "top-level value");
  if (type == od::json_type::array) {
    // Middle chunks are "[" + events + "]" in both forms.
    if (spec.object_form && (spec.starts_document || spec.ends_document)) {
      return Fail(doc.data, "expected the top-level object");
    }
    od::array events;
    if (simdjson::error_code e = d.get_array().get(events)) return FailSimdjson(e, "events array");
    result.saw_events = true;
    return WalkEvents(events);
  }
  if (type != od::json_type::object || !spec.object_form) return Fail(doc.data, "expected a JSON array of events");
  od::object top;
  if (simdjson::error_code e = d.get_object().get(top)) return FailSimdjson(e, "top-level object");
  for (auto member : top) {
    od::field field;
    if (simdjson::error_code e = std::move(member).get(field)) return FailSimdjson(e, "top-level key");
    if (result.saw_events && !spec.ends_document) {
      // The synthetic closer must close traceEvents and then the object.
      return Fail(field.key().raw(), "a key follows traceEvents in a chunk that must end with it");
    }
    std::string_view key;
    if (!ReadKey(field, &key)) return FailSimdjson(simdjson::STRING_ERROR, "top-level key");
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
    arg.key = InternText(key);
    const bool keep = true;
    if (!ReadValue(value, arg.key, &arg, &keep, nullptr, kMaxMetadataJsonBytes)) return false;
    batch->metadata.push_back(arg);
  }
  return true;
}

bool EventTokenizer::Impl::WalkEvents(od::array events) {
  for (auto element : events) {
    od::value v;
    if (simdjson::error_code e = std::move(element).get(v)) return FailSimdjson(e, "event");
    const char* start = v.raw_json_token().data();
    od::object obj;
    if (v.get_object().get(obj)) {
      od::json_type type;
      if (simdjson::error_code e = v.type().get(type)) {
        return Fail(start, std::string("expected an event: ") + simdjson::error_message(e));
      }
      Problem(start, DiagCode::kBadFieldType, "an event is not a JSON object; skipped");
      continue;
    }
    if (!ParseEvent(obj, doc.InputOffset(start))) return false;
  }
  return true;
}

bool EventTokenizer::Impl::ParseEvent(od::object obj, uint64_t offset) {
  RawEvent ev;
  ev.offset = offset;
  ev.args_begin = static_cast<uint32_t>(batch->args.size());
  bool any_member = false;
  bool skip = false;  // a member made the event unusable (its problem is recorded)
  uint64_t scope_hash = 0;
  for (auto member : obj) {
    od::field field;
    if (simdjson::error_code e = std::move(member).get(field)) return FailSimdjson(e, "event member");
    any_member = true;
    std::string_view key;
    if (!ReadKey(field, &key)) return FailSimdjson(simdjson::STRING_ERROR, "event key");
    const EventKey kind = ClassifyEventKey(key);
    if (kind == EventKey::kOther) continue;  // tts, tdur, cname, sf, stack, ...: not modeled
    od::value v = field.value();
    std::string_view body;
    bool escaped = false;
    switch (kind) {
      case EventKey::kPh: ReadPhase(v, &ev, &skip); break;
      case EventKey::kTs:
      case EventKey::kDur: ReadTime(v, kind == EventKey::kTs, &ev, &skip); break;
      case EventKey::kPid:
      case EventKey::kTid: ReadPidOrTid(v, kind == EventKey::kPid, &ev, &skip); break;
      case EventKey::kName:
      case EventKey::kCat: ReadNameOrCategory(v, kind == EventKey::kName, &ev, &skip); break;
      case EventKey::kId:
      case EventKey::kId2:
      case EventKey::kBindId:
        if (!ReadId(v, kind, &ev, &skip)) return false;
        break;
      case EventKey::kArgs: {
        od::object args;
        if (v.get_object().get(args)) {
          Problem(v.raw_json_token().data(), DiagCode::kBadFieldType, "\"args\" is not an object; ignored");
          break;
        }
        if (!ParseArgs(args, &ev)) return false;
        break;
      }
      case EventKey::kBp:
      case EventKey::kS:
      case EventKey::kScope:
        if (!PlainStringBody(v.raw_json_token(), &body, &escaped) || body.empty()) break;
        if (kind == EventKey::kBp && body == "e") ev.flags |= RawEvent::kBindEnclosing;
        if (kind == EventKey::kS) ev.scope = body[0];
        if (kind == EventKey::kScope) scope_hash = StringPool::Hash(body);
        break;
      case EventKey::kFlowIn:
      case EventKey::kFlowOut: {
        bool b = false;
        if (!v.get_bool().get(b) && b) ev.flags |= kind == EventKey::kFlowIn ? RawEvent::kFlowIn : RawEvent::kFlowOut;
        break;
      }
      case EventKey::kOther: break;
    }
  }
  ev.args_end = static_cast<uint32_t>(batch->args.size());
  if (!any_member) return true;  // {} terminator (TensorFlow writes one): ignored
  if (!skip && ev.ph == 0) {
    batch->AddProblem(offset, DiagCode::kMissingField, "an event without \"ph\"; skipped");
    skip = true;
  }
  if (skip) {
    batch->args.resize(ev.args_begin);
    return true;
  }
  if (scope_hash != 0) ev.id ^= scope_hash * 0x9E3779B97F4A7C15ull;  // "scope" namespaces the id
  batch->events.push_back(ev);
  return true;
}

EventTokenizer::EventTokenizer(bool keep_args) : impl_(std::make_unique<Impl>(keep_args)) {}
EventTokenizer::~EventTokenizer() = default;

TokenizeResult EventTokenizer::Tokenize(const ChunkSpec& spec, std::string_view input, RawEventBatch* batch) {
  return impl_->Run(spec, input, batch);
}

void EventTokenizer::set_fast_path(bool enabled) { impl_->fast_path = enabled; }
uint64_t EventTokenizer::fast_chunks() const { return impl_->fast_chunks; }
uint64_t EventTokenizer::fast_give_ups() const { return impl_->fast_give_ups; }

}  // namespace stepline::loaders
