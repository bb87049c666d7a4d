// The critical paths of all steps summed, and the sentence on what would
// shorten them.
#include <algorithm>
#include <cstdio>
#include <vector>

#include "model/analysis/critical_path/critical_path.h"

namespace stepline::analysis {
namespace {

// The largest entries of a per-StringId tally (dense: one slot per string).
std::vector<std::pair<StringId, DurNs>> Ranked(const std::vector<DurNs>& by_name) {
  std::vector<std::pair<StringId, DurNs>> out;
  for (size_t name = 0; name < by_name.size(); ++name) {
    if (by_name[name] > 0) out.emplace_back(StringId(static_cast<uint32_t>(name)), by_name[name]);
  }
  const size_t keep = std::min(out.size(), kCriticalPathTop);
  std::partial_sort(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(keep), out.end(),
                    [](const auto& a, const auto& b) {
                      return a.second != b.second ? a.second > b.second : a.first.value < b.first.value;
                    });
  out.resize(keep);
  return out;
}

}  // namespace

CriticalPathTotal SumCriticalPaths(const Trace& trace, std::span<const CriticalPath> paths) {
  CriticalPathTotal total;
  for (const CriticalPath& p : paths) {
    total.dur_ns += p.dur_ns;
    for (int k = 0; k < kPathKindCount; ++k) total.by_kind_ns[size_t(k)] += p.by_kind_ns[size_t(k)];
  }
  for (int k = 0; k < kPathKindCount; ++k) {
    if (total.by_kind_ns[size_t(k)] > total.by_kind_ns[static_cast<size_t>(total.main_kind)]) {
      total.main_kind = static_cast<PathKind>(k);
    }
  }
  std::vector<DurNs> all(trace.strings().size(), 0), of_kind(trace.strings().size(), 0);
  const auto names = trace.slices().name();
  for (const CriticalPath& p : paths) {
    for (const PathSegment& seg : p.segments) {
      if (seg.slice.is_none()) continue;
      const uint32_t name = names[seg.slice.index()].value;
      all[name] += seg.dur_ns;
      if (seg.kind == total.main_kind) of_kind[name] += seg.dur_ns;
    }
  }
  total.top = Ranked(all);
  total.top_of_kind = Ranked(of_kind);
  return total;
}

std::string CriticalPathSentence(const Trace& trace, const CriticalPathTotal& total) {
  if (total.dur_ns <= 0) return "";
  const DurNs main_ns = total.by_kind_ns[static_cast<size_t>(total.main_kind)];
  const int percent = static_cast<int>((100 * main_ns + total.dur_ns / 2) / total.dur_ns);
  std::string s = std::to_string(percent) + "% of the critical path is ";
  const std::string name =
      total.top_of_kind.empty() ? std::string() : "`" + std::string(trace.str(total.top_of_kind.front().first)) + "`";
  switch (total.main_kind) {
    case PathKind::kHost:
      return s + "host time in " + name + ": less host work there, or overlapping it with the GPU, shortens the steps";
    case PathKind::kLaunch:
      return s + "kernel launch calls (" + name + "): fewer, larger kernels or CUDA graphs shorten the steps";
    case PathKind::kGpu: return s + "GPU compute, most in " + name + ": only faster kernels shorten the steps";
    case PathKind::kSync:
      return s + "the host waiting in " + name + ": removing the synchronization lets the host run ahead";
    case PathKind::kCopy: return s + "memory copies, most in " + name + ": fewer or overlapped copies shorten the steps";
    case PathKind::kCollective:
      return s + "collectives, most in " + name + ": overlapping them with compute shortens the steps";
    case PathKind::kIdle: return s + "idle: no recorded event holds it (time outside the trace's events)";
  }
  return "";
}

}  // namespace stepline::analysis
