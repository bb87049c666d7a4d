// The tools of `stepline mcp`: each takes a trace path (compare: a and b;
// ranks: paths) and answers with structuredContent holding the same keys and
// values as `stepline report PATH --json` (compare: `diff --json`; ranks:
// `ranks --json`; query: `query --json`), plus a one-line text. A bad path
// or argument is an error result (isError), never a crash.
#pragma once

#include <string>
#include <string_view>

#include "app/mcp/trace_cache.h"
#include "model/json_value.h"

namespace stepline::app {

struct ToolResult {
  bool is_error = false;
  std::string text;             // the content's one text block
  std::string structured_json;  // a JSON object; "" for errors
};

// The `tools` array of tools/list, as JSON.
std::string ToolListJson();
// False when no tool has that name (a protocol error, not a tool error).
bool HasTool(std::string_view name);
ToolResult CallTool(std::string_view name, const JsonValue& arguments, TraceCache* cache);

// Rows the list tools (ops, kernels, gaps, steps) and query return unless
// the call's `limit` / `max_rows` says otherwise.
inline constexpr int64_t kDefaultToolRows = 100;

}  // namespace stepline::app
