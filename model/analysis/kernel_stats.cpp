// Kernel statistics (see kernel_stats.h). Launch configurations are read from
// each kernel's args; the string forms (JSON arrays, kernel_details) repeat a
// lot, so their parses are cached per interned string.
#include "model/analysis/kernel_stats.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <string>
#include <unordered_map>

#include "model/analysis/step_set.h"

namespace stepline::analysis {
namespace {

struct LaunchConfig {
  std::array<int64_t, 3> grid{}, block{};
  int64_t registers = -1, shared_memory = -1;
  double occupancy = -1;
  StringId tf_op, hlo_op;
};

// Hardware caps registers per thread at 255 (NVIDIA) / 512 (AMD); some ROCm
// traces carry uninitialized values (regs:2191500840): treat those as unknown.
constexpr int64_t kMaxPlausibleRegisters = 1024;

// "[128, 1, 1]", "128,1,1" or "128" -> {128, 1, 1}; missing dims are 1.
std::array<int64_t, 3> ParseTriple(std::string_view s) {
  std::array<int64_t, 3> out{};
  int n = 0;
  for (size_t i = 0; i < s.size() && n < 3;) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) {
      ++i;
      continue;
    }
    auto [next, ec] = std::from_chars(s.data() + i, s.data() + s.size(), out[n]);
    if (ec != std::errc()) break;
    ++n;
    i = static_cast<size_t>(next - s.data());
  }
  if (n == 0) return {};
  for (int k = n; k < 3; ++k) out[k] = 1;
  return out;
}

double ParseDouble(std::string_view s) {
  const std::string text(s);
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  return end == text.c_str() ? -1 : v;
}

// "regs:32 static_shared:0 dynamic_shared:1024 grid:1,1,1 block:128,1,1 occ_pct:50"
LaunchConfig ParseKernelDetails(std::string_view s) {
  LaunchConfig c;
  int64_t static_shared = -1, dynamic_shared = -1;
  while (!s.empty()) {
    const size_t space = s.find(' ');
    const std::string_view item = s.substr(0, space);
    s.remove_prefix(space == std::string_view::npos ? s.size() : space + 1);
    const size_t colon = item.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string_view key = item.substr(0, colon), value = item.substr(colon + 1);
    if (key == "regs") c.registers = ParseTriple(value)[0];
    if (key == "static_shared") static_shared = ParseTriple(value)[0];
    if (key == "dynamic_shared") dynamic_shared = ParseTriple(value)[0];
    if (key == "grid") c.grid = ParseTriple(value);
    if (key == "block") c.block = ParseTriple(value);
    if (key == "occ_pct") c.occupancy = ParseDouble(value);
  }
  if (static_shared >= 0 || dynamic_shared >= 0)
    c.shared_memory = std::max<int64_t>(static_shared, 0) + std::max<int64_t>(dynamic_shared, 0);
  return c;
}

class ConfigReader {
 public:
  explicit ConfigReader(const Trace& trace) : trace_(trace) {
    const StringPool& p = trace.strings();
    grid_ = p.Find("grid");
    block_ = p.Find("block");
    registers_ = p.Find("registers per thread");
    shared_ = p.Find("shared memory");
    occupancy_ = p.Find("est. achieved occupancy %");
    details_ = p.Find("kernel_details");
    tf_op_ = p.Find("tf_op");
    hlo_op_ = p.Find("hlo_op");
  }

  LaunchConfig Read(ArgSetId set) {
    LaunchConfig c;
    if (set.is_none()) return c;
    const ArgTable& args = trace_.args();
    for (uint32_t r = args.set_begin(set); r < args.set_end(set); ++r) {
      const StringId key = args.key()[r];
      if (key.is_none()) continue;
      const ArgValue v = args.value(r);
      if (key == grid_)
        c.grid = Triple(v);
      else if (key == block_)
        c.block = Triple(v);
      else if (key == registers_)
        c.registers = Int(v);
      else if (key == shared_)
        c.shared_memory = Int(v);
      else if (key == occupancy_)
        c.occupancy = Double(v);
      else if (key == tf_op_ && v.type == ArgType::kString)
        c.tf_op = v.as_string();
      else if (key == hlo_op_ && v.type == ArgType::kString)
        c.hlo_op = v.as_string();
      else if (key == details_ && v.type == ArgType::kString)
        MergeDetails(v.as_string(), &c);
    }
    if (c.registers > kMaxPlausibleRegisters) c.registers = -1;
    return c;
  }

