// Kineto JSON -> Kineto's Perfetto layout (see kineto_perfetto_convert.h).
// Protobuf field numbers: Trace.packet 1; TracePacket timestamp 8,
// trusted_packet_sequence_id 10, track_event 11, track_descriptor 60;
// TrackDescriptor uuid 1, parent_uuid 5, process 3 {pid 1, process_name 6},
// thread 4 {pid 1, tid 2, thread_name 5}; TrackEvent type 9, track_uuid 11,
// name 23, categories 22, debug_annotations 4, flow_ids 47 (fixed64);
// DebugAnnotation name 10, bool 2, uint 3, int 4, double 5, string 6,
// legacy_json 9.
#include "tests/support/kineto_perfetto_convert.h"

#include <charconv>
#include <cstdint>
#include <cstring>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "model/json_value.h"

namespace stepline::testing {
namespace {

class KpMsg {
 public:
  KpMsg& Varint(uint32_t field, uint64_t v) {
    Tag(field, 0);
    Put(v);
    return *this;
  }
  KpMsg& Fixed64(uint32_t field, uint64_t v) {
    Tag(field, 1);
    char b[8];
    std::memcpy(b, &v, 8);
    out_.append(b, 8);
    return *this;
  }
  KpMsg& Bytes(uint32_t field, std::string_view s) {
    Tag(field, 2);
    Put(s.size());
    out_.append(s);
    return *this;
  }
  KpMsg& Sub(uint32_t field, const KpMsg& m) { return Bytes(field, m.out_); }
  const std::string& str() const { return out_; }

 private:
  void Tag(uint32_t field, uint32_t wire) { Put((uint64_t{field} << 3) | wire); }
  void Put(uint64_t v) {
    while (v >= 0x80) {
      out_.push_back(static_cast<char>((v & 0x7F) | 0x80));
      v >>= 7;
    }
    out_.push_back(static_cast<char>(v));
  }
  std::string out_;
};

// Microsecond text to ns, rounding half away from zero on the first dropped
// digit (the JSON loader's rule); exponents through a double.
bool KpMicrosToNs(const std::string& text, int64_t* ns) {
  if (text.find_first_of("eE") != std::string::npos) {
    double d = 0;
    if (std::from_chars(text.data(), text.data() + text.size(), d).ec != std::errc()) return false;
    *ns = static_cast<int64_t>(d * 1000.0 + (d < 0 ? -0.5 : 0.5));
    return true;
  }
  const bool negative = !text.empty() && text[0] == '-';
  const size_t dot = text.find('.');
  const std::string whole = text.substr(negative ? 1 : 0, dot == std::string::npos ? std::string::npos
                                                                                    : dot - (negative ? 1 : 0));
  std::string fraction = dot == std::string::npos ? "" : text.substr(dot + 1);
  const bool round_up = fraction.size() > 3 && fraction[3] >= '5';
  fraction.resize(3, '0');
  int64_t w = 0, f = 0;
  if (!whole.empty() && std::from_chars(whole.data(), whole.data() + whole.size(), w).ec != std::errc()) return false;
  if (std::from_chars(fraction.data(), fraction.data() + 3, f).ec != std::errc()) return false;
  const int64_t v = w * 1000 + f + (round_up ? 1 : 0);
  *ns = negative ? -v : v;
  return true;
}

// A pid/tid: a number, Kineto's "stream 7" / "7" strings, or another string
// (Kineto's "Spans" / "PyTorch Profiler" rows), which gets a number of its
// own from `named` and names its process or thread with the string.
bool KpKey(const JsonValue* v, int64_t* out, std::map<std::string, int64_t>* named = nullptr) {
  if (v == nullptr) return false;
  std::string_view t = v->text;
  if (v->type == JsonValue::Type::kString && t.starts_with("stream ")) t.remove_prefix(7);
  if (v->type != JsonValue::Type::kNumber && v->type != JsonValue::Type::kString) return false;
  const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), *out);
  if (ec == std::errc() && ptr == t.data() + t.size() && !t.empty()) return true;
  if (v->type != JsonValue::Type::kString || named == nullptr) return false;
  const auto [it, inserted] = named->try_emplace(v->text, int64_t{2000000000} + static_cast<int64_t>(named->size()));
  *out = it->second;
  return true;
}

