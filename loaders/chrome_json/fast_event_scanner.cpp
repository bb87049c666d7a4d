// ScanChunkEventsFast (see fast_event_scanner.h): one pass over a middle
// chunk, mirroring EventTokenizer::Impl's member readers (event_fields.cpp)
// case by case; every case those readers would turn into a problem, or that
// needs simdjson's judgement (unescaping, a number beyond int64/double), is a
// give-up here instead. Its lexical pieces are headers of their own:
// string_stop.h (strings), fast_number.h (numbers), event_key.h (keys).
//
// [SECTION] The scanner: events, members, args, skipped values
// [SECTION] Entry points
#include "loaders/chrome_json/fast_event_scanner.h"

#include <algorithm>
#include <charconv>
#include <cstring>

#include "loaders/chrome_json/event_tokenizer_impl.h"
#include "loaders/chrome_json/fast_number.h"
#include "loaders/chrome_json/json_number.h"
#include "loaders/chrome_json/json_validate.h"
#include "loaders/chrome_json/string_stop.h"
#include "model/string_pool.h"

namespace stepline::loaders {
namespace {

constexpr int kMaxDepth = 64;  // deeper values go to simdjson (its limit is 1024)

using fast_number::EndsScalar;
using fast_number::MicrosToNs;
using fast_number::Number;

//-----------------------------------------------------------------------------
// [SECTION] The scanner: events, members, args, skipped values
//-----------------------------------------------------------------------------

// Each reader returns false to give the chunk up. Readers start at their
// value's first byte (whitespace already skipped) and end just past it.
class FastScanner {
 public:
  FastScanner(std::string_view input, const ChunkSpec& spec, bool keep_args, RawEventBatch* batch)
      : base_(input.data()), p_(input.data() + spec.begin), end_(input.data() + spec.end), keep_args_(keep_args),
        batch_(batch) {}

  // The body of "[" + events + "]", where the chunk's last comma (the one
  // before the next chunk's first event) counts as blank.
  bool Events() {
    SkipSpace();
    while (p_ < end_) {
      if (*p_ != '{' || !Event()) return false;
      SkipSpace();
      if (p_ == end_) break;
      if (*p_ != ',') return false;
      ++p_;
      SkipSpace();
      if (p_ < end_ && *p_ != '{') return false;
    }
    return true;
  }

 private:
  // The byte at end_ is readable (ScanChunkEventsFast's entry check), so the
  // usual case, no space, is one load and one compare: the bound is tested
  // only on a space. A tenth of the scanner's instructions were this loop.
  void SkipSpace() {
    while (IsJsonSpace(*p_) && p_ < end_) ++p_;
  }
  bool Expect(char c) {
    SkipSpace();
    if (p_ == end_ || *p_ != c) return false;
    ++p_;
    SkipSpace();
    return p_ < end_;
  }

