// The `stepline` executable: dispatches `stepline <command> ...` to the
// subcommands in app/cli/commands.h. Everything else lives in stepline_app so the
// tests can drive it without a process.
#include <malloc.h>

#include <algorithm>
#include <filesystem>
#include <new>
#include <system_error>
#include <iostream>
#include <string_view>

#include "app/cli/commands.h"
#include "app/runs/cached_trace_load.h"
#include "app/runs/version.h"
#include "loaders/memory_estimate.h"

namespace {

constexpr std::string_view kUsage =
    "usage: stepline [FILE]                 open the viewer (the built-in demo when no file)\n"
    "       stepline A B                    compare two runs in the viewer (A = baseline)\n"
    "       stepline <command> [arguments]\n"
    "\n"
    "commands:\n"
    "  report FILE [--json | --format md] [--csv DIR [--force]] [--steps REGEX] [--min-gap-us N] [--patterns TSV]\n"
    "                                 step-time breakdown, GPU idle causes, top ops, recommendations\n"
    "  diff A B [--json] [--steps REGEX] [--no-normalize] [--top N] [--fail-if-slower PCT]\n"
    "                                 compare two runs: step time, breakdown, idle causes, op deltas,\n"
    "                                 a verdict (faster / slower / no_change); exit 3 when slower\n"
    "  diff --baseline NAME B         compare against a saved baseline (diff FILE --save-baseline NAME)\n"
    "  view [FILE [FILE_B]] [--demo SCENARIO] [--finding F1] [--peak-tflops X] [--peak-dtype T] [--batch-size N]\n"
    "                                 open the viewer window (two files: compare them)\n"
    "  view --ranks PATH...           the ranks view: every rank of a distributed run side by side\n"
    "  screenshot FILE [FILE_B] --out PNG [--view timeline|overview|step-histogram|ops|kernels|gaps|memory|compare|ranks]\n"
    "             [--size WxH] [--range START_MS:END_MS] [--step N] [--scale S] [--caption] [--force]\n"
    "             [--peak-tflops X] [--peak-dtype T] [--batch-size N]\n"
    "                                 render a view headless into a PNG\n"
    "  ranks PATH... [--json] [--csv DIR]\n"
    "                                 every rank of a distributed run: straggler, waits, clock offsets\n"
    "  query FILE SQL [--csv | --json] [--max-rows N]\n"
    "                                 SQL over the loaded trace (the export's tables), no export\n"
    "  mcp                            a Model Context Protocol server on stdio, for AI assistants\n"
    "  info FILE [--json]             load a trace and summarize it\n"
    "  export FILE --sqlite OUT.db [--force]\n"
    "                                 write the trace and its analysis as an SQLite database\n"
    "  bench FILE [--json] [--tile-mb N] [--repeat R] [--threads T]\n"
    "                                 measure load speed and resident memory\n"
    "  demo --list                    list the built-in demo scenarios\n"
    "  demo SCENARIO --out FILE       write a demo trace\n"
    "  --no-cache                     (with any command) neither read nor write the column cache\n"
    "  --help                         this text\n"
    "  --version                      print the version\n"
    "\n"
    "FILE: Chrome-trace / PyTorch-Kineto JSON, an XSpace .xplane.pb, a Perfetto .pftrace,\n"
    "an Nsight Systems SQLite export (nsys export --type sqlite) or rocprofv3 JSON,\n"
    "each optionally .gz / .zst; the format is sniffed from the content, not the name. FILE may also be a\n"
    "TensorBoard/XProf log directory: the newest plugins/profile/<run>/ under it is opened (its first\n"
    "host when it has several) and stderr says which file was chosen.\n";

}  // namespace

