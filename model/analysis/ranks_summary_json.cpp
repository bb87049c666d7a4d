// RankSummary <-> JSON (see ranks_summary_json.h). The reader is a small
// strict recursive-descent JSON parser: the model may not use the loaders'
// simdjson, and a summary is small.
//
// [SECTION] Writer
// [SECTION] Reader: a JSON value tree
// [SECTION] Reader: the summary
#include "model/analysis/ranks_summary_json.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <memory>
#include <utility>
#include <vector>

namespace stepline::analysis {
namespace {

//-----------------------------------------------------------------------------
// [SECTION] Writer
//-----------------------------------------------------------------------------

void Str(std::string_view s, std::string* out) {
  out->push_back('"');
  for (char c : s) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out->push_back('\\');
      out->push_back(c);
    } else if (u < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", u);
      out->append(buf);
    } else {
      out->push_back(c);
    }
  }
  out->push_back('"');
}

template <typename Range>
void Ints(const Range& values, std::string* out) {
  out->push_back('[');
  bool first = true;
  for (auto v : values) {
    if (!first) out->push_back(',');
    first = false;
    out->append(std::to_string(static_cast<int64_t>(v)));
  }
  out->push_back(']');
}

//-----------------------------------------------------------------------------
// [SECTION] Reader: a JSON value tree
//-----------------------------------------------------------------------------

struct Value {
  enum class Type { kNull, kBool, kNumber, kString, kArray, kObject } type = Type::kNull;
  std::string text;  // string value, or the number's literal
  std::vector<Value> items;
  // Object members as two parallel lists: a std::pair of the still
  // incomplete Value would not compile with every standard library.
  std::vector<std::string> keys;
  std::vector<Value> values;
  const Value* Find(std::string_view key) const {
    for (size_t i = 0; i < keys.size(); ++i) {
      if (keys[i] == key) return &values[i];
    }
    return nullptr;
  }
};

class Parser {
 public:
  explicit Parser(std::string_view s) : s_(s) {}
  bool Parse(Value* v) {
    if (!ParseValue(v, 0)) return false;
    Skip();
    return pos_ == s_.size() || Fail("end of input");
  }
  size_t pos() const { return pos_; }
  const std::string& expected() const { return expected_; }

