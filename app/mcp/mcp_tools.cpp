// The MCP tools; see mcp_tools.h. Each report tool picks members of the
// cached report --json document, so its keys and values are the command's.
#include "app/mcp/mcp_tools.h"

#include <algorithm>
#include <sstream>
#include <thread>
#include <vector>

#include "app/output/diagnostics_output.h"
#include "app/output/diff_output.h"
#include "app/output/json_writer.h"
#include "app/output/query_output.h"
#include "app/output/ranks_output.h"
#include "app/output/text_format.h"
#include "app/runs/rank_set.h"
#include "model/analysis/compare.h"
#include "model/analysis/findings.h"
#include "model/analysis/headline_record.h"

namespace stepline::app {
namespace mcp_tools {

struct ToolSpec {
  const char* name;
  const char* description;
  const char* input_schema;  // JSON
  std::vector<const char*> members;  // report --json members returned (report tools)
  const char* list_member;           // the member `limit` cuts; nullptr none
};

#define STEPLINE_PATH_PROP "\"path\":{\"type\":\"string\",\"description\":\"trace file (Chrome/Kineto JSON, XSpace, Perfetto, Nsight SQLite, rocprofv3; .gz/.zst)\"}"
#define STEPLINE_LIMIT_PROP "\"limit\":{\"type\":\"integer\",\"minimum\":0,\"description\":\"at most this many rows (default 100)\"}"

const std::vector<ToolSpec>& Specs() {
  static const std::vector<ToolSpec> specs = {
      {"summary", "Headline figures of a trace: primary device, step source, step statistics, step-time breakdown, idle by cause, GPU busy %, top blamed host event, data loss.",
       "{\"type\":\"object\",\"properties\":{" STEPLINE_PATH_PROP "},\"required\":[\"path\"]}",
       {"primary_device", "devices", "step_source", "steps_overlap", "breakdown_total", "idle_by_cause",
        "gpu_busy_percent", "step_stats", "top_blamed_event", "partial", "data_loss"},
       nullptr},
      {"steps", "The training steps with their per-step breakdown, statistics and outlier steps.",
       "{\"type\":\"object\",\"properties\":{" STEPLINE_PATH_PROP "," STEPLINE_LIMIT_PROP "},\"required\":[\"path\"]}",
       {"step_source", "steps", "step_stats", "outlier_steps"}, "steps"},
      {"ops", "Host and device ops by total time: count, total, self, avg, min, max, share.",
       "{\"type\":\"object\",\"properties\":{" STEPLINE_PATH_PROP "," STEPLINE_LIMIT_PROP "},\"required\":[\"path\"]}",
       {"ops"}, "ops"},
      {"kernels", "GPU kernels by total time, with launch configuration and the launching op.",
       "{\"type\":\"object\",\"properties\":{" STEPLINE_PATH_PROP "," STEPLINE_LIMIT_PROP "},\"required\":[\"path\"]}",
       {"kernels"}, "kernels"},
      {"gaps", "GPU idle gaps (>= 10 us) in time order with cause, blamed host events and next kernel.",
       "{\"type\":\"object\",\"properties\":{" STEPLINE_PATH_PROP "," STEPLINE_LIMIT_PROP "},\"required\":[\"path\"]}",
       {"gaps"}, "gaps"},
      {"memory", "Memory pools: peaks, allocations, frees, leaks, OOMs, growth per step.",
       "{\"type\":\"object\",\"properties\":{" STEPLINE_PATH_PROP "},\"required\":[\"path\"]}", {"memory"}, nullptr},
      {"findings", "The diagnosis: numbered findings (rule, threshold, value, evidence with slice ids and times) and the recommendations.",
       "{\"type\":\"object\",\"properties\":{" STEPLINE_PATH_PROP "},\"required\":[\"path\"]}",
       {"recommendations"}, nullptr},
      {"compare", "Compare run b against baseline run a: step time, breakdown, idle causes, op deltas, and a verdict (faster/slower/no_change, Mann-Whitney U over the steps).",
       "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\",\"description\":\"baseline trace\"},\"b\":{\"type\":\"string\",\"description\":\"candidate trace\"}," STEPLINE_LIMIT_PROP "},\"required\":[\"a\",\"b\"]}",
       {}, nullptr},
      {"ranks", "Every rank of a distributed run: straggler, collective waits, clock offsets.",
       "{\"type\":\"object\",\"properties\":{\"paths\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"description\":\"rank trace files or directories\"}},\"required\":[\"paths\"]}",
       {}, nullptr},
      {"query", "Read-only SQL over the trace; tables as the SQLite export: slice, track, flow, instant, counter, arg, step, step_breakdown, gap, op_stat, kernel_stat.",
       "{\"type\":\"object\",\"properties\":{" STEPLINE_PATH_PROP ",\"sql\":{\"type\":\"string\"},\"max_rows\":{\"type\":\"integer\",\"minimum\":0,\"description\":\"default 100\"}},\"required\":[\"path\",\"sql\"]}",
       {}, nullptr},
  };
  return specs;
}

const ToolSpec* Find(std::string_view name) {
  for (const ToolSpec& s : Specs()) {
    if (name == s.name) return &s;
  }
  return nullptr;
}

ToolResult Error(std::string message) { return ToolResult{true, std::move(message), ""}; }

// A string argument, or an error naming it.
bool StringArg(const JsonValue& args, const char* key, std::string* out, std::string* error) {
  const JsonValue* v = args.Find(key);
  if (v == nullptr || v->type != JsonValue::Type::kString || v->text.empty()) {
    *error = std::string("argument \"") + key + "\" must be a non-empty string";
    return false;
  }
  *out = v->text;
  return true;
}

bool IntArg(const JsonValue& args, const char* key, int64_t fallback, int64_t* out, std::string* error) {
  const JsonValue* v = args.Find(key);
  if (v == nullptr || v->is_null()) {
    *out = fallback;
    return true;
  }
  const auto i = v->AsInt();
  if (!i || *i < 0) {
    *error = std::string("argument \"") + key + "\" must be an integer >= 0";
    return false;
  }
  *out = *i;
  return true;
}

ToolResult ReportTool(const ToolSpec& spec, const JsonValue& args, TraceCache* cache) {
  std::string path, error;
  int64_t limit = 0;
  if (!StringArg(args, "path", &path, &error) || !IntArg(args, "limit", kDefaultToolRows, &limit, &error)) {
    return Error(error);
  }
  auto entry = cache->Get(path);
  if (!entry) return Error(entry.error());
  const LoadedTrace& t = **entry;
  JsonValue out;
  out.type = JsonValue::Type::kObject;
  out.members.push_back({"path", JsonValue{JsonValue::Type::kString, false, path, {}, {}}});
  bool truncated = false;
  for (const char* member : spec.members) {
    const JsonValue* v = t.report_json.Find(member);
    if (v == nullptr) continue;
    JsonValue copy = *v;
    if (spec.list_member != nullptr && std::string_view(member) == spec.list_member &&
        copy.items.size() > static_cast<size_t>(limit)) {
      copy.items.resize(static_cast<size_t>(limit));
      truncated = true;
    }
    out.members.push_back({member, std::move(copy)});
  }
  const analysis::Report& r = t.report;
  std::ostringstream text;
  if (spec.name == std::string_view("findings")) {
    // Findings are not a report --json member: they are written here, as
    // `report --format md` numbers them.
    JsonWriter json;
    json.BeginArray();
    const std::vector<analysis::Finding> findings = analysis::ComputeFindings(*t.trace, r);
    for (const analysis::Finding& f : findings) {
      json.BeginObject();
      json.Field("id", f.id).Field("rule", f.rule).Field("title", f.title).Field("threshold", f.threshold);
      json.FieldFixed("value", f.value, 3);
      json.Key("evidence").BeginArray();
      for (const analysis::FindingEvidence& e : f.evidence) {
        json.BeginObject();
        json.Field("what", e.what);
        if (e.slice.is_none()) {
          json.Key("slice_id").Null();
        } else {
          json.Field("slice_id", uint64_t{e.slice.index()});
        }
        json.Key("start_ns").Int(e.start_ns);
        json.Key("dur_ns").Int(e.dur_ns);
        json.EndObject();
      }
      json.EndArray();
      json.EndObject();
    }
    json.EndArray();
    auto parsed = ParseJson(json.text());
    if (parsed) out.members.push_back({"findings", std::move(*parsed)});
    text << findings.size() << " findings";
    for (const analysis::Finding& f : findings) text << "; " << f.id << ": " << f.title;
  } else if (spec.list_member != nullptr) {
    const JsonValue* list = t.report_json.Find(spec.list_member);
    const size_t total = list ? list->items.size() : 0;
    text << spec.name << " of " << path << ": " << std::min<size_t>(total, static_cast<size_t>(limit)) << " of " << total
         << " rows" << (truncated ? " (raise `limit` for more)" : "");
  } else {
    // The figures as the window and `report` print them (headline.h).
    using analysis::HeadlineFigure;
    constexpr std::string_view kUse = "mcp summary";
    const analysis::Headline h = analysis::ComputeHeadline(r);
    text << path << ": " << analysis::HeadlineTextAt(kUse, h, HeadlineFigure::kSteps) << " steps, "
         << analysis::HeadlineLabel(h, HeadlineFigure::kMeanStep) << " "
         << analysis::HeadlineTextAt(kUse, h, HeadlineFigure::kMeanStep) << ", "
         << analysis::HeadlineLabel(h, HeadlineFigure::kDeviceBusy) << " "
         << analysis::HeadlineTextAt(kUse, h, HeadlineFigure::kDeviceBusy)
         << (r.primary_device.empty() ? "" : " on " + r.primary_device);
  }
  if (truncated) out.members.push_back({"truncated", JsonValue{JsonValue::Type::kBool, true, "", {}, {}}});
  return ToolResult{false, text.str(), ToJson(out)};
}

ToolResult CompareTool(const JsonValue& args, TraceCache* cache) {
  std::string a_path, b_path, error;
  int64_t limit = 0;
  if (!StringArg(args, "a", &a_path, &error) || !StringArg(args, "b", &b_path, &error) ||
      !IntArg(args, "limit", kDefaultToolRows, &limit, &error)) {
    return Error(error);
  }
  auto a = cache->Get(a_path);
  if (!a) return Error("a: " + a.error());
  auto b = cache->Get(b_path);
  if (!b) return Error("b: " + b.error());
  const analysis::Comparison c = analysis::Compare({*(*a)->trace, (*a)->analysis, a_path},
                                                   {*(*b)->trace, (*b)->analysis, b_path});
  std::ostringstream diff;
  WriteDiffJson(c, static_cast<size_t>(limit), diff);
  std::string json = diff.str();
  json.insert(json.rfind('}'), ",\"a_load\":{" + DiagnosticsJsonMembers(*(*a)->trace) + "},\"b_load\":{" +
                                   DiagnosticsJsonMembers(*(*b)->trace) + "}");
  while (!json.empty() && json.back() == '\n') json.pop_back();
  return ToolResult{false, "verdict " + analysis::VerdictLine(c.verdict), json};
}

ToolResult RanksTool(const JsonValue& args) {
  const JsonValue* paths = args.Find("paths");
  if (paths == nullptr || paths->type != JsonValue::Type::kArray || paths->items.empty()) {
    return Error("argument \"paths\" must be a non-empty array of strings");
  }
  std::vector<std::string> files;
  for (const JsonValue& p : paths->items) {
    if (p.type != JsonValue::Type::kString) return Error("argument \"paths\" must be a non-empty array of strings");
    files.push_back(p.text);
  }
  RanksRun run;
  std::ostringstream log;
  const std::string error =
      LoadRankSet(files, static_cast<int>(std::max(1u, std::thread::hardware_concurrency())), &run, log);
  if (!error.empty()) return Error(error);
  std::ostringstream json;
  WriteRanksJson(run, json);
  std::string text = json.str();
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return ToolResult{false, std::to_string(run.ranks.size()) + " ranks", text};
}

ToolResult QueryTool(const JsonValue& args, TraceCache* cache) {
  std::string path, sql, error;
  int64_t max_rows = 0;
  if (!StringArg(args, "path", &path, &error) || !StringArg(args, "sql", &sql, &error) ||
      !IntArg(args, "max_rows", kDefaultToolRows, &max_rows, &error)) {
    return Error(error);
  }
  auto entry = cache->Get(path);
  if (!entry) return Error(entry.error());
  LoadedTrace& t = **entry;
  if (!t.query) {
    auto session = query::QuerySession::Open(*t.trace);
    if (!session) return Error(session.error());
    t.query = std::move(session).value();
  }
  auto result = t.query->Run(sql, static_cast<size_t>(max_rows));
  if (!result) return Error(result.error());
  std::ostringstream json;
  WriteQueryJson(*result, json);
  std::string text = json.str();
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return ToolResult{false,
                    std::to_string(result->rows.size()) + " rows" + (result->truncated ? " (capped by max_rows)" : ""),
                    text};
}

}  // namespace mcp_tools

std::string ToolListJson() {
  using namespace mcp_tools;
  std::string out = "[";
  for (const ToolSpec& s : Specs()) {
    if (out.size() > 1) out += ',';
    JsonWriter head;
    head.BeginObject();
    head.Field("name", s.name).Field("description", s.description);
    head.Key("inputSchema").Raw(s.input_schema);
    head.EndObject();
    out += head.text();
  }
  return out + "]";
}

bool HasTool(std::string_view name) { return mcp_tools::Find(name) != nullptr; }

ToolResult CallTool(std::string_view name, const JsonValue& arguments, TraceCache* cache) {
  using namespace mcp_tools;
  const ToolSpec* spec = Find(name);
  if (spec == nullptr) return Error("unknown tool " + std::string(name));
  if (arguments.type != JsonValue::Type::kObject) return Error("arguments must be an object");
  if (name == "compare") return CompareTool(arguments, cache);
  if (name == "ranks") return RanksTool(arguments);
  if (name == "query") return QueryTool(arguments, cache);
  return ReportTool(*spec, arguments, cache);
}

}  // namespace stepline::app
