// Steps from annotation ranges (see annotation_steps.h).
#include "loaders/annotation_steps.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <string>

#include "model/ascii_case.h"
#include "model/serving_step_name.h"

namespace stepline::loaders {
namespace {

bool IsNumberTail(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) || c == ' ' || c == '#' || c == '_' || c == '-';
}

// "train_step 12" -> "train_step", "ProfilerStep#3" -> "ProfilerStep".
std::string_view WithoutNumber(std::string_view name) {
  while (!name.empty() && IsNumberTail(name.back())) name.remove_suffix(1);
  return name;
}

bool EndsWithDigit(std::string_view s) { return !s.empty() && std::isdigit(static_cast<unsigned char>(s.back())); }

// Keeps the ranges no other range of their thread encloses.
std::vector<AnnotationRange> TopLevel(std::vector<AnnotationRange> ranges) {
  std::sort(ranges.begin(), ranges.end(), [](const AnnotationRange& a, const AnnotationRange& b) {
    if (a.track != b.track) return a.track < b.track;
    return a.start_ns != b.start_ns ? a.start_ns < b.start_ns : a.dur_ns > b.dur_ns;
  });
  std::vector<AnnotationRange> top;
  TrackId open_track = TrackId::None();
  TimeNs open_end = INT64_MIN;
  for (const AnnotationRange& r : ranges) {
    if (r.track == open_track && r.start_ns + r.dur_ns <= open_end) continue;
    open_track = r.track;
    open_end = r.start_ns + r.dur_ns;
    top.push_back(r);
  }
  return top;
}

struct GroupKey {
  TrackId track;
  std::string base;
  bool operator<(const GroupKey& o) const { return track != o.track ? track < o.track : base < o.base; }
};

// The largest group (thread, name without number) of ranges passing `keep`.
std::vector<AnnotationRange> LargestGroup(const Trace& trace, const std::vector<AnnotationRange>& ranges,
                                          bool (*keep)(std::string_view)) {
  std::map<GroupKey, std::vector<AnnotationRange>> groups;
  for (const AnnotationRange& r : ranges) {
    const std::string_view name = trace.str(r.name);
    if (!keep(name)) continue;
    groups[GroupKey{r.track, std::string(WithoutNumber(name))}].push_back(r);
  }
  std::vector<AnnotationRange> best;
  for (auto& [key, members] : groups) {
    if (members.size() >= 2 && members.size() > best.size()) best = std::move(members);
  }
  return best;
}

// A serving engine's step ranges (model/serving_step_name.h): their names
// differ step to step (batch, tokens), so they are grouped by engine and
// thread, and one is enough (the name says it is a step). Nested ones are
// ranges inside another range; only top-level ranges reach here.
std::vector<AnnotationRange> ServingRanges(const Trace& trace, const std::vector<AnnotationRange>& ranges) {
  std::map<std::pair<uint32_t, ServingEngine>, std::vector<AnnotationRange>> groups;
  for (const AnnotationRange& r : ranges) {
    const std::optional<ServingStepName> parsed = ParseServingStepName(trace.str(r.name));
    if (parsed) groups[{r.track.value, parsed->engine}].push_back(r);
  }
  std::vector<AnnotationRange> best;
  for (auto& [key, members] : groups) {
    if (members.size() > best.size()) best = std::move(members);
  }
  return best;
}

}  // namespace

bool IsStepWordName(std::string_view name) {
  const std::string base = AsciiLower(WithoutNumber(name));
  if (base.empty() || base.size() > 64) return false;
  for (char c : base) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != ' ' && c != '.' && c != '-') return false;
  }
  return base.ends_with("step") || base.ends_with("iteration") || base == "iter" || base.ends_with("train_iter") ||
         base == "train" || base == "batch" || base == "train_batch";
}

bool IsNumberedName(std::string_view name) {
  if (!EndsWithDigit(name)) return false;
  const std::string_view base = WithoutNumber(name);
  if (base.empty() || base.size() > 64 || !std::isalpha(static_cast<unsigned char>(base.front()))) return false;
  return std::all_of(base.begin(), base.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ' ' || c == '-';
  });
}

size_t AddStepsFromRanges(TraceBuilder* builder, std::vector<AnnotationRange> ranges, std::string_view source) {
  if (ranges.empty()) return 0;
  const Trace& trace = builder->trace();
  const std::vector<AnnotationRange> top = TopLevel(std::move(ranges));
  std::vector<AnnotationRange> steps = ServingRanges(trace, top);
  if (steps.empty()) steps = LargestGroup(trace, top, IsStepWordName);
  if (steps.empty()) steps = LargestGroup(trace, top, IsNumberedName);
  if (steps.empty()) return 0;
  // Already sorted by start (TopLevel) and, being top-level on one thread,
  // never overlapping.
  TrackTable::Row row;
  row.kind = TrackKind::kGpuDerived;
  row.process = trace.tracks().process(steps.front().track);
  row.name = builder->Intern("Steps");
  row.category = builder->Intern(source);
  row.sort_index = INT32_MIN;  // above the host threads, like a device's Steps row
  const TrackId steps_track = builder->AddTrack(row);
  size_t ordinal = 0;
  for (const AnnotationRange& r : steps) {
    SliceTable::Row slice;
    slice.track = steps_track;
    slice.start_ns = r.start_ns;
    slice.dur_ns = r.dur_ns;
    const std::string_view name = trace.str(r.name);
    slice.name = EndsWithDigit(name) ? r.name : builder->Intern(std::string(name) + " " + std::to_string(ordinal));
    slice.category = row.category;
    builder->AddSlice(slice);
    ++ordinal;
  }
  return steps.size();
}

}  // namespace stepline::loaders