 private:
  bool Fail(const char* what) {
    if (expected_.empty()) expected_ = what;
    return false;
  }
  void Skip() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\r' || s_[pos_] == '\t')) ++pos_;
  }
  bool Literal(std::string_view word) {
    if (s_.substr(pos_, word.size()) != word) return Fail("a JSON value");
    pos_ += word.size();
    return true;
  }
  bool ParseString(std::string* out) {
    if (pos_ >= s_.size() || s_[pos_] != '"') return Fail("a string");
    ++pos_;
    while (pos_ < s_.size() && s_[pos_] != '"') {
      char c = s_[pos_++];
      if (c != '\\') {
        out->push_back(c);
        continue;
      }
      if (pos_ >= s_.size()) return Fail("an escape");
      c = s_[pos_++];
      switch (c) {
        case 'n': out->push_back('\n'); break;
        case 't': out->push_back('\t'); break;
        case 'r': out->push_back('\r'); break;
        case 'b': out->push_back('\b'); break;
        case 'f': out->push_back('\f'); break;
        case 'u': {
          unsigned code = 0;
          if (pos_ + 4 > s_.size() || std::from_chars(s_.data() + pos_, s_.data() + pos_ + 4, code, 16).ptr !=
                                          s_.data() + pos_ + 4) {
            return Fail("four hex digits");
          }
          pos_ += 4;
          if (code < 0x80) {
            out->push_back(static_cast<char>(code));
          } else if (code < 0x800) {
            out->push_back(static_cast<char>(0xC0 | (code >> 6)));
            out->push_back(static_cast<char>(0x80 | (code & 0x3F)));
          } else {
            out->push_back(static_cast<char>(0xE0 | (code >> 12)));
            out->push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
            out->push_back(static_cast<char>(0x80 | (code & 0x3F)));
          }
          break;
        }
        default: out->push_back(c);
      }
    }
    if (pos_ >= s_.size()) return Fail("a closing quote");
    ++pos_;
    return true;
  }
  bool ParseValue(Value* v, int depth) {
    if (depth > 64) return Fail("less nesting");
    Skip();
    if (pos_ >= s_.size()) return Fail("a JSON value");
    const char c = s_[pos_];
    if (c == '{') {
      v->type = Value::Type::kObject;
      ++pos_;
      Skip();
      if (pos_ < s_.size() && s_[pos_] == '}') return ++pos_, true;
      while (true) {
        Skip();
        std::string key;
        if (!ParseString(&key)) return false;
        Skip();
        if (pos_ >= s_.size() || s_[pos_] != ':') return Fail("':'");
        ++pos_;
        v->keys.push_back(std::move(key));
        v->values.emplace_back();
        if (!ParseValue(&v->values.back(), depth + 1)) return false;
        Skip();
        if (pos_ < s_.size() && s_[pos_] == ',') { ++pos_; continue; }
        if (pos_ < s_.size() && s_[pos_] == '}') return ++pos_, true;
        return Fail("',' or '}'");
      }
    }
    if (c == '[') {
      v->type = Value::Type::kArray;
      ++pos_;
      Skip();
      if (pos_ < s_.size() && s_[pos_] == ']') return ++pos_, true;
      while (true) {
        v->items.emplace_back();
        if (!ParseValue(&v->items.back(), depth + 1)) return false;
        Skip();
        if (pos_ < s_.size() && s_[pos_] == ',') { ++pos_; continue; }
        if (pos_ < s_.size() && s_[pos_] == ']') return ++pos_, true;
        return Fail("',' or ']'");
      }
    }
    if (c == '"') {
      v->type = Value::Type::kString;
      return ParseString(&v->text);
    }
    if (c == 't') return v->type = Value::Type::kBool, Literal("true");
    if (c == 'f') return v->type = Value::Type::kBool, Literal("false");
    if (c == 'n') return Literal("null");
    const size_t start = pos_;
    while (pos_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '-' ||
                                s_[pos_] == '+' || s_[pos_] == '.' || s_[pos_] == 'e' || s_[pos_] == 'E')) {
      ++pos_;
    }
    if (pos_ == start) return Fail("a JSON value");
    v->type = Value::Type::kNumber;
    v->text = std::string(s_.substr(start, pos_ - start));
    return true;
  }

  std::string_view s_;
  size_t pos_ = 0;
  std::string expected_;
};

//-----------------------------------------------------------------------------
// [SECTION] Reader: the summary
//-----------------------------------------------------------------------------

// Reads fields of the summary; the first problem is kept in `error`.
struct Reader {
  std::string error;
  int64_t Int(const Value* v, std::string_view what) {
    int64_t out = 0;
    if (!v || v->type != Value::Type::kNumber ||
        std::from_chars(v->text.data(), v->text.data() + v->text.size(), out).ptr != v->text.data() + v->text.size()) {
      if (error.empty()) error = "expected an integer " + std::string(what);
      return 0;
    }
    return out;
  }
  std::string Text(const Value* v, std::string_view what) {
    if (!v || v->type != Value::Type::kString) {
      if (error.empty()) error = "expected a string " + std::string(what);
      return {};
    }
    return v->text;
  }
  const std::vector<Value>& Array(const Value* v, std::string_view what) {
    static const std::vector<Value> kEmpty;
    if (!v || v->type != Value::Type::kArray) {
      if (error.empty()) error = "expected an array " + std::string(what);
      return kEmpty;
    }
    return v->items;
  }
  template <size_t N>
  void Fixed(const Value* v, std::array<DurNs, N>* out, std::string_view what) {
    const auto& a = Array(v, what);
    if (a.size() != N) {
      if (error.empty()) error = "expected " + std::to_string(N) + " integers in " + std::string(what);
      return;
    }
    for (size_t i = 0; i < N; ++i) (*out)[i] = Int(&a[i], what);
  }
};

}  // namespace

