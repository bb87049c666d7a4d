// XLA's trace viewer event cap (see xla_event_cap.h).
#include "loaders/chrome_json/xla_event_cap.h"

#include <string>

namespace stepline::loaders {
namespace {

std::string Grouped(uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

// The top-level keys XLA's converter writes: "displayTimeUnit": "ns" and a
// "metadata" object saying "highres-ticks".
bool HasConverterKeys(const Trace& trace) {
  const ArgSetId set = trace.info().metadata;
  const StringPool& strings = trace.strings();
  const StringId unit_key = strings.Find("displayTimeUnit"), metadata_key = strings.Find("metadata");
  if (set.is_none() || unit_key.is_none() || metadata_key.is_none()) return false;
  ArgValue unit, metadata;
  if (!trace.args().Find(set, unit_key, &unit) || !trace.args().Find(set, metadata_key, &metadata)) return false;
  if (unit.type != ArgType::kString || strings.Get(unit.as_string()) != "ns") return false;
  return metadata.type == ArgType::kJson && strings.Get(metadata.as_string()).find("highres-ticks") != std::string::npos;
}

}  // namespace

uint64_t XlaEventCapReached(const CompleteEventTally& tally) {
  if (tally.other != 0 || tally.complete == 0) return 0;
  for (uint64_t cap : kXlaTraceViewerCaps) {
    // Exactly the cap (the current converter), or more by ties at the last
    // kept start (the older one): the events before that start are fewer
    // than the cap either way. An uncapped file would need its events to
    // end on exactly the cap's count.
    if (tally.complete >= cap && tally.complete - tally.at_last_start < cap) return cap;
  }
  return 0;
}

void NoteXlaEventCap(const CompleteEventTally& tally, TraceBuilder* builder) {
  const uint64_t cap = XlaEventCapReached(tally);
  if (cap == 0 || !HasConverterKeys(builder->trace())) return;
  TraceInfo& info = builder->trace().mutable_info();
  info.event_cap = cap;
  info.recorded_until_ns = tally.last_start_ns;
  builder->diag().Record(DiagCode::kTruncated, Diagnostics::kNoOffset,
                         "XLA's trace viewer stopped at " + Grouped(cap) +
                             " events (TF_PROFILER_TRACE_VIEWER_MAX_EVENTS): when the XSpace was converted to this "
                             "JSON, every event starting after the last one here was dropped, on every row");
}

}  // namespace stepline::loaders
