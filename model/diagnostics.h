// Diagnostics: recoverable problems met while loading. Loading goes on; the
// trace keeps a count per code, the first byte offset, and the details of the
// first few occurrences. Fatal problems are a LoadError instead (loaders/).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace stepline {

enum class Severity : uint8_t { kInfo, kWarning, kDataLoss, kError };

// Closed list; keep DiagCodeInfo() in diagnostics.cpp in step.
enum class DiagCode : uint8_t {
  kUnmatchedEnd = 0,    // E (or async e) with no open B on its track
  kUnmatchedBegin,      // B (or async b) still open at the end of the trace
  kNegativeDuration,    // dur < 0 (clamped to 0)
  kUnknownPhase,        // "ph" we do not know; event skipped
  kDuplicateMetadata,   // a second M event renaming the same process/thread differently
  kInvalidUtf8,         // a string with invalid UTF-8 (kept with U+FFFD replacements)
  kTruncated,           // input ended early; events after the cut were dropped
  kMissingField,        // an event without a required field ("ph", "ts"); event skipped
  kBadFieldType,        // a field of the wrong JSON type; event skipped or field ignored
  kUnboundFlow,         // a flow end that found no slice to attach to; flow dropped
  kUnmatchedFlow,       // a flow start without end, or end without start
  kOverlappingSlices,   // a slice that partially overlaps its would-be parent on one track
  kDepthLimit,          // nesting deeper than the depth column can hold
  kUnsupportedFeature,  // input we recognise but do not model (e.g. aggregated XEvents)
  kProducerWarning,     // a warning or error the profiler itself recorded in the file
  kOutOfRange,          // a number outside what the model stores (e.g. ts beyond int64 ns)
  kLimitReached,        // a safety limit (docs/formats.md, "Limits") was reached; the excess was replaced or dropped
  kOverlappingDeviceWork,  // GPU work overlapping on one stream (programmatic dependent launch); both kept whole
  kSnapshotApart,          // a memory snapshot opened with the trace records no time the trace covers
};
inline constexpr int kDiagCodeCount = 19;

struct DiagCodeInfo {
  std::string_view name;  // stable snake_case name, e.g. "unmatched_end"
  Severity severity;
  std::string_view description;
};
const DiagCodeInfo& GetDiagCodeInfo(DiagCode code);
std::string_view SeverityName(Severity s);

class Diagnostics {
 public:
  static constexpr size_t kMaxDetailsPerCode = 8;
  static constexpr uint64_t kNoOffset = UINT64_MAX;

  struct Instance {
    uint64_t byte_offset = kNoOffset;  // offset in the decompressed input
    std::string detail;
  };
  struct Entry {
    DiagCode code{};
    uint64_t count = 0;
    uint64_t first_offset = kNoOffset;
    std::vector<Instance> instances;  // the first kMaxDetailsPerCode
  };

  void Record(DiagCode code, uint64_t byte_offset, std::string_view detail);
  void Add(DiagCode code, uint64_t count, uint64_t first_offset, std::string_view detail);  // bulk count
  void Merge(const Diagnostics& other);

  uint64_t count(DiagCode code) const { return entries_[static_cast<size_t>(code)].count; }
  const Entry& entry(DiagCode code) const { return entries_[static_cast<size_t>(code)]; }
  std::vector<const Entry*> NonEmpty() const;  // in code order
  uint64_t total() const;
  bool empty() const { return total() == 0; }
  // Some of the input did not make it into the model (severity kDataLoss):
  // results describe only what was loaded, and the UI and reports say so.
  bool has_data_loss() const;

  // For the column cache (loaders/column_cache): every entry, in code order
  // (`self` is const when writing, non-const when reading).
  template <typename Self, typename Visitor>
  static void VisitStorage(Self& self, Visitor& v) {
    for (auto& e : self.entries_) {
      v.Scalar("diagnostics.code", e.code);
      v.Scalar("diagnostics.count", e.count);
      v.Scalar("diagnostics.first_offset", e.first_offset);
      uint64_t n = e.instances.size();
      v.Scalar("diagnostics.instances", n);
      if constexpr (!std::is_const_v<Self>) {
        if (!v.ok() || n > kMaxDetailsPerCode) return v.Fail("diagnostics: too many instances");
        e.instances.resize(n);
      }
      for (auto& instance : e.instances) {
        v.Scalar("diagnostics.byte_offset", instance.byte_offset);
        v.Text("diagnostics.detail", instance.detail);
      }
    }
  }

 private:
  std::array<Entry, kDiagCodeCount> entries_{};
};

}  // namespace stepline
