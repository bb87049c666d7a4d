// XLA op and module statistics (XProf's HLO op and module tables): device ops
// that are XLA instructions, grouped by HLO instruction name, with their
// category and the module that ran them; and the modules with their
// execution count, total and mean time. Names are views into the trace's
// StringPool (sub-views of event names and args): keep the Trace alive.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "model/analysis/device_activity.h"
#include "model/trace.h"

namespace stepline::analysis {

struct XlaOpStat {
  std::string_view name;      // HLO instruction name: "fusion.12"
  std::string_view group;     // without numeric suffixes: "fusion"
  std::string_view category;  // hlo_category stat, else the HLO text's opcode, else the group
  std::string_view module;    // the XLA module that ran it ("" unknown)
  GpuKind kind = GpuKind::kKernel;
  uint64_t count = 0;
  DurNs total_ns = 0, min_ns = 0, max_ns = 0, avg_ns = 0;
};

struct XlaModuleStat {
  std::string_view name;    // as the Modules row or hlo_module names it: "jit_f(1219...)", "jit_dot"
  uint64_t executions = 0;  // slices on XLA Modules rows; 0 when the trace has none for it
  uint64_t ops = 0;         // device ops attributed to it
  DurNs total_ns = 0;       // executions' summed duration; without executions, its ops' summed time
  DurNs mean_ns = 0;        // total / executions (without executions: total / ops)
};

struct XlaStats {
  std::vector<XlaOpStat> ops;          // by total_ns descending, then name
  std::vector<XlaModuleStat> modules;  // by total_ns descending, then name
  bool empty() const { return ops.empty() && modules.empty(); }
};

// A device op is an XLA op when it is on an "XLA Ops" row (TPUs, XLA-only
// GPU traces) or names its instruction in an `hlo_op` arg (XLA's GPU
// kernels). Its module: the enclosing execution on its device's XLA Modules
// row, else its `hlo_module` arg.
XlaStats ComputeXlaStats(const Trace& trace, const std::vector<DeviceActivity>& devices);

}  // namespace stepline::analysis
