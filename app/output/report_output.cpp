// Formatting an analysis::Report as JSON or text (CSV: report_csv.cpp); see report_output.h.
//
// [SECTION] Number and name helpers
// [SECTION] JSON
// [SECTION] Text
#include "app/output/report_output.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numeric>
#include <ostream>
#include <vector>

#include "app/output/efficiency_output.h"
#include "app/output/graph_output.h"
#include "app/output/memory_output.h"
#include "app/output/outlier_output.h"
#include "app/output/step_detail_output.h"
#include "app/output/xla_output.h"
#include "app/output/text_format.h"
#include "export/json_text.h"
#include "model/analysis/headline.h"
#include "model/analysis/headline_record.h"
#include "ui/analysis_tables.h"
#include "ui/table_export.h"

namespace stepline::app {
namespace {

using analysis::CategoryNs;
using analysis::CauseNs;
using analysis::IdleCause;
using analysis::Report;
using analysis::TimeCategory;

//-----------------------------------------------------------------------------
// [SECTION] Number and name helpers
//-----------------------------------------------------------------------------

void AppendFixed(std::string* out, double v, int decimals) {
  char tmp[64];
  const auto r = std::to_chars(tmp, tmp + sizeof tmp, v, std::chars_format::fixed, decimals);
  out->append(tmp, r.ptr);
}

std::string_view CategoryName(int c) { return analysis::TimeCategoryName(static_cast<TimeCategory>(c)); }
std::string_view CauseName(int c) { return analysis::IdleCauseName(static_cast<IdleCause>(c)); }

bool KnownTriple(const std::array<int64_t, 3>& v) { return v[0] != 0 || v[1] != 0 || v[2] != 0; }

//-----------------------------------------------------------------------------
// [SECTION] JSON
//-----------------------------------------------------------------------------

// Appends JSON text to one buffer and hands it to the stream in big pieces.
// The report's shape is fixed, so callers spell keys and commas as literals.
class JsonOut {
 public:
  explicit JsonOut(std::ostream& out) : out_(out) { buf_.reserve(kFlushBytes + kFlushBytes / 4); }
  void Lit(std::string_view s) { buf_.append(s); }
  void Str(std::string_view s) { exports::AppendJsonString(&buf_, s); }
  void StrOrNull(std::string_view s) { s.empty() ? Lit("null") : Str(s); }
  void Int(int64_t v) { exports::AppendJsonInt(&buf_, v); }
  // Between rows: a partial object is fine to hand over, the reader sees one stream.
  void MaybeFlush() {
    if (buf_.size() >= kFlushBytes) Flush();
  }
  void Flush() {
    out_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
    buf_.clear();
  }
  std::string* buffer() { return &buf_; }

