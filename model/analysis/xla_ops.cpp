// XLA op and module tables (see xla_ops.h).
#include "model/analysis/xla_ops.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "model/analysis/xla_module_steps.h"
#include "model/xla_op.h"

namespace stepline::analysis {
namespace {

struct Keys {
  StringId hlo_op, hlo_module, hlo_category;
};

std::string_view StringArg(const Trace& trace, uint32_t slice, StringId key) {
  ArgValue v;
  if (key.is_none() || !trace.args().Find(trace.slices().arg_set()[slice], key, &v)) return {};
  return v.type == ArgType::kString ? trace.str(v.as_string()) : std::string_view();
}

bool IsXlaOpsRow(const Trace& trace, TrackId track) {
  const std::string_view name = trace.str(trace.tracks().name(track));
  return trace.tracks().kind(track) == TrackKind::kGpuDerived &&
         (name == "XLA Ops" || name.starts_with("XLA Ops - from #"));
}

// One device's module executions, sorted by start, for "which module ran this op".
struct Executions {
  std::vector<uint32_t> slices;
  const Trace* trace = nullptr;
  // The execution enclosing `t` (start <= t < end), or UINT32_MAX.
  uint32_t At(TimeNs t) const {
    const SliceTable& s = trace->slices();
    auto it =
        std::upper_bound(slices.begin(), slices.end(), t, [&](TimeNs v, uint32_t i) { return v < s.start_ns()[i]; });
    if (it == slices.begin()) return UINT32_MAX;
    const uint32_t i = *(it - 1);
    return t < s.start_ns()[i] + s.dur_ns()[i] ? i : UINT32_MAX;
  }
};

}  // namespace

XlaStats ComputeXlaStats(const Trace& trace, const std::vector<DeviceActivity>& devices) {
  const SliceTable& s = trace.slices();
  const Keys keys{trace.strings().Find("hlo_op"), trace.strings().Find("hlo_module"),
                  trace.strings().Find("hlo_category")};
  std::map<std::string_view, XlaModuleStat> modules;
  // Executions per device (every device's Modules rows, depth 0).
  std::map<int32_t, Executions> executions;
  for (TrackId track : XlaModuleTracks(trace, -1)) {
    Executions& e = executions[trace.tracks().device_id(track)];
    e.trace = &trace;
    const auto& r = trace.tracks().ranges(track);
    for (uint32_t i = r.slice_begin; i < r.slice_end; ++i) {
      if (s.depth()[i] != 0) continue;
      e.slices.push_back(i);
      XlaModuleStat& m = modules[trace.str(s.name()[i])];
      ++m.executions;
      m.total_ns += s.dur_ns()[i];
    }
  }
  for (auto& [id, e] : executions) {
    std::sort(e.slices.begin(), e.slices.end(),
              [&](uint32_t a, uint32_t b) { return s.start_ns()[a] < s.start_ns()[b]; });
  }
  std::map<std::tuple<std::string_view, std::string_view>, XlaOpStat> ops;  // (module, name)
  for (const DeviceActivity& d : devices) {
    const auto ex = executions.find(d.device_id);
    for (const DeviceOp& op : d.ops) {
      const uint32_t i = op.slice.value;
      const TrackId track = s.track()[i];
      std::string_view text = StringArg(trace, i, keys.hlo_op);
      const bool on_xla_row = IsXlaOpsRow(trace, track);
      if (text.empty() && !on_xla_row) continue;
      if (text.empty()) text = trace.str(s.name()[i]);
      const std::string_view name = HloInstructionName(text);
      std::string_view module;
      if (ex != executions.end()) {
        const uint32_t run = ex->second.At(op.start_ns);
        if (run != UINT32_MAX) module = trace.str(s.name()[run]);
      }
      if (module.empty()) module = StringArg(trace, i, keys.hlo_module);
      XlaOpStat& row = ops[{module, name}];
      if (row.count == 0) {
        row.name = name;
        row.group = HloOpGroup(name);
        row.module = module;
        row.kind = op.kind;
        row.category = StringArg(trace, i, keys.hlo_category);
        if (row.category.empty()) row.category = HloOpcode(text);
        if (row.category.empty()) row.category = row.group;
        row.min_ns = op.end_ns - op.start_ns;
      }
      const DurNs dur = op.end_ns - op.start_ns;
      ++row.count;
      row.total_ns += dur;
      row.min_ns = std::min(row.min_ns, dur);
      row.max_ns = std::max(row.max_ns, dur);
      if (!module.empty()) {
        XlaModuleStat& m = modules[module];
        ++m.ops;
        if (m.executions == 0) m.total_ns += dur;
      }
    }
  }
  XlaStats out;
  for (auto& [key, row] : ops) {
    row.avg_ns = row.total_ns / static_cast<DurNs>(row.count);
    out.ops.push_back(row);
  }
  for (auto& [name, m] : modules) {
    m.name = name;
    const uint64_t n = m.executions > 0 ? m.executions : m.ops;
    m.mean_ns = n > 0 ? m.total_ns / static_cast<DurNs>(n) : 0;
    out.modules.push_back(m);
  }
  auto by_total = [](const auto& a, const auto& b) {
    return a.total_ns != b.total_ns ? a.total_ns > b.total_ns : a.name < b.name;
  };
  std::sort(out.ops.begin(), out.ops.end(), by_total);
  std::sort(out.modules.begin(), out.modules.end(), by_total);
  return out;
}

}  // namespace stepline::analysis
