// AddrMap, the open-addressing map of open allocations BuildMemoryTable
// replays millions of allocs and frees through: held to std::unordered_map
// over random inserts, overwrites and erases, with addresses that collide
// in their slots (the same 16-byte-aligned low bits a caching allocator gives).
#include "model/memory_replay.h"

#include <gtest/gtest.h>

#include <random>
#include <unordered_map>
#include <vector>

namespace stepline::memory_replay {
namespace {

TEST(AddrMapTest, AgreesWithUnorderedMapOverRandomAllocsAndFrees) {
  std::mt19937_64 rng(7);
  AddrMap map;
  std::unordered_map<uint64_t, uint32_t> peer;
  std::vector<uint64_t> live;
  for (uint32_t step = 0; step < 200000; ++step) {
    const uint64_t choice = rng() % 10;
    if (choice < 5 || live.empty()) {
      // Mostly fresh addresses, sometimes one already open (its row is replaced).
      const uint64_t addr = (choice == 0 && !live.empty()) ? live[rng() % live.size()]
                                                             : 0x7F0000000000ull + 512 * (rng() % 20000);
      if (!peer.contains(addr)) live.push_back(addr);
      map.Set(addr, step);
      peer[addr] = step;
    } else {
      const size_t k = rng() % live.size();
      const uint64_t addr = live[k];
      live[k] = live.back();
      live.pop_back();
      map.Erase(addr);
      peer.erase(addr);
      map.Erase(addr);  // erasing what is gone changes nothing
    }
    if (step % 997 == 0) {
      for (uint64_t addr : live) ASSERT_EQ(map.Find(addr), peer.at(addr)) << step;
      ASSERT_EQ(map.Find(0x10), kNoMemoryEvent);
    }
  }
  for (const auto& [addr, row] : peer) EXPECT_EQ(map.Find(addr), row);
  for (uint64_t addr : live) map.Erase(addr);
  for (const auto& [addr, row] : peer) EXPECT_EQ(map.Find(addr), kNoMemoryEvent);
}

}  // namespace
}  // namespace stepline::memory_replay
