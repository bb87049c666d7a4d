// AddMemorySnapshot: load the snapshot on its own, check both clocks, then
// Trace::AppendInstantTracks with the shift that puts epoch times on the
// trace's model time.
#include "loaders/torch_snapshot/snapshot_overlay.h"

#include <cstdio>

#include "model/trace_append.h"

namespace stepline::loaders {
namespace {

// 1e18 ns after the epoch is in September 2001: model times past it are epoch times
// (no relative clock of a profile runs that long), times below it are not.
constexpr TimeNs kEpochTimesFrom = 1'000'000'000'000'000'000;

std::string Seconds(TimeNs ns) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f s", static_cast<double>(ns) / 1e9);
  return text;
}

}  // namespace

std::optional<TimeNs> EpochOfModelZero(const Trace& trace) {
  if (trace.info().wall_clock_origin_ns != 0) return trace.info().wall_clock_origin_ns;
  if (trace.span().start_ns >= kEpochTimesFrom) return TimeNs{0};
  return std::nullopt;
}

SnapshotOverlay AddMemorySnapshot(Trace* trace, const std::string& trace_name, const std::string& snapshot_path,
                                  LoadProgress* progress) {
  SnapshotOverlay out;
  const std::optional<TimeNs> trace_epoch = EpochOfModelZero(*trace);
  if (!trace_epoch) {
    out.error = trace_name + ": its times are not tied to the epoch clock (no baseTimeNanoseconds, and its events "
                "start at " + Seconds(trace->span().start_ns) + "), so the memory snapshot " + snapshot_path +
                " cannot be placed on its timeline";
    return out;
  }
  auto snapshot = LoadFile(snapshot_path, {}, progress);
  if (!snapshot) {
    out.error = snapshot.error().ToString();
    return out;
  }
  const Trace& snap = snapshot.value();
  if (snap.info().format != FormatName(Format::kTorchMemorySnapshot)) {
    out.error = snapshot_path + ": not a PyTorch memory snapshot (it reads as " + snap.info().format + ")";
    return out;
  }
  if (snap.instants().size() == 0) {
    out.error = snapshot_path + ": the memory snapshot records no allocator events";
    return out;
  }
  if (snap.span().start_ns < kEpochTimesFrom) {
    out.error = snapshot_path + ": the memory snapshot's entries have no time_us, so they cannot be placed on " +
                trace_name + "'s timeline";
    return out;
  }
  out.shift_ns = -*trace_epoch;
  if (!AppendInstantTracks(trace, snap, out.shift_ns)) {
    out.error = trace_name + ": the trace came from the column cache and is read-only; load it from the file";
    return out;
  }
  const TimeRange t = trace->span();
  const TimeNs first = snap.span().start_ns + out.shift_ns, last = snap.span().end_ns + out.shift_ns;
  if (last < t.start_ns || first > t.end_ns) {
    out.notice = "the memory snapshot " + snapshot_path + " and the trace do not overlap in time: its entries lie " +
                 (last < t.start_ns ? Seconds(t.start_ns - last) + " before" : Seconds(first - t.end_ns) + " after") +
                 " the trace's events; are they of the same run?";
    // Said where a trace's other problems are said too: the diagnostics
    // panel, `report`'s and `info`'s diagnostics and their JSON.
    trace->mutable_diagnostics().Record(DiagCode::kSnapshotApart, Diagnostics::kNoOffset, out.notice);
  }
  return out;
}

}  // namespace stepline::loaders