std::string RankSummaryToJson(const RankSummary& s) {
  std::string out = "{\"version\":" + std::to_string(kRankSummaryVersion) + ",\"path\":";
  Str(s.path, &out);
  out += ",\"host\":";
  Str(s.host, &out);
  out += ",\"rank\":" + std::to_string(s.rank) + ",\"world_size\":" + std::to_string(s.world_size) + ",\"backend\":";
  Str(s.backend, &out);
  out += ",\"rank_source\":";
  Str(s.rank_source, &out);
  out += ",\"device\":";
  Str(s.device, &out);
  out += ",\"steps\":" + std::to_string(s.steps) + ",\"step_total_ns\":" + std::to_string(s.step_total_ns);
  out += ",\"breakdown_total\":";
  Ints(s.breakdown_total, &out);
  out += ",\"idle_by_cause_total\":";
  Ints(s.idle_by_cause_total, &out);
  out += ",\"span\":[" + std::to_string(s.span.start_ns) + "," + std::to_string(s.span.end_ns) + "],\"names\":[";
  for (size_t i = 0; i < s.names.size(); ++i) {
    if (i) out += ",";
    Str(s.names[i], &out);
  }
  out += "],\"top_kernels\":[";
  for (size_t i = 0; i < s.top_kernels.size(); ++i) {
    out += i ? ",[" : "[";
    Str(s.top_kernels[i].first, &out);
    out += "," + std::to_string(s.top_kernels[i].second) + "]";
  }
  out += "],\"collectives\":[";
  for (size_t i = 0; i < s.collectives.size(); ++i) {
    const CollectiveArrival& c = s.collectives[i];
    out += i ? ",\n{\"g\":" : "\n{\"g\":";
    Str(c.group, &out);
    out += ",\"n\":";
    Str(c.name, &out);
    if (!c.op.empty()) {  // XLA only: summaries of NCCL ranks stay as they were
      out += ",\"op\":";
      Str(c.op, &out);
    }
    out += ",\"seq\":" + std::to_string(c.seq) + ",\"o\":" + std::to_string(c.ordinal) + ",\"s\":" +
           std::to_string(c.start_ns) + ",\"e\":" + std::to_string(c.end_ns) + ",\"step\":" + std::to_string(c.step);
    std::vector<int64_t> flat;
    for (const Interval& iv : c.compute) flat.insert(flat.end(), {iv.start_ns, iv.end_ns});
    out += ",\"compute\":";
    Ints(flat, &out);
    flat.clear();
    for (const BlamedTime& b : c.blamed) flat.insert(flat.end(), {static_cast<int64_t>(b.name), b.ns});
    out += ",\"blamed\":";
    Ints(flat, &out);
    out += ",\"idle\":";
    Ints(c.idle_before, &out);
    out += "}";
  }
  out += "]}";
  return out;
}

