// Trace::Finalize() binding millions of flows: past a quarter million it
// sorts pending flows and launch flows each on two threads, and merges the
// four halves with the launch links into the columns as two halves split at
// a key, on two threads. Built at -O2
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

// The merge splits at the middle row's (from, to, kind): every row with
// that key must land on one side, or both sides would keep one. Here a few
// keys carry a quarter million rows each, so the middle row's key has
// duplicates on both sides of it in every run.
TEST_F(LargeFlowBindingTest, RowsOfTheSplitKeyAreKeptOnceWithTheFirstRowsAttributes) {
  const TrackId host = AddTrack(1), gpu = AddTrack(2);
  constexpr uint32_t kPairs = 3;
  std::vector<SliceId> launches, kernels;
  for (uint32_t i = 0; i < kPairs; ++i) {
    launches.push_back(Slice(host, 100 * i, 5, "launch"));
    kernels.push_back(Slice(gpu, 100 * i + 7, 2, "kernel"));
  }
  const StringId ac2g = trace_.mutable_strings().Intern("ac2g"), other = trace_.mutable_strings().Intern("fwdbwd");
  // The row that must survive per (pair, kind): FlowLess's least, i.e. the
  // named flow first (no name is id 0), then the lowest id, then category.
  struct Best {
    bool seen = false;
    StringId name, category;
    uint64_t flow_id = 0;
  };
  Best best[kPairs][2];
  auto note = [&](uint32_t pair, FlowKind kind, StringId name, StringId category, uint64_t flow_id) {
    Best& b = best[pair][kind == FlowKind::kLaunch ? 1 : 0];
    const auto key = std::make_tuple(UINT32_MAX - name.value, flow_id, category.value);  // higher names first
    const auto old = std::make_tuple(UINT32_MAX - b.name.value, b.flow_id, b.category.value);
    if (!b.seen || key < old) b = {true, name, category, flow_id};
  };
  std::mt19937_64 rng(11);
  FlowTable& flows = trace_.mutable_flows();
  for (int n = 0; n < 900'000; ++n) {
    const auto pair = static_cast<uint32_t>(rng() % kPairs);
    const FlowKind kind = rng() % 4 == 0 ? FlowKind::kGeneric : FlowKind::kLaunch;
    const StringId name = rng() % 1000 == 0 ? ac2g : StringId::None();
    const StringId category = rng() % 2 == 0 ? ac2g : other;
    const uint64_t flow_id = 1000 + rng() % 100'000;
    if (kind == FlowKind::kLaunch && rng() % 2 == 0) {
      flows.AddLaunchFlow({launches[pair], kernels[pair], name, category, flow_id});
    } else {
      FlowTable::Pending p;
      p.from = FlowEndpoint::OfSlice(launches[pair]);
      p.to = FlowEndpoint::OfSlice(kernels[pair]);
      p.kind = kind;
      p.name = name;
      p.category = category;
      p.flow_id = flow_id;
      flows.AddPending(p);
    }
    note(pair, kind, name, category, flow_id);
  }
  trace_.Finalize();
  ASSERT_EQ(trace_.CheckInvariants(), "");

  // Rows are renumbered by track then time: launches 0..2, kernels 3..5.
  const FlowTable& f = trace_.flows();
  size_t row = 0;
  for (uint32_t pair = 0; pair < kPairs; ++pair) {
    for (int k = 0; k < 2; ++k) {
      const Best& b = best[pair][k];
      if (!b.seen) continue;
      ASSERT_LT(row, f.size());
      EXPECT_EQ(f.from()[row].value, pair) << row;
      EXPECT_EQ(f.to()[row].value, kPairs + pair) << row;
      EXPECT_EQ(f.kind()[row], k == 1 ? FlowKind::kLaunch : FlowKind::kGeneric) << row;
      EXPECT_EQ(f.name()[row], b.name) << row;
      EXPECT_EQ(f.category()[row], b.category) << row;
      EXPECT_EQ(f.flow_id()[row], b.flow_id) << row;
      ++row;
    }
  }
  EXPECT_EQ(f.size(), row);
}

}  // namespace
}  // namespace stepline
