// Trace::BindFlows (see trace.h): the last step of Finalize() for flows.
// Pending flows get their endpoints resolved (a slice, the slice enclosing a
// time, the next slice on a track), launch flows and launch links are
// renumbered; the five sorted runs are merged into the flow columns, each
// (from, to, kind) kept once.
#include <algorithm>
#include <cstring>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "model/sl_assert.h"
#include "model/trace.h"
#include "model/worker_thread.h"

namespace stepline {

namespace {

// Past this many rows, sorting and merging use a second thread.
constexpr size_t kParallelMergeRows = size_t{1} << 18;

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
  if (n < kParallelMergeRows || std::thread::hardware_concurrency() < 2) {
    std::sort(begin, end, less);
    return n;
  }
  const size_t half = n / 2;
  WorkerThread worker([&] { std::sort(begin, begin + half, less); });
  std::sort(begin + half, end, less);
  worker.join();
  return half;
}

// A sorted run being merged.
template <typename T>
struct FlowRun {
  const T* at;
  const T* end;
  size_t size() const { return static_cast<size_t>(end - at); }
};

// The five sorted runs BindFlows merges: pending flows, launch flows (two
// halves each, as SortFlowRuns left them) and launch links.
struct FlowRuns {
  FlowRun<BoundFlow> b0, b1;
  FlowRun<FlowTable::LaunchFlow> l0, l1;
  FlowRun<FlowTable::LaunchLink> k0;
  size_t size() const { return b0.size() + b1.size() + l0.size() + l1.size() + k0.size(); }
};

// Calls op with the same run of each FlowRuns given, for each of the five
// runs in merge order: the one place that lists them.
template <typename Op, typename... Runs>
void EachRun(Op&& op, Runs&... runs) {
  op(runs.b0...);
  op(runs.b1...);
  op(runs.l0...);
  op(runs.l1...);
  op(runs.k0...);
}

// Where merged rows go: the flow columns, sized beforehand.
struct FlowColumns {
  SliceId* from;
  SliceId* to;
  FlowKind* kind;
  StringId* name;
  StringId* category;
  uint64_t* flow_id;
};

// The order that decides duplicates: (from, to, kind) only.
bool KeyLess(const BoundFlow& a, const BoundFlow& b) {
  if (a.from != b.from) return a.from < b.from;
  if (a.to != b.to) return a.to < b.to;
  return a.kind < b.kind;
}

// Merges `runs` into the columns from row `at` on, each (from, to, kind)
// kept once: Kineto states a launch twice (correlation args and an ac2g
// flow). On a tie the earlier run wins: pending flows, then launch flows,
// then links. Returns the rows written.
size_t MergeFlowRuns(FlowRuns runs, const FlowColumns& out, size_t at) {
  const size_t first = at;
  for (;;) {
    BoundFlow best{};
    int best_run = -1, index = 0;
    EachRun(
        [&](const auto& run) {
          if (run.at != run.end) {
            const BoundFlow head = AsBound(*run.at);
            if (best_run < 0 || FlowLess(head, best)) {
              best = head;
              best_run = index;
            }
          }
          ++index;
        },
        runs);
    if (best_run < 0) break;
    index = 0;
    EachRun([&](auto& run) { run.at += index++ == best_run ? 1 : 0; }, runs);
    if (at > first && out.from[at - 1] == best.from && out.to[at - 1] == best.to && out.kind[at - 1] == best.kind) {
      continue;
    }
    out.from[at] = best.from;
    out.to[at] = best.to;
    out.kind[at] = best.kind;
    out.name[at] = best.name;
    out.category[at] = best.category;
    out.flow_id[at] = best.flow_id;
    ++at;
  }
  return at - first;
}

// Splits every run at the first row whose (from, to, kind) is not below
// `pivot`'s: rows with one key never end up on both sides, so the two sides
// merge (and drop duplicates) independently.
std::pair<FlowRuns, FlowRuns> SplitFlowRuns(const FlowRuns& runs, const BoundFlow& pivot) {
  FlowRuns below = runs, rest = runs;
  EachRun(
      [&](const auto& run, auto& run_below, auto& run_rest) {
        using Row = std::remove_cv_t<std::remove_pointer_t<decltype(run.at)>>;
        const Row* cut =
            std::partition_point(run.at, run.end, [&](const Row& r) { return KeyLess(AsBound(r), pivot); });
        run_below.end = cut;
        run_rest.at = cut;
      },
      runs, below, rest);
  return {below, rest};
}

// The middle row of the longest run: a pivot that leaves about half the rows
// on each side when the runs cover the same keys (launch flows and links do).
BoundFlow MiddleRow(const FlowRuns& runs) {
  BoundFlow pivot{};
  size_t longest = 0;
  EachRun(
      [&](const auto& run) {
        if (run.size() > longest) {
          longest = run.size();
          pivot = AsBound(run.at[run.size() / 2]);
        }
      },
      runs);
  return pivot;
}

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

  // Merge the five sorted runs into the columns; a large merge (the serial
  // tail of a GB-scale load) as two halves split at a key, on two threads.
  const BoundFlow* const bound_data = bound.data();
  const FlowTable::LaunchFlow* const launch_data = launch.data();
  const FlowRuns runs{{bound_data, bound_data + bound_half},
                      {bound_data + bound_half, bound_data + bound.size()},
                      {launch_data, launch_data + launch_half},
                      {launch_data + launch_half, launch_data + launch.size()},
                      {links.data(), links.data() + links.size()}};
  const size_t total = runs.size();
  SL_ASSERT(f.from_.empty() && "flows are bound once");
  auto each_column = [&](auto&& op) {
    op(f.from_);
    op(f.to_);
    op(f.kind_);
    op(f.name_);
    op(f.category_);
    op(f.flow_id_);
  };
  each_column([&](auto& column) { column.resize_for_overwrite(total); });
  const FlowColumns out{f.from_.data(), f.to_.data(),     f.kind_.data(),
                        f.name_.data(), f.category_.data(), f.flow_id_.data()};
  size_t rows = 0;
  if (total < kParallelMergeRows || std::thread::hardware_concurrency() < 2) {
    rows = MergeFlowRuns(runs, out, 0);
  } else {
    const auto [below, rest] = SplitFlowRuns(runs, MiddleRow(runs));
    // The rest is written after room for every row below, then moved down
    // over the duplicates dropped there.
    const size_t rest_at = below.size();
    size_t rest_rows = 0;
    WorkerThread worker([&, rest = rest] { rest_rows = MergeFlowRuns(rest, out, rest_at); });
    rows = MergeFlowRuns(below, out, 0);
    worker.join();
    if (rows < rest_at) {
      each_column([&](auto& column) {
        std::memmove(column.data() + rows, column.data() + rest_at, rest_rows * sizeof(column[0]));
      });
    }
    rows += rest_rows;
  }
  each_column([&](auto& column) { column.resize(rows); });
}

}  // namespace stepline
