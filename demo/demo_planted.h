// Planted traces: tiny Kineto-style runs built so that the answers of the
// step analyses are known exactly, for the tests and for trying the window's
// critical-path overlay and phase grouping on something small.
//
// PlantedCriticalPathTrace: four 1 ms steps (ProfilerStep#1..4) on one
// thread and one stream, each bound by something else; the critical path of
// each, by kind, is kPlantedPaths (derivations in demo_planted.cpp).
// PlantedServingTrace: a serving loop of one prefill, five decode and one
// mixed step, named as SGLang or vLLM name them.
#pragma once

#include <array>
#include <string_view>

#include "model/trace.h"

namespace stepline::demo {

// What one planted step's critical path holds, in microseconds.
struct PlantedPath {
  std::string_view bound;  // "input", "compute", "launch", "sync"
  int64_t host_us, launch_us, gpu_us, sync_us, idle_us;
  std::string_view top_host;  // the host name holding the most host time ("" none)
};
inline constexpr std::array<PlantedPath, 4> kPlantedPaths = {{
    {"input", 795, 10, 190, 5, 0, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"},
    {"compute", 5, 10, 980, 5, 0, "optimizer.step"},
    {"launch", 10, 980, 5, 5, 0, "zero_grad"},
    {"sync", 200, 100, 100, 600, 0, "loss.item"},
}};
Trace PlantedCriticalPathTrace();

// PlantedStreamWaitTrace: two 1 ms steps on one thread and two streams (7, 8)
// with Kineto's cuda_sync rows. Step 1: `consumer` on stream 8 waits for an
// event recorded on stream 7 after `producer` (cudaStreamWaitEvent), and a
// cudaStreamSynchronize names stream 8 while `side` on stream 7 ends later.
// Step 2: cudaEventSynchronize waits for an event recorded after `producer`
// while `other` on stream 8 ends later. The paths go through the waited ops
// (kPlantedWaitPaths); ignoring the waits would give other answers.
inline constexpr std::array<PlantedPath, 2> kPlantedWaitPaths = {{
    {"cross-stream", 95, 10, 890, 5, 0, "optimizer.step"},
    {"event-sync", 595, 10, 390, 5, 0, "postprocess"},
}};
Trace PlantedStreamWaitTrace();

enum class PlantedEngine { kSglang, kVllm };
// Steps (start, duration): prefill [0, 10 ms) 2048 tokens, batch 4; five
// decode steps of `decode_step_us` (2 ms) from 10 ms, 4 tokens each, batch 4;
// then mixed, 4 ms, 512 tokens, batch 6 (vLLM: 2 in prefill, 4 in decode).
// Each step runs one kernel over its first half, so half of each step is
// idle. Two of them with different decode steps are a compare with known
// per-phase answers (decode tokens/s = 4 / decode_step_us).
Trace PlantedServingTrace(PlantedEngine engine, int64_t decode_step_us = 2'000);

}  // namespace stepline::demo
