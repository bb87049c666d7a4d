// Tiling a Chrome-JSON trace for load benchmarks; see trace_tiler.h.
//
// Two passes over the (small) original text: find the event array and every
// event-level "ts" number in it, then emit the copies by memcpy of the text
// between those numbers plus a rewritten number each time. The scanner only
// understands enough JSON to skip strings and nested values correctly.
#include "app/cli/trace_tiler.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

namespace stepline::app {
namespace {

constexpr size_t kNpos = std::string_view::npos;
constexpr int64_t kGapBetweenCopiesUs = 1000;  // 1 ms of silence between copies

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

size_t SkipSpace(std::string_view text, size_t pos) {
  while (pos < text.size() && IsSpace(text[pos])) ++pos;
  return pos;
}

// `pos` is at an opening quote; returns the position after the closing one.
size_t SkipString(std::string_view text, size_t pos) {
  for (size_t i = pos + 1; i < text.size(); ++i) {
    if (text[i] == '\\') {
      ++i;
    } else if (text[i] == '"') {
      return i + 1;
    }
  }
  return kNpos;
}

// `pos` is at the first character of a value; returns the position after it.
size_t SkipValue(std::string_view text, size_t pos) {
  if (pos >= text.size()) return kNpos;
  const char first = text[pos];
  if (first == '"') return SkipString(text, pos);
  if (first != '{' && first != '[') {
    while (pos < text.size() && !IsSpace(text[pos]) && text[pos] != ',' && text[pos] != '}' && text[pos] != ']') ++pos;
    return pos;
  }
  int depth = 0;
  for (size_t i = pos; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      i = SkipString(text, i);
      if (i == kNpos) return kNpos;
      --i;  // the loop's ++i lands after the string
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if ((c == '}' || c == ']') && --depth == 0) {
      return i + 1;
    }
  }
  return kNpos;
}

struct EventArray {
  size_t open = 0;   // position of '['
  size_t close = 0;  // position of the matching ']'
};

Result<EventArray, std::string> FindEventArray(std::string_view text) {
  size_t pos = 0;
  if (text.substr(0, 3) == "\xEF\xBB\xBF") pos = 3;  // UTF-8 BOM
  pos = SkipSpace(text, pos);
  if (pos < text.size() && text[pos] == '{') {
    // Object form: walk the top-level members until "traceEvents".
    pos = SkipSpace(text, pos + 1);
    while (pos < text.size() && text[pos] == '"') {
      const size_t key_end = SkipString(text, pos);
      if (key_end == kNpos) break;
      const std::string_view key = text.substr(pos + 1, key_end - pos - 2);
      pos = SkipSpace(text, key_end);
      if (pos >= text.size() || text[pos] != ':') break;
      pos = SkipSpace(text, pos + 1);
      if (key == "traceEvents" && pos < text.size() && text[pos] == '[') break;
      pos = SkipSpace(text, SkipValue(text, pos));
      if (pos < text.size() && text[pos] == ',') pos = SkipSpace(text, pos + 1);
    }
    if (pos >= text.size() || text[pos] != '[') return MakeUnexpected(std::string("no \"traceEvents\" array found"));
  } else if (pos >= text.size() || text[pos] != '[') {
    return MakeUnexpected(std::string("not a Chrome-JSON trace (expected '{' or '[')"));
  }
  const size_t end = SkipValue(text, pos);
  if (end == kNpos) return MakeUnexpected(std::string("the event array is not terminated"));
  return EventArray{pos, end - 1};
}

// One event-level "ts" number: where its text is in the original.
struct NumberRef {
  size_t pos = 0;
  size_t len = 0;
};

struct EventScan {
  std::vector<NumberRef> ts_refs;
  double min_ts_us = std::numeric_limits<double>::infinity();
  double max_end_us = -std::numeric_limits<double>::infinity();
};

bool ParseDouble(std::string_view text, double* v) {
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), *v);
  return ec == std::errc() && ptr == text.data() + text.size();
}