  // A string at p_ ('"'): its raw body (escapes as written). An escape is
  // stepped over (its letter is not checked: simdjson does not check what it
  // does not unescape); *escaped says there were some.
  [[gnu::always_inline]] bool String(std::string_view* body, bool* escaped) {
    const char* start = ++p_;
    *escaped = false;
    for (;;) {
      p_ = FindStringStop(p_, end_);
      if (p_ == end_) return false;
      if (*p_ == '"') break;
      if (static_cast<unsigned char>(*p_) >= 0x80) {
        const size_t n = Utf8SequenceLength(reinterpret_cast<const unsigned char*>(p_),
                                            reinterpret_cast<const unsigned char*>(end_));
        if (n == 0) return false;  // invalid UTF-8: simdjson's repair path
        p_ += n;
        continue;
      }
      if (*p_ != '\\' || end_ - p_ < 2) return false;  // a raw control byte: the repair path too
      // simdjson checks the escaped byte like any other byte of the string:
      // a control byte or non-ASCII there fails the document (a review finding).
      const auto next = static_cast<unsigned char>(p_[1]);
      if (next < 0x20 || next >= 0x80) return false;
      *escaped = true;
      p_ += 2;
    }
    *body = std::string_view(start, static_cast<size_t>(p_ - start));
    ++p_;
    return true;
  }
  // A string read as text: escapes would need unescaping, which is simdjson's.
  bool PlainString(std::string_view* body) {
    bool escaped = false;
    return String(body, &escaped) && !escaped;
  }
  bool ReadNumber(Number* n) {
    const char* e = fast_number::ReadNumber(p_, end_, n);
    if (e == nullptr) return false;
    p_ = e;
    return true;
  }
  // true / false / null at p_; *value is the literal's first byte.
  bool Literal(char* value) {
    const char c = *p_;
    const std::string_view word = c == 't' ? "true" : c == 'f' ? "false" : "null";
    if (static_cast<size_t>(end_ - p_) < word.size() || std::memcmp(p_, word.data(), word.size()) != 0) return false;
    p_ += word.size();
    if (p_ < end_ && !EndsScalar(*p_)) return false;
    *value = c;
    return true;
  }

  // Any value, checked strictly and dropped (simdjson skips what is not read).
  bool SkipValue(int depth) {
    std::string_view text;
    bool flag = false;
    char literal = 0;
    Number number;
    switch (*p_) {
      case '"': return String(&text, &flag);
      case '{':
      case '[': return SkipContainer(depth + 1);
      case 't':
      case 'f':
      case 'n': return Literal(&literal);
      default: return ReadNumber(&number);
    }
  }
  bool SkipContainer(int depth) {
    if (depth > kMaxDepth) return false;
    const char close = *p_ == '{' ? '}' : ']';
    const bool object = close == '}';
    ++p_;
    SkipSpace();
    if (p_ < end_ && *p_ == close) {
      ++p_;
      return true;
    }
    for (;;) {
      if (p_ == end_) return false;
      if (object) {
        std::string_view key;
        bool escaped = false;
        if (*p_ != '"' || !String(&key, &escaped) || !Expect(':')) return false;
      }
      if (!SkipValue(depth)) return false;
      SkipSpace();
      if (p_ == end_) return false;
      if (*p_ == close) {
        ++p_;
        return true;
      }
      if (*p_ != ',') return false;
      ++p_;
      SkipSpace();
    }
  }

  bool Event();
  bool Member(EventKey kind, RawEvent* ev, uint64_t* scope_hash);
  bool Time(bool is_ts, RawEvent* ev);
  bool PidOrTid(bool is_pid, RawEvent* ev);
  bool NameOrCategory(bool is_name, RawEvent* ev);
  bool Id(bool is_bind_id, RawEvent* ev);
  bool Args(RawEvent* ev);
  bool ArgValue(uint32_t key, uint32_t position, RawArg* arg, RawEvent* ev);  // position: the arg's, for InternAt
  bool ArgNumber(uint32_t key, RawArg* arg, RawEvent* ev);