  // The framework op an XSpace kernel names itself: tf_op, unless it is only
  // XLA's module placeholder ("XlaModule:"), then hlo_op.
  StringId FrameworkOp(const LaunchConfig& c) const {
    const std::string_view tf_op = trace_.str(c.tf_op);
    if (!c.tf_op.is_none() && !tf_op.ends_with(':')) return c.tf_op;
    return c.hlo_op.is_none() ? c.tf_op : c.hlo_op;
  }

 private:
  std::array<int64_t, 3> Triple(ArgValue v) {
    if (v.type != ArgType::kString && v.type != ArgType::kJson) {
      int64_t n = 0;
      return v.ToInt64(&n) ? std::array<int64_t, 3>{n, 1, 1} : std::array<int64_t, 3>{};
    }
    auto [it, inserted] = triples_.try_emplace(v.as_string().value);
    if (inserted) it->second = ParseTriple(trace_.str(v.as_string()));
    return it->second;
  }
  int64_t Int(ArgValue v) {
    int64_t n = -1;
    if (v.ToInt64(&n)) return n;
    if (v.type == ArgType::kString) return static_cast<int64_t>(ParseDouble(trace_.str(v.as_string())));
    return -1;
  }
  double Double(ArgValue v) {
    if (v.type == ArgType::kDouble) return v.as_double();
    int64_t n = 0;
    if (v.ToInt64(&n)) return static_cast<double>(n);
    if (v.type == ArgType::kString) return ParseDouble(trace_.str(v.as_string()));
    return -1;
  }
  void MergeDetails(StringId text, LaunchConfig* c) {
    auto [it, inserted] = details_cache_.try_emplace(text.value);
    if (inserted) it->second = ParseKernelDetails(trace_.str(text));
    const StringId tf_op = c->tf_op, hlo_op = c->hlo_op;
    *c = it->second;
    c->tf_op = tf_op;
    c->hlo_op = hlo_op;
  }

  const Trace& trace_;
  StringId grid_, block_, registers_, shared_, occupancy_, details_, tf_op_, hlo_op_;
  std::unordered_map<uint32_t, std::array<int64_t, 3>> triples_;
  std::unordered_map<uint32_t, LaunchConfig> details_cache_;
};

// The host op around the launch call: its nearest ancestor that is neither a
// runtime call (launch/sync rows of the table) nor a step marker.
StringId EnclosingHostOp(const Trace& trace, SliceId launch, const IdleCauseTable& table, StepMarkerMatcher* markers,
                         std::vector<uint8_t>* skip_cache) {
  for (SliceId cur = trace.slices().parent()[launch.index()]; !cur.is_none();
       cur = trace.slices().parent()[cur.index()]) {
    const StringId name = trace.slices().name()[cur.index()];
    uint8_t& skip = (*skip_cache)[name.index()];
    if (skip == 0xFF) {
      const HostCategory c = table.Classify(trace.str(name));
      skip = c == HostCategory::kLaunch || c == HostCategory::kSync || c == HostCategory::kIgnore;
    }
    if (skip == 1) continue;
    if (markers->IsMarker(cur)) return StringId::None();
    return name;
  }
  return StringId::None();
}

