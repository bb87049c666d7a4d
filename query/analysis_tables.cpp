// The analysis tables of analysis_tables.h, row for row what the export
// writes (the same ComputeReport, the same rules for NULL and zero rows).
#include "query/analysis_tables.h"

#include <sqlite3.h>

#include <algorithm>
#include <mutex>
#include <variant>

#include "model/analysis/report.h"

namespace stepline::query {
namespace {

using Cell = std::variant<std::monostate, int64_t, double, std::string>;

// The report, computed once, by whichever table asks first.
class LazyReport {
 public:
  explicit LazyReport(const Trace& trace) : trace_(trace) {}
  const analysis::Report& Get() {
    std::call_once(once_, [this] { report_ = analysis::ComputeReport(trace_); });
    return report_;
  }

 private:
  const Trace& trace_;
  std::once_flag once_;
  analysis::Report report_;
};

using RowsFn = void (*)(const analysis::Report&, std::vector<std::vector<Cell>>*);

// How a table's rows can be narrowed: not at all, by column 0 holding the
// row index (step.id, gap.id), or by column 0 being sorted (step_breakdown.step_id).
enum class Plan { kScan, kById, kSortedFirstColumn };

class ReportTableSource final : public TableSource {
 public:
  ReportTableSource(std::shared_ptr<LazyReport> report, const char* declaration, RowsFn rows, Plan plan)
      : report_(std::move(report)), declaration_(declaration), rows_fn_(rows), plan_(plan) {}
  const char* Declaration() const override { return declaration_; }
  int64_t RowCount() const override { return static_cast<int64_t>(Rows().size()); }
  void Column(sqlite3_context* ctx, int64_t row, int column) const override {
    const Cell& cell = Rows()[static_cast<size_t>(row)][static_cast<size_t>(column)];
    if (const auto* i = std::get_if<int64_t>(&cell)) {
      sqlite3_result_int64(ctx, *i);
    } else if (const auto* d = std::get_if<double>(&cell)) {
      sqlite3_result_double(ctx, *d);
    } else if (const auto* s = std::get_if<std::string>(&cell)) {
      sqlite3_result_text(ctx, s->data(), static_cast<int>(s->size()), SQLITE_STATIC);
    } else {
      sqlite3_result_null(ctx);
    }
  }
  void BestIndex(sqlite3_index_info* info) const override {
    switch (plan_) {
      case Plan::kById: BestIndexById(info, 0, RowCount()); break;
      case Plan::kSortedFirstColumn:
        // The same plan and order as an id, but a value has several rows.
        BestIndexById(info, 0, RowCount());
        if (info->idxFlags & SQLITE_INDEX_SCAN_UNIQUE) {
          info->idxFlags &= ~SQLITE_INDEX_SCAN_UNIQUE;
          info->estimatedRows = 16;
          info->estimatedCost = 17;
        }
        break;
      case Plan::kScan: TableSource::BestIndex(info); break;
    }
  }
  std::vector<RowRange> Filter(int idx_num, int argc, sqlite3_value** argv) const override {
    switch (plan_) {
      case Plan::kById: return FilterById(idx_num, RowCount(), argv);
      case Plan::kSortedFirstColumn: {
        int next = 0;
        const IntRange r = ReadRange(idx_num, 0, argv, &next);
        const auto& rows = Rows();
        const auto key = [](const std::vector<Cell>& row) { return std::get<int64_t>(row[0]); };
        const auto lo = std::partition_point(rows.begin(), rows.end(), [&](const auto& row) { return key(row) < r.lo; });
        const auto hi = std::partition_point(lo, rows.end(), [&](const auto& row) { return key(row) <= r.hi; });
        if (lo >= hi) return {};
        return {{lo - rows.begin(), hi - rows.begin()}};
      }
      case Plan::kScan: break;
    }
    return TableSource::Filter(idx_num, argc, argv);
  }

 private:
  const std::vector<std::vector<Cell>>& Rows() const {
    std::call_once(once_, [this] { rows_fn_(report_->Get(), &rows_); });
    return rows_;
  }

