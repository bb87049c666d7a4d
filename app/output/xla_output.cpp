// JSON and text forms of Report::xla (XLA modules and ops).
#include "app/output/xla_output.h"

#include <algorithm>
#include <ostream>

#include "app/output/text_format.h"
#include "export/json_text.h"

namespace stepline::app {
namespace {

constexpr size_t kTopXlaRows = 10;

void Member(std::string* out, std::string_view key, int64_t v) {
  out->append(",\"");
  out->append(key);
  out->append("\":");
  exports::AppendJsonInt(out, v);
}

void StrMember(std::string* out, std::string_view key, std::string_view v) {
  out->append(",\"");
  out->append(key);
  out->append("\":");
  if (v.empty()) {
    out->append("null");
  } else {
    exports::AppendJsonString(out, v);
  }
}

}  // namespace

void AppendXlaJson(const analysis::Report& report, std::string* out) {
  out->append(",\"xla_modules\":[");
  for (size_t i = 0; i < report.xla.modules.size(); ++i) {
    const analysis::XlaModuleStat& m = report.xla.modules[i];
    out->append(i == 0 ? "{\"name\":" : ",{\"name\":");
    exports::AppendJsonString(out, m.name);
    Member(out, "executions", static_cast<int64_t>(m.executions));
    Member(out, "ops", static_cast<int64_t>(m.ops));
    Member(out, "total_ns", m.total_ns);
    Member(out, "mean_ns", m.mean_ns);
    out->push_back('}');
  }
  out->append("],\"xla_ops\":[");
  for (size_t i = 0; i < report.xla.ops.size(); ++i) {
    const analysis::XlaOpStat& o = report.xla.ops[i];
    out->append(i == 0 ? "{\"name\":" : ",{\"name\":");
    exports::AppendJsonString(out, o.name);
    StrMember(out, "group", o.group);
    StrMember(out, "category", o.category);
    StrMember(out, "module", o.module);
    StrMember(out, "kind", GpuKindName(o.kind));
    Member(out, "count", static_cast<int64_t>(o.count));
    Member(out, "total_ns", o.total_ns);
    Member(out, "avg_ns", o.avg_ns);
    Member(out, "min_ns", o.min_ns);
    Member(out, "max_ns", o.max_ns);
    out->push_back('}');
  }
  out->push_back(']');
}

void WriteXlaText(const analysis::Report& report, std::ostream& out) {
  const analysis::XlaStats& x = report.xla;
  if (x.empty()) return;
  out << "\nXLA modules (executions from the XLA Modules rows; '-' = the trace has none, times are its ops')\n";
  out << "  " << PadCell("executions", 11, true) << PadCell("total", 11, true) << PadCell("mean", 11, true)
      << PadCell("ops", 9, true) << "  name\n";
  for (size_t i = 0; i < x.modules.size() && i < kTopXlaRows; ++i) {
    const analysis::XlaModuleStat& m = x.modules[i];
    out << "  " << PadCell(m.executions > 0 ? FormatCount(m.executions) : "-", 11, true)
        << PadCell(FormatDuration(m.total_ns), 11, true) << PadCell(FormatDuration(m.mean_ns), 11, true)
        << PadCell(FormatCount(m.ops), 9, true) << "  " << ClipName(m.name) << "\n";
  }
  const size_t n = std::min(kTopXlaRows, x.ops.size());
  out << "\nTop " << n << " XLA ops by total time\n";
  out << "  " << PadCell("total", 10, true) << PadCell("count", 9, true) << "  " << PadCell("category", 20, false)
      << PadCell("module", 28, false) << "name\n";
  for (size_t i = 0; i < n; ++i) {
    const analysis::XlaOpStat& o = x.ops[i];
    out << "  " << PadCell(FormatDuration(o.total_ns), 10, true) << PadCell(FormatCount(o.count), 9, true) << "  "
        << PadCell(std::string(o.category), 20, false) << PadCell(ClipName(o.module), 28, false) << "  "
        << ClipName(o.name) << "\n";
  }
}

}  // namespace stepline::app
