// The command-line subcommands of the `stepline` executable. Each takes the
// arguments after its name and returns the process exit code; main() only
// dispatches. Output goes to the given streams so tests can capture it.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace stepline::app {

using Args = std::vector<std::string>;

int RunInfo(const Args& args, std::ostream& out, std::ostream& err);   // stepline info FILE [--json]
int RunBench(const Args& args, std::ostream& out, std::ostream& err);  // stepline bench FILE [--json] ...
int RunDemo(const Args& args, std::ostream& out, std::ostream& err);   // stepline demo --list | SCENARIO --out FILE ...
int RunReport(const Args& args, std::ostream& out, std::ostream& err);  // stepline report FILE [--json] [--csv DIR] ...
int RunDiff(const Args& args, std::ostream& out, std::ostream& err);    // stepline diff A B [--json] ...
int RunViewer(const Args& args, std::ostream& out, std::ostream& err);  // stepline [FILE...] [--demo SCENARIO]
int RunExport(const Args& args, std::ostream& out, std::ostream& err);  // stepline export FILE --sqlite OUT.db [--force]
int RunRanks(const Args& args, std::ostream& out, std::ostream& err);    // stepline ranks PATH... [--json] [--csv DIR]
int RunQuery(const Args& args, std::ostream& out, std::ostream& err);     // stepline query FILE SQL [--csv | --json]
int RunMcp(const Args& args, std::ostream& out, std::ostream& err);       // stepline mcp (stdio server)
int RunScreenshot(const Args& args, std::ostream& out, std::ostream& err);  // stepline screenshot FILE --out PNG ...

}  // namespace stepline::app
