// Resident-memory readings and forked measurements, the two things bench's
// memory figures rest on.
#include "app/cli/process_memory.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <vector>

namespace stepline::app {
namespace {

TEST(ProcessMemoryTest, ChildSeesItsOwnAllocationsAsAnonGrowth) {
  constexpr size_t kBytes = 64u << 20;
  auto result = RunInChild([] {
    const auto before = ReadResidentMemory();
    std::vector<char> block(kBytes);
    std::memset(block.data(), 1, block.size());  // touch every page
    const auto after = ReadResidentMemory();
    const int64_t growth = before && after ? int64_t(after->anon_bytes) - int64_t(before->anon_bytes) : -1;
    return std::to_string(growth + block[kBytes / 2] - 1);
  });
  ASSERT_TRUE(result) << result.error();
  const int64_t growth = std::stoll(*result);
  EXPECT_GE(growth, int64_t(kBytes) * 9 / 10);
  EXPECT_LE(growth, int64_t(kBytes) * 11 / 10);
}

TEST(ProcessMemoryTest, ParentMemoryIsNotGrowthInTheChild) {
  // Resident before the fork: shared with the child, so not counted there.
  std::vector<char> parent_block(32u << 20, 1);
  auto result = RunInChild([&] {
    const auto before = ReadResidentMemory();
    uint64_t sum = 0;
    for (size_t i = 0; i < parent_block.size(); i += 4096) sum += parent_block[i];  // read only
    const auto after = ReadResidentMemory();
    return std::to_string(int64_t(after->anon_bytes) - int64_t(before->anon_bytes) + int64_t(sum % 1));
  });
  ASSERT_TRUE(result) << result.error();
  EXPECT_LT(std::stoll(*result), 1 << 20);
}

TEST(ProcessMemoryTest, CrashingChildIsAnError) {
  auto result = RunInChild([]() -> std::string { std::abort(); });
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().find("signal"), std::string::npos) << result.error();
}

}  // namespace
}  // namespace stepline::app