void KpWriteJson(const JsonValue& v, std::string* out) {
  switch (v.type) {
    case JsonValue::Type::kNull: *out += "null"; break;
    case JsonValue::Type::kBool: *out += v.boolean ? "true" : "false"; break;
    case JsonValue::Type::kNumber: *out += v.text; break;
    case JsonValue::Type::kString:
      *out += '"';
      for (char c : v.text) {
        if (c == '"' || c == '\\') *out += '\\';
        if (static_cast<unsigned char>(c) < 0x20) {
          *out += ' ';
          continue;
        }
        *out += c;
      }
      *out += '"';
      break;
    case JsonValue::Type::kArray:
      *out += '[';
      for (size_t i = 0; i < v.items.size(); ++i) {
        if (i) *out += ',';
        KpWriteJson(v.items[i], out);
      }
      *out += ']';
      break;
    case JsonValue::Type::kObject:
      *out += '{';
      for (size_t i = 0; i < v.members.size(); ++i) {
        if (i) *out += ',';
        KpWriteJson(JsonValue{JsonValue::Type::kString, false, v.members[i].first, {}, {}}, out);
        *out += ':';
        KpWriteJson(v.members[i].second, out);
      }
      *out += '}';
      break;
  }
}

// One arg as a DebugAnnotation with the type the JSON loader gives it.
KpMsg KpAnnotation(const std::string& key, const JsonValue& v) {
  KpMsg a;
  a.Bytes(10, key);
  switch (v.type) {
    case JsonValue::Type::kBool: a.Varint(2, v.boolean ? 1 : 0); break;
    case JsonValue::Type::kString: a.Bytes(6, v.text); break;
    case JsonValue::Type::kNumber: {
      const bool integral = v.text.find_first_of(".eE") == std::string::npos;
      int64_t i = 0;
      uint64_t u = 0;
      double d = 0;
      const char* b = v.text.data();
      const char* e = b + v.text.size();
      if (integral && v.text[0] == '-' && std::from_chars(b, e, i).ec == std::errc()) {
        a.Varint(4, static_cast<uint64_t>(i));
      } else if (integral && std::from_chars(b, e, u).ec == std::errc()) {
        if (u <= static_cast<uint64_t>(INT64_MAX)) {
          a.Varint(4, u);
        } else {
          a.Varint(3, u);
        }
      } else if (std::from_chars(b, e, d).ec == std::errc()) {
        uint64_t bits;
        std::memcpy(&bits, &d, 8);
        a.Fixed64(5, bits);
      } else {
        a.Bytes(9, v.text);
      }
      break;
    }
    default: {
      std::string text;
      KpWriteJson(v, &text);
      a.Bytes(9, text);
      break;
    }
  }
  return a;
}

bool KpDeviceCategory(std::string_view c) {
  for (std::string_view d : {"kernel", "Kernel", "gpu_memcpy", "Memcpy", "gpu_memset", "Memset",
                             "gpu_user_annotation", "cuda_sync", "cuda_event"}) {
    if (c == d) return true;
  }
  return false;
}
bool KpRuntimeCategory(std::string_view c) {
  for (std::string_view d : {"cuda_runtime", "Runtime", "cuda_driver", "hip_runtime", "hip_driver"}) {
    if (c == d) return true;
  }
  return false;
}

}  // namespace

