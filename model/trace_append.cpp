// AppendInstantTracks (trace_append.h).
#include "model/trace_append.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace stepline {
namespace {

// A finalized trace is immutable: its tables' mutators assert so. Adding rows
// after the fact goes through the one door a finalized trace has to its
// storage, Trace::VisitStorage (how the column cache reads a trace back).
// This visitor reports failure from the start (ok() is false), so nothing is
// rebuilt, and only keeps a pointer to the `finalized` flag, which the
// append clears while it adds rows and sets again after.
struct FinalizedFlag {
  bool* flag = nullptr;
  bool ok() const { return false; }
  void Fail(std::string_view) {}
  template <typename C>
  void Col(const char*, C&) {}
  template <typename T>
  void Scalar(const char* name, T& value) {
    if constexpr (std::is_same_v<T, bool>) {
      if (std::string_view(name) == "trace.finalized") flag = &value;
    }
  }
  void Text(const char*, std::string&) {}
};

}  // namespace

bool AppendInstantTracks(Trace* to, const Trace& from, TimeNs shift_ns) {
  SL_ASSERT(to->finalized() && from.finalized());
  if (to->has_backing() || from.slices().size() != 0 || from.counters().size() != 0) return false;
  FinalizedFlag finalized;
  Trace::VisitStorage(*to, finalized);
  SL_ASSERT(finalized.flag != nullptr && *finalized.flag);
  *finalized.flag = false;
  StringPool& strings = to->mutable_strings();
  ProcessTable& processes = to->mutable_processes();
  TrackTable& tracks = to->mutable_tracks();
  InstantTable& instants = to->mutable_instants();
  ArgTable& args = to->mutable_args();
  // Strings of `from` are interned here once each, on first use.
  std::vector<StringId> remap(from.strings().size(), StringId::None());
  const auto map = [&](StringId id) {
    if (id.is_none()) return id;
    StringId& mapped = remap[id.index()];
    if (mapped.is_none()) mapped = strings.Intern(from.str(id));
    return mapped;
  };
  // Every string comes along, used by a column or not: a memory snapshot's
  // events name their stacks, and BuildMemoryTable finds each stack's first
  // line (the op) in the pool.
  for (size_t i = 1; i < from.strings().size(); ++i) map(StringId(static_cast<uint32_t>(i)));
  int64_t next_pid = 0;
  for (size_t p = 0; p < processes.size(); ++p) next_pid = std::max(next_pid, processes.pid(ProcessId::FromIndex(p)) + 1);
  std::vector<ProcessId> process_of(from.processes().size(), ProcessId::None());
  const uint32_t slice_end = static_cast<uint32_t>(to->slices().size());
  const uint32_t counter_end = static_cast<uint32_t>(to->counters().size());
  std::vector<Arg> row_args;
  for (size_t t = 0; t < from.tracks().size(); ++t) {
    const TrackId src = TrackId::FromIndex(t);
    const TrackTable::Ranges& r = from.tracks().ranges(src);
    if (r.instant_begin == r.instant_end) continue;
    const ProcessId from_process = from.tracks().process(src);
    ProcessId& process = process_of[from_process.index()];
    if (process.is_none()) {
      process = processes.Append({next_pid++, map(from.processes().name(from_process)),
                                  from.processes().sort_index(from_process), from.processes().device_id(from_process)});
    }
    const TrackId track =
        tracks.Append({from.tracks().kind(src), process, from.tracks().tid(src), map(from.tracks().name(src)),
                       from.tracks().sort_index(src), from.tracks().device_id(src), map(from.tracks().category(src))});
    TrackTable::Ranges& ranges = tracks.mutable_ranges(track);
    ranges.slice_begin = ranges.slice_end = slice_end;
    ranges.counter_begin = ranges.counter_end = counter_end;
    ranges.instant_begin = static_cast<uint32_t>(instants.size());
    const InstantTable& in = from.instants();
    for (uint32_t i = r.instant_begin; i < r.instant_end; ++i) {
      row_args.clear();
      const ArgSetId set = in.arg_set()[i];
      for (uint32_t a = from.args().set_begin(set); a < from.args().set_end(set); ++a) {
        ArgValue v = from.args().value(a);
        if (v.type == ArgType::kString || v.type == ArgType::kJson) v.bits = map(v.as_string()).value;
        row_args.push_back({map(from.args().key()[a]), v});
      }
      instants.Append({track, in.ts_ns()[i] + shift_ns, map(in.name()[i]), map(in.category()[i]), args.AddSet(row_args)});
    }
    ranges.instant_end = static_cast<uint32_t>(instants.size());
  }
  *finalized.flag = true;
  return true;
}

}  // namespace stepline
