// The JSON-RPC side of the MCP server; see mcp_server.h.
#include "app/mcp/mcp_server.h"

#include <exception>
#include <istream>
#include <ostream>

#include "app/mcp/mcp_tools.h"
#include "app/output/json_writer.h"
#include "app/runs/version.h"

namespace stepline::app {
namespace mcp_server {

// JSON-RPC 2.0 error codes.
constexpr int kParseError = -32700, kInvalidRequest = -32600, kMethodNotFound = -32601, kInvalidParams = -32602,
              kInternalError = -32603;

std::string Response(const std::string& id_json, const std::string& result_json) {
  return "{\"jsonrpc\":\"2.0\",\"id\":" + id_json + ",\"result\":" + result_json + "}";
}

std::string ErrorResponse(const std::string& id_json, int code, std::string_view message) {
  JsonWriter json;
  json.BeginObject();
  json.Key("code").Int(code);
  json.Field("message", message);
  json.EndObject();
  return "{\"jsonrpc\":\"2.0\",\"id\":" + id_json + ",\"error\":" + json.text() + "}";
}

std::string InitializeResult() {
  JsonWriter json;
  json.BeginObject();
  json.Field("protocolVersion", kMcpProtocolVersion);
  json.Key("capabilities").BeginObject();
  json.Key("tools").BeginObject().Key("listChanged").Bool(false).EndObject();
  json.EndObject();
  json.Key("serverInfo").BeginObject();
  json.Field("name", "stepline").Field("version", Version());
  json.EndObject();
  json.Field("instructions",
             "Stepline analyses ML profiler traces. Every tool takes a trace path; traces stay loaded between calls. "
             "Start with summary or findings; query runs read-only SQL over the trace.");
  json.EndObject();
  return json.text();
}

std::string CallResult(const ToolResult& r) {
  JsonWriter json;
  json.BeginObject();
  json.Key("content").BeginArray().BeginObject().Field("type", "text").Field("text", r.text).EndObject().EndArray();
  if (!r.structured_json.empty()) json.Key("structuredContent").Raw(r.structured_json);
  json.Key("isError").Bool(r.is_error);
  json.EndObject();
  return json.text();
}

}  // namespace mcp_server

std::optional<std::string> McpServer::Handle(std::string_view line) {
  using namespace mcp_server;
  if (line.find_first_not_of(" \t\r\n") == std::string_view::npos) return std::nullopt;
  const std::optional<JsonValue> message = ParseJson(line);
  if (!message) return ErrorResponse("null", kParseError, "Parse error: not one JSON value");
  if (message->type != JsonValue::Type::kObject) return ErrorResponse("null", kInvalidRequest, "Invalid Request");
  const JsonValue* id = message->Find("id");
  const JsonValue* method = message->Find("method");
  if (method == nullptr || method->type != JsonValue::Type::kString) {
    if (id == nullptr) return std::nullopt;  // a response or junk without id: nothing to answer
    return ErrorResponse(ToJson(*id), kInvalidRequest, "Invalid Request: no method");
  }
  if (id == nullptr) return std::nullopt;  // a notification (notifications/initialized, cancelled, ...)
  const std::string id_json = ToJson(*id);
  const std::string& name = method->text;
  try {
    if (name == "initialize") return Response(id_json, InitializeResult());
    if (name == "ping") return Response(id_json, "{}");
    if (name == "tools/list") return Response(id_json, "{\"tools\":" + ToolListJson() + "}");
    if (name == "tools/call") {
      const JsonValue* params = message->Find("params");
      const JsonValue* tool = params ? params->Find("name") : nullptr;
      if (tool == nullptr || tool->type != JsonValue::Type::kString) {
        return ErrorResponse(id_json, kInvalidParams, "tools/call needs params.name");
      }
      if (!HasTool(tool->text)) return ErrorResponse(id_json, kInvalidParams, "Unknown tool: " + tool->text);
      const JsonValue* arguments = params->Find("arguments");
      JsonValue empty;
      empty.type = JsonValue::Type::kObject;
      return Response(id_json, CallResult(CallTool(tool->text, arguments ? *arguments : empty, &cache_)));
    }
    return ErrorResponse(id_json, kMethodNotFound, "Method not found: " + name);
  } catch (const std::exception& e) {
    // An allocation failure or a library's exception: the server stays up.
    return ErrorResponse(id_json, kInternalError, std::string("Internal error: ") + e.what());
  }
}

void McpServer::Serve(std::istream& in, std::ostream& out) {
  std::string line;
  while (std::getline(in, line)) {
    if (const std::optional<std::string> answer = Handle(line)) {
      out << *answer << '\n';
      out.flush();
    }
  }
}

}  // namespace stepline::app
