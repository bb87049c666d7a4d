// SavedRun <-> JSON; see baseline_json.h.
#include "app/output/baseline_json.h"

#include <cmath>
#include <optional>

#include "app/output/json_writer.h"
#include "model/json_value.h"

namespace stepline::app {
namespace baseline_io {



template <typename Range>
void IntArray(const Range& values, JsonWriter* json) {
  json->BeginArray();
  for (const auto v : values) json->Int(static_cast<int64_t>(v));
  json->EndArray();
}

// The reader's one failure: which member was missing or of the wrong type.
struct ReadError {
  std::string member;
};

int64_t ReadInt(const JsonValue& obj, std::string_view key) {
  const JsonValue* v = obj.Find(key);
  const std::optional<int64_t> i = v ? v->AsInt() : std::nullopt;
  if (!i) throw ReadError{std::string(key)};
  return *i;
}
double ReadDouble(const JsonValue& obj, std::string_view key) {
  const JsonValue* v = obj.Find(key);
  const std::optional<double> d = v ? v->AsDouble() : std::nullopt;
  if (!d) throw ReadError{std::string(key)};
  return *d;
}
std::string ReadString(const JsonValue& obj, std::string_view key) {
  const JsonValue* v = obj.Find(key);
  if (!v || v->type != JsonValue::Type::kString) throw ReadError{std::string(key)};
  return v->text;
}
const JsonValue& ReadArray(const JsonValue& obj, std::string_view key) {
  const JsonValue* v = obj.Find(key);
  if (!v || v->type != JsonValue::Type::kArray) throw ReadError{std::string(key)};
  return *v;
}
template <typename T>
std::vector<T> ReadInts(const JsonValue& obj, std::string_view key) {
  std::vector<T> out;
  for (const JsonValue& item : ReadArray(obj, key).items) {
    const std::optional<int64_t> i = item.AsInt();
    if (!i) throw ReadError{std::string(key)};
    out.push_back(static_cast<T>(*i));
  }
  return out;
}
template <typename Arr>
Arr FixedInts(const JsonValue& value, std::string_view key) {
  Arr out{};
  if (value.type != JsonValue::Type::kArray || value.items.size() != out.size()) throw ReadError{std::string(key)};
  for (size_t i = 0; i < out.size(); ++i) {
    const std::optional<int64_t> v = value.items[i].AsInt();
    if (!v) throw ReadError{std::string(key)};
    out[i] = *v;
  }
  return out;
}

analysis::StepSource StepSourceFromName(const std::string& name) {
  for (int s = 0; s <= static_cast<int>(analysis::kLastStepSource); ++s) {
    if (analysis::StepSourceName(static_cast<analysis::StepSource>(s)) == name) {
      return static_cast<analysis::StepSource>(s);
    }
  }
  throw ReadError{"step_source"};
}
analysis::OpKind OpKindFromName(const std::string& name) {
  for (int k = 0; k <= static_cast<int>(analysis::OpKind::kGraphReplay); ++k) {
    if (analysis::OpKindName(static_cast<analysis::OpKind>(k)) == name) return static_cast<analysis::OpKind>(k);
  }
  throw ReadError{"kind"};
}

}  // namespace baseline_io

std::string SavedRunToJson(const analysis::SavedRun& run) {
  using namespace baseline_io;
  const analysis::CompareSide& s = run.side;
  JsonWriter json;
  json.BeginObject();
  json.Key("stepline_baseline").Int(kBaselineVersion);
  json.Field("path", s.path);
  json.Field("primary_device", s.primary_device);
  json.Field("step_source", analysis::StepSourceName(s.step_source));
  json.Field("steps", uint64_t{s.steps});
  json.Key("step_mean_ns").Int(s.step_mean_ns);
  json.FieldFixed("gpu_busy_percent", s.gpu_busy_percent, 6);
  json.Key("first_full_step").Int(s.first_full_step);
  json.Key("breakdown_mean_ns");
  IntArray(s.breakdown_mean, &json);
  json.Key("idle_by_cause_mean_ns");
  IntArray(s.idle_by_cause_mean, &json);
  json.Key("step_names").BeginArray();
  for (const std::string& name : s.step_names) json.String(name);
  json.EndArray();
  json.Key("step_start_ns");
  IntArray(s.step_start_ns, &json);
  json.Key("step_dur_ns");
  IntArray(s.step_dur_ns, &json);
  json.Key("full_step_dur_ns");
  IntArray(s.full_step_dur_ns, &json);
  json.Key("step_breakdown_ns").BeginArray();
  for (const analysis::CategoryNs& b : s.step_breakdown) IntArray(b, &json);
  json.EndArray();
  json.Key("step_idle_by_cause_ns").BeginArray();
  for (const analysis::CauseNs& c : s.step_idle_by_cause) IntArray(c, &json);
  json.EndArray();
  json.Key("ops").BeginArray();
  for (const analysis::SavedOp& op : run.ops) {
    json.BeginObject();
    json.Field("name", op.name);
    json.Field("kind", analysis::OpKindName(op.kind));
    json.Field("count", op.count);
    json.Key("total_ns").Int(op.total_ns);
    json.EndObject();
  }
  json.EndArray();
  json.Key("memory").BeginArray();
  for (const analysis::MemoryPeak& m : run.memory) {
    json.BeginObject();
    json.Field("pool", m.pool);
    json.Key("peak_allocated_bytes").Int(m.peak_allocated_bytes);
    json.Key("peak_reserved_bytes").Int(m.peak_reserved_bytes);
    json.EndObject();
  }
  json.EndArray();
  json.EndObject();
  return json.text() + "\n";
}

Result<analysis::SavedRun, std::string> SavedRunFromJson(std::string_view text) {
  using namespace baseline_io;
  const std::optional<JsonValue> doc = ParseJson(text);
  if (!doc || doc->type != JsonValue::Type::kObject) return MakeUnexpected(std::string("not a JSON object"));
  try {
    if (ReadInt(*doc, "stepline_baseline") != kBaselineVersion) {
      return MakeUnexpected("baseline version " + std::to_string(ReadInt(*doc, "stepline_baseline")) + ", expected " +
                 std::to_string(kBaselineVersion) + " (save it again)");
    }
    analysis::SavedRun run;
    analysis::CompareSide& s = run.side;
    s.path = ReadString(*doc, "path");
    s.primary_device = ReadString(*doc, "primary_device");
    s.step_source = StepSourceFromName(ReadString(*doc, "step_source"));
    s.steps = static_cast<size_t>(ReadInt(*doc, "steps"));
    s.step_mean_ns = ReadInt(*doc, "step_mean_ns");
    s.gpu_busy_percent = ReadDouble(*doc, "gpu_busy_percent");
    s.first_full_step = static_cast<int>(ReadInt(*doc, "first_full_step"));
    s.breakdown_mean = FixedInts<analysis::CategoryNs>(ReadArray(*doc, "breakdown_mean_ns"), "breakdown_mean_ns");
    s.idle_by_cause_mean = FixedInts<analysis::CauseNs>(ReadArray(*doc, "idle_by_cause_mean_ns"), "idle_by_cause_mean_ns");
    for (const JsonValue& name : ReadArray(*doc, "step_names").items) s.step_names.push_back(name.text);
    s.step_start_ns = ReadInts<TimeNs>(*doc, "step_start_ns");
    s.step_dur_ns = ReadInts<DurNs>(*doc, "step_dur_ns");
    s.full_step_dur_ns = ReadInts<DurNs>(*doc, "full_step_dur_ns");
    for (const JsonValue& b : ReadArray(*doc, "step_breakdown_ns").items) {
      s.step_breakdown.push_back(FixedInts<analysis::CategoryNs>(b, "step_breakdown_ns"));
    }
    for (const JsonValue& c : ReadArray(*doc, "step_idle_by_cause_ns").items) {
      s.step_idle_by_cause.push_back(FixedInts<analysis::CauseNs>(c, "step_idle_by_cause_ns"));
    }
    if (s.step_names.size() != s.steps || s.step_start_ns.size() != s.steps || s.step_dur_ns.size() != s.steps ||
        s.step_breakdown.size() != s.steps || s.step_idle_by_cause.size() != s.steps) {
      return MakeUnexpected(std::string("the step columns do not have `steps` rows"));
    }
    for (const JsonValue& op : ReadArray(*doc, "ops").items) {
      run.ops.push_back({ReadString(op, "name"), OpKindFromName(ReadString(op, "kind")), static_cast<uint64_t>(ReadInt(op, "count")),
                         ReadInt(op, "total_ns")});
    }
    for (const JsonValue& m : ReadArray(*doc, "memory").items) {
      run.memory.push_back({ReadString(m, "pool"), ReadInt(m, "peak_allocated_bytes"), ReadInt(m, "peak_reserved_bytes")});
    }
    return run;
  } catch (const ReadError& e) {
    return MakeUnexpected(std::string("missing or malformed member \"" + e.member + "\""));
  }
}

}  // namespace stepline::app
