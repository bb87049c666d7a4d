// `stepline ranks` output: text, --json and --csv (see ranks_output.h).
#include "app/output/ranks_output.h"

#include <algorithm>
#include <ostream>

#include "app/output/json_writer.h"
#include "app/output/text_format.h"
#include "model/analysis/headline.h"
#include "model/analysis/headline_record.h"
#include "model/text_format.h"

namespace stepline::app {
namespace {

using analysis::CauseNs;
using analysis::IdleCause;
using analysis::RankRow;
using analysis::TimeCategory;

DurNs IdleTotal(const CauseNs& c) {
  DurNs n = 0;
  for (DurNs v : c) n += v;
  return n;
}

std::string Pad(std::string s, size_t width, bool left = false) {
  if (s.size() >= width) return s;
  return left ? s + std::string(width - s.size(), ' ') : std::string(width - s.size(), ' ') + s;
}

// Milliseconds with 2 decimals; below 5 us either way is "0.00", never "-0.00".
std::string Ms(DurNs ns) { return ns > -5'000 && ns < 5'000 ? "0.00" : FormatFixed(static_cast<double>(ns) / 1e6, 2); }

}  // namespace

void WriteRanksText(const RanksRun& run, std::ostream& out) {
  const analysis::RanksAnalysis& a = run.analysis;
  out << "ranks            " << run.ranks.size() << " loaded";
  if (a.world_size > 0) out << " of world size " << a.world_size;
  if (!run.ranks.empty() && !run.ranks.front().backend.empty()) out << " (" << run.ranks.front().backend << ")";
  out << " in " << FormatFixed(run.load_ms, 0) << " ms\n";
  out << "collectives      " << a.matched << " matched on every rank, " << a.unmatched << " kernels unmatched\n";
  if (!a.missing_ranks.empty()) {
    out << "missing ranks    " << a.missing_ranks.size() << ":";
    for (size_t i = 0; i < a.missing_ranks.size() && i < 32; ++i) out << ' ' << a.missing_ranks[i];
    if (a.missing_ranks.size() > 32) out << " ...";
    out << "\n";
  }
  for (const RankFailure& f : run.failed) out << "failed to load   " << f.path << ": " << f.error << "\n";
  out << "\nper step, ms     (wait = collective time spent waiting for the last rank to arrive)\n";
  // Steps and the mean step are headline figures: the text the ranks view's
  // table shows (model/analysis/headline.h); the other columns are ms.
  out << Pad("rank", 5) << Pad("source", 17) << Pad("steps", 6) << Pad("mean step", 11) << Pad("compute", 9)
      << Pad("c.wait", 9) << Pad("c.xfer", 9) << Pad("idle", 9) << Pad("late", 9) << Pad("offset", 10)
      << Pad("overlap", 8) << "  host / path\n";
  for (const RankRow& row : a.ranks) {
    const analysis::RankSummary& s = run.ranks[row.input];
    const analysis::Headline h = analysis::RankHeadline(row.steps, row.step_mean_ns);
    out << Pad(std::to_string(row.rank), 5) << Pad(s.rank_source, 17)
        << Pad(analysis::HeadlineTextAt("ranks text", h, analysis::HeadlineFigure::kSteps), 6)
        << Pad(analysis::HeadlineTextAt("ranks text", h, analysis::HeadlineFigure::kStepMean), 11)
        << Pad(Ms(At(row.breakdown_per_step, TimeCategory::kCompute)), 9)
        << Pad(Ms(row.collective_wait_ns_per_step), 9) << Pad(Ms(row.collective_transfer_ns_per_step), 9)
        << Pad(Ms(IdleTotal(row.idle_by_cause_per_step)), 9) << Pad(Ms(row.late_ns), 9)
        << Pad(Ms(row.clock_offset_ns), 10) << Pad(FormatFixed(row.overlap_percent, 0) + "%", 8) << "  "
        << (s.host.empty() ? "" : s.host + " ") << s.path << "\n";
  }
  out << "\n";
  if (a.straggler) {
    out << "straggler        rank " << a.straggler->rank << ", " << Ms(a.straggler->late_ns)
        << " ms late per collective; cause " << a.straggler->cause;
    if (!a.straggler->blamed.empty()) out << " (" << a.straggler->blamed.front() << ")";
    out << "\n";
  } else {
    out << "straggler        none (no rank arrives later than 5% of its step)\n";
  }
  for (const std::string& r : a.recommendations) out << "  " << r << "\n";
}

void WriteRanksJson(const RanksRun& run, std::ostream& out) {
  const analysis::RanksAnalysis& a = run.analysis;
  JsonWriter j;
  j.BeginObject().Key("ranks").BeginArray();
  for (const RankRow& row : a.ranks) {
    const analysis::RankSummary& s = run.ranks[row.input];
    j.BeginObject();
    j.Key("rank").Int(row.rank).Field("path", s.path).Field("host", s.host).Field("rank_source", s.rank_source);
    j.Key("steps").Int(row.steps).Key("step_mean_ns").Int(row.step_mean_ns);
    j.Key("breakdown").BeginObject();
    for (int c = 0; c < analysis::kTimeCategoryCount; ++c) {
      j.Key(analysis::TimeCategoryName(static_cast<TimeCategory>(c))).Int(row.breakdown_per_step[static_cast<size_t>(c)]);
    }
    j.EndObject();
    j.Key("collective_wait_ns_per_step").Int(row.collective_wait_ns_per_step);
    j.Key("collective_transfer_ns_per_step").Int(row.collective_transfer_ns_per_step);
    j.Key("late_ns_per_step").Int(row.late_ns);
    j.FieldFixed("overlap_percent", row.overlap_percent, 2);
    j.Key("clock_offset_ns").Int(row.clock_offset_ns);
    j.Key("idle_by_cause").BeginObject();
    for (int c = 0; c < analysis::kIdleCauseCount; ++c) {
      j.Key(analysis::IdleCauseName(static_cast<IdleCause>(c))).Int(row.idle_by_cause_per_step[static_cast<size_t>(c)]);
    }
    j.EndObject().EndObject();
  }
  j.EndArray();
  j.Key("straggler");
  if (a.straggler) {
    j.BeginObject().Key("rank").Int(a.straggler->rank).Key("late_ns_per_step").Int(a.straggler->late_ns);
    j.Field("cause", a.straggler->cause).Key("blamed").BeginArray();
    for (const std::string& b : a.straggler->blamed) j.String(b);
    j.EndArray().EndObject();
  } else {
    j.Null();
  }
  j.Key("collectives").BeginObject().Field("matched", a.matched).Field("unmatched", a.unmatched).EndObject();
  j.Key("recommendations").BeginArray();
  for (const std::string& r : a.recommendations) j.String(r);
  j.EndArray();
  // Beyond the keys: what the set is missing.
  j.Key("world_size").Int(a.world_size).Key("missing_ranks").BeginArray();
  for (int32_t r : a.missing_ranks) j.Int(r);
  j.EndArray().Key("failed").BeginArray();
  for (const RankFailure& f : run.failed) j.BeginObject().Field("path", f.path).Field("error", f.error).EndObject();
  j.EndArray().EndObject();
  out << j.text() << "\n";
}

void AppendRanksCsv(const RanksRun& run, std::string* out) {
  std::vector<std::string> header = {"rank", "path", "host", "rank_source", "steps", "step_mean_ns"};
  for (int c = 0; c < analysis::kTimeCategoryCount; ++c) {
    header.push_back(std::string(analysis::TimeCategoryName(static_cast<TimeCategory>(c))) + "_ns_per_step");
  }
  for (const char* h : {"collective_wait_ns_per_step", "collective_transfer_ns_per_step", "late_ns_per_step",
                        "overlap_percent", "clock_offset_ns"}) {
    header.push_back(h);
  }
  for (int c = 0; c < analysis::kIdleCauseCount; ++c) {
    header.push_back("idle_" + std::string(analysis::IdleCauseName(static_cast<IdleCause>(c))) + "_ns_per_step");
  }
  const auto line = [out](const std::vector<std::string>& fields) {
    for (size_t i = 0; i < fields.size(); ++i) {
      if (i) out->push_back(',');
      text::AppendCsvField(fields[i], out);
    }
    out->push_back('\n');
  };
  line(header);
  for (const RankRow& row : run.analysis.ranks) {
    const analysis::RankSummary& s = run.ranks[row.input];
    std::vector<std::string> f = {std::to_string(row.rank), s.path, s.host, s.rank_source,
                                  std::to_string(row.steps), std::to_string(row.step_mean_ns)};
    for (DurNs v : row.breakdown_per_step) f.push_back(std::to_string(v));
    f.push_back(std::to_string(row.collective_wait_ns_per_step));
    f.push_back(std::to_string(row.collective_transfer_ns_per_step));
    f.push_back(std::to_string(row.late_ns));
    f.push_back(FormatFixed(row.overlap_percent, 2));
    f.push_back(std::to_string(row.clock_offset_ns));
    for (DurNs v : row.idle_by_cause_per_step) f.push_back(std::to_string(v));
    line(f);
  }
}

}  // namespace stepline::app
