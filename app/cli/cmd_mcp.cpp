// `stepline mcp`: the Model Context Protocol server over stdio
// (app/mcp/mcp_server.h). Stdout carries only protocol messages.
#include <iostream>
#include <ostream>

#include "app/cli/cli_args.h"
#include "app/cli/commands.h"
#include "app/mcp/mcp_server.h"

namespace stepline::app {

constexpr std::string_view kMcpUsage =
    "usage: stepline mcp\n"
    "  a Model Context Protocol server on stdin/stdout (JSON-RPC 2.0, one message a line) for AI\n"
    "  assistants: tools summary, steps, ops, kernels, gaps, memory, findings, compare, ranks, query,\n"
    "  each answering with `stepline report --json`'s keys. Client configuration: docs/ask.md.\n";

int RunMcp(const Args& args, std::ostream& out, std::ostream& err) {
  if (!args.empty()) {
    if (args.size() == 1 && args[0] == "--help") {
      out << kMcpUsage;
      return 0;
    }
    err << "stepline mcp: takes no arguments\n" << kMcpUsage;
    return 2;
  }
  McpServer server;
  server.Serve(std::cin, out);
  return 0;
}

}  // namespace stepline::app
