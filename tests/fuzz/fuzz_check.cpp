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

Outcome Check(const Result<Trace, loaders::LoadError>& loaded, const loaders::LoadOptions& options,
              std::string* finding) {
  const std::string how = "threads=" + std::to_string(options.threads) + " keep_args=" +
                          std::to_string(options.keep_args) + ": ";
  Outcome out;
  if (!loaded.ok()) {
    const loaders::LoadError& e = loaded.error();
    if (e.message.empty()) *finding = how + "a LoadError without a message";
    if (e.code == loaders::LoadErrorCode::kCancelled) *finding = how + "cancelled without a cancel request";
    out.error = e.ToString();
    return out;
  }
  const Trace& trace = loaded.value();
  if (!trace.finalized()) *finding = how + "the trace is not finalized";
  const std::string broken = trace.CheckInvariants();
  if (!broken.empty()) *finding = how + "invariant broken: " + broken;
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

std::string CheckEveryWay(const LoadFn& load) {
  // [keep_args][threads - 1]
  Outcome outcomes[2][2];
  for (int keep = 1; keep >= 0; --keep) {
    for (int threads : {1, 2}) {
      loaders::LoadOptions options;
      options.threads = threads;
      options.keep_args = keep == 1;
      std::string finding;
      outcomes[keep][threads - 1] = Check(load(options), options, &finding);
      if (!finding.empty()) return finding;
    }
  }
  const auto counts = [](const Outcome& o) {
    return std::to_string(o.slices) + " slices, " + std::to_string(o.instants) + " instants, " +
           std::to_string(o.counters) + " counters, " + std::to_string(o.flows) + " flows";
  };
  const auto same_counts = [](const Outcome& a, const Outcome& b) {
    return a.slices == b.slices && a.instants == b.instants && a.counters == b.counters && a.flows == b.flows;
  };
  for (int keep = 1; keep >= 0; --keep) {
    // The parallel path must agree with the serial one, failure included.
    const Outcome& serial = outcomes[keep][0];
    const Outcome& parallel = outcomes[keep][1];
    const std::string args = " keep_args=" + std::to_string(keep);
    if (serial.ok != parallel.ok) {
      return "threads=2" + args + (parallel.ok ? " loads" : " fails (" + parallel.error + ")") + " where threads=1 " +
             (serial.ok ? "loads" : "fails (" + serial.error + ")");
    }
    if (serial.ok && !same_counts(serial, parallel)) {
      return "threads=2" + args + " gives " + counts(parallel) + "; threads=1 gives " + counts(serial);
    }
  }
  // Args change the model's size, never its events. (Skipped args are not
  // parsed, so a syntax error inside them fails only the keep_args load.)
  const Outcome& with = outcomes[1][0];
  const Outcome& without = outcomes[0][0];
  if (with.ok && !without.ok) return "keep_args=0 fails (" + without.error + ") where keep_args=1 loads";
  if (with.ok && without.ok && !same_counts(with, without)) {
    return "keep_args=0 gives " + counts(without) + "; keep_args=1 gives " + counts(with);
  }
  return {};
}

void LoadEveryWay(const LoadFn& load) {
  const std::string finding = CheckEveryWay(load);
  if (!finding.empty()) Finding(finding);
}

}  // namespace stepline::fuzz
