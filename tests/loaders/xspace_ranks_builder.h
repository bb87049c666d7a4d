// Synthetic multi-host XLA runs for the ranks analysis: one
// XSpace per host, written with libprotobuf (tests/loaders/xspace_test_builder.h),
// TPU style (XLA Modules give the steps, XLA Ops the device activity), with
// one input-bound host whose late arrival at each step's all-reduce the
// others wait for. The truth is computed here from the plan, not measured.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "tests/loaders/xspace_test_builder.h"

namespace stepline::testing {

struct XlaRunPlan {
  int hosts = 4;
  int steps = 5;
  int straggler = 2;         // the input-bound host
  int64_t skew_ns = 0;       // host h's clock reads h * skew_ns ahead
  int64_t step_ns = 10'000'000;
  std::string host_prefix = "host-";  // host h is named host_prefix + h
};

inline constexpr int64_t kXlaRunBaseNs = 1'000'000'000;
inline constexpr int64_t kXlaUs = 1000;

// Per host, true clock, relative to a step's start.
inline int64_t XlaInputNs(const XlaRunPlan& p, int h) { return h == p.straggler ? 3000 * kXlaUs : 200 * kXlaUs; }
inline int64_t XlaArrivalNs(const XlaRunPlan& p, int h) { return XlaInputNs(p, h) + 4000 * kXlaUs + h * 10 * kXlaUs; }
inline int64_t XlaLastArrivalNs(const XlaRunPlan& p) {
  int64_t last = 0;
  for (int h = 0; h < p.hosts; ++h) last = std::max(last, XlaArrivalNs(p, h));
  return last;
}
// The all-reduce's wait on host h (last arrival - its arrival) and its
// lateness (its arrival - the median arrival); the step's all-gather has
// every host arrive together.
inline int64_t XlaWaitNs(const XlaRunPlan& p, int h) { return XlaLastArrivalNs(p) - XlaArrivalNs(p, h); }
inline int64_t XlaLateAtAllReduceNs(const XlaRunPlan& p, int h) {
  std::vector<int64_t> a;
  for (int i = 0; i < p.hosts; ++i) a.push_back(XlaArrivalNs(p, i));
  std::sort(a.begin(), a.end());
  const size_t n = a.size();
  const int64_t median = n % 2 ? a[n / 2] : (a[n / 2 - 1] + a[n / 2]) / 2;
  return XlaArrivalNs(p, h) - median;
}

// Host h's XSpace: a host plane whose main thread waits in IteratorGetNext
// at each step's start, and one TPU core that computes (fusion.1), runs an
// async all-reduce (all-reduce-start.3 / all-reduce-done.3, ending 500 us
// after the last host's start), computes (fusion.2) and runs a synchronous
// all-gather written as HLO text.
inline std::string XlaRunHost(const XlaRunPlan& p, int h) {
  xs::XSpace space;
  space.add_hostnames(p.host_prefix + std::to_string(h));
  const int64_t t0 = kXlaRunBaseNs + h * p.skew_ns;
  PlaneBuilder host(&space, 1, "/host:CPU");
  xs::XLine* thread = host.Line(1, "python3", t0);
  const int64_t input_md = host.EventMd("IteratorGetNext");
  PlaneBuilder tpu(&space, 2, "/device:TPU:0");
  xs::XLine* modules = tpu.Line(1, "XLA Modules", t0);
  xs::XLine* ops = tpu.Line(2, "XLA Ops", t0);
  const int64_t category = tpu.StatMd("hlo_category");
  const int64_t module_md = tpu.EventMd("jit_train_step(7)");
  auto op = [&](const std::string& name, const std::string& cat, int64_t start_ns, int64_t dur_ns) {
    xs::XEvent* e = PlaneBuilder::Event(ops, tpu.EventMd(name), start_ns * 1000, dur_ns * 1000);
    if (!cat.empty()) PlaneBuilder::Stat(e->mutable_stats(), category)->set_str_value(cat);
  };
  for (int s = 0; s < p.steps; ++s) {
    const int64_t t = s * p.step_ns;  // offsets from the lines' timestamp
    PlaneBuilder::Event(thread, input_md, t * 1000, XlaInputNs(p, h) * 1000);
    PlaneBuilder::Event(modules, module_md, t * 1000, (p.step_ns - 100 * kXlaUs) * 1000);
    const int64_t arrival = t + XlaArrivalNs(p, h), compute_start = t + XlaInputNs(p, h);
    op("fusion.1", "loop fusion", compute_start, arrival - compute_start);
    op("all-reduce-start.3", "all-reduce", arrival, 10 * kXlaUs);
    const int64_t done = t + XlaLastArrivalNs(p) + 500 * kXlaUs;
    op("all-reduce-done.3", "all-reduce", arrival + 10 * kXlaUs, done - arrival - 10 * kXlaUs);
    op("fusion.2", "", done, 1000 * kXlaUs);
    op("%all-gather.5 = f32[8]{0} all-gather(f32[2]{0} %p), dimensions={0}", "", done + 1000 * kXlaUs,
       300 * kXlaUs);
  }
  return Serialize(space);
}

}  // namespace stepline::testing
