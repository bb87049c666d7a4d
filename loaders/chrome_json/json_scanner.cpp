// JsonScanner: exact structural scan of a Chrome trace (see json_scanner.h).
//
// What it accepts mirrors simdjson's on-demand parser, so that the fast path
// and this exact path agree on what loads: structure, strings and escapes are
// checked strictly; a scalar is any run of bytes that is neither whitespace,
// structural ({}[]:,) nor a quote (its *meaning* is checked by the tokenizer
// when the field matters, e.g. "ts"); raw control bytes inside strings are
// accepted here and repaired later (ChunkDocument).
//
// [SECTION] Scanner state
// [SECTION] Lexical helpers
// [SECTION] The scan loop
#include "loaders/chrome_json/json_scanner.h"

#include <cstdio>
#include <cstring>

#include "loaders/chrome_json/json_lexical.h"

namespace stepline::loaders {
namespace {

//-----------------------------------------------------------------------------
// [SECTION] Scanner state
//-----------------------------------------------------------------------------

using Expect = JsonExpect;

class Scanner {
 public:
  Scanner(std::string_view text, uint64_t split_bytes) : text_(text), split_bytes_(split_bytes) {}
  ScanReport Run(const ScanStart& start);

 private:
  // Container levels that matter: the top-level object (object form) and the
  // events array.
  bool AtEventsLevel() const { return events_depth_ != 0 && stack_.size() == events_depth_; }
  bool AtTopObjectLevel() const { return report_.object_form && stack_.size() == 1; }

  bool Fail(ScanReport::Status status, uint64_t offset, std::string message) {
    report_.status = status;
    report_.error_offset = offset;
    report_.message = std::move(message);
    return false;
  }
  bool SyntaxError(uint64_t offset, std::string message) {
    if (events_depth_ != 0) report_.error_event_begin = last_event_begin_;
    return Fail(ScanReport::Status::kSyntaxError, offset, std::move(message));
  }
  std::string Unexpected(uint64_t offset) const;
  std::string CloseMessage() const;

  bool ScanString(uint64_t* pos, std::string_view* contents);
  void SkipScalar(uint64_t* pos) const;
  bool OnValueStart(uint64_t pos);
  bool OnValueEnd(uint64_t end);
  bool OnClose(uint64_t pos, char c);
  void Finish(uint64_t end);