  std::shared_ptr<LazyReport> report_;
  const char* declaration_;
  RowsFn rows_fn_;
  Plan plan_;
  mutable std::once_flag once_;
  mutable std::vector<std::vector<Cell>> rows_;
};

Cell TextOrNull(std::string_view s) { return s.empty() ? Cell{} : Cell{std::string(s)}; }
Cell DeviceId(int device_id) { return device_id < 0 ? Cell{} : Cell{int64_t{device_id}}; }

void StepRows(const analysis::Report& r, std::vector<std::vector<Cell>>* rows) {
  for (size_t i = 0; i < r.steps.size(); ++i) {
    rows->push_back({int64_t(i), r.steps[i].name, r.steps[i].start_ns, r.steps[i].dur_ns});
  }
}

// Step by step (the export writes device by device; row order is not part
// of a table), so step_id is sorted and `step_id = ?` is a binary search.
void BreakdownRows(const analysis::Report& r, std::vector<std::vector<Cell>>* rows) {
  size_t steps = 0;
  for (const analysis::DeviceReport& device : r.devices) steps = std::max(steps, device.steps.size());
  for (size_t s = 0; s < steps; ++s) {
    for (size_t d = 0; d < r.devices.size(); ++d) {
      const analysis::DeviceReport& device = r.devices[d];
      if (s >= device.steps.size()) continue;
      for (int c = 0; c < analysis::kTimeCategoryCount; ++c) {
        const DurNs ns = device.steps[s].category_ns[size_t(c)];
        if (ns == 0) continue;
        rows->push_back({int64_t(s), DeviceId(device.device_id), device.name,
                         int64_t{static_cast<int>(d) == r.primary_device_index ? 1 : 0},
                         std::string(analysis::TimeCategoryName(static_cast<analysis::TimeCategory>(c))), ns});
      }
    }
  }
}

void GapRows(const analysis::Report& r, std::vector<std::vector<Cell>>* rows) {
  for (size_t i = 0; i < r.gaps.size(); ++i) {
    const analysis::ReportGap& g = r.gaps[i];
    const analysis::DeviceReport& device = r.devices[g.device];
    const auto events = r.CauseEvents(g);
    rows->push_back({int64_t(i), DeviceId(device.device_id), device.name, g.start_ns, g.dur_ns,
                     g.step < 0 ? Cell{} : Cell{int64_t{g.step}}, std::string(analysis::IdleCauseName(g.cause)),
                     events.empty() ? Cell{} : TextOrNull(events.front().name), TextOrNull(g.next_kernel),
                     g.launch_delay_ns < 0 ? Cell{} : Cell{g.launch_delay_ns}});
  }
}

void OpRows(const analysis::Report& r, std::vector<std::vector<Cell>>* rows) {
  for (const analysis::ReportOp& op : r.ops) {
    rows->push_back({std::string(op.name), std::string(analysis::OpKindName(op.kind)), int64_t(op.count), op.total_ns, op.self_ns,
                     op.avg_ns, op.min_ns, op.max_ns, op.percent, op.flops < 0 ? Cell{} : Cell{double{op.flops}},
                     op.achieved_tflops < 0 ? Cell{} : Cell{double{op.achieved_tflops}},
                     TextOrNull(analysis::OpBoundName(op.bound))});
  }
}

std::string Dim3(const std::array<int64_t, 3>& v) {
  return std::to_string(v[0]) + "," + std::to_string(v[1]) + "," + std::to_string(v[2]);
}

void KernelRows(const analysis::Report& r, std::vector<std::vector<Cell>>* rows) {
  for (const analysis::ReportKernel& k : r.kernels) {
    rows->push_back({std::string(k.name), k.grid[0] == 0 ? Cell{} : Cell{Dim3(k.grid)}, k.block[0] == 0 ? Cell{} : Cell{Dim3(k.block)},
                     k.registers_per_thread < 0 ? Cell{} : Cell{int64_t{k.registers_per_thread}},
                     k.shared_memory_bytes < 0 ? Cell{} : Cell{int64_t{k.shared_memory_bytes}},
                     k.occupancy_percent < 0 ? Cell{} : Cell{double{k.occupancy_percent}}, TextOrNull(k.framework_op),
                     int64_t(k.count), k.total_ns, k.avg_ns, k.min_ns, k.max_ns,
                     TextOrNull(analysis::OpBoundName(k.bound)), k.graph_id < 0 ? Cell{} : Cell{int64_t{k.graph_id}}});
  }
}

}  // namespace

std::vector<std::pair<std::string, std::unique_ptr<TableSource>>> MakeAnalysisSources(const Trace& trace) {
  auto report = std::make_shared<LazyReport>(trace);
  std::vector<std::pair<std::string, std::unique_ptr<TableSource>>> out;
  const auto add = [&](const char* name, const char* declaration, RowsFn rows, Plan plan) {
    out.emplace_back(name, std::make_unique<ReportTableSource>(report, declaration, rows, plan));
  };
  add("step", "CREATE TABLE step(id INTEGER, name TEXT, ts INTEGER, dur INTEGER)", StepRows, Plan::kById);
  add("step_breakdown",
      "CREATE TABLE step_breakdown(step_id INTEGER, device INTEGER, device_name TEXT, is_primary INTEGER, "
      "category TEXT, dur INTEGER)",
      BreakdownRows, Plan::kSortedFirstColumn);
  add("gap",
      "CREATE TABLE gap(id INTEGER, device INTEGER, device_name TEXT, ts INTEGER, dur INTEGER, step_id INTEGER, "
      "cause TEXT, blamed_event TEXT, next_kernel TEXT, launch_delay INTEGER)",
      GapRows, Plan::kById);
  add("op_stat",
      "CREATE TABLE op_stat(name TEXT, kind TEXT, count INTEGER, total INTEGER, self INTEGER, avg INTEGER, "
      "min INTEGER, max INTEGER, percent REAL, flops REAL, achieved_tflops REAL, bound TEXT)",
      OpRows, Plan::kScan);
  add("kernel_stat",
      "CREATE TABLE kernel_stat(name TEXT, grid TEXT, block TEXT, registers_per_thread INTEGER, "
      "shared_memory_bytes INTEGER, occupancy_percent REAL, framework_op TEXT, count INTEGER, total INTEGER, "
      "avg INTEGER, min INTEGER, max INTEGER, bound TEXT, graph_id INTEGER)",
      KernelRows, Plan::kScan);
  return out;
}

}  // namespace stepline::query
