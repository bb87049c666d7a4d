// Trace::BindFlows (see trace.h): the last step of Finalize() for flows.
// Pending flows get their endpoints resolved (a slice, the slice enclosing a
// time, the next slice on a track), launch flows and launch links are
// renumbered; the five sorted runs are merged into the flow columns, each
// (from, to, kind) kept once.
#include <algorithm>
#include <thread>
#include <vector>

#include "model/trace.h"

namespace stepline {

namespace {

// Flows as BindFlows orders them: every kind of row becomes one of these.
struct BoundFlow {
  SliceId from, to;
  FlowKind kind;
  StringId name, category;
  uint64_t flow_id;
};

// One order for all rows: (from, to, kind), then the named flow (ac2g)
// first among duplicates, so that dropping duplicates keeps the named one.
// Total (the category decides last), so which duplicate is kept does not
// depend on how the sorts were split.
bool FlowLess(const BoundFlow& a, const BoundFlow& b) {
  if (a.from != b.from) return a.from < b.from;
  if (a.to != b.to) return a.to < b.to;
  if (a.kind != b.kind) return a.kind < b.kind;
  if (a.name != b.name) return a.name > b.name;
  if (a.flow_id != b.flow_id) return a.flow_id < b.flow_id;
  return a.category < b.category;
}

BoundFlow AsBound(const BoundFlow& b) { return b; }
BoundFlow AsBound(const FlowTable::LaunchFlow& l) {
  return {l.from, l.to, FlowKind::kLaunch, l.name, l.category, l.flow_id};
}
BoundFlow AsBound(const FlowTable::LaunchLink& l) {
  return {l.from, l.to, FlowKind::kLaunch, StringId::None(), StringId::None(), l.flow_id};
}

// Sorts [begin, end) by FlowLess; past a quarter million rows (millions on
// a large trace, sorted in the serial tail of a load) as two halves on two
// threads. Returns where the second sorted run starts (end - begin when
// there is one run).
template <typename T>
size_t SortFlowRuns(T* begin, T* end) {
  const auto less = [](const T& a, const T& b) { return FlowLess(AsBound(a), AsBound(b)); };
  const size_t n = static_cast<size_t>(end - begin);
  if (n < (size_t{1} << 18) || std::thread::hardware_concurrency() < 2) {
    std::sort(begin, end, less);
    return n;
  }
  const size_t half = n / 2;
  std::thread worker([&] { std::sort(begin, begin + half, less); });
  std::sort(begin + half, end, less);
  worker.join();
  return half;
}

// A sorted run being merged.
template <typename T>
struct FlowRun {
  const T* at;
  const T* end;
};

}  // namespace

void Trace::BindFlows(const std::vector<uint32_t>& new_index_of_old) {
  FlowTable& f = flows_;
  auto renumber = [&](SliceId s) -> SliceId {
    if (s.is_none() || s.index() >= slices_.size()) return SliceId::None();
    return new_index_of_old.empty() ? s : SliceId(new_index_of_old[s.index()]);
  };
  auto resolve = [&](const FlowEndpoint& e) -> SliceId {
    switch (e.binding) {
      case FlowEndpoint::Binding::kSlice:
        return renumber(e.slice);
      case FlowEndpoint::Binding::kEnclosing:
        return FindEnclosingSlice(e.track, e.ts_ns);
      case FlowEndpoint::Binding::kNext: {
        if (e.track.is_none() || e.track.index() >= tracks_.size()) return SliceId::None();
        const auto& r = tracks_.ranges(e.track);
        auto b = slices_.start_ns_.begin() + r.slice_begin, en = slices_.start_ns_.begin() + r.slice_end;
        auto it = std::lower_bound(b, en, e.ts_ns);
        return it == en ? SliceId::None() : SliceId::FromIndex(it - slices_.start_ns_.begin());
      }
    }
    return SliceId::None();
  };
  std::vector<BoundFlow> bound;
  bound.reserve(f.pending_.size());
  uint64_t unbound = 0, first_unbound_offset = Diagnostics::kNoOffset;
  for (const FlowTable::Pending& p : f.pending_) {
    SliceId from = resolve(p.from), to = resolve(p.to);
    if (from.is_none() || to.is_none()) {
      if (unbound++ == 0) first_unbound_offset = p.byte_offset;
      continue;
    }
    bound.push_back({from, to, p.kind, p.name, p.category, p.flow_id});
  }
  std::vector<FlowTable::Pending>().swap(f.pending_);

  // Launch flows and links: both ends are slices, so binding is a
  // renumbering, in place. Links arrive in (from, to) order and keep it when
  // the slices were not reordered. Neither has a byte offset: the first
  // pending flow's, if any, stays.
  auto renumber_rows = [&](auto& rows) {
    size_t kept = 0;
    for (auto row : rows) {
      row.from = renumber(row.from);
      row.to = renumber(row.to);
      if (row.from.is_none() || row.to.is_none()) {
        ++unbound;
        continue;
      }
      rows[kept++] = row;
    }
    rows.resize(kept);
  };
  GrowArray<FlowTable::LaunchFlow> launch;
  launch.swap(f.launch_flows_);
  renumber_rows(launch);
  std::vector<FlowTable::LaunchLink> links;
  links.swap(f.launch_links_);
  renumber_rows(links);
  if (unbound > 0) {
    diagnostics_.Add(DiagCode::kUnboundFlow, unbound, first_unbound_offset, "flow endpoint matched no slice");
  }

  const size_t bound_half = SortFlowRuns(bound.data(), bound.data() + bound.size());
  const size_t launch_half = SortFlowRuns(launch.begin(), launch.end());
  const auto link_less = [](const FlowTable::LaunchLink& a, const FlowTable::LaunchLink& b) {
    return FlowLess(AsBound(a), AsBound(b));
  };
  if (!std::is_sorted(links.begin(), links.end(), link_less)) std::sort(links.begin(), links.end(), link_less);

  // Merge the five sorted runs into the columns. Kineto states a launch
  // twice (correlation args and an ac2g flow): keep the first of each
  // (from, to, kind). On a tie the earlier run wins: pending flows, then
  // launch flows, then links.
  const size_t total = bound.size() + launch.size() + links.size();
  f.from_.reserve(total);
  f.to_.reserve(total);
  f.kind_.reserve(total);
  f.name_.reserve(total);
  f.category_.reserve(total);
  f.flow_id_.reserve(total);
  auto emit = [&](const BoundFlow& b) {
    const size_t n = f.from_.size();
    if (n > 0 && f.from_[n - 1] == b.from && f.to_[n - 1] == b.to && f.kind_[n - 1] == b.kind) return;
    f.from_.push_back(b.from);
    f.to_.push_back(b.to);
    f.kind_.push_back(b.kind);
    f.name_.push_back(b.name);
    f.category_.push_back(b.category);
    f.flow_id_.push_back(b.flow_id);
  };
  const BoundFlow* const bound_data = bound.data();
  const FlowTable::LaunchFlow* const launch_data = launch.data();
  FlowRun<BoundFlow> b0{bound_data, bound_data + bound_half}, b1{bound_data + bound_half, bound_data + bound.size()};
  FlowRun<FlowTable::LaunchFlow> l0{launch_data, launch_data + launch_half};
  FlowRun<FlowTable::LaunchFlow> l1{launch_data + launch_half, launch_data + launch.size()};
  FlowRun<FlowTable::LaunchLink> k0{links.data(), links.data() + links.size()};
  for (;;) {
    BoundFlow best{};
    int best_run = -1;
    auto consider = [&](int index, const auto& run) {
      if (run.at == run.end) return;
      const BoundFlow head = AsBound(*run.at);
      if (best_run < 0 || FlowLess(head, best)) {
        best = head;
        best_run = index;
      }
    };
    consider(0, b0);
    consider(1, b1);
    consider(2, l0);
    consider(3, l1);
    consider(4, k0);
    if (best_run < 0) break;
    emit(best);
    switch (best_run) {
      case 0: ++b0.at; break;
      case 1: ++b1.at; break;
      case 2: ++l0.at; break;
      case 3: ++l1.at; break;
      default: ++k0.at; break;
    }
  }
}

}  // namespace stepline
