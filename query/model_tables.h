// The model's tables as TableSources, with the export's names and columns
// (export/sqlite_export.cpp): slice, track, instant, flow, counter, arg. Each
// reads the trace's columns in place; the trace must outlive them.
#pragma once

#include <memory>

#include "model/trace.h"
#include "query/table_source.h"

namespace stepline::query {

// slice(id, ts, dur, track_id, name, category, depth, parent_id, gpu_kind).
// Plans: id ranges; track_id ranges, and ts ranges within each track
// (binary search: a track's rows are sorted by ts); ORDER BY id or
// (track_id, ts) ascending needs no sort.
std::unique_ptr<TableSource> MakeSliceSource(const Trace& trace);
std::unique_ptr<TableSource> MakeTrackSource(const Trace& trace);
std::unique_ptr<TableSource> MakeInstantSource(const Trace& trace);
std::unique_ptr<TableSource> MakeFlowSource(const Trace& trace);
std::unique_ptr<TableSource> MakeCounterSource(const Trace& trace);
std::unique_ptr<TableSource> MakeArgSource(const Trace& trace);

}  // namespace stepline::query
