// The invariant checks every fuzz target shares (see fuzz_check.h).
#include "tests/fuzz/fuzz_check.h"

#include <cstdio>
#include <cstdlib>

namespace stepline::fuzz {
namespace {

struct Outcome {
  bool ok = false;
  size_t slices = 0, instants = 0, counters = 0, flows = 0;
  std::string error;
};

[[noreturn]] void Finding(const std::string& what) {
  std::fprintf(stderr, "fuzz finding: %s\n", what.c_str());
  std::abort();
}

Outcome Check(const Result<Trace, loaders::LoadError>& loaded, const loaders::LoadOptions& options) {
  const std::string how = "threads=" + std::to_string(options.threads) + " keep_args=" +
                          std::to_string(options.keep_args) + ": ";
  Outcome out;
  if (!loaded.ok()) {
    const loaders::LoadError& e = loaded.error();
    if (e.message.empty()) Finding(how + "a LoadError without a message");
    if (e.code == loaders::LoadErrorCode::kCancelled) Finding(how + "cancelled without a cancel request");
    out.error = e.ToString();
    return out;
  }
  const Trace& trace = loaded.value();
  if (!trace.finalized()) Finding(how + "the trace is not finalized");
  const std::string broken = trace.CheckInvariants();
  if (!broken.empty()) Finding(how + "invariant broken: " + broken);
  // Every string the model hands out must be readable.
  for (size_t i = 0; i < trace.slices().size(); ++i) {
    (void)trace.str(trace.slices().name()[i]).size();
  }
  out.ok = true;
  out.slices = trace.slices().size();
  out.instants = trace.instants().size();
  out.counters = trace.counters().size();
  out.flows = trace.flows().size();
  return out;
}

}  // namespace

void LoadEveryWay(const LoadFn& load) {
  Outcome first;
  bool have_first = false;
  for (int threads : {1, 2}) {
    for (bool keep_args : {true, false}) {
      loaders::LoadOptions options;
      options.threads = threads;
      options.keep_args = keep_args;
      const Outcome o = Check(load(options), options);
      if (!have_first) {
        first = o;
        have_first = true;
        continue;
      }
      const std::string how = "threads=" + std::to_string(threads) + " keep_args=" + std::to_string(keep_args);
      if (o.ok != first.ok) {
        Finding(how + " " + (o.ok ? "loads" : "fails (" + o.error + ")") + " where threads=1 keep_args=1 " +
                (first.ok ? "loads" : "fails (" + first.error + ")"));
      }
      if (o.ok && (o.slices != first.slices || o.instants != first.instants || o.counters != first.counters ||
                   o.flows != first.flows)) {
        Finding(how + " gives " + std::to_string(o.slices) + " slices, " + std::to_string(o.instants) +
                " instants, " + std::to_string(o.counters) + " counters, " + std::to_string(o.flows) +
                " flows; threads=1 keep_args=1 gives " + std::to_string(first.slices) + ", " +
                std::to_string(first.instants) + ", " + std::to_string(first.counters) + ", " +
                std::to_string(first.flows));
      }
    }
  }
}

}  // namespace stepline::fuzz
