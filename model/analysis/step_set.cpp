// Step detection (see step_set.h for the order of sources).
//
// Markers repeat once per step with the same name up to a number ("train 5",
// "ProfilerStep#12"), but a trace may also hold one-off slices that happen to
// match the rule ("train_loop" wrapping everything, "test_setup"). So marker
// candidates are grouped by (thread, name without its trailing number) and the
// largest group wins. Every marker of the winner is a step: rounded
// timestamps make consecutive steps overlap by a nanosecond, and TF pipelines
// steps, so overlap is resolved in the windows (FinishSteps), never by
// dropping a step. A winning group of one marker in a trace of repeated
// kernels is a wrapper of the whole run ("train_single_gpu.py(62): <module>"
// was one before Python frames were excluded), not a step.
#include "model/analysis/step_set.h"

#include "model/analysis/serving_steps.h"
#include "model/analysis/xla_module_steps.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <regex>

namespace stepline::analysis {
namespace {

bool StartsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

bool IsStepsRow(const Trace& trace, TrackId t) {
  if (trace.tracks().kind(t) != TrackKind::kGpuDerived) return false;
  const std::string_view name = trace.str(trace.tracks().name(t));
  return name == "Steps" || StartsWith(name, "Steps - from");
}

// "train 5" -> "train", "ProfilerStep#12" -> "ProfilerStep".
std::string_view WithoutNumber(std::string_view name) {
  while (!name.empty() && (std::isdigit(static_cast<unsigned char>(name.back())) || name.back() == ' ' ||
                           name.back() == '#' || name.back() == '_' || name.back() == '-')) {
    name.remove_suffix(1);
  }
  return name;
}

StepSet Finished(std::vector<Step> steps) {
  StepSet set;
  FinishSteps(std::move(steps), &set);
  return set;
}

// Loaders that derive a Steps row from annotation ranges name the source in
// the row's category ("nvtx", "roctx").
StepSource StepsRowSource(const Trace& trace, TrackId row) {
  if (row.is_none()) return StepSource::kStepsRow;
  const std::string_view category = trace.str(trace.tracks().category(row));
  if (category == "nvtx") return StepSource::kNvtx;
  if (category == "roctx") return StepSource::kRoctx;
  return StepSource::kStepsRow;
}

Step StepOfSlice(const Trace& trace, uint32_t i, std::string name) {
  return Step{std::move(name), trace.slices().start_ns()[i], trace.slices().dur_ns()[i], SliceId(i)};
}

std::vector<Step> FromStepsRows(const Trace& trace, int32_t device_id, TrackId* chosen) {
  TrackId best = TrackId::None();
  int best_rank = -1;
  uint32_t best_count = 0;
  for (size_t t = 0; t < trace.tracks().size(); ++t) {
    const TrackId track = TrackId::FromIndex(t);
    if (!IsStepsRow(trace, track)) continue;
    const auto& r = trace.tracks().ranges(track);
    const uint32_t count = r.slice_end - r.slice_begin;
    if (count == 0) continue;
    const int32_t row_device = trace.tracks().device_id(track);
    const int rank = row_device == device_id ? 2 : (row_device < 0 ? 1 : 0);
    if (rank > best_rank || (rank == best_rank && count > best_count)) {
      best = track;
      best_rank = rank;
      best_count = count;
    }
  }
  std::vector<Step> steps;
  *chosen = best;
  if (best.is_none()) return steps;
  const auto& r = trace.tracks().ranges(best);
  // Every slice of the row is a step: pipelined steps overlap, so the
  // builder nests a later step under the one still running.
  for (uint32_t i = r.slice_begin; i < r.slice_end; ++i) {
    steps.push_back(StepOfSlice(trace, i, std::string(trace.str(trace.slices().name()[i]))));
  }
  return steps;
}

// Largest group of host slices passing `is_candidate`, keyed by (track, name
// without number). `name_of` gives the step's display name.
template <typename IsCandidate, typename NameOf>
std::vector<Step> LargestMarkerGroup(const Trace& trace, IsCandidate is_candidate, NameOf name_of) {
  std::map<std::pair<uint32_t, std::string_view>, std::vector<uint32_t>> groups;
  const SliceTable& s = trace.slices();
  for (size_t t = 0; t < trace.tracks().size(); ++t) {
    const TrackId track = TrackId::FromIndex(t);
    if (trace.tracks().kind(track) != TrackKind::kHostThread) continue;
    const auto& r = trace.tracks().ranges(track);
    for (uint32_t i = r.slice_begin; i < r.slice_end; ++i) {
      if (s.dur_ns()[i] > 0 && is_candidate(i))
        groups[{track.value, WithoutNumber(trace.str(s.name()[i]))}].push_back(i);
    }
  }
  const std::vector<uint32_t>* best = nullptr;
  for (const auto& [key, rows] : groups) {
    if (best == nullptr || rows.size() > best->size() ||
        (rows.size() == best->size() && s.depth()[rows.front()] < s.depth()[best->front()])) {
      best = &rows;
    }
  }
  std::vector<Step> steps;
  if (best == nullptr) return steps;
  for (uint32_t i : *best) steps.push_back(StepOfSlice(trace, i, name_of(i)));
  return steps;
}

std::string MarkerName(const Trace& trace, uint32_t i, StringId step_num_key) {
  std::string name(trace.str(trace.slices().name()[i]));
  ArgValue v;
  if (step_num_key.is_none() || !trace.args().Find(trace.slices().arg_set()[i], step_num_key, &v)) return name;
  int64_t n = 0;
  std::string number = v.ToInt64(&n) ? std::to_string(n) : std::string(trace.str(v.as_string()));
  if (name.size() >= number.size() && name.compare(name.size() - number.size(), number.size(), number) == 0)
    return name;
  return name + " " + number;
}

std::vector<Step> FromRegex(const Trace& trace, const std::string& pattern, std::string* error) {
  std::regex re;
  try {
    re = std::regex(pattern, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    *error = "invalid --steps regex \"" + pattern + "\": " + e.what();
    return {};
  }
  std::vector<int8_t> match(trace.strings().size(), -1);
  std::vector<Step> steps;
  const SliceTable& s = trace.slices();
  for (size_t t = 0; t < trace.tracks().size(); ++t) {
    const TrackId track = TrackId::FromIndex(t);
    if (trace.tracks().kind(track) != TrackKind::kHostThread) continue;
    const auto& r = trace.tracks().ranges(track);
    for (uint32_t i = r.slice_begin; i < r.slice_end; ++i) {
      if (s.depth()[i] != 0) continue;
      int8_t& m = match[s.name()[i].index()];
      if (m < 0) {
        const std::string_view name = trace.str(s.name()[i]);
        m = std::regex_search(name.begin(), name.end(), re) ? 1 : 0;
      }
      if (m == 1) steps.push_back(StepOfSlice(trace, i, std::string(trace.str(s.name()[i]))));
    }
  }
  return steps;
}

// True when some kernel name occurs at least twice: the trace holds repeated
// work, so a single marker around it is a wrapper, not a step.
bool HasRepeatedKernels(const Trace& trace) {
  const SliceTable& s = trace.slices();
  std::vector<uint8_t> seen(trace.strings().size(), 0);
  for (size_t i = 0; i < s.size(); ++i) {
    if (!IsKernelLike(s.gpu_kind()[i])) continue;
    uint8_t& n = seen[s.name()[i].index()];
    if (n == 1) return true;
    n = 1;
  }
  return false;
}

TimeRange GpuActiveSpan(const Trace& trace) {
  const SliceTable& s = trace.slices();
  TimeNs lo = INT64_MAX, hi = INT64_MIN;
  for (size_t i = 0; i < s.size(); ++i) {
    if (!IsKernelLike(s.gpu_kind()[i])) continue;
    lo = std::min(lo, s.start_ns()[i]);
    hi = std::max(hi, s.start_ns()[i] + s.dur_ns()[i]);
  }
  return lo < hi ? TimeRange{lo, hi} : TimeRange{};
}

}  // namespace

std::string_view StepSourceName(StepSource s) {
  switch (s) {
    case StepSource::kNone: return "none";
    case StepSource::kStepsRow: return "steps_row";
    case StepSource::kProfilerStep: return "profiler_step";
    case StepSource::kStepMarkers: return "step_markers";
    case StepSource::kRegex: return "regex";
    case StepSource::kGpuActiveSpan: return "gpu_active_span";
    case StepSource::kNvtx: return "nvtx";
    case StepSource::kRoctx: return "roctx";
    case StepSource::kXlaModule: return "xla_module";
    case StepSource::kSglang: return "sglang";
    case StepSource::kVllm: return "vllm";
  }
  return "?";
}

bool IsStepMarkerName(std::string_view name) {
  if (StartsWith(name, "ProfilerStep#")) return true;
  if (!StartsWith(name, "train") && !StartsWith(name, "test") && !StartsWith(name, "TraceContext")) return false;
  return name.find_first_of("/():.") == std::string_view::npos;
}

void FinishSteps(std::vector<Step> steps, StepSet* set) {
  std::erase_if(steps, [](const Step& s) { return s.dur_ns <= 0; });
  std::sort(steps.begin(), steps.end(), [](const Step& a, const Step& b) {
    return a.start_ns != b.start_ns ? a.start_ns < b.start_ns : a.dur_ns > b.dur_ns;
  });
  set->overlap_count = 0;
  set->max_overlap_ns = 0;
  TimeNs reach = INT64_MIN;  // the latest end of the steps so far
  for (size_t i = 0; i < steps.size(); ++i) {
    reach = std::max(reach, steps[i].end_ns());
    TimeNs window_end = reach;
    if (i + 1 < steps.size() && steps[i + 1].start_ns < reach) {
      window_end = steps[i + 1].start_ns;
      ++set->overlap_count;
      set->max_overlap_ns = std::max(set->max_overlap_ns, reach - steps[i + 1].start_ns);
    }
    steps[i].window_dur_ns = window_end - steps[i].start_ns;
  }
  set->steps = std::move(steps);
}

std::string StepSourceSentence(const StepSet& set) {
  const size_t n = set.steps.size();
  auto count = [&](std::string_view one, std::string_view many) {
    return std::to_string(n) + " " + std::string(n == 1 ? one : many);
  };
  std::string s;
  switch (set.source) {
    case StepSource::kNone: s = "no steps: no device activity and no step markers"; break;
    case StepSource::kStepsRow: s = count("step", "steps") + " from the trace's Steps row"; break;
    case StepSource::kProfilerStep: s = count("ProfilerStep#N annotation", "ProfilerStep#N annotations"); break;
    case StepSource::kStepMarkers:
      s = count("step marker", "step markers") + " (XProf's rule: train/test/TraceContext or step_num)";
      break;
    case StepSource::kRegex: s = count("slice", "slices") + " matching --steps"; break;
    case StepSource::kGpuActiveSpan: s = "one step `all`: the device-active span (no step markers)"; break;
    case StepSource::kNvtx: s = count("repeated NVTX range", "repeated NVTX ranges"); break;
    case StepSource::kRoctx: s = count("repeated roctx range", "repeated roctx ranges"); break;
    case StepSource::kXlaModule:
      s = count("execution", "executions") + " of the XLA module with the most device time (no step markers)";
      break;
    case StepSource::kSglang: s = count("SGLang step[...] annotation", "SGLang step[...] annotations"); break;
    case StepSource::kVllm: s = count("vLLM execute_... annotation", "vLLM execute_... annotations"); break;
  }
  s += " (" + std::string(StepSourceName(set.source)) + ")";
  if (set.overlap_count > 0) {
    s += "; " + std::to_string(set.overlap_count) + " overlap the next (up to " + std::to_string(set.max_overlap_ns) +
         " ns), split where the next begins";
  }
  if (set.engine != ServingEngine::kNone) s += "; steps from " + std::string(ServingEngineName(set.engine));
  if (!set.note.empty()) s += "; " + set.note;
  return s;
}

bool IsPythonFrameName(std::string_view name) {
  const size_t paren = name.find(".py(");
  if (paren == std::string_view::npos) return false;
  const size_t close = name.find("):", paren);
  return close != std::string_view::npos;
}

namespace {
StepSet ComputeStepsUnlabelled(const Trace& trace, const StepOptions& options);
}  // namespace

// Finds the steps, then labels each with its phase and batch (serving_steps.h).
StepSet ComputeSteps(const Trace& trace, const StepOptions& options) {
  StepSet set = ComputeStepsUnlabelled(trace, options);
  AssignStepPhases(&set);
  return set;
}

namespace {

StepSet ComputeStepsUnlabelled(const Trace& trace, const StepOptions& options) {
  StepSet set;
  auto take = [&](StepSource source, std::vector<Step> steps) {
    if (steps.empty()) return false;
    std::string note = std::move(set.note);
    std::string error = std::move(set.error);
    set = Finished(std::move(steps));
    set.source = source;
    set.note = std::move(note);
    set.error = std::move(error);
    return true;
  };
  TrackId steps_row = TrackId::None();
  std::vector<Step> row_steps = FromStepsRows(trace, options.device_id, &steps_row);
  if (take(StepsRowSource(trace, steps_row), std::move(row_steps))) return set;
  ServingEngine engine = ServingEngine::kNone;
  std::vector<Step> serving = ServingMarkerSteps(trace, &engine);
  if (take(engine == ServingEngine::kVllm ? StepSource::kVllm : StepSource::kSglang, std::move(serving))) return set;
  auto is_profiler_step = [&](uint32_t i) { return StartsWith(trace.str(trace.slices().name()[i]), "ProfilerStep#"); };
  auto plain_name = [&](uint32_t i) { return std::string(trace.str(trace.slices().name()[i])); };
  if (take(StepSource::kProfilerStep, LargestMarkerGroup(trace, is_profiler_step, plain_name))) return set;
  StepMarkerMatcher matcher(trace);
  const StringId step_num_key = trace.strings().Find("step_num");
  auto is_marker = [&](uint32_t i) { return matcher.IsMarker(SliceId(i)); };
  auto marker_name = [&](uint32_t i) { return MarkerName(trace, i, step_num_key); };
  std::vector<Step> markers = LargestMarkerGroup(trace, is_marker, marker_name);
  if (markers.size() == 1 && HasRepeatedKernels(trace)) {
    set.note = "the only step marker, `" + markers.front().name +
               "`, occurs once while kernels repeat, so it is not taken as a step";
    markers.clear();
  }
  if (take(StepSource::kStepMarkers, std::move(markers))) return set;
  if (!options.steps_regex.empty() && take(StepSource::kRegex, FromRegex(trace, options.steps_regex, &set.error))) {
    return set;
  }
  if (take(StepSource::kXlaModule, ComputeXlaModuleSteps(trace, options.device_id))) return set;
  const TimeRange span = GpuActiveSpan(trace);
  if (!span.empty())
    take(StepSource::kGpuActiveSpan, {Step{"all", span.start_ns, span.duration_ns(), SliceId::None()}});
  return set;
}

}  // namespace

StepMarkerMatcher::StepMarkerMatcher(const Trace& trace)
    : trace_(trace), step_num_key_(trace.strings().Find("step_num")), by_name_(trace.strings().size(), -1) {}

bool StepMarkerMatcher::IsMarkerName(SliceId slice) {
  const StringId name = trace_.slices().name()[slice.index()];
  int8_t& known = by_name_[name.index()];
  if (known < 0) known = IsStepMarkerName(trace_.str(name)) ? 1 : 0;
  return known == 1;
}

bool StepMarkerMatcher::IsMarker(SliceId slice) {
  if (IsMarkerName(slice)) return true;
  ArgValue v;
  if (step_num_key_.is_none() || !trace_.args().Find(trace_.slices().arg_set()[slice.index()], step_num_key_, &v))
    return false;
  return !IsPythonFrameName(trace_.str(trace_.slices().name()[slice.index()]));  // never a Python frame
}

}  // namespace stepline::analysis