namespace {

// The work of a command that ran out of memory outside a load (the analysis,
// compare, the ranks, the export, a screenshot) fails with exit 1 and says
// what the trace needs, instead of std::terminate (SIGABRT). Loads catch
// their own (LoadErrorCode::kOutOfMemory) and name the file.
int OutOfMemory(std::string_view command, const stepline::app::Args& args) {
  stepline::loaders::MemoryEstimate estimate;
  for (const std::string& arg : args) {
    std::error_code ec;
    if (!arg.starts_with("-") && std::filesystem::is_regular_file(arg, ec)) {
      estimate = stepline::loaders::EstimateLoadMemory(arg);
      break;
    }
  }
  const std::string what = command.empty() ? std::string("the viewer") : "stepline " + std::string(command);
  std::cerr << "stepline: " << stepline::loaders::OutOfMemoryMessage(what, estimate) << "\n";
  return 1;
}

int Dispatch(int argc, char** argv);

}  // namespace

int main(int argc, char** argv) {
  try {
    return Dispatch(argc, argv);
  } catch (const std::exception& e) {
    // std::bad_alloc, or std::system_error from a thread that could not start
    // (its stack is memory too); anything else is not ours to explain.
    if (dynamic_cast<const std::bad_alloc*>(&e) == nullptr && dynamic_cast<const std::system_error*>(&e) == nullptr) {
      throw;
    }
    const std::string_view command = argc >= 2 ? std::string_view(argv[1]) : std::string_view();
    return OutOfMemory(command, stepline::app::Args(argv + std::min(argc, 2), argv + argc));
  }
}

namespace {

int Dispatch(int argc, char** argv) {
  using stepline::app::Args;
#if defined(__GLIBC__)
  // One malloc arena for the process: the loaders parse on worker threads, and
  // glibc keeps each thread's freed temporaries resident in that thread's own
  // arena, which malloc_trim() does not give back. Measured with `stepline
  // bench` on hta/df_index_resolver (no args): 88 B/slice resident with the
  // default arenas, 46 B/slice (the model's own size) with one; load speed
  // unchanged within noise.
  mallopt(M_ARENA_MAX, 1);
#endif
  // `--no-cache` applies to every command: taken out here, before dispatch.
  int kept = 1;
  bool options_end = false;  // after "--" every argument is a file name
  for (int i = 1; i < argc; ++i) {
    options_end = options_end || std::string_view(argv[i]) == "--";
    if (!options_end && std::string_view(argv[i]) == "--no-cache") {
      stepline::app::DisableTraceCache();
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  if (argc < 2) return stepline::app::RunViewer({}, std::cout, std::cerr);
  const std::string_view command = argv[1];
  const Args args(argv + 2, argv + argc);
  if (command == "info") return stepline::app::RunInfo(args, std::cout, std::cerr);
  if (command == "bench") return stepline::app::RunBench(args, std::cout, std::cerr);
  if (command == "demo") return stepline::app::RunDemo(args, std::cout, std::cerr);
  if (command == "report") return stepline::app::RunReport(args, std::cout, std::cerr);
  if (command == "diff") return stepline::app::RunDiff(args, std::cout, std::cerr);
  if (command == "view") return stepline::app::RunViewer(args, std::cout, std::cerr);
  if (command == "export") return stepline::app::RunExport(args, std::cout, std::cerr);
  if (command == "ranks") return stepline::app::RunRanks(args, std::cout, std::cerr);
  if (command == "mcp") return stepline::app::RunMcp(args, std::cout, std::cerr);
  if (command == "query") return stepline::app::RunQuery(args, std::cout, std::cerr);
  if (command == "screenshot") return stepline::app::RunScreenshot(args, std::cout, std::cerr);
  if (command == "--help" || command == "-h" || command == "help") {
    std::cout << kUsage;
    return 0;
  }
  if (command == "--version") {
    std::cout << "stepline " << stepline::app::Version() << "\n";
    return 0;
  }
  // `stepline FILE`: a path rather than a command opens the viewer on it.
  if (!command.starts_with("-") && std::filesystem::exists(std::string(command))) {
    return stepline::app::RunViewer(Args(argv + 1, argv + argc), std::cout, std::cerr);
  }
  std::cerr << "stepline: unknown command '" << command << "'\n\n" << kUsage;
  return 2;
}

}  // namespace
