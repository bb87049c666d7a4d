// RankSummary: what the distributed-run analysis (ranks_analysis.h) needs of
// one rank's trace, extracted from the Trace and its TraceAnalysis. It holds
// names as strings and no ids, so the rank's Trace can be freed right after
// SummarizeRank and the summary can be written to and read from a file.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/analysis/rank_lanes.h"
#include "model/analysis/trace_analysis.h"

namespace stepline::analysis {

// The largest rank or world size taken from a trace or a file name (a
// million ranks); larger numbers are read as unknown.
inline constexpr int64_t kMaxRanks = 1'000'000;

// A host event blamed for idle time before one collective (see
// CollectiveArrival::blamed): an index into RankSummary::names, and its time.
struct BlamedTime {
  uint32_t name = 0;
  DurNs ns = 0;
};

// One collective kernel of one rank, in the rank's own clock.
struct CollectiveArrival {
  std::string group;       // Process Group Name; "" when the trace has none
  std::string name;        // the collective: "AllReduce", "SendRecv", ... (NormalizeCollectiveName)
  std::string op;          // XLA: the HLO instruction ("all-reduce.3"; an async pair's -start); "" otherwise
  int64_t seq = -1;        // the Seq arg; -1: none (matched by `ordinal`)
  uint32_t ordinal = 0;    // its index among this rank's collectives of the same (group, name, op)
  TimeNs start_ns = 0;     // the kernel's start: the rank's arrival
  TimeNs end_ns = 0;       // XLA async pair: the -done's end
  int32_t step = -1;       // index of the step its start falls in; -1 outside every step
  // Compute-kernel time of the rank's device inside [start, end): sorted,
  // disjoint intervals, so wait/transfer overlap needs no trace.
  std::vector<Interval> compute;
  // The rank's idle gaps between its previous collective's end (or its first
  // step's start) and this start: blamed host events by time, largest first
  // (at most 3), and the idle time by cause.
  std::vector<BlamedTime> blamed;
  CauseNs idle_before{};
};

struct RankSummary {
  std::string path;            // the file
  std::string host;            // trace metadata `hostname`, else ""
  int32_t rank = -1;           // distributedInfo.rank; -1 unknown (the caller assigns one)
  int32_t world_size = -1;     // distributedInfo.world_size; -1 unknown
  std::string backend;         // distributedInfo.backend
  std::string rank_source;     // "distributed_info", "file_name", "order"
  std::string device;          // the primary device's name
  int64_t steps = 0;
  DurNs step_total_ns = 0;     // summed step durations
  CategoryNs breakdown_total{};  // primary device, summed over the steps
  CauseNs idle_by_cause_total{}; // primary device, no-kernel time inside steps by cause
  TimeRange span;              // the trace's span, own clock
  std::vector<std::string> names;  // strings referenced by BlamedTime::name
  std::vector<CollectiveArrival> collectives;  // in start order
  // The compute kernels with the most summed time (at most 16), for naming a
  // slow kernel when a rank is late without idling.
  std::vector<std::pair<std::string, DurNs>> top_kernels;
  // The timeline's busy summary of this rank (rank_lanes.h). Not written to
  // `report --json`: a summary read back from a report has none.
  RankLanes lanes;

  DurNs step_mean_ns() const { return steps > 0 ? step_total_ns / steps : 0; }
};

// "ncclKernel_AllReduce_RING_LL_Sum_float(...)" / "ncclDevKernel_AllReduce_Sum_f32_RING_LL"
// -> "AllReduce"; "nccl:all_reduce" -> "AllReduce"; XLA ops ("all-reduce.3",
// "%ag = f32[8] all-gather-start(...)") -> their kind (ParseXlaCollective);
// other names: as given, up to '('.
std::string NormalizeCollectiveName(std::string_view kernel_name);

// The rank's summary: identity from the `distributedInfo` metadata (Kineto),
// the primary device's steps and breakdown, and every collective kernel of
// the primary device with its Seq / Process Group Name (on the kernel, else
// on the record_param_comms enclosing its launch call). XLA collective ops
// (TPU / XLA-only GPU planes) keep their HLO instruction in `op`, and an
// async pair (-start ... -done) is one collective from the start's start to
// the done's end.
RankSummary SummarizeRank(const Trace& trace, const TraceAnalysis& analysis, std::string path = {});

// Parses Kineto's distributedInfo JSON text ({"backend":"nccl","rank":1,"world_size":8});
// absent fields stay -1 / "". Pure string work: no JSON library in the model.
void ParseDistributedInfo(std::string_view json, int32_t* rank, int32_t* world_size, std::string* backend);

// The rank named in a file name: "rank-3", "rank3", "rank_3", "rank.3",
// "worker3", "worker_3" (case-insensitive, the last match wins). -1 when none.
int32_t RankFromFileName(std::string_view file_name);
// Megatron-style parallel coordinates in a file name ("-TP-0-DP-1-PP-2-"):
// the numbers in the order written, empty when the name has fewer than two
// AXIS-N pairs. Ranks are then the order of these tuples over the file set.
std::vector<int32_t> ParallelCoordinates(std::string_view file_name);

}  // namespace stepline::analysis