 private:
  static constexpr size_t kFlushBytes = 1 << 20;
  std::ostream& out_;
  std::string buf_;
};

// {"compute":1,...}: every category, so all objects have the same keys.
void CategoriesJson(const CategoryNs& ns, JsonOut* j) {
  for (int c = 0; c < analysis::kTimeCategoryCount; ++c) {
    j->Lit(c == 0 ? "{" : ",");
    j->Str(CategoryName(c));
    j->Lit(":");
    j->Int(ns[size_t(c)]);
  }
  j->Lit("}");
}

void CausesJson(const CauseNs& ns, JsonOut* j) {
  for (int c = 0; c < analysis::kIdleCauseCount; ++c) {
    j->Lit(c == 0 ? "{" : ",");
    j->Str(CauseName(c));
    j->Lit(":");
    j->Int(ns[size_t(c)]);
  }
  j->Lit("}");
}

void DevicesJson(const Report& r, JsonOut* j) {
  j->Lit(",\"devices\":[");
  for (size_t i = 0; i < r.devices.size(); ++i) {
    const analysis::DeviceReport& d = r.devices[i];
    j->Lit(i == 0 ? "{\"name\":" : ",{\"name\":");
    j->Str(d.name);
    j->Lit(",\"kind\":\"");
    j->Lit(analysis::DeviceKindName(d.kind));
    j->Lit("\",\"busy_ns\":");
    j->Int(d.busy_ns);
    j->Lit(",\"idle_ns\":");
    j->Int(d.idle_ns);
    j->Lit(",\"breakdown_total\":");
    CategoriesJson(d.breakdown_total, j);
    j->Lit(",\"idle_by_cause\":");
    CausesJson(d.idle_by_cause, j);
    j->Lit("}");
  }
  j->Lit("]");
}

void StepsJson(const Report& r, JsonOut* j) {
  j->Lit(",\"steps\":[");
  for (size_t i = 0; i < r.steps.size(); ++i) {
    const analysis::ReportStep& s = r.steps[i];
    j->Lit(i == 0 ? "{\"name\":" : ",{\"name\":");
    j->Str(s.name);
    j->Lit(",\"start_ns\":");
    j->Int(s.start_ns);
    j->Lit(",\"dur_ns\":");
    j->Int(s.dur_ns);
    j->Lit(",\"window_dur_ns\":");
    j->Int(s.window_dur_ns);
    j->Lit(",\"breakdown\":");
    CategoriesJson(s.breakdown, j);
    AppendStepDetailJson(s, j->buffer());
    AppendStepEfficiencyJson(s.efficiency, j->buffer());
    j->Lit("}");
    j->MaybeFlush();
  }
  j->Lit("]");
}

// Where the steps came from, their overlap, and the outlier steps.
void StepSourceJson(const Report& r, JsonOut* j) {
  j->Lit(",\"step_source\":");
  j->Str(analysis::StepSourceName(r.step_source));
  j->Lit(",\"steps_overlap\":{\"count\":");
  j->Int(r.steps_overlap_count);
  j->Lit(",\"max_ns\":");
  j->Int(r.steps_overlap_max_ns);
  j->Lit("}");
}

// Escapes each name once: gaps repeat the same few devices, steps and threads.
std::vector<std::string> EscapedNames(size_t n, auto&& name_of) {
  std::vector<std::string> escaped(n);
  for (size_t i = 0; i < n; ++i) exports::AppendJsonString(&escaped[i], name_of(i));
  return escaped;
}

void GapsJson(const Report& r, JsonOut* j) {
  const auto devices = EscapedNames(r.devices.size(), [&](size_t i) { return std::string_view(r.devices[i].name); });
  const auto steps = EscapedNames(r.steps.size(), [&](size_t i) { return std::string_view(r.steps[i].name); });
  const auto threads = EscapedNames(r.threads.size(), [&](size_t i) { return std::string_view(r.threads[i]); });
  j->Lit(",\"gaps\":[");
  for (size_t i = 0; i < r.gaps.size(); ++i) {
    const analysis::ReportGap& g = r.gaps[i];
    j->Lit(i == 0 ? "{\"device\":" : ",{\"device\":");
    j->Lit(devices[g.device]);
    j->Lit(",\"start_ns\":");
    j->Int(g.start_ns);
    j->Lit(",\"dur_ns\":");
    j->Int(g.dur_ns);
    j->Lit(",\"step\":");
    j->Lit(g.step < 0 ? std::string_view("null") : std::string_view(steps[size_t(g.step)]));
    j->Lit(",\"cause\":\"");
    j->Lit(analysis::IdleCauseName(g.cause));  // a fixed identifier: nothing to escape
    j->Lit("\",\"cause_events\":[");
    bool first = true;
    for (const analysis::ReportEvent& e : r.CauseEvents(g)) {
      j->Lit(first ? "{\"name\":" : ",{\"name\":");
      first = false;
      j->Str(e.name);
      j->Lit(",\"thread\":");
      j->Lit(threads[e.thread]);
      j->Lit(",\"start_ns\":");
      j->Int(e.start_ns);
      j->Lit(",\"dur_ns\":");
      j->Int(e.dur_ns);
      j->Lit(",\"overlap_ns\":");
      j->Int(e.overlap_ns);
      j->Lit("}");
    }
    j->Lit("],\"next_kernel\":");
    j->StrOrNull(g.next_kernel);
    j->Lit(",\"launch_delay_ns\":");
    if (g.launch_delay_ns < 0) {
      j->Lit("null");
    } else {
      j->Int(g.launch_delay_ns);
    }
    j->Lit("}");
    j->MaybeFlush();
  }
  j->Lit("]");
}

void OpsJson(const Report& r, JsonOut* j) {
  j->Lit(",\"ops\":[");
  for (size_t i = 0; i < r.ops.size(); ++i) {
    const analysis::ReportOp& o = r.ops[i];
    j->Lit(i == 0 ? "{\"name\":" : ",{\"name\":");
    j->Str(o.name);
    j->Lit(",\"kind\":\"");
    j->Lit(analysis::OpKindName(o.kind));
    j->Lit("\",\"count\":");
    j->Int(static_cast<int64_t>(o.count));
    j->Lit(",\"total_ns\":");
    j->Int(o.total_ns);
    j->Lit(",\"self_ns\":");
    j->Int(o.self_ns);
    j->Lit(",\"avg_ns\":");
    j->Int(o.avg_ns);
    j->Lit(",\"min_ns\":");
    j->Int(o.min_ns);
    j->Lit(",\"max_ns\":");
    j->Int(o.max_ns);
    if (o.kind == analysis::OpKind::kGraphReplay) {
      j->Lit(",\"graph_id\":");
      j->Int(o.graph_id);
    }
    AppendOpEfficiencyJson(o, j->buffer());
    j->Lit("}");
    j->MaybeFlush();
  }
  j->Lit("]");
}

void TripleOrNull(const std::array<int64_t, 3>& v, JsonOut* j) {
  if (!KnownTriple(v)) {
    j->Lit("null");
    return;
  }
  j->Lit("[");
  j->Int(v[0]);
  j->Lit(",");
  j->Int(v[1]);
  j->Lit(",");
  j->Int(v[2]);
  j->Lit("]");
}

void IntOrNull(int64_t v, JsonOut* j) {
  if (v < 0) {
    j->Lit("null");
  } else {
    j->Int(v);
  }
}

void KernelsJson(const Report& r, JsonOut* j) {
  j->Lit(",\"kernels\":[");
  for (size_t i = 0; i < r.kernels.size(); ++i) {
    const analysis::ReportKernel& k = r.kernels[i];
    j->Lit(i == 0 ? "{\"name\":" : ",{\"name\":");
    j->Str(k.name);
    j->Lit(",\"grid\":");
    TripleOrNull(k.grid, j);
    j->Lit(",\"block\":");
    TripleOrNull(k.block, j);
    j->Lit(",\"registers_per_thread\":");
    IntOrNull(k.registers_per_thread, j);
    j->Lit(",\"shared_memory_bytes\":");
    IntOrNull(k.shared_memory_bytes, j);
    j->Lit(",\"occupancy_percent\":");
    if (k.occupancy_percent < 0 || !std::isfinite(k.occupancy_percent)) {
      j->Lit("null");
    } else {
      AppendFixed(j->buffer(), k.occupancy_percent, 2);
    }
    j->Lit(",\"framework_op\":");
    j->StrOrNull(k.framework_op);
    j->Lit(",\"graph_id\":");
    IntOrNull(k.graph_id, j);
    j->Lit(",\"graph_node_id\":");
    IntOrNull(k.graph_node_id, j);
    j->Lit(",\"count\":");
    j->Int(static_cast<int64_t>(k.count));
    j->Lit(",\"total_ns\":");
    j->Int(k.total_ns);
    j->Lit(",\"avg_ns\":");
    j->Int(k.avg_ns);
    j->Lit(",\"min_ns\":");
    j->Int(k.min_ns);
    j->Lit(",\"max_ns\":");
    j->Int(k.max_ns);
    j->Lit(",\"bound\":");
    j->StrOrNull(analysis::OpBoundName(k.bound));
    j->Lit("}");
    j->MaybeFlush();
  }
  j->Lit("]");
}

}  // namespace

void WriteReportJson(const Report& report, std::ostream& out, std::string_view extra_members) {
  JsonOut j(out);
  j.Lit("{\"primary_device\":");
  j.StrOrNull(report.primary_device);
  DevicesJson(report, &j);
  StepSourceJson(report, &j);
  StepsJson(report, &j);
  j.Lit(",\"breakdown_total\":");
  CategoriesJson(report.breakdown_total, &j);
  j.Lit(",\"idle_by_cause\":");
  CausesJson(report.idle_by_cause, &j);
  // The figures the window shows, one definition each.
  // Without a device there is no busy share (the window shows "-"), not 0.
  j.Lit(",\"gpu_busy_percent\":");
  j.Lit(report.primary_device_index >= 0 ? text::FormatFixed(report.gpu_busy_percent, 2) : std::string("null"));
  const analysis::StepStats& st = report.step_stats;
  j.Lit(",\"step_stats\":{\"count\":");
  j.Int(static_cast<int64_t>(st.count));
  j.Lit(",\"mean_ns\":");
  j.Int(st.mean_ns);
  j.Lit(",\"sample_std_ns\":");
  j.Int(st.sample_std_ns);
  j.Lit(",\"min_ns\":");
  j.Int(st.min_ns);
  j.Lit(",\"max_ns\":");
  j.Int(st.max_ns);
  j.Lit(",\"p50_ns\":");
  j.Int(st.p50_ns);
  j.Lit(",\"p90_ns\":");
  j.Int(st.p90_ns);
  j.Lit(",\"p99_ns\":");
  j.Int(st.p99_ns);
  j.Lit("}");
  AppendOutlierStepsJson(report, j.buffer());
  AppendServingJson(report, j.buffer());
  j.Lit(",\"top_blamed_event\":");
  if (report.top_blamed_event.empty()) {
    j.Lit("null");
  } else {
    j.Lit("{\"name\":");
    j.Str(report.top_blamed_event);
    j.Lit(",\"blamed_ns\":");
    j.Int(report.top_blamed_ns);
    j.Lit(",\"gaps\":");
    j.Int(static_cast<int64_t>(report.top_blamed_gaps));
    j.Lit("}");
  }
  GapsJson(report, &j);
  OpsJson(report, &j);
  KernelsJson(report, &j);
  AppendGraphReplaysJson(report, j.buffer());
  AppendMemoryJson(report, j.buffer());
  AppendXlaJson(report, j.buffer());
  AppendEfficiencyJson(report, j.buffer());
  j.Lit(",\"recommendations\":[");
  for (size_t i = 0; i < report.recommendations.size(); ++i) {
    if (i > 0) j.Lit(",");
    j.Str(report.recommendations[i]);
  }
  j.Lit("],\"complete_steps\":");
  j.Int(static_cast<int64_t>(report.complete_steps));
  j.Lit(",\"notes\":[");
  for (size_t i = 0; i < report.notes.size(); ++i) {
    if (i > 0) j.Lit(",");
    j.Str(report.notes[i]);
  }
  j.Lit("]");
  if (!extra_members.empty()) {
    j.Lit(",");
    j.Lit(extra_members);
  }
  j.Lit("}\n");
  j.Flush();
}

//-----------------------------------------------------------------------------
// [SECTION] Text
//-----------------------------------------------------------------------------

namespace {

constexpr size_t kTopRows = 10;
constexpr std::string_view kReportTextUse = "report text";

std::string Percent(DurNs part, DurNs whole) {
  return whole > 0 ? FormatFixed(100.0 * static_cast<double>(part) / static_cast<double>(whole), 1) + "%" : "-";
}

// "10 steps from steps_row; mean 105.2 ms ± 1.300 ms sample std (min .., max ..)":
// Report::step_stats, the definition the window shows too; the count and
// the mean from the headline's formatter.
std::string StepSummary(const Report& r, std::string_view source) {
  using analysis::HeadlineFigure;
  const analysis::Headline h = analysis::ComputeHeadline(r);
  const size_t n = r.steps.size();
  std::string s = analysis::HeadlineTextAt(kReportTextUse, h, HeadlineFigure::kSteps) + (n == 1 ? " step" : " steps");
  if (!source.empty()) s += " from " + std::string(source);
  if (n == 0) return s;
  const analysis::StepStats& st = r.step_stats;
  if (h.summed_steps == 0) return s + "; none ends before the cut";
  const std::string over = h.summed_steps < n ? " over the " + FormatCount(h.summed_steps) +
                                                    (h.summed_steps == 1 ? " step" : " steps") + " before the cut"
                                              : std::string();
  return s + "; mean " + analysis::HeadlineTextAt(kReportTextUse, h, HeadlineFigure::kMeanStep) +
         (h.summed_steps > 1 ? " sample std" : "") + over + " (min " + FormatDuration(st.min_ns) + ", p50 " + FormatDuration(st.p50_ns) +
         ", p90 " + FormatDuration(st.p90_ns) + ", p99 " + FormatDuration(st.p99_ns) + ", max " +
         FormatDuration(st.max_ns) + ")";
}

void BreakdownText(const Report& r, std::ostream& out) {
  const DurNs step_ns = std::accumulate(r.breakdown_total.begin(), r.breakdown_total.end(), DurNs{0});
  // On a cut file the totals are over the steps before the cut (the note says so).
  const std::string steps = r.SummedStepCount() < r.steps.size()
                                ? "the " + FormatCount(r.SummedStepCount()) +
                                      (r.SummedStepCount() == 1 ? " step" : " steps") + " before the cut"
                                : std::string("all steps");
  out << "\nStep-time breakdown, primary device, " << steps << " (" << FormatDuration(step_ns) << ")\n";
  out << "  " << PadCell("category", 20, false) << PadCell("ns", 18, true) << PadCell("% of step", 11, true) << "\n";
  for (int c = 0; c < analysis::kTimeCategoryCount; ++c) {
    const DurNs ns = r.breakdown_total[size_t(c)];
    out << "  " << PadCell(std::string(CategoryName(c)), 20, false) << PadCell(FormatCount(uint64_t(ns)), 18, true)
        << PadCell(Percent(ns, step_ns), 11, true) << "\n";
  }
}

void IdleText(const Report& r, std::ostream& out) {
  const analysis::DeviceReport& d = r.devices[size_t(r.primary_device_index)];
  const char* device_word = d.kind == analysis::DeviceKind::kTpu     ? "TPU"
                            : d.kind == analysis::DeviceKind::kOther ? "Device"
                                                                     : "GPU";
  out << "\n" << device_word << " idle by cause, primary device: " << FormatDuration(d.idle_ns) << " idle in a "
      << FormatDuration(d.active_span.duration_ns()) << " active span ("
      << Percent(d.idle_ns, d.active_span.duration_ns()) << ")\n";
  out << "  " << PadCell("cause", 20, false) << PadCell("ns", 18, true) << PadCell("% of idle", 11, true) << "\n";
  for (int c = 0; c < analysis::kIdleCauseCount; ++c) {
    const DurNs ns = r.idle_by_cause[size_t(c)];
    out << "  " << PadCell(std::string(CauseName(c)), 20, false) << PadCell(FormatCount(uint64_t(ns)), 18, true)
        << PadCell(Percent(ns, d.idle_ns), 11, true) << "\n";
  }
  if (r.devices.size() < 2) return;
  out << "\nDevices\n";
  for (const analysis::DeviceReport& other : r.devices) {
    out << "  " << PadCell(other.name, 24, false) << " busy " << PadCell(FormatDuration(other.busy_ns), 10, true)
        << ", idle " << PadCell(FormatDuration(other.idle_ns), 10, true) << "\n";
  }
}

// The top rows of `ops` by `key`; ops are already sorted by total.
void OpsText(const Report& r, std::string_view by, DurNs analysis::ReportOp::*key, std::ostream& out) {
  std::vector<const analysis::ReportOp*> top;
  for (const analysis::ReportOp& o : r.ops) top.push_back(&o);
  const size_t n = std::min(kTopRows, top.size());
  std::partial_sort(top.begin(), top.begin() + static_cast<std::ptrdiff_t>(n), top.end(),
                    [key](const auto* a, const auto* b) { return a->*key > b->*key; });
  out << "\nTop " << n << " ops by " << by << "\n";
  out << "  " << PadCell("total", 10, true) << PadCell("self", 11, true) << PadCell("count", 11, true) << "  "
      << PadCell("kind", 9, false) << "name\n";
  for (size_t i = 0; i < n; ++i) {
    const analysis::ReportOp& o = *top[i];
    out << "  " << PadCell(FormatDuration(o.total_ns), 10, true) << PadCell(FormatDuration(o.self_ns), 11, true)
        << PadCell(FormatCount(o.count), 11, true) << "  "
        << PadCell(std::string(analysis::OpKindName(o.kind)), 9, false) << ClipName(o.name) << "\n";
  }
}

void GapsText(const Report& r, const ReportTextContext& context, std::ostream& out) {
  std::vector<const analysis::ReportGap*> top;
  for (const analysis::ReportGap& g : r.gaps) top.push_back(&g);
  const size_t n = std::min(kTopRows, top.size());
  std::partial_sort(top.begin(), top.begin() + static_cast<std::ptrdiff_t>(n), top.end(),
                    [](const auto* a, const auto* b) { return a->dur_ns > b->dur_ns; });
  out << "\nLongest GPU idle gaps (" << n << " of " << FormatCount(r.gaps.size())
      << " listed, >= " << FormatDuration(context.min_gap_ns) << "; times from the trace start)\n";
  for (size_t i = 0; i < n; ++i) {
    const analysis::ReportGap& g = *top[i];
    out << "  " << PadCell(FormatDuration(g.dur_ns), 9, true) << " at "
        << FormatDuration(g.start_ns - context.origin_ns) << "  cause " << analysis::IdleCauseName(g.cause);
    if (r.devices.size() > 1) out << "  on " << r.DeviceName(g);
    if (g.step >= 0) out << "  in step " << r.StepName(g);
    out << "\n";
    if (!g.next_kernel.empty()) {
      out << "      next kernel " << ClipName(g.next_kernel);
      if (g.launch_delay_ns >= 0) out << " (launched " << FormatDuration(g.launch_delay_ns) << " before it ran)";
      out << "\n";
    }
    for (const analysis::ReportEvent& e : r.CauseEvents(g)) {
      out << "      blamed " << ClipName(e.name) << " on " << r.threads[e.thread] << ": "
          << FormatDuration(e.overlap_ns) << " of the gap\n";
    }
  }
}

}  // namespace

void WriteReportText(const Report& report, const ReportTextContext& context, std::ostream& out) {
  LabelledLine(out, "file", context.path);
  if (context.load_ms >= 0 && context.analysis_ms >= 0) {
    LabelledLine(out, "time",
         "load " + FormatFixed(context.load_ms, 1) + " ms, analysis " + FormatFixed(context.analysis_ms, 1) + " ms");
  }
  if (report.primary_device_index < 0) {
    LabelledLine(out, "primary device", "none (no GPU kernels in the trace)");
    LabelledLine(out, "steps", StepSummary(report, context.step_source));
    if (!report.step_source_sentence.empty()) LabelledLine(out, "step source", report.step_source_sentence);
  } else {
    const size_t devices = report.devices.size();
    LabelledLine(out, "primary device",
         report.primary_device + (devices > 1 ? " (of " + std::to_string(devices) + " devices)" : std::string()));
    LabelledLine(out, "steps", StepSummary(report, context.step_source));
    LabelledLine(out, "step source", report.step_source_sentence);
    // The window's headline figures, from the one formatter (headline.h).
    using analysis::HeadlineFigure;
    const analysis::Headline h = analysis::ComputeHeadline(report);
    if (h.has_busy) {
      LabelledLine(out, analysis::HeadlineLabel(h, HeadlineFigure::kDeviceBusy),
                   analysis::HeadlineTextAt(kReportTextUse, h, HeadlineFigure::kDeviceBusy) +
                       " of the step time (a kernel running), " +
                       analysis::HeadlineTextAt(kReportTextUse, h, HeadlineFigure::kDeviceIdle) + " with none");
    }
    LabelledLine(out, analysis::HeadlineLabel(h, HeadlineFigure::kMfu),
                 analysis::HeadlineTextAt(kReportTextUse, h, HeadlineFigure::kMfu) + " (" + h.mfu_detail + ")");
    if (h.has_samples) {  // --batch-size: throughput beside the step time
      LabelledLine(out, analysis::HeadlineLabel(h, HeadlineFigure::kSamplesPerS),
                   analysis::HeadlineTextAt(kReportTextUse, h, HeadlineFigure::kSamplesPerS) + " (batch " +
                       std::to_string(h.batch_size) + " over the mean step)");
    }
    if (h.has_top_idle_cause) {
      LabelledLine(out, "top idle cause", analysis::HeadlineTextAt(kReportTextUse, h, HeadlineFigure::kTopIdleCause) +
                                              " (" + FormatDuration(h.top_idle_ns) + ")");
    }
    if (!h.most_blamed.empty()) {
      LabelledLine(out, "most blamed",
                   ClipName(analysis::HeadlineTextAt(kReportTextUse, h, HeadlineFigure::kMostBlamed)) + " (" +
                       FormatDuration(h.most_blamed_ns) + ")");
    }
    BreakdownText(report, out);
    IdleText(report, out);
    WriteOutlierText(report, out);
    WriteEfficiencyText(report, out);
  }
  WriteStepDetailText(report, out);
  OpsText(report, "total time", &analysis::ReportOp::total_ns, out);
  OpsText(report, "self time", &analysis::ReportOp::self_ns, out);
  if (report.primary_device_index >= 0) GapsText(report, context, out);
  WriteXlaText(report, out);
  WriteMemoryText(report, context.origin_ns, out);
  out << "\nRecommendations\n";
  if (report.recommendations.empty()) out << "  none: no steps with GPU activity to judge\n";
  for (const std::string& sentence : report.recommendations) out << "  - " << sentence << "\n";
  for (const std::string& note : report.notes) out << "  Note: " << note << "\n";
}

}  // namespace stepline::app