KinetoPerfettoConversion ConvertKinetoJsonToPerfetto(std::string_view json) {
  KinetoPerfettoConversion out;
  const std::optional<JsonValue> root = ParseJson(json);
  if (!root) {
    out.error = "not JSON";
    return out;
  }
  const JsonValue* events = root->type == JsonValue::Type::kArray ? &*root : root->Find("traceEvents");
  if (events == nullptr || events->type != JsonValue::Type::kArray) {
    out.error = "no traceEvents";
    return out;
  }
  // Pass 1: names, labels and which pids hold device events.
  std::map<int64_t, std::string> process_names;
  std::map<int64_t, int64_t> gpu_of_pid;  // pid -> N of "GPU N"
  std::map<std::pair<int64_t, int64_t>, std::string> thread_names;
  std::set<std::pair<int64_t, int64_t>> threads;
  std::map<std::string, int64_t> named_pids, named_tids;  // string keys -> their numbers
  for (const JsonValue& e : events->items) {
    const JsonValue* ph = e.Find("ph");
    int64_t pid = 0, tid = 0;
    if (ph == nullptr || !KpKey(e.Find("pid"), &pid, &named_pids)) continue;
    const bool has_tid = KpKey(e.Find("tid"), &tid, &named_tids);
    const JsonValue* args = e.Find("args");
    const JsonValue* name = args ? args->Find("name") : nullptr;
    if (ph->text == "M") {
      const JsonValue* what = e.Find("name");
      if (what == nullptr || name == nullptr) continue;
      if (what->text == "process_name") process_names[pid] = name->text;
      if (what->text == "thread_name" && has_tid) thread_names[{pid, tid}] = name->text;
      const JsonValue* labels = args ? args->Find("labels") : nullptr;
      if (what->text == "process_labels" && labels && labels->text.starts_with("GPU ")) {
        int64_t n = 0;
        if (std::from_chars(labels->text.data() + 4, labels->text.data() + labels->text.size(), n).ec == std::errc())
          gpu_of_pid[pid] = n;
      }
      continue;
    }
    if (!has_tid) continue;
    threads.insert({pid, tid});
    const JsonValue* cat = e.Find("cat");
    if (cat && KpDeviceCategory(cat->text) && !gpu_of_pid.contains(pid)) gpu_of_pid[pid] = pid;
  }
  for (const auto& [text, key] : named_pids) process_names.try_emplace(key, text);
  std::map<int64_t, std::string> tid_texts;
  for (const auto& [text, key] : named_tids) tid_texts[key] = text;
  for (const auto& [pid, tid] : threads) {
    if (tid_texts.contains(tid)) thread_names.try_emplace({pid, tid}, tid_texts[tid]);
  }
  // Descriptors: uuid 1.. for processes, then threads.
  KpMsg trace;
  std::map<int64_t, uint64_t> process_uuid;
  std::map<std::pair<int64_t, int64_t>, uint64_t> thread_uuid;
  uint64_t next_uuid = 1;
  for (const auto& [pid, tid] : threads) {
    if (!process_uuid.contains(pid)) {
      const uint64_t uuid = next_uuid++;
      process_uuid[pid] = uuid;
      const auto gpu = gpu_of_pid.find(pid);
      const std::string name = gpu != gpu_of_pid.end()     ? "GPU " + std::to_string(gpu->second)
                               : process_names.contains(pid) ? process_names[pid]
                                                             : "";
      KpMsg process;
      process.Varint(1, static_cast<uint64_t>(pid));
      if (!name.empty()) process.Bytes(6, name);
      trace.Sub(1, KpMsg().Sub(60, KpMsg().Varint(1, uuid).Sub(3, process)));
    }
    const uint64_t uuid = next_uuid++;
    thread_uuid[{pid, tid}] = uuid;
    auto named = thread_names.find({pid, tid});
    std::string name = named != thread_names.end() ? named->second : "";
    if (name.empty() && gpu_of_pid.contains(pid)) name = "stream " + std::to_string(tid);
    KpMsg thread;
    thread.Varint(1, static_cast<uint64_t>(pid)).Varint(2, static_cast<uint64_t>(tid));
    if (!name.empty()) thread.Bytes(5, name);
    trace.Sub(1, KpMsg().Sub(60, KpMsg().Varint(1, uuid).Varint(5, process_uuid[pid]).Sub(4, thread)));
  }
  // Pass 2: events, in file order, each slice as a BEGIN then its END.
  for (const JsonValue& e : events->items) {
    const JsonValue* ph = e.Find("ph");
    int64_t pid = 0, tid = 0, ts = 0, dur = 0;
    if (ph == nullptr || (ph->text != "X" && ph->text != "i" && ph->text != "I")) continue;
    if (!KpKey(e.Find("pid"), &pid, &named_pids) || !KpKey(e.Find("tid"), &tid, &named_tids)) continue;
    const JsonValue* ts_v = e.Find("ts");
    if (ts_v == nullptr || !KpMicrosToNs(ts_v->text, &ts)) continue;
    const bool instant = ph->text != "X";
    if (instant) {
      const JsonValue* scope = e.Find("s");
      if (scope != nullptr && scope->text != "t") continue;  // process/global instants: marker rows, not carried
    } else {
      const JsonValue* dur_v = e.Find("dur");
      if (dur_v == nullptr || !KpMicrosToNs(dur_v->text, &dur)) continue;
      if (dur < 0) dur = 0;
    }
    const JsonValue* name = e.Find("name");
    const JsonValue* cat = e.Find("cat");
    KpMsg event;
    event.Varint(9, instant ? 3 : 1).Varint(11, thread_uuid[{pid, tid}]);
    if (name) event.Bytes(23, name->text);
    if (cat && !cat->text.empty()) event.Bytes(22, cat->text);
    if (const JsonValue* args = e.Find("args"); args && args->type == JsonValue::Type::kObject) {
      for (const JsonMember& m : args->members) event.Sub(4, KpAnnotation(m.first, m.second));
      const JsonValue* correlation = args->Find("correlation");
      uint64_t id = 0;
      if (correlation && cat && (KpDeviceCategory(cat->text) || KpRuntimeCategory(cat->text)) &&
          correlation->type == JsonValue::Type::kNumber && correlation->AsUint().has_value() &&
          (id = *correlation->AsUint()) != 0) {
        event.Fixed64(47, id);
        ++out.launch_flow_ids;
      }
    }
    trace.Sub(1, KpMsg().Varint(8, static_cast<uint64_t>(ts)).Varint(10, 1).Sub(11, event));
    if (instant) {
      ++out.instants;
      continue;
    }
    trace.Sub(1, KpMsg().Varint(8, static_cast<uint64_t>(ts + dur)).Varint(10, 1).Sub(
                     11, KpMsg().Varint(9, 2).Varint(11, thread_uuid[{pid, tid}])));
    ++out.slices;
  }
  out.bytes = trace.str();
  return out;
}

}  // namespace stepline::testing