bool SameConfig(const KernelStat& k, const LaunchConfig& c, const RecordedGraphIds& graph) {
  return k.graph_id == graph.graph_id && k.graph_node_id == graph.node_id &&
         k.registers_per_thread == c.registers && k.shared_memory_bytes == c.shared_memory && k.grid[0] == c.grid[0] &&
         k.grid[1] == c.grid[1] && k.grid[2] == c.grid[2] && k.block[0] == c.block[0] && k.block[1] == c.block[1] &&
         k.block[2] == c.block[2];
}

}  // namespace

std::vector<KernelStat> ComputeKernelStats(const Trace& trace, const LaunchIndex& launches,
                                           const IdleCauseTable& table) {
  const SliceTable& s = trace.slices();
  ConfigReader reader(trace);
  const GraphArgReader graph_args(trace);
  StepMarkerMatcher markers(trace);
  std::vector<uint8_t> skip_cache(trace.strings().size(), 0xFF);
  std::vector<KernelStat> stats;
  std::vector<double> occupancy_sum;
  std::vector<uint64_t> occupancy_count;
  // (name, framework op) -> first stats row; rows of one key with other
  // launch configurations are chained through next_entry (rarely more than one).
  std::unordered_map<uint64_t, uint32_t> first_entry;
  std::vector<uint32_t> next_entry;
  for (size_t i = 0; i < s.size(); ++i) {
    if (!IsKernelLike(s.gpu_kind()[i])) continue;
    const LaunchConfig c = reader.Read(s.arg_set()[i]);
    RecordedGraphIds graph = graph_args.Read(s.arg_set()[i]);
    if (graph.graph_id < 0 && !launches.graphs.empty()) {
      const int32_t replay = launches.graphs.ReplayOf(SliceId::FromIndex(i));
      if (replay >= 0) graph.graph_id = launches.graphs.replays[static_cast<size_t>(replay)].graph_id;
    }
    StringId op = reader.FrameworkOp(c);
    const SliceId launch = launches.LaunchOf(SliceId::FromIndex(i));
    if (op.is_none() && !launch.is_none()) op = EnclosingHostOp(trace, launch, table, &markers, &skip_cache);
    const StringId name = s.name()[i];
    const uint64_t key = uint64_t{name.value} << 32 | op.value;
    auto [head, inserted] = first_entry.try_emplace(key, UINT32_MAX);
    uint32_t e = head->second;
    while (e != UINT32_MAX && !SameConfig(stats[e], c, graph)) e = next_entry[e];
    if (e == UINT32_MAX) {
      e = static_cast<uint32_t>(stats.size());
      KernelStat k;
      k.name = name;
      k.grid = c.grid;
      k.block = c.block;
      k.registers_per_thread = c.registers;
      k.shared_memory_bytes = c.shared_memory;
      k.framework_op = op;
      k.graph_id = graph.graph_id;
      k.graph_node_id = graph.node_id;
      k.min_ns = k.max_ns = s.dur_ns()[i];
      stats.push_back(k);
      occupancy_sum.push_back(0);
      occupancy_count.push_back(0);
      next_entry.push_back(head->second);
      head->second = e;
    }
    KernelStat& k = stats[e];
    const DurNs dur = s.dur_ns()[i];
    ++k.count;
    k.total_ns += dur;
    k.min_ns = std::min(k.min_ns, dur);
    k.max_ns = std::max(k.max_ns, dur);
    if (c.occupancy >= 0) {
      occupancy_sum[e] += c.occupancy;
      ++occupancy_count[e];
    }
  }
  for (size_t e = 0; e < stats.size(); ++e) {
    stats[e].avg_ns = stats[e].total_ns / static_cast<DurNs>(stats[e].count);
    if (occupancy_count[e] > 0) stats[e].occupancy_percent = occupancy_sum[e] / static_cast<double>(occupancy_count[e]);
  }
  std::sort(stats.begin(), stats.end(), [&](const KernelStat& a, const KernelStat& b) {
    if (a.total_ns != b.total_ns) return a.total_ns > b.total_ns;
    return trace.str(a.name) < trace.str(b.name);
  });
  return stats;
}

}  // namespace stepline::analysis
