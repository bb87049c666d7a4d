// `stepline mcp`: a Model Context Protocol server over stdio. JSON-RPC 2.0,
// one message per line in and out; methods initialize, ping, tools/list and
// tools/call (mcp_tools.h); notifications get no answer. No network: the
// client starts the process and talks through its pipes. Traces stay loaded
// between calls (trace_cache.h).
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

#include "app/mcp/trace_cache.h"

namespace stepline::app {

// The protocol revision this server speaks (structuredContent is in it).
inline constexpr std::string_view kMcpProtocolVersion = "2025-06-18";

class McpServer {
 public:
  // The answer to one message line; nullopt for a notification or a blank
  // line. Never throws: a malformed message gets a JSON-RPC error.
  std::optional<std::string> Handle(std::string_view line);
  // Reads lines from `in` until EOF, writing one answer line each (flushed).
  void Serve(std::istream& in, std::ostream& out);
  const TraceCache& cache() const { return cache_; }

 private:
  TraceCache cache_;
};

}  // namespace stepline::app
