// The `ddp-straggler` demo: N PyTorch/Kineto rank traces of one
// data-parallel run in which one rank is input-bound, written as Kineto JSON
// text (with `distributedInfo`), plus the truth planted in them.
//
// Per step and rank, the main thread waits for the DataLoader
// (`enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__`; 2 ms, 30 ms
// on the straggler), launches the forward/backward kernels (each under an
// aten op), then the gradient all-reduce (record_param_comms > nccl:all_reduce
// > cudaLaunchKernel; the NCCL kernel starts on the communication stream once
// the rank's compute is done), then two optimizer kernels that wait for the
// all-reduce, and syncs. Every rank's all-reduce ends at the last arrival plus
// the step's transfer time (plus a few us per rank). Rank r's clock reads r *
// skew ahead. Durations get seeded jitter (SplitMix64), the same everywhere.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/time.h"

namespace stepline::demo {

struct DdpDemoOptions {
  int ranks = 4;               // world size (>= 2)
  int steps = 8;               // ProfilerStep#N per rank (>= 2)
  int kernels_per_step = 40;   // forward/backward compute kernels per step (>= 1)
  int straggler = -1;          // the input-bound rank; -1: ranks / 2
  DurNs skew_ns = 0;           // rank r's clock is r * skew_ns ahead
  uint64_t seed = 1;
};

inline constexpr int kDdpMaxRanks = 4096;
inline constexpr const char* kDdpInputEventName = "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__";

// Truth per rank, on the true (unskewed) clock; means over all steps.
struct DdpRankTruth {
  DurNs wait_ns_per_step = 0;  // last arrival - its arrival at the step's all-reduce
  DurNs late_ns = 0;           // its arrival - the median arrival, mean per all-reduce
  DurNs clock_offset_ns = 0;   // rank * skew_ns
};

struct DdpDemoTruth {
  int straggler = -1;
  std::string cause = "input";
  std::string blamed = kDdpInputEventName;
  std::vector<DdpRankTruth> ranks;
  DurNs step_mean_ns = 0;  // over ranks and the same steps
};

// Checks the options; "" when valid, else the message.
std::string CheckDdpDemoOptions(const DdpDemoOptions& options);

// The run, simulated once; RankJson writes one rank's file from it.
class DdpDemo {
 public:
  explicit DdpDemo(const DdpDemoOptions& options);
  const DdpDemoTruth& truth() const { return truth_; }
  // Rank `rank`'s Kineto JSON text.
  std::string RankJson(int rank) const;

 private:
  struct StepTiming {  // one rank, one step, true clock
    TimeNs start = 0, arrival = 0, collective_end = 0, end = 0;
  };
  // Replays one rank's step from t->start: sets t->arrival; when
  // t->collective_end is known (> 0) also t->end, and appends the step's
  // events to `json` (null: no events).
  void Step(int rank, int step, StepTiming* t, std::string* json) const;
  DdpDemoOptions options_;
  std::vector<std::vector<StepTiming>> timing_;  // [rank][step]
  DdpDemoTruth truth_;
};

}  // namespace stepline::demo
