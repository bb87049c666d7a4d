// RocprofImporter: one "rocprofiler-sdk-tool" entry (one profiled process)
// of a parsed rocprofv3 JSON document into a TraceBuilder. Records reference
// agents by handle, kernels by kernel_id and API names by (kind, operation)
// through the entry's own tables, which are indexed first.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "loaders/annotation_steps.h"
#include "loaders/load.h"
#include "loaders/trace_builder.h"

namespace stepline::loaders::rocprof {

inline constexpr int64_t kDevicePidBase = int64_t{1} << 40;

class RocprofImporter {
 public:
  RocprofImporter(TraceBuilder* builder, const LoadOptions& options, uint32_t entry_index);

  // Reads metadata, agents, strings and kernel symbols, then every buffer
  // record kind Stepline models. Problems become diagnostics.
  void Import(simdjson::dom::object entry);
  std::vector<AnnotationRange>& marker_ranges() { return marker_ranges_; }

 private:
  struct Agent {
    int type = 0;         // 1 CPU, 2 GPU
    int32_t device = -1;  // GPU ordinal
    std::string name;
  };
  void ReadAgents(simdjson::dom::array agents);
  void ReadStrings(simdjson::dom::object strings);
  void ReadKernelSymbols(simdjson::dom::element symbols);
  void ReadDispatches(simdjson::dom::array records);
  void ReadCopies(simdjson::dom::array records);
  void ReadApiCalls(simdjson::dom::array records, std::string_view category, bool is_launch_api);
  void ReadMarkers(simdjson::dom::array records);

  StringId OperationName(int64_t kind, int64_t operation);
  TrackId HostTrack(int64_t tid);
  TrackId DeviceTrack(const Agent& agent, int64_t queue, bool copies);
  const Agent* FindAgent(uint64_t handle) const;
  uint64_t CorrelationKey(uint64_t internal) const {
    return (uint64_t{entry_index_} << 40) | (internal & 0xFFFFFFFFFFull);
  }
  bool Times(simdjson::dom::object record, std::string_view table, SliceTable::Row* slice);

  TraceBuilder& builder_;
  const LoadOptions options_;
  uint32_t entry_index_;
  int64_t pid_ = 0;
  std::unordered_map<uint64_t, Agent> agents_;              // by handle
  std::vector<std::vector<StringId>> operations_;           // [kind][operation] -> name
  std::unordered_map<uint64_t, StringId> kernel_names_;     // kernel_id -> name
  std::unordered_map<uint64_t, StringId> marker_messages_;  // correlation internal -> roctx text
  std::unordered_map<uint64_t, TrackId> device_tracks_;
  std::vector<AnnotationRange> marker_ranges_;
};

}  // namespace stepline::loaders::rocprof
