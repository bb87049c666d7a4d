// analysis_time FILE [REPEAT]: loads FILE once (args kept) and prints, as one
// JSON line, the median wall time of ComputeReport over REPEAT runs (default
// 3): the figure `stepline bench` reports as analysis_ms, measured the same
// way; and the median CPU time of the thread running it (analysis_cpu_ms),
// which a busy machine disturbs less. It links only the model, loader and analysis libraries, so it builds
// at an older commit in a fraction of the time the whole viewer takes: the
// way to compare the analysis cost of two commits on one machine
// (docs/performance.md, "Analysis cost").
#include <algorithm>
#include <time.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "loaders/load.h"
#include "model/analysis/report.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: analysis_time FILE [REPEAT]\n");
    return 2;
  }
  const int repeat = argc > 2 ? std::max(1, std::atoi(argv[2])) : 3;
  auto loaded = stepline::loaders::LoadFile(argv[1]);
  if (!loaded.ok()) {
    std::fprintf(stderr, "analysis_time: %s: cannot load\n", argv[1]);
    return 1;
  }
  auto thread_cpu_ms = [] {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
  };
  std::vector<double> ms, cpu;
  for (int i = 0; i < repeat; ++i) {
    const auto start = std::chrono::steady_clock::now();
    const double cpu_start = thread_cpu_ms();
    const stepline::analysis::Report report = stepline::analysis::ComputeReport(*loaded);
    cpu.push_back(thread_cpu_ms() - cpu_start);
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  std::string runs;
  for (double v : ms) runs += (runs.empty() ? "" : ", ") + std::to_string(v);
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  };
  std::printf("{\"analysis_ms\": %.3f, \"analysis_cpu_ms\": %.3f, \"runs_ms\": [%s], \"slices\": %zu}\n",
              median(ms), median(cpu), runs.c_str(), loaded->slices().size());
  return 0;
}
