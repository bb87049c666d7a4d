// Trace::Finalize() binding millions of flows: past a quarter million it
// sorts pending flows and launch flows each on two threads, and merges the
// four halves with the launch links while writing the columns. Built at -O2
// (tests/CMakeLists.txt): its reference sort of 1.3 M flows took 6.5 s at
// -O0.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <tuple>
#include <vector>

#include "model/trace.h"
#include "tests/model/trace_test_fixture.h"

namespace stepline {
namespace {

// A suite of its own: this file builds at -O2, apart from trace_test.cpp.
class LargeFlowBindingTest : public TraceTest {};

TEST_F(LargeFlowBindingTest, MillionsOfFlowsBindAsOneSortedDeduplicatedList) {
  const TrackId host = AddTrack(1), gpu = AddTrack(2);
  constexpr uint32_t kSlices = 4000;
  std::vector<SliceId> launches, kernels;
  for (uint32_t i = 0; i < kSlices; ++i) {
    // Appended in reverse time order: Finalize renumbers every slice.
    launches.push_back(Slice(host, 10 * (kSlices - i), 5, "launch"));
    kernels.push_back(Slice(gpu, 10 * (kSlices - i) + 7, 2, "kernel"));
  }
  const StringId ac2g = trace_.mutable_strings().Intern("ac2g"), other = trace_.mutable_strings().Intern("fwdbwd");
  struct Key {
    uint32_t from_row, to_row;  // appended rows: launches at 2i, kernels at 2i + 1
    FlowKind kind;
    StringId name, category;
    uint64_t flow_id;
  };
  std::vector<Key> stated;
  std::mt19937_64 rng(7);
  FlowTable& flows = trace_.mutable_flows();
  for (int n = 0; n < 1'300'000; ++n) {
    const uint32_t a = static_cast<uint32_t>(rng() % kSlices), b = static_cast<uint32_t>(rng() % kSlices);
    FlowTable::Pending p;
    p.from = FlowEndpoint::OfSlice(launches[a]);
    p.to = FlowEndpoint::OfSlice(kernels[b]);
    p.kind = rng() % 3 == 0 ? FlowKind::kGeneric : FlowKind::kLaunch;
    p.name = rng() % 2 == 0 ? ac2g : StringId::None();
    p.category = rng() % 2 == 0 ? ac2g : other;
    p.flow_id = rng() % 5;  // many exact repeats
    if (p.kind == FlowKind::kLaunch && rng() % 2 == 0) {  // the same flow, stated as a launch flow
      flows.AddLaunchFlow({launches[a], kernels[b], p.name, p.category, p.flow_id});
    } else {
      flows.AddPending(p);
    }
    stated.push_back({2 * a, 2 * b + 1, p.kind, p.name, p.category, p.flow_id});
  }
  for (uint32_t i = 0; i < kSlices; i += 3) {  // launch links: no name, no category
    flows.AddLaunchLink(launches[i], kernels[i], i);
    stated.push_back({2 * i, 2 * i + 1, FlowKind::kLaunch, StringId::None(), StringId::None(), i});
  }
  trace_.Finalize();
  ASSERT_EQ(trace_.CheckInvariants(), "");

  // The expected list, from the appended rows renumbered by time order
  // (slices were appended newest first, launch before kernel).
  const auto row_after = [&](uint32_t row) {
    const uint32_t i = row / 2;
    return SliceId((row % 2 == 0 ? 0 : kSlices) + (kSlices - 1 - i));  // host track first, then gpu
  };
  for (Key& k : stated) {
    k.from_row = row_after(k.from_row).value;
    k.to_row = row_after(k.to_row).value;
  }
  std::sort(stated.begin(), stated.end(), [](const Key& a, const Key& b) {
    return std::tie(a.from_row, a.to_row, a.kind, b.name, a.flow_id, a.category) <
           std::tie(b.from_row, b.to_row, b.kind, a.name, b.flow_id, b.category);  // named first
  });
  std::vector<Key> expected;
  for (const Key& k : stated) {
    if (!expected.empty() && expected.back().from_row == k.from_row && expected.back().to_row == k.to_row &&
        expected.back().kind == k.kind) {
      continue;
    }
    expected.push_back(k);
  }
  const FlowTable& f = trace_.flows();
  ASSERT_EQ(f.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    ASSERT_EQ(f.from()[i].value, expected[i].from_row) << i;
    ASSERT_EQ(f.to()[i].value, expected[i].to_row) << i;
    ASSERT_EQ(f.kind()[i], expected[i].kind) << i;
    ASSERT_EQ(f.name()[i], expected[i].name) << i;
    ASSERT_EQ(f.category()[i], expected[i].category) << i;
    ASSERT_EQ(f.flow_id()[i], expected[i].flow_id) << i;
  }
}

}  // namespace
}  // namespace stepline