Result<RankSummary, std::string> RankSummaryFromJson(std::string_view text, const std::string& name) {
  Value doc;
  Parser parser(text);
  if (!parser.Parse(&doc)) {
    return MakeUnexpected(name + ": byte " + std::to_string(parser.pos()) + ": expected " + parser.expected());
  }
  const Value* v = doc.Find("rank_summary");
  if (!v) v = doc.Find("collectives") ? &doc : nullptr;
  if (!v || v->type != Value::Type::kObject) {
    return MakeUnexpected(name + ": no \"rank_summary\" member (write it with stepline report RANK_TRACE --json; "
                                 "traces with distributedInfo or collective kernels carry one)");
  }
  Reader r;
  RankSummary s;
  if (r.Int(v->Find("version"), "version") != kRankSummaryVersion && r.error.empty()) {
    r.error = "rank_summary version " + std::to_string(kRankSummaryVersion) + " expected";
  }
  s.path = r.Text(v->Find("path"), "path");
  s.host = r.Text(v->Find("host"), "host");
  const int64_t rank = r.Int(v->Find("rank"), "rank"), world = r.Int(v->Find("world_size"), "world_size");
  s.rank = static_cast<int32_t>(std::clamp<int64_t>(rank, -2, kMaxRanks + 1));
  s.world_size = static_cast<int32_t>(std::clamp<int64_t>(world, -2, kMaxRanks + 1));
  if ((s.rank > kMaxRanks || s.world_size > kMaxRanks || s.rank < -1 || s.world_size < -1) && r.error.empty()) {
    r.error = "rank and world_size must be -1..1000000";
  }
  s.backend = r.Text(v->Find("backend"), "backend");
  s.rank_source = r.Text(v->Find("rank_source"), "rank_source");
  s.device = r.Text(v->Find("device"), "device");
  s.steps = r.Int(v->Find("steps"), "steps");
  s.step_total_ns = r.Int(v->Find("step_total_ns"), "step_total_ns");
  r.Fixed(v->Find("breakdown_total"), &s.breakdown_total, "breakdown_total");
  r.Fixed(v->Find("idle_by_cause_total"), &s.idle_by_cause_total, "idle_by_cause_total");
  const auto& span = r.Array(v->Find("span"), "span");
  if (span.size() == 2) s.span = {r.Int(&span[0], "span"), r.Int(&span[1], "span")};
  for (const Value& n : r.Array(v->Find("names"), "names")) s.names.push_back(r.Text(&n, "in names"));
  for (const Value& k : r.Array(v->Find("top_kernels"), "top_kernels")) {
    if (k.items.size() != 2) {
      if (r.error.empty()) r.error = "expected [name, ns] in top_kernels";
      break;
    }
    s.top_kernels.emplace_back(r.Text(&k.items[0], "kernel name"), r.Int(&k.items[1], "kernel ns"));
  }
  for (const Value& cv : r.Array(v->Find("collectives"), "collectives")) {
    CollectiveArrival c;
    c.group = r.Text(cv.Find("g"), "collective group");
    c.name = r.Text(cv.Find("n"), "collective name");
    if (const Value* op = cv.Find("op")) c.op = r.Text(op, "collective op");
    c.seq = r.Int(cv.Find("seq"), "seq");
    c.ordinal = static_cast<uint32_t>(r.Int(cv.Find("o"), "ordinal"));
    c.start_ns = r.Int(cv.Find("s"), "collective start");
    c.end_ns = r.Int(cv.Find("e"), "collective end");
    c.step = static_cast<int32_t>(r.Int(cv.Find("step"), "collective step"));
    const auto& compute = r.Array(cv.Find("compute"), "compute");
    for (size_t i = 0; i + 1 < compute.size(); i += 2) {
      c.compute.push_back({r.Int(&compute[i], "compute"), r.Int(&compute[i + 1], "compute")});
    }
    const auto& blamed = r.Array(cv.Find("blamed"), "blamed");
    for (size_t i = 0; i + 1 < blamed.size(); i += 2) {
      const int64_t n = r.Int(&blamed[i], "blamed name");
      if (n < 0 || static_cast<size_t>(n) >= s.names.size()) {
        if (r.error.empty()) r.error = "blamed name index " + std::to_string(n) + " outside names";
        break;
      }
      c.blamed.push_back({static_cast<uint32_t>(n), r.Int(&blamed[i + 1], "blamed ns")});
    }
    r.Fixed(cv.Find("idle"), &c.idle_before, "collective idle");
    s.collectives.push_back(std::move(c));
  }
  if (!r.error.empty()) return MakeUnexpected(name + ": rank_summary: " + r.error);
  return s;
}

}  // namespace stepline::analysis
