// XLA's trace viewer event cap. XLA (and TensorFlow, JAX, XProf) convert an
// XSpace to trace-viewer JSON (`<host>.trace.json.gz` next to the
// `.xplane.pb`, JAX's perfetto_trace.json.gz, TensorBoard's trace viewer)
// through one converter, which keeps at most TF_PROFILER_TRACE_VIEWER_MAX_EVENTS
// events: 1,000,000 by default, 5,000,000 since XLA raised it. Past the cap
// it keeps the earliest events by start time and drops every later one, on
// every row, without saying so in the file. The xplane.pb itself is not
// capped (docs/formats.md).
//
// What the converter writes: the top-level keys "displayTimeUnit": "ns" and
// "metadata": {"highres-ticks": true}, process/thread name and sort index M
// events, then only complete X events (and a closing {}). A capped file
// holds exactly the cap's number of X events (older converters kept every
// event tied with the last kept start, so: at least the cap, and fewer than
// the cap before the last start). Such a file is marked cut at the last
// recorded start: a kTruncated diagnostic naming the cap, TraceInfo's
// event_cap and recorded_until_ns (figures then stop there).
#pragma once

#include <cstdint>
#include <limits>

#include "loaders/trace_builder.h"
#include "model/time.h"

namespace stepline::loaders {

// The converter's default caps, old and new.
inline constexpr uint64_t kXlaTraceViewerCaps[] = {1'000'000, 5'000'000};

// Counted while importing: complete events, their last start and how many
// start then, and the events of any other phase but M.
struct CompleteEventTally {
  uint64_t complete = 0;
  uint64_t other = 0;
  TimeNs last_start_ns = std::numeric_limits<TimeNs>::min();
  uint64_t at_last_start = 0;

  void NoteComplete(TimeNs ts_ns) {
    ++complete;
    if (ts_ns > last_start_ns) {
      last_start_ns = ts_ns;
      at_last_start = 0;
    }
    at_last_start += ts_ns == last_start_ns;
  }
};

// The cap `tally` ends at (one of kXlaTraceViewerCaps), or 0.
uint64_t XlaEventCapReached(const CompleteEventTally& tally);

// On a trace-viewer JSON from XLA's converter whose events end at a cap:
// records it (see above). Call after the importer's Finish (which stores the
// top-level keys), before TraceBuilder::Finish.
void NoteXlaEventCap(const CompleteEventTally& tally, TraceBuilder* builder);

}  // namespace stepline::loaders
