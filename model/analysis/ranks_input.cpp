// SummarizeRank and the rank-identity parsers (see ranks_input.h).
#include "model/analysis/ranks_input.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <unordered_map>

#include "model/ascii_case.h"
#include "model/xla_op.h"

namespace stepline::analysis {
namespace {

// Reads the integer after `pos` (skipping spaces, ':' and '"'); -1 when none.
int64_t IntAfter(std::string_view s, size_t pos) {
  while (pos < s.size() && (s[pos] == ' ' || s[pos] == ':' || s[pos] == '"')) ++pos;
  if (pos >= s.size() || !std::isdigit(static_cast<unsigned char>(s[pos]))) return -1;
  int64_t v = 0;
  while (pos < s.size() && std::isdigit(static_cast<unsigned char>(s[pos])) && v < (int64_t{1} << 40)) {
    v = v * 10 + (s[pos++] - '0');
  }
  return v;
}

// The collectives' canonical names, keyed by their spelling with '_' removed
// and lower case ("all_reduce", "allreduce", "AllReduce" all match).
std::string CanonicalCollective(std::string_view word) {
  static const std::pair<std::string_view, std::string_view> kNames[] = {
      {"allreduce", "AllReduce"},         {"allgather", "AllGather"},   {"reducescatter", "ReduceScatter"},
      {"broadcast", "Broadcast"},         {"reduce", "Reduce"},         {"sendrecv", "SendRecv"},
      {"alltoall", "AllToAll"},           {"alltoallv", "AllToAll"},    {"send", "Send"},
      {"recv", "Recv"},                   {"allgatherv", "AllGather"},  {"barrier", "Barrier"},
      {"allgatherintocoalesced", "AllGather"}, {"reducescattertensorcoalesced", "ReduceScatter"}};
  std::string key;
  for (char c : word) {
    if (c != '_') key.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  for (const auto& [k, v] : kNames) {
    if (key == k) return std::string(v);
  }
  return {};
}

std::string ArgText(const Trace& trace, ArgSetId set, StringId key) {
  ArgValue v;
  if (key.is_none() || !trace.args().Find(set, key, &v)) return {};
  if (v.type == ArgType::kString || v.type == ArgType::kJson) return std::string(trace.str(v.as_string()));
  if (v.type == ArgType::kDecimalString) return std::to_string(v.as_uint());
  int64_t i = 0;
  if (v.ToInt64(&i)) return std::to_string(i);
  return {};
}

int64_t ArgInt(const Trace& trace, ArgSetId set, StringId key) {
  ArgValue v;
  if (key.is_none() || !trace.args().Find(set, key, &v)) return -1;
  int64_t i = 0;
  if (v.ToInt64(&i)) return i;
  if (v.type == ArgType::kString) {
    const std::string_view s = trace.str(v.as_string());
    return IntAfter(s, 0);
  }
  return -1;
}

struct CommKeys {
  StringId seq, group, record_param_comms;
};

// Seq and Process Group Name of a collective kernel: on the kernel, else on
// the record_param_comms enclosing its launch call.
void FindSeqAndGroup(const Trace& trace, const CommKeys& keys, const LaunchIndex& launches, SliceId kernel,
                     int64_t* seq, std::string* group) {
  const SliceTable& s = trace.slices();
  *seq = ArgInt(trace, s.arg_set()[kernel.index()], keys.seq);
  *group = ArgText(trace, s.arg_set()[kernel.index()], keys.group);
  if (*seq >= 0) return;
  for (SliceId p = launches.LaunchOf(kernel); !p.is_none(); p = s.parent()[p.index()]) {
    if (s.name()[p.index()] != keys.record_param_comms) continue;
    *seq = ArgInt(trace, s.arg_set()[p.index()], keys.seq);
    if (group->empty()) *group = ArgText(trace, s.arg_set()[p.index()], keys.group);
    return;
  }
}

bool IsNcclName(std::string_view name) { return name.starts_with("nccl") || name.starts_with("rccl"); }

// An XLA async pair's common name: "all-gather-start.2" and
// "all-gather-done.2" -> "all-gather.2"; "send.1" and "send-done.1" -> "send.1".
std::string PairName(std::string_view instruction) {
  std::string s(instruction);
  for (std::string_view half : {"-start", "-done"}) {
    if (size_t p = s.find(half); p != std::string::npos) return s.erase(p, half.size());
  }
  return s;
}

// One collective of the primary device before its timing is summarized.
struct FoundCollective {
  SliceId slice;
  TimeNs start_ns = 0, end_ns = 0;
  std::string name, op;
};

// The primary device's collectives in start order; an XLA -done ends the
// earliest open -start of the same pair name (else of the same kind) and is
// not a collective of its own.
std::vector<FoundCollective> FindCollectives(const Trace& trace, const DeviceAnalysis& device) {
  std::vector<FoundCollective> found;
  std::vector<std::pair<size_t, std::string>> open;  // XLA -starts not yet done: index, pair name
  const StringId category_key = trace.strings().Find("hlo_category");
  for (const DeviceOp& op : device.activity.ops) {
    if (op.kind != GpuKind::kCollective) continue;
    const std::string_view name = trace.str(trace.slices().name()[op.slice.index()]);
    XlaCollective x;
    const bool xla =
        !IsNcclName(name) &&
        ParseXlaCollective(name, ArgText(trace, trace.slices().arg_set()[op.slice.index()], category_key), &x);
    if (xla && x.part == XlaAsyncPart::kDone) {
      const std::string pair = PairName(x.instruction);
      auto it = std::find_if(open.begin(), open.end(), [&](const auto& o) { return o.second == pair; });
      if (it == open.end()) {
        it = std::find_if(open.begin(), open.end(), [&](const auto& o) { return found[o.first].name == x.kind; });
      }
      if (it != open.end()) {
        found[it->first].end_ns = std::max(found[it->first].end_ns, op.end_ns);
        open.erase(it);
        continue;
      }
    }
    FoundCollective f{op.slice, op.start_ns, op.end_ns, xla ? std::string(x.kind) : NormalizeCollectiveName(name),
                      xla ? std::string(x.instruction) : std::string()};
    if (xla && x.part == XlaAsyncPart::kStart) open.emplace_back(found.size(), PairName(x.instruction));
    found.push_back(std::move(f));
  }
  return found;
}

}  // namespace

std::string NormalizeCollectiveName(std::string_view name) {
  if (const size_t paren = name.find('('); paren != std::string_view::npos) name = name.substr(0, paren);
  if (name.starts_with("nccl:") || name.starts_with("rccl:")) {
    std::string c = CanonicalCollective(name.substr(5));
    return c.empty() ? std::string(name) : c;
  }
  // ncclKernel_AllReduce_RING_LL_Sum_float, ncclDevKernel_AllReduce_Sum_f32_RING_LL,
  // ncclKernel_SendRecv_..., ncclDevKernel_Generic: the word after the prefix.
  for (std::string_view prefix : {"ncclDevKernel_", "ncclKernel_", "rcclKernel_", "ncclDevKernelDebug_"}) {
    if (!name.starts_with(prefix)) continue;
    std::string_view rest = name.substr(prefix.size());
    std::string_view word = rest.substr(0, rest.find('_'));
    std::string c = CanonicalCollective(word);
    return c.empty() ? std::string(word) : c;
  }
  if (XlaCollective x; ParseXlaCollective(name, {}, &x)) return std::string(x.kind);
  return std::string(name);
}

void ParseDistributedInfo(std::string_view json, int32_t* rank, int32_t* world_size, std::string* backend) {
  *rank = -1;
  *world_size = -1;
  backend->clear();
  // Beyond kMaxRanks a number is not a rank (and would size tables by it).
  if (size_t p = json.find("\"rank\""); p != std::string_view::npos) {
    const int64_t v = IntAfter(json, p + 6);
    *rank = v <= kMaxRanks ? static_cast<int32_t>(v) : -1;
  }
  if (size_t p = json.find("\"world_size\""); p != std::string_view::npos) {
    const int64_t v = IntAfter(json, p + 12);
    *world_size = v <= kMaxRanks ? static_cast<int32_t>(v) : -1;
  }
  if (size_t p = json.find("\"backend\""); p != std::string_view::npos) {
    size_t q = json.find('"', json.find(':', p + 9) + 1);
    if (q != std::string_view::npos) {
      size_t e = json.find('"', q + 1);
      if (e != std::string_view::npos) *backend = std::string(json.substr(q + 1, e - q - 1));
    }
  }
}

int32_t RankFromFileName(std::string_view file_name) {
  const std::string name = AsciiLower(file_name);
  int32_t found = -1;
  for (std::string_view word : {"rank", "worker"}) {
    for (size_t p = name.find(word); p != std::string::npos; p = name.find(word, p + 1)) {
      size_t q = p + word.size();
      if (q < name.size() && (name[q] == '-' || name[q] == '_' || name[q] == '.')) ++q;
      if (q < name.size() && std::isdigit(static_cast<unsigned char>(name[q]))) {
        const int64_t v = IntAfter(name, q);
        if (v <= kMaxRanks) found = static_cast<int32_t>(v);
      }
    }
  }
  return found;
}

std::vector<int32_t> ParallelCoordinates(std::string_view file_name) {
  // AXIS-N pairs: two or three capital letters between '-' or '_' and a number.
  std::vector<int32_t> coords;
  for (size_t i = 0; i + 3 < file_name.size(); ++i) {
    if (i > 0 && file_name[i - 1] != '-' && file_name[i - 1] != '_') continue;
    size_t j = i;
    while (j < file_name.size() && std::isupper(static_cast<unsigned char>(file_name[j]))) ++j;
    if (j - i < 2 || j - i > 3 || j + 1 >= file_name.size() || file_name[j] != '-') continue;
    const int64_t v = IntAfter(file_name, j + 1);
    if (v < 0 || v > kMaxRanks || !std::isdigit(static_cast<unsigned char>(file_name[j + 1]))) continue;
    coords.push_back(static_cast<int32_t>(v));
    i = j;
  }
  if (coords.size() < 2) coords.clear();
  return coords;
}

RankSummary SummarizeRank(const Trace& trace, const TraceAnalysis& analysis, std::string path) {
  RankSummary r;
  r.path = std::move(path);
  r.span = trace.span();
  const ArgSetId meta = trace.info().metadata;
  const std::string info = ArgText(trace, meta, trace.strings().Find("distributedInfo"));
  if (!info.empty()) {
    ParseDistributedInfo(info, &r.rank, &r.world_size, &r.backend);
    if (r.rank >= 0) r.rank_source = "distributed_info";
  }
  r.host = ArgText(trace, meta, trace.strings().Find("hostname"));
  if (r.host.empty()) {  // XSpace: XSpace.hostnames, joined with ", " by the loader; the first is the host
    r.host = ArgText(trace, meta, trace.strings().Find("hostnames"));
    r.host = r.host.substr(0, r.host.find(','));
  }

  r.lanes = SummarizeRankLanes(trace, analysis);
  r.steps = static_cast<int64_t>(analysis.steps.steps.size());
  for (const Step& s : analysis.steps.steps) r.step_total_ns += s.dur_ns;
  const DeviceAnalysis* primary = analysis.primary();
  if (!primary) return r;
  r.device = primary->activity.name;
  r.breakdown_total = primary->breakdown_total;
  r.idle_by_cause_total = primary->step_idle_by_cause;

  // Compute-only busy time (the collectives' overlap with compute).
  std::vector<Interval> compute_ops;
  for (const DeviceOp& op : primary->activity.ops) {
    if (op.kind == GpuKind::kKernel) compute_ops.push_back({op.start_ns, op.end_ns});
  }
  const std::vector<Interval> compute = MergeIntervals(std::move(compute_ops));

  const CommKeys keys{trace.strings().Find("Seq"), trace.strings().Find("Process Group Name"),
                      trace.strings().Find("record_param_comms")};
  const LaunchIndex launches = keys.seq.is_none() ? LaunchIndex{} : BuildLaunchIndex(trace);
  const std::vector<Step>& steps = analysis.steps.steps;
  std::map<std::pair<std::string, std::string>, uint32_t> ordinals;
  std::unordered_map<std::string, uint32_t> name_index;
  const uint32_t device_index = static_cast<uint32_t>(analysis.primary_device);
  TimeNs window_start = steps.empty() ? r.span.start_ns : steps.front().start_ns;

  for (FoundCollective& op : FindCollectives(trace, *primary)) {
    CollectiveArrival c;
    c.name = std::move(op.name);
    c.op = std::move(op.op);
    FindSeqAndGroup(trace, keys, launches, op.slice, &c.seq, &c.group);
    c.ordinal = ordinals[{c.group, c.name + '\n' + c.op}]++;
    c.start_ns = op.start_ns;
    c.end_ns = op.end_ns;
    auto it = std::upper_bound(steps.begin(), steps.end(), op.start_ns,
                               [](TimeNs t, const Step& s) { return t < s.start_ns; });
    if (it != steps.begin() && op.start_ns < std::prev(it)->end_ns()) {
      c.step = static_cast<int32_t>(std::prev(it) - steps.begin());
    }
    auto ci = std::partition_point(compute.begin(), compute.end(),
                                   [&](const Interval& i) { return i.end_ns <= op.start_ns; });
    for (; ci != compute.end() && ci->start_ns < op.end_ns; ++ci) {
      c.compute.push_back({std::max(ci->start_ns, op.start_ns), std::min(ci->end_ns, op.end_ns)});
    }
    // What kept this rank from arriving sooner: its idle since its previous collective.
    std::map<uint32_t, DurNs> blamed;
    if (window_start < op.start_ns) {
      const TimeRange window{window_start, op.start_ns};
      auto [g0, g1] = analysis.GapsInRange(device_index, window);
      for (uint32_t g = g0; g < g1; ++g) {
        const IdleGap& gap = analysis.gaps[g];
        const DurNs overlap = std::min(gap.end_ns, window.end_ns) - std::max(gap.start_ns, window.start_ns);
        if (overlap <= 0) continue;
        At(c.idle_before, gap.cause) += overlap;
        for (const BlamedEvent& e : gap.cause_events) {
          const std::string n(trace.str(trace.slices().name()[e.slice.index()]));
          auto [ni, inserted] = name_index.try_emplace(n, static_cast<uint32_t>(r.names.size()));
          if (inserted) r.names.push_back(n);
          blamed[ni->second] += std::min(e.overlap_ns, overlap);
        }
      }
    }
    for (const auto& [n, ns] : blamed) c.blamed.push_back({n, ns});
    std::sort(c.blamed.begin(), c.blamed.end(),
              [](const BlamedTime& a, const BlamedTime& b) { return a.ns != b.ns ? a.ns > b.ns : a.name < b.name; });
    if (c.blamed.size() > 3) c.blamed.resize(3);
    window_start = std::max(window_start, op.end_ns);
    r.collectives.push_back(std::move(c));
  }
  for (const OpStat& op : analysis.ops.ops) {
    if (op.kind != OpKind::kKernel || r.top_kernels.size() >= 16) continue;
    const std::string_view n = trace.str(op.name);
    if (XlaCollective x; IsNcclName(n) || ParseXlaCollective(n, {}, &x)) continue;
    r.top_kernels.emplace_back(std::string(n), op.total_ns);
  }
  return r;
}

}  // namespace stepline::analysis