// Scans one event object starting at `pos` ('{'); returns the position after it.
size_t ScanEvent(std::string_view text, size_t pos, EventScan* scan) {
  double ts = 0, dur = 0;
  bool has_ts = false;
  pos = SkipSpace(text, pos + 1);
  while (pos < text.size() && text[pos] == '"') {
    const size_t key_end = SkipString(text, pos);
    if (key_end == kNpos) return kNpos;
    const std::string_view key = text.substr(pos + 1, key_end - pos - 2);
    pos = SkipSpace(text, key_end);
    if (pos >= text.size() || text[pos] != ':') return kNpos;
    pos = SkipSpace(text, pos + 1);
    const size_t value_end = SkipValue(text, pos);
    if (value_end == kNpos) return kNpos;
    const std::string_view value = text.substr(pos, value_end - pos);
    double number = 0;
    if ((key == "ts" || key == "dur") && ParseDouble(value, &number)) {
      if (key == "ts") {
        scan->ts_refs.push_back({pos, value.size()});
        ts = number;
        has_ts = true;
      } else {
        dur = std::max(0.0, number);
      }
    }
    pos = SkipSpace(text, value_end);
    if (pos < text.size() && text[pos] == ',') pos = SkipSpace(text, pos + 1);
  }
  if (pos >= text.size() || text[pos] != '}') return kNpos;
  if (has_ts) {
    scan->min_ts_us = std::min(scan->min_ts_us, ts);
    scan->max_end_us = std::max(scan->max_end_us, ts + dur);
  }
  return pos + 1;
}

Result<EventScan, std::string> ScanEvents(std::string_view text, size_t begin, size_t end) {
  EventScan scan;
  size_t pos = SkipSpace(text, begin);
  while (pos < end) {
    const size_t next = text[pos] == '{' ? ScanEvent(text, pos, &scan) : SkipValue(text, pos);
    if (next == kNpos || next > end) {
      return MakeUnexpected("malformed event near byte " + std::to_string(pos));
    }
    pos = SkipSpace(text, next);
    if (pos < end && text[pos] == ',') pos = SkipSpace(text, pos + 1);
  }
  if (scan.ts_refs.empty()) return MakeUnexpected(std::string("no event has a numeric \"ts\""));
  return scan;
}

// Appends `number` + `delta_us`. A plain non-negative decimal is shifted on
// its integer digits so the fraction (ns digits, ps digits) stays exact.
void AppendShifted(std::string* out, std::string_view number, int64_t delta_us) {
  if (delta_us == 0) {
    out->append(number);
    return;
  }
  const size_t dot = number.find('.');
  const std::string_view int_part = number.substr(0, dot);
  const std::string_view frac_part = dot == kNpos ? std::string_view() : number.substr(dot);
  const auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  const bool plain = !int_part.empty() && int_part.size() <= 17 &&
                     std::all_of(int_part.begin(), int_part.end(), is_digit) &&
                     std::all_of(frac_part.begin() + (frac_part.empty() ? 0 : 1), frac_part.end(), is_digit);
  if (plain) {
    int64_t value = 0;
    std::from_chars(int_part.data(), int_part.data() + int_part.size(), value);
    out->append(std::to_string(value + delta_us));
    out->append(frac_part);
    return;
  }
  double value = 0;
  ParseDouble(number, &value);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", value + static_cast<double>(delta_us));
  out->append(buf);
}

}  // namespace

Result<TiledTrace, std::string> TileChromeJson(std::string_view json, uint64_t min_bytes) {
  auto array = FindEventArray(json);
  if (!array) return MakeUnexpected(array.error());
  const size_t body_begin = SkipSpace(json, array->open + 1);
  size_t body_end = array->close;
  while (body_end > body_begin && (IsSpace(json[body_end - 1]) || json[body_end - 1] == ',')) --body_end;
  if (body_end <= body_begin) return MakeUnexpected(std::string("the event array is empty"));

  auto scan = ScanEvents(json, body_begin, body_end);
  if (!scan) return MakeUnexpected(scan.error());

  TiledTrace tiled;
  tiled.ts_fields = scan->ts_refs.size();
  tiled.shift_us = static_cast<int64_t>(std::ceil(scan->max_end_us - scan->min_ts_us)) + kGapBetweenCopiesUs;
  const uint64_t body_bytes = body_end - body_begin;
  tiled.copies = static_cast<uint32_t>(std::max<uint64_t>(1, (min_bytes + body_bytes - 1) / body_bytes));

  std::string& out = tiled.json;
  // Shifted numbers can be a few digits longer than the originals.
  out.reserve(json.size() + (tiled.copies - 1) * (body_bytes + 1 + 4 * tiled.ts_fields));
  out.append(json.substr(0, body_begin));
  for (uint32_t copy = 0; copy < tiled.copies; ++copy) {
    if (copy > 0) out.push_back(',');
    const int64_t delta_us = static_cast<int64_t>(copy) * tiled.shift_us;
    size_t pos = body_begin;
    for (const NumberRef& ref : scan->ts_refs) {
      out.append(json.substr(pos, ref.pos - pos));
      AppendShifted(&out, json.substr(ref.pos, ref.len), delta_us);
      pos = ref.pos + ref.len;
    }
    out.append(json.substr(pos, body_end - pos));
  }
  out.append(json.substr(array->close));
  return tiled;
}

}  // namespace stepline::app