  const char* base_;  // the input's first byte: offsets are input offsets
  const char* p_;
  const char* end_;
  bool keep_args_;
  RawEventBatch* batch_;
  std::string scratch_;
};

// EventTokenizer::Impl::ParseEvent, minus its problems.
bool FastScanner::Event() {
  // Filled in place. Copied from a blank event rather than value-initialized:
  // GCC zeroes 88 bytes with `rep stos`, whose start-up cost was 5% of the
  // scanner's time (perf annotate); a copy is a few vector moves.
  static constexpr RawEvent kBlank{};
  RawEvent& ev = batch_->events.emplace_back(kBlank);
  ev.offset = static_cast<uint64_t>(p_ - base_);
  ev.args_begin = static_cast<uint32_t>(batch_->args.size());
  uint64_t scope_hash = 0;
  ++p_;
  SkipSpace();
  bool any_member = false;
  if (p_ < end_ && *p_ == '}') {
    ++p_;
  } else {
    for (;;) {
      if (p_ == end_ || *p_ != '"') return false;
      EventKey kind = EventKey::kOther;
      if (const size_t n = end_ - p_ >= 8 ? MatchKnownMember(p_, &kind) : 0; n != 0) {
        p_ += n;  // past the colon: what Expect(':') leaves, spaces aside
        SkipSpace();
        if (p_ == end_) return false;
      } else {
        std::string_view key;
        if (!PlainString(&key) || !Expect(':')) return false;
        kind = ClassifyEventKeyIn(key, end_);
      }
      any_member = true;
      if (!(kind == EventKey::kOther ? SkipValue(1) : Member(kind, &ev, &scope_hash))) return false;
      SkipSpace();
      if (p_ == end_) return false;
      if (*p_ == '}') {
        ++p_;
        break;
      }
      if (*p_ != ',') return false;
      ++p_;
      SkipSpace();
    }
  }
  ev.args_end = static_cast<uint32_t>(batch_->args.size());
  if (!any_member) {  // {} terminator: ignored, as the simdjson walk does
    batch_->events.pop_back();
    return true;
  }
  if (ev.ph == 0) return false;  // a problem ("an event without \"ph\"")
  if (scope_hash != 0) ev.id ^= scope_hash * 0x9E3779B97F4A7C15ull;
  return true;
}

bool FastScanner::Member(EventKey kind, RawEvent* ev, uint64_t* scope_hash) {
  std::string_view body;
  bool escaped = false;
  char literal = 0;
  switch (kind) {
    case EventKey::kPh:
      // One plain character; anything else is a problem or a bad phase.
      if (const auto c = static_cast<unsigned char>(p_[1]);
          end_ - p_ >= 3 && p_[0] == '"' && p_[2] == '"' && c >= 0x20 && c < 0x80 && c != '\\' && c != '"') {
        ev->ph = static_cast<char>(c);  // String's answer, without the scan for the closing quote
        p_ += 3;
        return true;
      }
      if (*p_ != '"' || !String(&body, &escaped) || body.size() != 1) return false;
      ev->ph = body[0];
      return true;
    case EventKey::kTs:
    case EventKey::kDur: return Time(kind == EventKey::kTs, ev);
    case EventKey::kPid:
    case EventKey::kTid: return PidOrTid(kind == EventKey::kPid, ev);
    case EventKey::kName:
    case EventKey::kCat: return NameOrCategory(kind == EventKey::kName, ev);
    case EventKey::kId:
    case EventKey::kBindId: return Id(kind == EventKey::kBindId, ev);
    case EventKey::kArgs: return *p_ == '{' && Args(ev);
    case EventKey::kBp:
    case EventKey::kS:
    case EventKey::kScope:
      // The raw body, escapes as written (PlainStringBody); other values are ignored.
      if (*p_ != '"') return SkipValue(1);
      if (!String(&body, &escaped)) return false;
      if (body.empty()) return true;
      if (kind == EventKey::kBp && body == "e") ev->flags |= RawEvent::kBindEnclosing;
      if (kind == EventKey::kS) ev->scope = body[0];
      if (kind == EventKey::kScope) *scope_hash = StringPool::Hash(body);
      return true;
    case EventKey::kFlowIn:
    case EventKey::kFlowOut:
      if (*p_ != 't' && *p_ != 'f') return SkipValue(1);  // not a boolean: ignored
      if (!Literal(&literal)) return false;
      if (literal == 't') ev->flags |= kind == EventKey::kFlowIn ? RawEvent::kFlowIn : RawEvent::kFlowOut;
      return true;
    case EventKey::kId2:  // an object: the simdjson walk reads it
    case EventKey::kOther: return false;
  }
  return false;
}

// The largest integer part whose nanoseconds, with 3 decimals, fit in int64.
constexpr uint64_t kMaxExactMicros = (static_cast<uint64_t>(INT64_MAX) - 999) / 1000;

// ReadTime: a number or a plain numeric string; anything else is a problem.
bool FastScanner::Time(bool is_ts, RawEvent* ev) {
  int64_t ns = 0;
  const char* e = nullptr;
  if (*p_ == '"') {
    std::string_view text;
    if (!PlainString(&text) || ParseMicrosToNs(text, &ns) != NumberStatus::kOk) return false;
  } else if (fast_number::ShortNumber sn;
             (e = fast_number::ReadShortNumber(p_, end_, &sn)) != nullptr && sn.int_part <= kMaxExactMicros) {
    ns = static_cast<int64_t>(sn.int_part * 1000 + sn.frac3);  // MicrosToNs's answer, without overflow
    p_ = e;
  } else {
    Number n;
    if (!ReadNumber(&n) || MicrosToNs(n, &ns) != NumberStatus::kOk) return false;
  }
  if (is_ts) {
    ev->ts_ns = ns;
    ev->flags |= RawEvent::kHasTs;
  } else {
    ev->dur_ns = ns;
    ev->flags |= RawEvent::kHasDur;
  }
  return true;
}

// ReadPidOrTid: numbers and numeric strings are keys, "stream N" tids too,
// any other plain string is a local string id.
bool FastScanner::PidOrTid(bool is_pid, RawEvent* ev) {
  const auto string_flag = is_pid ? RawEvent::kPidIsString : RawEvent::kTidIsString;
  if (fast_number::ShortNumber sn; *p_ != '"') {
    // A short integer: the key the general path below reads from it.
    if (const char* e = fast_number::ReadShortNumber(p_, end_, &sn); e != nullptr && !sn.fraction) {
      p_ = e;
      (is_pid ? ev->pid : ev->tid) = static_cast<int64_t>(sn.int_part);
      ev->flags &= static_cast<decltype(ev->flags)>(~string_flag);
      if (is_pid) ev->flags |= RawEvent::kHasPid;
      return true;
    }
  }
  std::string_view text;
  Number n;
  const bool was_string = *p_ == '"';
  if (was_string ? !PlainString(&text) : !ReadNumber(&n)) return false;
  int64_t value = 0;
  bool numeric = false;
  if (!was_string && n.integral && n.int_digits <= 18) {
    // ParseIntegerKey's answer, already read.
    value = n.negative ? -static_cast<int64_t>(n.int_part) : static_cast<int64_t>(n.int_part);
    numeric = true;
  } else {
    if (!was_string) text = n.text;
    numeric = ParseIntegerKey(text, &value) ||
              (!was_string && ParseScaledDecimal(text, 0, &value) == NumberStatus::kOk);
  }
  if (!numeric && was_string && !is_pid && text.starts_with("stream ")) numeric = ParseIntegerKey(text.substr(7), &value);
  if (numeric) {
    (is_pid ? ev->pid : ev->tid) = value;
    ev->flags &= static_cast<decltype(ev->flags)>(~string_flag);
  } else {
    if (!was_string) return false;  // a number no key holds: a problem
    (is_pid ? ev->pid : ev->tid) = batch_->strings.Intern(text);
    ev->flags |= string_flag;
  }
  if (is_pid) ev->flags |= RawEvent::kHasPid;
  return true;
}

// ReadNameOrCategory: a plain string, or a number kept as its text.
bool FastScanner::NameOrCategory(bool is_name, RawEvent* ev) {
  std::string_view text;
  Number n;
  if (*p_ == '"') {
    if (!PlainString(&text)) return false;
  } else {
    if (!ReadNumber(&n)) return false;
    text = n.text;  // a numeric name keeps its text
  }
  (is_name ? ev->name : ev->cat) =
      batch_->strings.InternAt(is_name ? LocalStringTable::kSiteName : LocalStringTable::kSiteCategory, text);
  return true;
}

// ReadId for "id" and "bind_id": a number, or a string's raw body.
bool FastScanner::Id(bool is_bind_id, RawEvent* ev) {
  std::string_view text;
  bool flag = false;
  Number n;
  if (*p_ == '"') {
    if (!String(&text, &flag)) return false;
  } else if (fast_number::ShortNumber sn; const char* e = fast_number::ReadShortNumber(p_, end_, &sn)) {
    if (!sn.fraction) {  // SetEventId's answer for a short integer's text: its value
      p_ = e;
      ev->flags |= is_bind_id ? RawEvent::kHasBindId : RawEvent::kHasId;
      (is_bind_id ? ev->bind_id : ev->id) = sn.int_part;
      return true;
    }
    text = std::string_view(p_, static_cast<size_t>(e - p_));
    p_ = e;
  } else {
    if (!ReadNumber(&n)) return false;
    text = n.text;
  }
  SetEventId(text, is_bind_id, ev);
  return true;
}

// ParseArgs: every key is interned; values kept as the simdjson walk keeps them.
bool FastScanner::Args(RawEvent* ev) {
  ++p_;
  SkipSpace();
  if (p_ < end_ && *p_ == '}') {
    ++p_;
    return true;
  }
  for (uint32_t position = 0;; position = std::min(position + 1, LocalStringTable::kSitePositions - 1)) {
    std::string_view key;
    if (p_ == end_ || *p_ != '"' || !PlainString(&key) || !Expect(':')) return false;
    RawArg arg;
    arg.key =
        batch_->strings.InternAt(static_cast<LocalStringTable::Site>(LocalStringTable::kSiteArgKey + position), key);
    const bool keep = keep_args_ || arg.key < kWellKnownCount || ev->ph == 0 || ev->ph == 'C' || ev->ph == 'M';
    if (!keep) {
      if (!SkipValue(2)) return false;
    } else {
      if (!ArgValue(arg.key, position, &arg, ev)) return false;
      batch_->args.push_back(arg);
    }
    SkipSpace();
    if (p_ == end_) return false;
    if (*p_ == '}') {
      ++p_;
      return true;
    }
    if (*p_ != ',') return false;
    ++p_;
    SkipSpace();
  }
}

// ReadValue's cases for an arg of an event.
bool FastScanner::ArgValue(uint32_t key, uint32_t position, RawArg* arg, RawEvent* ev) {
  std::string_view body;
  bool escaped = false;
  char literal = 0;
  switch (*p_) {
    case '"': {
      if (!String(&body, &escaped)) return false;
      uint64_t corr = 0;
      bool is_corr = false;
      if (key == kStrCorrelationId && !escaped && ParseCanonicalDecimal(body, &corr)) {
        arg->type = ArgType::kDecimalString;
        arg->bits = corr;
        is_corr = true;
      } else {
        if (escaped) return false;  // unescaping is simdjson's
        const uint32_t id = batch_->strings.InternAt(
            static_cast<LocalStringTable::Site>(LocalStringTable::kSiteArgString + position), body);
        arg->type = ArgType::kString;
        arg->bits = id;
        is_corr = key == kStrCorrelationId && ParseIdText(batch_->strings.Get(id), &corr);
      }
      if (is_corr) {
        ev->correlation = corr;
        ev->flags |= RawEvent::kHasCorrelation | RawEvent::kCorrelationFromTb;
      } else if (key == kStrMemcpyDetails) {
        ev->flags |= RawEvent::kHasMemcpyDetails;
      }
      return true;
    }
    case 't':
    case 'f':
    case 'n':
      if (!Literal(&literal)) return false;
      if (literal == 'n') {
        arg->type = ArgType::kJson;
        arg->bits = batch_->strings.Intern("null");
      } else {
        arg->type = ArgType::kBool;
        arg->bits = literal == 't' ? 1 : 0;
      }
      return true;
    case '{':
    case '[': {
      const char* start = p_;
      if (!SkipContainer(2)) return false;
      const std::string_view raw(start, static_cast<size_t>(p_ - start));
      std::string expected;
      if (FindJsonSyntaxError(raw, &expected) != std::string_view::npos) return false;
      scratch_.resize(raw.size());
      scratch_.resize(CompactJson(raw, scratch_.data()));
      arg->type = ArgType::kJson;
      arg->bits = batch_->strings.Intern(scratch_);
      return true;
    }
    default: return ArgNumber(key, arg, ev);
  }
}

// simdjson's get_int64 / get_uint64 / get_double, for the numbers whose
// answer is certain: integers within int64 or uint64, finite doubles
// (std::from_chars rounds correctly, as simdjson does).
bool FastScanner::ArgNumber(uint32_t key, RawArg* arg, RawEvent* ev) {
  Number n;
  if (fast_number::ShortNumber sn; const char* e = fast_number::ReadShortNumber(p_, end_, &sn)) {
    // Up to 16 digits: an int64, as below, without a Number.
    n.text = std::string_view(p_, static_cast<size_t>(e - p_));
    p_ = e;
    if (!sn.fraction) {
      arg->type = ArgType::kInt;
      arg->bits = sn.int_part;
      if (key == kStrCorrelation) {
        ev->correlation = arg->bits;
        ev->flags |= RawEvent::kHasCorrelation;
      }
      return true;
    }
    n.integral = false;
  } else if (!ReadNumber(&n)) {
    return false;
  }
  const std::string_view text = n.text;
  if (n.integral) {
    const bool negative = n.negative;
    uint64_t magnitude = n.int_part;
    if (n.int_digits > 19) {
      // Beyond the digits read: ParseIntegerKey keeps values up to UINT64_MAX
      // as their bits (a negative one this long is below INT64_MIN anyway).
      int64_t bits = 0;
      if (negative || !ParseIntegerKey(text, &bits)) return false;
      magnitude = static_cast<uint64_t>(bits);
    }
    if (negative) {
      if (magnitude == 0 || magnitude > static_cast<uint64_t>(INT64_MAX)) return false;  // "-0", below INT64_MIN + 1
      arg->type = ArgType::kInt;
      arg->bits = static_cast<uint64_t>(-static_cast<int64_t>(magnitude));
    } else {
      arg->type = magnitude <= static_cast<uint64_t>(INT64_MAX) ? ArgType::kInt : ArgType::kUint;
      arg->bits = magnitude;
    }
    if (key == kStrCorrelation) {
      ev->correlation = arg->bits;
      ev->flags |= RawEvent::kHasCorrelation;
    }
    return true;
  }
  // No exponent and few digits: far from overflow and underflow, where
  // simdjson's error and from_chars' answer could part ways.
  if (text.size() > 32 || text.find_first_of("eE") != std::string_view::npos) return false;
  double d = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), d);
  if (ec != std::errc() || end != text.data() + text.size()) return false;
  arg->type = ArgType::kDouble;
  std::memcpy(&arg->bits, &d, sizeof d);
  return true;
}

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] Entry points
//-----------------------------------------------------------------------------

bool FastPathApplies(const ChunkSpec& spec) {
  return !spec.starts_document && !spec.ends_document && spec.opener == "[" && spec.closer == "]" &&
         spec.blanks.empty();
}

bool ScanChunkEventsFast(const ChunkSpec& spec, std::string_view input, bool keep_args, RawEventBatch* batch) {
  // A middle chunk has the next one after it, so input[spec.end] exists.
  if (!FastPathApplies(spec) || spec.end >= input.size() || spec.begin > spec.end) return false;
  FastScanner scanner(input, spec, keep_args, batch);
  return scanner.Events();
}

}  // namespace stepline::loaders
