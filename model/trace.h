// Trace: owns one loaded profile, every table and the string pool.
//
// Two phases. Building: a loader (through loaders/trace_builder) appends rows
// and may fix them up. Trace::Finalize() then sorts slices by (track, start,
// longer first), computes depth and parent, binds pending flows, sorts
// instants and counters, fills each track's row ranges, and checks the
// invariants. After that the trace is immutable: hand it out as
// `std::shared_ptr<const Trace>` and read it from any thread without locks.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "model/arg_table.h"
#include "model/diagnostics.h"
#include "model/event_tables.h"
#include "model/slice_table.h"
#include "model/string_pool.h"
#include "model/time.h"
#include "model/track_table.h"

namespace stepline {

// Facts about the file rather than its events.
struct TraceInfo {
  std::string format;              // "chrome-json", "xplane", "demo", ...
  std::string source_path;         // as given to the loader; empty for in-memory input
  uint64_t input_bytes = 0;        // decompressed bytes parsed
  uint64_t file_bytes = 0;         // bytes on disk (compressed size when compressed)
  std::string compression;         // "", "gzip", "zstd"
  bool compressed_cut = false;     // the compressed stream ended early or broke (a kTruncated diagnostic says so)
  uint64_t compressed_cut_at = 0;  // compressed byte offset where decoding stopped, when compressed_cut
  TimeNs display_origin_ns = 0;    // subtract for display (first event, or profile start)
  // A converter kept this many events and dropped the later ones (XLA's trace
  // viewer cap, loaders/chrome_json/xla_event_cap.h; a kTruncated diagnostic
  // says so); 0 = no cap reached. Events starting after recorded_until_ns
  // (model time) are missing on every row.
  uint64_t event_cap = 0;
  TimeNs recorded_until_ns = 0;
  TimeNs wall_clock_origin_ns = 0; // ns since the Unix epoch of model time 0, when known; else 0
  ArgSetId metadata;               // trace-level key/values (deviceProperties, schemaVersion, ...)
};

class Trace {
 public:
  Trace() = default;
  Trace(Trace&&) noexcept = default;
  Trace& operator=(Trace&&) noexcept = default;
  Trace(const Trace&) = delete;
  Trace& operator=(const Trace&) = delete;

  const StringPool& strings() const { return strings_; }
  const ProcessTable& processes() const { return processes_; }
  const TrackTable& tracks() const { return tracks_; }
  const SliceTable& slices() const { return slices_; }
  const InstantTable& instants() const { return instants_; }
  const CounterTable& counters() const { return counters_; }
  const FlowTable& flows() const { return flows_; }
  const ArgTable& args() const { return args_; }
  const Diagnostics& diagnostics() const { return diagnostics_; }
  const TraceInfo& info() const { return info_; }

  // Building phase only (asserts !finalized(), except diagnostics and info
  // which loaders may still annotate after Finalize()).
  StringPool& mutable_strings();
  ProcessTable& mutable_processes();
  TrackTable& mutable_tracks();
  SliceTable& mutable_slices();
  InstantTable& mutable_instants();
  CounterTable& mutable_counters();
  FlowTable& mutable_flows();
  ArgTable& mutable_args();
  Diagnostics& mutable_diagnostics() { return diagnostics_; }
  TraceInfo& mutable_info() { return info_; }

  void Finalize();
  bool finalized() const { return finalized_; }

  // Convenience readers (valid after Finalize()).
  std::string_view str(StringId id) const { return strings_.Get(id); }
  TimeRange span() const { return span_; }  // min start .. max end over slices, instants, counters
  // Sorted slice rows of one track: [ranges.slice_begin, ranges.slice_end).
  std::span<const TimeNs> TrackSliceStarts(TrackId track) const;
  // Deepest slice on `track` with start <= ts < end (or start == ts); None if none.
  SliceId FindEnclosingSlice(TrackId track, TimeNs ts) const;
  // Verifies every documented invariant; returns a description of the first
  // violation, or an empty string.
  std::string CheckInvariants() const;
  size_t MemoryBytes() const;      // resident estimate of every table + strings
  size_t ArgsMemoryBytes() const;  // the part of MemoryBytes() held by the args table

  // For the column cache (loaders/column_cache): visits everything the trace
  // holds, table by table, in a fixed order (`self` is const when writing;
  // non-const when reading, with borrowed columns). The memory those columns
  // view is kept alive by `backing`, which the trace holds until destroyed.
  template <typename Self, typename Visitor>
  static void VisitStorage(Self& self, Visitor& v);
  void set_backing(std::shared_ptr<const void> backing) { backing_ = std::move(backing); }
  bool has_backing() const { return backing_ != nullptr; }  // columns borrowed from a cache file

 private:
  // new_index_of_old: the row each pre-Finalize slice moved to; left empty
  // when no slice moved (the identity).
  void SortSlices(std::vector<uint32_t>* new_index_of_old);
  void SetSliceRanges(const std::vector<uint32_t>& track_begin);
  void ReportCategoryOverflow();
  void ComputeDepthAndParents();
  void SortInstantsAndCounters();
  void BindFlows(const std::vector<uint32_t>& new_index_of_old);
  void ComputeSpan();

  // Declared first so that it is destroyed after the columns that view it.
  std::shared_ptr<const void> backing_;
  StringPool strings_;
  ProcessTable processes_;
  TrackTable tracks_;
  SliceTable slices_;
  InstantTable instants_;
  CounterTable counters_;
  FlowTable flows_;
  ArgTable args_;
  Diagnostics diagnostics_;
  TraceInfo info_;
  TimeRange span_;
  bool finalized_ = false;
};

template <typename Self, typename Visitor>
void Trace::VisitStorage(Self& self, Visitor& v) {
  self.strings_.VisitStorage(v);
  ProcessTable::VisitStorage(self.processes_, v);
  TrackTable::VisitStorage(self.tracks_, v);
  SliceTable::VisitStorage(self.slices_, v);
  InstantTable::VisitStorage(self.instants_, v);
  CounterTable::VisitStorage(self.counters_, v);
  FlowTable::VisitStorage(self.flows_, v);
  ArgTable::VisitStorage(self.args_, v);
  Diagnostics::VisitStorage(self.diagnostics_, v);
  auto& info = self.info_;
  v.Text("info.format", info.format);
  v.Text("info.source_path", info.source_path);
  v.Scalar("info.input_bytes", info.input_bytes);
  v.Scalar("info.file_bytes", info.file_bytes);
  v.Text("info.compression", info.compression);
  v.Scalar("info.compressed_cut", info.compressed_cut);
  v.Scalar("info.compressed_cut_at", info.compressed_cut_at);
  v.Scalar("info.display_origin_ns", info.display_origin_ns);
  v.Scalar("info.event_cap", info.event_cap);
  v.Scalar("info.recorded_until_ns", info.recorded_until_ns);
  v.Scalar("info.wall_clock_origin_ns", info.wall_clock_origin_ns);
  v.Scalar("info.metadata", info.metadata);
  v.Scalar("trace.span", self.span_);
  v.Scalar("trace.finalized", self.finalized_);
}

}  // namespace stepline