  std::string_view text_;
  uint64_t split_bytes_;
  uint64_t next_split_ = 0;
  uint64_t stop_at_ = UINT64_MAX;
  uint64_t last_event_begin_ = ScanReport::kNone;  // the latest value started at events level
  ScanReport report_;
  std::vector<char> stack_;          // '{' or '[' per open container
  size_t events_depth_ = 0;          // stack size inside the events array; 0 = not open
  bool pending_events_key_ = false;  // the last top-level key was "traceEvents"
  bool events_seen_ = false;
  Expect expect_ = Expect::kValue;
  // Truncation bookkeeping: the end of the last complete event / top-level
  // member and the closer that makes the prefix a valid document.
  uint64_t safe_end_ = 0;
  std::string safe_closer_;
};

//-----------------------------------------------------------------------------
// [SECTION] Lexical helpers
//-----------------------------------------------------------------------------

std::string Scanner::Unexpected(uint64_t offset) const {
  const auto c = static_cast<unsigned char>(text_[offset]);
  char buf[48];
  if (c >= 0x20 && c < 0x7F)
    std::snprintf(buf, sizeof buf, "'%c'", c);
  else
    std::snprintf(buf, sizeof buf, "byte 0x%02X", c);
  return buf;
}

std::string Scanner::CloseMessage() const {
  if (AtEventsLevel()) return "expected ',' or ']' after an event";
  return stack_.back() == '{' ? "expected ',' or '}' after an object member"
                              : "expected ',' or ']' after an array element";
}

// Scans a string starting at the opening quote; on success *pos is just past
// the closing quote. Escapes are validated; other bytes are not.
bool Scanner::ScanString(uint64_t* pos, std::string_view* contents) {
  const uint64_t open = *pos;
  uint64_t i = open + 1;
  const uint64_t n = text_.size();
  const char* data = text_.data();
  for (;;) {
    // Skip ordinary bytes eight at a time: stop at a quote or a backslash.
    while (i + 8 <= n) {
      uint64_t w;
      std::memcpy(&w, data + i, 8);
      const uint64_t q = w ^ 0x2222222222222222ull, b = w ^ 0x5C5C5C5C5C5C5C5Cull;
      const uint64_t hit = ((q - 0x0101010101010101ull) & ~q) | ((b - 0x0101010101010101ull) & ~b);
      if (hit & 0x8080808080808080ull) break;
      i += 8;
    }
    while (i < n && data[i] != '"' && data[i] != '\\') ++i;
    if (i >= n) {
      *pos = n;
      return false;  // the input ends inside the string: truncation
    }
    if (data[i] == '"') {
      *contents = text_.substr(open + 1, i - open - 1);
      *pos = i + 1;
      return true;
    }
    // Escape sequence.
    if (i + 1 >= n) {
      *pos = n;
      return false;
    }
    const char e = data[i + 1];
    if (e == 'u') {
      for (int k = 0; k < 4; ++k) {
        if (i + 2 + k >= n) {
          *pos = n;
          return false;
        }
        const char h = data[i + 2 + k];
        const bool hex = (h >= '0' && h <= '9') || (h >= 'a' && h <= 'f') || (h >= 'A' && h <= 'F');
        if (!hex) return SyntaxError(i, "invalid \\u escape in a string (expected 4 hex digits)");
      }
      i += 6;
    } else if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r' || e == 't') {
      i += 2;
    } else {
      return SyntaxError(i, "invalid escape '\\" + std::string(1, e) + "' in a string");
    }
  }
}

void Scanner::SkipScalar(uint64_t* pos) const {
  uint64_t i = *pos;
  while (i < text_.size()) {
    const auto c = static_cast<unsigned char>(text_[i]);
    if (IsJsonSpace(c) || IsJsonStructural(c)) break;
    ++i;
  }
  *pos = i;
}

//-----------------------------------------------------------------------------
// [SECTION] The scan loop
//-----------------------------------------------------------------------------

// A value (of any kind) starts at `pos`. Returns false to stop the scan.
bool Scanner::OnValueStart(uint64_t pos) {
  if (AtEventsLevel() && pos >= stop_at_) {
    report_.stopped_at = pos;
    report_.valid_end = pos;
    return false;
  }
  if (AtEventsLevel()) last_event_begin_ = pos;
  if (AtEventsLevel() && pos >= next_split_) {
    report_.splits.push_back(pos);
    next_split_ = pos + split_bytes_;
  }
  return true;
}

// A complete value ended just before `end`.
bool Scanner::OnValueEnd(uint64_t end) {
  if (stack_.empty()) {
    expect_ = Expect::kEnd;
    return true;
  }
  if (AtEventsLevel()) {
    safe_end_ = end;
    safe_closer_ = report_.object_form ? "]}" : "]";
  } else if (AtTopObjectLevel()) {
    safe_end_ = end;
    safe_closer_ = "}";
  }
  expect_ = Expect::kCommaOrClose;
  return true;
}

bool Scanner::OnClose(uint64_t pos, char c) {
  const char open = stack_.back();
  if ((c == ']') != (open == '[')) return SyntaxError(pos, CloseMessage() + ", found " + Unexpected(pos));
  if (AtEventsLevel()) events_depth_ = 0;  // the events array is complete
  if (AtTopObjectLevel() && !events_seen_) {
    return Fail(ScanReport::Status::kSchemaError, pos, "the top-level object has no \"traceEvents\" array");
  }
  stack_.pop_back();
  return OnValueEnd(pos + 1);
}

void Scanner::Finish(uint64_t end) {
  // Input ended. Complete, tolerated, or truncated?
  if (expect_ == Expect::kEnd) {
    report_.valid_end = end;
    return;
  }
  if (stack_.empty()) {
    report_.status = ScanReport::Status::kTruncated;  // nothing but whitespace (or a BOM)
    report_.valid_end = end;
    return;
  }
  report_.valid_end = safe_end_;
  report_.closer = safe_closer_;
  // Catapult tolerates an array-form trace that never closes its array when
  // the input stops between events.
  const bool between_events =
      AtEventsLevel() && !report_.object_form &&
      (expect_ == Expect::kCommaOrClose || expect_ == Expect::kValue || expect_ == Expect::kValueOrClose);
  bool only_space_after = true;
  for (uint64_t i = safe_end_; i < end && only_space_after; ++i) {
    const auto c = static_cast<unsigned char>(text_[i]);
    only_space_after = IsJsonSpace(c) || c == ',';
  }
  if (between_events && only_space_after) {
    report_.missing_close_tolerated = true;
  } else {
    report_.status = ScanReport::Status::kTruncated;
  }
}

ScanReport Scanner::Run(const ScanStart& start) {
  uint64_t i = start.offset;
  const uint64_t n = text_.size();
  stop_at_ = start.stop_at;
  if (start.document_start) {
    if (text_.substr(i, 3) == "\xEF\xBB\xBF") i += 3;
    report_.document_begin = i;
    while (i < n && IsJsonSpace(static_cast<unsigned char>(text_[i]))) ++i;
    if (i < n && text_[i] != '{' && text_[i] != '[') {
      Fail(ScanReport::Status::kSchemaError, i,
           "expected '{' or '[' at the start of a Chrome trace, found " + Unexpected(i));
      return std::move(report_);
    }
    report_.object_form = i < n && text_[i] == '{';
    safe_end_ = i;
  } else {
    // Resume at an event boundary proved by the chunks before it.
    report_.object_form = start.object_form;
    if (start.object_form) stack_.push_back('{');
    stack_.push_back('[');
    events_depth_ = stack_.size();
    events_seen_ = report_.found_events = true;
    safe_end_ = i;
    safe_closer_ = start.object_form ? "]}" : "]";
    expect_ = Expect::kValue;
    next_split_ = i + split_bytes_;
  }
  while (i < n) {
    const auto c = static_cast<unsigned char>(text_[i]);
    if (IsJsonSpace(c)) {
      ++i;
      continue;
    }
    switch (expect_) {
      case Expect::kEnd:
        SyntaxError(i, "unexpected " + Unexpected(i) + " after the end of the JSON document");
        return std::move(report_);
      case Expect::kColon:
        if (c != ':') {
          SyntaxError(i, "expected ':' after an object key, found " + Unexpected(i));
          return std::move(report_);
        }
        ++i;
        expect_ = Expect::kValue;
        continue;
      case Expect::kKey:
      case Expect::kKeyOrClose: {
        if (c == '}' && expect_ == Expect::kKeyOrClose) {
          if (!OnClose(i, '}')) return std::move(report_);
          ++i;
          continue;
        }
        if (c != '"') {
          SyntaxError(i,
                      std::string(expect_ == Expect::kKey ? "expected a string key" : "expected a string key or '}'") +
                          ", found " + Unexpected(i));
          return std::move(report_);
        }
        std::string_view key;
        if (!ScanString(&i, &key)) {
          if (report_.status == ScanReport::Status::kSyntaxError) return std::move(report_);
          Finish(n);
          return std::move(report_);
        }
        pending_events_key_ = AtTopObjectLevel() && key == "traceEvents" && !events_seen_;
        expect_ = Expect::kColon;
        continue;
      }
      case Expect::kCommaOrClose:
        if (c == ',') {
          ++i;
          if (stack_.back() == '{') {
            expect_ = Expect::kKey;
          } else {
            expect_ = Expect::kValue;
            // A trailing comma before the events array's ']' is tolerated.
            uint64_t j = i;
            while (j < n && IsJsonSpace(static_cast<unsigned char>(text_[j]))) ++j;
            if (j < n && text_[j] == ']' && AtEventsLevel()) {
              report_.blanks.push_back(i - 1);
              expect_ = Expect::kCommaOrClose;
            }
          }
          continue;
        }
        if (c == '}' || c == ']') {
          if (!OnClose(i, static_cast<char>(c))) return std::move(report_);
          ++i;
          continue;
        }
        SyntaxError(i, CloseMessage() + ", found " + Unexpected(i));
        return std::move(report_);
      case Expect::kValue:
      case Expect::kValueOrClose: {
        if (c == ']' && expect_ == Expect::kValueOrClose) {
          if (!OnClose(i, ']')) return std::move(report_);
          ++i;
          continue;
        }
        const bool events_value = pending_events_key_;
        pending_events_key_ = false;
        if (events_value && c != '[') {
          Fail(ScanReport::Status::kSchemaError, i, "\"traceEvents\" is not an array");
          return std::move(report_);
        }
        if (c == ']' || c == '}' || c == ',' || c == ':') {
          SyntaxError(
              i, std::string(AtEventsLevel() ? "expected an event" : "expected a value") + ", found " + Unexpected(i));
          return std::move(report_);
        }
        if (!OnValueStart(i)) return std::move(report_);
        if (c == '{' || c == '[') {
          stack_.push_back(static_cast<char>(c));
          if (events_value || (stack_.size() == 1 && c == '[' && !report_.object_form)) {
            events_depth_ = stack_.size();
            events_seen_ = report_.found_events = true;
            next_split_ = i + 1 + split_bytes_;  // the first chunk starts at the array
            safe_end_ = i + 1;
            safe_closer_ = report_.object_form ? "]}" : "]";
          } else if (stack_.size() == 1) {
            safe_end_ = i + 1;  // "{" alone becomes "{}"
            safe_closer_ = "}";
          }
          expect_ = c == '{' ? Expect::kKeyOrClose : Expect::kValueOrClose;
          ++i;
          continue;
        }
        if (c == '"') {
          std::string_view ignored;
          if (!ScanString(&i, &ignored)) {
            if (report_.status == ScanReport::Status::kSyntaxError) return std::move(report_);
            Finish(n);
            return std::move(report_);
          }
        } else {
          SkipScalar(&i);
          // A scalar running into the end of the input may be cut short.
          if (i >= n) {
            Finish(n);
            return std::move(report_);
          }
        }
        OnValueEnd(i);
        continue;
      }
    }
  }
  Finish(n);
  return std::move(report_);
}

}  // namespace

ScanReport ScanTraceJson(std::string_view text, const ScanStart& start, uint64_t split_bytes) {
  Scanner scanner(text, split_bytes == 0 ? UINT64_MAX / 2 : split_bytes);
  return scanner.Run(start);
}

}  // namespace stepline::loaders
