// The process that holds a PyTorch memory snapshot's rows
// (loaders/torch_snapshot). When a trace holds one next to processes of its
// own (a snapshot opened with the trace of the same run), BuildMemoryTable
// reads the memory events of that process only: the trace's own describe
// the same allocations in less detail.
#pragma once

#include <string_view>

namespace stepline {

inline constexpr std::string_view kMemorySnapshotProcessName = "PyTorch memory snapshot";

}  // namespace stepline
