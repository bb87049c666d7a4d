// The Markdown report; see report_markdown.h.
#include "app/output/report_markdown.h"

#include <algorithm>
#include <ostream>
#include <string>
#include <vector>

#include "app/output/text_format.h"
#include "model/analysis/headline_record.h"

namespace stepline::app {
namespace report_md {

constexpr size_t kTopRows = 10;

// A table cell: pipes escaped, line breaks flattened, long names clipped.
std::string Cell(std::string_view text) {
  std::string out;
  for (const char c : ClipName(text)) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n' || c == '\r') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

std::string Code(std::string_view text) { return "`" + Cell(text) + "`"; }

std::string Ms(TimeNs ts, TimeNs origin) { return FormatFixed(static_cast<double>(ts - origin) / 1e6, 3); }

std::string Share(DurNs part, DurNs whole) {
  return whole > 0 ? FormatFixed(100.0 * static_cast<double>(part) / static_cast<double>(whole), 1) + "%" : "-";
}

// Every figure from the window's headline formatter (headline.h).
void Headline(const analysis::Report& r, const ReportTextContext& c, std::ostream& out) {
  using analysis::HeadlineFigure;
  constexpr std::string_view kUse = "report markdown";
  const analysis::Headline h = analysis::ComputeHeadline(r);
  out << "## Headline\n\n| figure | value |\n|---|---|\n";
  out << "| trace | " << Code(c.path) << " |\n";
  out << "| steps | " << analysis::HeadlineTextAt(kUse, h, HeadlineFigure::kSteps) << " ("
      << (c.step_source.empty() ? "none" : std::string(c.step_source)) << ") |\n";
  if (!r.steps.empty()) {
    out << "| " << analysis::HeadlineLabel(h, HeadlineFigure::kMeanStep) << " | "
        << analysis::HeadlineTextAt(kUse, h, HeadlineFigure::kMeanStep) << " |\n";
  }
  out << "| primary device | " << (r.primary_device.empty() ? "none (no GPU activity)" : Cell(r.primary_device))
      << " |\n";
  out << "| " << analysis::HeadlineLabel(h, HeadlineFigure::kDeviceBusy) << " | "
      << analysis::HeadlineTextAt(kUse, h, HeadlineFigure::kDeviceBusy) << (h.has_busy ? " of step time" : "")
      << " |\n";
  out << "| " << analysis::HeadlineLabel(h, HeadlineFigure::kDeviceIdle) << " | "
      << analysis::HeadlineTextAt(kUse, h, HeadlineFigure::kDeviceIdle) << (h.has_busy ? " of step time" : "")
      << " |\n";
  if (h.has_mfu) {
    out << "| " << analysis::HeadlineLabel(h, HeadlineFigure::kMfu) << " | "
        << analysis::HeadlineTextAt(kUse, h, HeadlineFigure::kMfu) << " (" << Cell(h.mfu_detail) << ") |\n";
  }
  if (h.has_samples) {
    out << "| " << analysis::HeadlineLabel(h, HeadlineFigure::kSamplesPerS) << " | "
        << analysis::HeadlineTextAt(kUse, h, HeadlineFigure::kSamplesPerS) << " (batch " << h.batch_size << ") |\n";
  }
  if (h.has_top_idle_cause) {
    out << "| top idle cause | " << analysis::HeadlineTextAt(kUse, h, HeadlineFigure::kTopIdleCause) << ": "
        << FormatDuration(h.top_idle_ns) << " |\n";
  }
  if (!h.most_blamed.empty()) {
    out << "| top blamed host event | " << Code(analysis::HeadlineTextAt(kUse, h, HeadlineFigure::kMostBlamed))
        << ": " << FormatDuration(r.top_blamed_ns) << " of idle in " << r.top_blamed_gaps << " gaps |\n";
  }
  if (h.has_memory) {
    out << "| " << Cell(analysis::HeadlineLabel(h, HeadlineFigure::kMemoryPeak)) << " | "
        << analysis::HeadlineTextAt(kUse, h, HeadlineFigure::kMemoryPeak) << " |\n";
  }
  out << "\n";
}

void Breakdown(const analysis::Report& r, std::ostream& out) {
  out << "## Step-time breakdown\n\n";
  if (r.steps.empty()) {
    out << "No steps.\n\n";
    return;
  }
  DurNs total = 0;
  for (const DurNs ns : r.breakdown_total) total += ns;
  // The totals are over the steps before the cut on a cut file (all steps otherwise).
  const size_t summed = r.SummedStepCount();
  const auto n = static_cast<DurNs>(std::max<size_t>(summed, 1));
  out << "Primary device, per-step mean over " << summed << " steps"
      << (summed < r.steps.size() ? " (those before the cut)" : "") << ".\n\n";
  out << "| category | per step | share |\n|---|---:|---:|\n";
  for (int c = 0; c < analysis::kTimeCategoryCount; ++c) {
    const DurNs ns = r.breakdown_total[size_t(c)];
    out << "| " << analysis::TimeCategoryName(static_cast<analysis::TimeCategory>(c)) << " | "
        << FormatDuration(ns / n) << " | " << Share(ns, total) << " |\n";
  }
  out << "\n";
}

void Findings(std::span<const analysis::Finding> findings, const ReportTextContext& c, std::ostream& out) {
  out << "## Findings\n\n";
  if (findings.empty()) {
    out << "None: no rule fired (rules and thresholds: docs/ask.md).\n\n";
    return;
  }
  for (const analysis::Finding& f : findings) {
    out << "### " << f.id << ": " << Cell(f.title) << "\n\n";
    out << "- rule: `" << f.rule << "`, threshold " << f.threshold << "; measured " << f.value_text << "\n";
    out << "- open it: `stepline view " << c.path << " --finding " << f.id << "`\n\n";
    if (f.evidence.empty()) continue;
    out << "| evidence | slice id | start (ms) | duration |\n|---|---:|---:|---:|\n";
    for (const analysis::FindingEvidence& e : f.evidence) {
      out << "| " << Cell(e.what) << " | " << (e.slice.is_none() ? std::string("-") : std::to_string(e.slice.index()))
          << " | " << Ms(e.start_ns, c.origin_ns) << " | " << FormatDuration(e.dur_ns) << " |\n";
    }
    out << "\n";
  }
}

void Ops(const analysis::Report& r, std::ostream& out) {
  out << "## Top ops\n\nBy total time, over the whole trace.\n\n";
  out << "| op | kind | count | total | self | avg |\n|---|---|---:|---:|---:|---:|\n";
  for (size_t i = 0; i < std::min(kTopRows, r.ops.size()); ++i) {
    const analysis::ReportOp& op = r.ops[i];
    out << "| " << Code(op.name) << " | " << analysis::OpKindName(op.kind) << " | " << FormatCount(op.count) << " | "
        << FormatDuration(op.total_ns) << " | " << FormatDuration(op.self_ns) << " | " << FormatDuration(op.avg_ns)
        << " |\n";
  }
  out << "\n## Top kernels\n\n";
  if (r.kernels.empty()) {
    out << "No kernels.\n\n";
    return;
  }
  out << "| kernel | launched by | count | total | avg |\n|---|---|---:|---:|---:|\n";
  for (size_t i = 0; i < std::min(kTopRows, r.kernels.size()); ++i) {
    const analysis::ReportKernel& k = r.kernels[i];
    out << "| " << Code(k.name) << " | " << (k.framework_op.empty() ? std::string("-") : Code(k.framework_op)) << " | "
        << FormatCount(k.count) << " | " << FormatDuration(k.total_ns) << " | " << FormatDuration(k.avg_ns) << " |\n";
  }
  out << "\n";
}

void Gaps(const analysis::Report& r, const ReportTextContext& c, std::ostream& out) {
  out << "## Longest GPU idle gaps\n\n";
  std::vector<const analysis::ReportGap*> gaps;
  for (const analysis::ReportGap& g : r.gaps) gaps.push_back(&g);
  std::stable_sort(gaps.begin(), gaps.end(), [](auto* a, auto* b) { return a->dur_ns > b->dur_ns; });
  if (gaps.empty()) {
    out << "No gaps of at least " << FormatDuration(c.min_gap_ns) << ".\n\n";
    return;
  }
  out << "| device | start (ms) | duration | cause | step | blamed host event | next kernel |\n"
         "|---|---:|---:|---|---|---|---|\n";
  for (size_t i = 0; i < std::min(kTopRows, gaps.size()); ++i) {
    const analysis::ReportGap& g = *gaps[i];
    const auto events = r.CauseEvents(g);
    out << "| " << Cell(r.DeviceName(g)) << " | " << Ms(g.start_ns, c.origin_ns) << " | " << FormatDuration(g.dur_ns)
        << " | " << analysis::IdleCauseName(g.cause) << " | " << (g.step < 0 ? std::string("-") : Cell(r.StepName(g)))
        << " | " << (events.empty() ? std::string("-") : Code(events.front().name)) << " | "
        << (g.next_kernel.empty() ? std::string("-") : Code(g.next_kernel)) << " |\n";
  }
  out << "\n";
}

void Memory(const analysis::Report& r, std::ostream& out) {
  out << "## Memory\n\n";
  if (r.memory.empty()) {
    out << "No memory events.\n";
    return;
  }
  out << "| pool | peak allocated | peak reserved | allocations | never freed | OOMs |\n"
         "|---|---:|---:|---:|---:|---:|\n";
  for (const analysis::ReportMemory& m : r.memory) {
    out << "| " << Cell(m.name) << " | " << FormatBytes(static_cast<uint64_t>(std::max<int64_t>(m.peak_allocated_bytes, 0)))
        << " | "
        << (m.peak_reserved_bytes < 0 ? std::string("-") : FormatBytes(static_cast<uint64_t>(m.peak_reserved_bytes)))
        << " | " << FormatCount(m.allocations) << " | " << FormatCount(m.never_freed) << " | " << FormatCount(m.ooms)
        << " |\n";
  }
}

}  // namespace report_md

void WriteReportMarkdown(const analysis::Report& report, std::span<const analysis::Finding> findings,
                         const ReportTextContext& context, std::ostream& out) {
  using namespace report_md;
  out << "# Stepline report: " << Code(context.path) << "\n\n";
  Headline(report, context, out);
  Breakdown(report, out);
  Findings(findings, context, out);
  out << "## Recommendations\n\n";
  if (report.recommendations.empty()) out << "None.\n";
  for (const std::string& sentence : report.recommendations) out << "- " << sentence << "\n";
  out << "\n";
  Ops(report, out);
  Gaps(report, context, out);
  Memory(report, out);
}

}  // namespace stepline::app
