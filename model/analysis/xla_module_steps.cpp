// XLA module executions as steps (see xla_module_steps.h).
#include "model/analysis/xla_module_steps.h"

#include <algorithm>
#include <map>
#include <string>

namespace stepline::analysis {

bool IsXlaModulesRowName(std::string_view name) {
  return name == "XLA Modules" || name.starts_with("XLA Modules - from #");
}

std::vector<TrackId> XlaModuleTracks(const Trace& trace, int32_t device_id) {
  std::vector<TrackId> out;
  const TrackTable& tracks = trace.tracks();
  for (size_t t = 0; t < tracks.size(); ++t) {
    const TrackId track = TrackId::FromIndex(t);
    if (tracks.kind(track) != TrackKind::kGpuDerived) continue;
    if (device_id >= 0 && tracks.device_id(track) != device_id) continue;
    if (IsXlaModulesRowName(trace.str(tracks.name(track)))) out.push_back(track);
  }
  return out;
}

std::vector<Step> ComputeXlaModuleSteps(const Trace& trace, int32_t device_id) {
  if (device_id < 0) return {};
  const SliceTable& s = trace.slices();
  struct Module {
    DurNs total_ns = 0;
    std::vector<uint32_t> runs;
  };
  std::map<uint32_t, Module> by_name;  // StringId value -> executions; ordered so ties are stable
  for (TrackId track : XlaModuleTracks(trace, device_id)) {
    const auto& r = trace.tracks().ranges(track);
    for (uint32_t i = r.slice_begin; i < r.slice_end; ++i) {
      if (s.depth()[i] != 0 || s.dur_ns()[i] <= 0) continue;
      Module& m = by_name[s.name()[i].value];
      m.total_ns += s.dur_ns()[i];
      m.runs.push_back(i);
    }
  }
  const Module* best = nullptr;
  uint32_t best_name = 0;
  for (const auto& [name, m] : by_name) {
    if (m.runs.size() < 2) continue;
    if (best == nullptr || m.total_ns > best->total_ns) best = &m, best_name = name;
  }
  if (best == nullptr) return {};
  std::vector<uint32_t> runs = best->runs;
  std::sort(runs.begin(), runs.end(), [&](uint32_t a, uint32_t b) { return s.start_ns()[a] < s.start_ns()[b]; });
  // "jit_f(12190760917235803885)": the program id says nothing to a reader.
  std::string base(trace.str(StringId(best_name)));
  if (const size_t paren = base.find('('); paren != std::string::npos && paren > 0) base.resize(paren);
  std::vector<Step> steps;
  steps.reserve(runs.size());
  // A step runs from one execution's start to the next one's (XProf's TPU
  // step time): the device idle between executions, waiting for the host's
  // next input or dispatch, is the step's idle time and must show in the
  // breakdown. The last execution has no successor and keeps its own length.
  for (size_t k = 0; k < runs.size(); ++k) {
    const uint32_t i = runs[k];
    DurNs dur = s.dur_ns()[i];
    if (k + 1 < runs.size()) dur = std::max(dur, s.start_ns()[runs[k + 1]] - s.start_ns()[i]);
    steps.push_back(Step{base + " " + std::to_string(k), s.start_ns()[i], dur, SliceId(i)});
  }
  return steps;
}

}  // namespace stepline::analysis
