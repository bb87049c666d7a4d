// Diagnostics: the code table and the bounded per-code record.
#include "model/diagnostics.h"

#include <algorithm>

namespace stepline {
namespace {

constexpr DiagCodeInfo kInfos[kDiagCodeCount] = {
    {"unmatched_end", Severity::kWarning, "an end event with no open begin on its track; ignored"},
    {"unmatched_begin", Severity::kWarning, "a begin event never ended; closed at the track's last timestamp"},
    {"negative_duration", Severity::kWarning, "a negative duration; clamped to 0"},
    {"unknown_phase", Severity::kWarning, "an event phase Stepline does not know; event skipped"},
    {"duplicate_metadata", Severity::kInfo, "a process or thread renamed by a second metadata event; last name kept"},
    {"invalid_utf8", Severity::kWarning, "a string with invalid UTF-8; bad bytes replaced by U+FFFD"},
    {"truncated", Severity::kDataLoss, "the input ends early; events after the cut were dropped"},
    {"missing_field", Severity::kError, "an event without a required field; event skipped"},
    {"bad_field_type", Severity::kError, "a field of the wrong type; event skipped"},
    {"unbound_flow", Severity::kWarning, "a flow end with no slice to attach to; flow dropped"},
    {"unmatched_flow", Severity::kWarning, "a flow start without an end, or an end without a start"},
    {"overlapping_slices", Severity::kWarning, "a slice partially overlaps the slice enclosing its start"},
    {"depth_limit", Severity::kDataLoss, "nesting deeper than 65535 levels; deeper slices share the last level"},
    {"unsupported_feature", Severity::kInfo, "input Stepline recognises but does not model; skipped"},
    {"producer_warning", Severity::kWarning, "a warning or error recorded in the file by the profiler"},
    {"out_of_range", Severity::kError, "a number outside what the model stores; event skipped"},
    {"limit_reached", Severity::kDataLoss, "a safety limit on memory was reached; the excess was replaced or dropped"},
    {"overlapping_device_work", Severity::kInfo,
     "GPU work that overlaps on one stream (programmatic dependent launch); each kept whole, in its own lane"},
    {"memory_snapshot_apart", Severity::kWarning,
     "a memory snapshot opened with the trace records nothing in the trace's time; are they of one run?"},
};

}  // namespace

const DiagCodeInfo& GetDiagCodeInfo(DiagCode code) { return kInfos[static_cast<size_t>(code)]; }

std::string_view SeverityName(Severity s) {
  switch (s) {
    case Severity::kInfo: return "info";
    case Severity::kWarning: return "warning";
    case Severity::kDataLoss: return "data_loss";
    case Severity::kError: return "error";
  }
  return "?";
}

void Diagnostics::Record(DiagCode code, uint64_t byte_offset, std::string_view detail) {
  Entry& e = entries_[static_cast<size_t>(code)];
  e.code = code;
  if (e.count == 0 || (byte_offset != kNoOffset && (e.first_offset == kNoOffset || byte_offset < e.first_offset))) {
    e.first_offset = byte_offset;
  }
  ++e.count;
  if (e.instances.size() < kMaxDetailsPerCode) e.instances.push_back({byte_offset, std::string(detail)});
}

void Diagnostics::Add(DiagCode code, uint64_t count, uint64_t first_offset, std::string_view detail) {
  if (count == 0) return;
  Record(code, first_offset, detail);
  entries_[static_cast<size_t>(code)].count += count - 1;
}

void Diagnostics::Merge(const Diagnostics& other) {
  for (const Entry& o : other.entries_) {
    if (o.count == 0) continue;
    Entry& e = entries_[static_cast<size_t>(o.code)];
    e.code = o.code;
    if (e.count == 0 || o.first_offset < e.first_offset) e.first_offset = o.first_offset;
    e.count += o.count;
    for (const Instance& inst : o.instances) {
      if (e.instances.size() >= kMaxDetailsPerCode) break;
      e.instances.push_back(inst);
    }
  }
}

std::vector<const Diagnostics::Entry*> Diagnostics::NonEmpty() const {
  std::vector<const Entry*> out;
  for (const Entry& e : entries_) {
    if (e.count > 0) out.push_back(&e);
  }
  return out;
}

uint64_t Diagnostics::total() const {
  uint64_t n = 0;
  for (const Entry& e : entries_) n += e.count;
  return n;
}

bool Diagnostics::has_data_loss() const {
  return std::any_of(entries_.begin(), entries_.end(), [](const Entry& e) {
    return e.count > 0 && GetDiagCodeInfo(e.code).severity == Severity::kDataLoss;
  });
}

}  // namespace stepline
