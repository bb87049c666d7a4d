// TraceTest: a Trace built row by row for the Finalize() tests
// (trace_test.cpp, flow_binding_large_test.cpp).
#pragma once

#include <gtest/gtest.h>

#include <string_view>

#include "model/trace.h"

namespace stepline {
namespace {

class TraceTest : public ::testing::Test {
 protected:
  TrackId AddTrack(int64_t tid) {
    if (process_.is_none()) process_ = trace_.mutable_processes().Append({1, StringId::None(), 0, -1});
    TrackTable::Row row;
    row.process = process_;
    row.tid = tid;
    return trace_.mutable_tracks().Append(row);
  }
  SliceId Slice(TrackId track, TimeNs start, DurNs dur, const char* name) {
    SliceTable::Row row;
    row.track = track;
    row.start_ns = start;
    row.dur_ns = dur;
    row.name = trace_.mutable_strings().Intern(name);
    return trace_.mutable_slices().Append(row);
  }
  std::string_view NameAt(uint32_t row) const { return trace_.str(trace_.slices().name()[row]); }

  Trace trace_;
  ProcessId process_;
};

}  // namespace
}  // namespace stepline
