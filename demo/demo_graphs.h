// PlantedGraphTrace: a tiny Kineto-style run with CUDA graph replays whose
// node gaps are known exactly, for the graph-replay analysis and its views.
//
// Two 1 ms steps (ProfilerStep#1, #2) on one thread and one stream. Graph A
// (nodes k1, k2, k3) is replayed once in each step; graph B (gemm, a memset,
// relu) once in step 2. Each replay is one cudaGraphLaunch inside a
// `CUDAGraph::replay` op. Times in microseconds (derivations in demo_graphs.cpp):
//   replay A1: launch [5, 25), nodes [30, 130) [150, 250) [300, 400)
//   replay A2: launch [1000, 1020), nodes [1020, 1120) [1140, 1240) [1290, 1390)
//   replay B:  launch [1400, 1410), nodes [1410, 1500) memset [1505, 1510) [1530, 1560)
// The gaps of the GPU-active span [30, 1560) and their causes are kPlantedGraphGaps.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "model/trace.h"

namespace stepline::demo {

struct PlantedGraphGap {
  int64_t start_us, end_us;
  std::string_view cause;  // IdleCauseName
};
inline constexpr std::array<PlantedGraphGap, 8> kPlantedGraphGaps = {{
    {130, 150, "graph"},
    {250, 300, "graph"},
    {400, 510, "host_compute"},  // optimizer.step before a plain launch
    {600, 1020, "input"},        // the data loader before replay A2
    {1120, 1140, "graph"},
    {1240, 1290, "graph"},
    {1390, 1410, "launch"},  // before replay B's first node: its launch call
    {1500, 1530, "graph"},   // B's memset runs inside it, no kernel
}};
inline constexpr int64_t kPlantedGraphIdleUs = 170;  // the gaps whose cause is graph

// record_ids: the kernels carry `graph id` / `graph node id` args as newer
// Kineto writes them (A = 3 with nodes 11, 12, 13; B = 5 with 21, 22, 23);
// without them the analysis derives A = 1 and B = 2.
Trace PlantedGraphTrace(bool record_ids = false);

}  // namespace stepline::demo
