// The memory budget a load is held against (loaders/memory_estimate.h), read
// from fake /proc/meminfo, /proc/self/cgroup and cgroup v1 / v2 files, and
// the decision to warn (the CLI's line, the window's Load anyway / Cancel).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "loaders/memory_estimate.h"

namespace stepline::loaders {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kMiB = uint64_t{1} << 20;

class MemoryBudgetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("stepline-budget-" + std::to_string(::getpid()) + "-" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_ / "cgroup");
    sources_.meminfo = (root_ / "meminfo").string();
    sources_.cgroup_root = (root_ / "cgroup").string();
    sources_.self_cgroup = (root_ / "self_cgroup").string();
    sources_.address_space_limit = false;  // the test process's own ulimit is not the point
    Write("meminfo", "MemTotal:       16384000 kB\nMemFree:         1000000 kB\nMemAvailable:    4194304 kB\n");
    Write("self_cgroup", "0::/\n");
  }
  void TearDown() override { fs::remove_all(root_); }
  void Write(const std::string& relative, const std::string& text) {
    fs::create_directories((root_ / relative).parent_path());
    std::ofstream(root_ / relative) << text;
  }
  fs::path root_;
  MemorySources sources_;
};

TEST_F(MemoryBudgetTest, MemAvailableAloneIsTheBudget) {
  const MemoryBudget b = AvailableMemory(sources_);
  EXPECT_EQ(b.bytes, 4096 * kMiB);
  EXPECT_EQ(b.source, "MemAvailable");
}

TEST_F(MemoryBudgetTest, CgroupV2LimitLessUseAtTheRootOrOfThisProcess) {
  Write("cgroup/memory.max", "1073741824\n");
  Write("cgroup/memory.current", "268435456\n");
  MemoryBudget b = AvailableMemory(sources_);
  EXPECT_EQ(b.bytes, 768 * kMiB);
  EXPECT_EQ(b.source, "cgroup memory.max");
  // Outside a container the limit is on this process's own cgroup.
  Write("cgroup/memory.max", "max\n");
  Write("self_cgroup", "0::/user.slice/job.scope\n");
  Write("cgroup/user.slice/job.scope/memory.max", "536870912\n");
  Write("cgroup/user.slice/job.scope/memory.current", "0\n");
  b = AvailableMemory(sources_);
  EXPECT_EQ(b.bytes, 512 * kMiB);
  EXPECT_EQ(b.source, "cgroup memory.max");
}

TEST_F(MemoryBudgetTest, CgroupV1LimitAndItsNoLimitValue) {
  Write("self_cgroup", "5:devices:/\n4:memory:/slurm/job_7\n0::/\n");
  Write("cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n");  // v1's "no limit"
  Write("cgroup/memory/memory.usage_in_bytes", "1000\n");
  EXPECT_EQ(AvailableMemory(sources_).source, "MemAvailable");
  Write("cgroup/memory/slurm/job_7/memory.limit_in_bytes", "2147483648\n");
  Write("cgroup/memory/slurm/job_7/memory.usage_in_bytes", "1073741824\n");
  const MemoryBudget b = AvailableMemory(sources_);
  EXPECT_EQ(b.bytes, 1024 * kMiB);
  EXPECT_EQ(b.source, "cgroup memory.limit_in_bytes");
}

TEST_F(MemoryBudgetTest, UseAboveTheLimitLeavesNothing) {
  Write("cgroup/memory.max", "1000\n");
  Write("cgroup/memory.current", "5000\n");
  EXPECT_EQ(AvailableMemory(sources_).bytes, 0u);
}

TEST_F(MemoryBudgetTest, MissingFilesKnowNoLimit) {
  MemorySources none;
  none.meminfo = (root_ / "absent").string();
  none.cgroup_root = (root_ / "absent").string();
  none.self_cgroup = (root_ / "absent").string();
  none.address_space_limit = false;
  const MemoryBudget b = AvailableMemory(none);
  EXPECT_EQ(b.bytes, UINT64_MAX);
  const MemoryEstimate huge = EstimateLoadMemory(uint64_t{100} << 30, "{\"traceEvents\":[");
  EXPECT_FALSE(ShouldWarnBeforeLoad(huge, b));  // nothing known: no question
}

// The decision: warn when the estimate exceeds the budget, and only then.
TEST_F(MemoryBudgetTest, WarnsOnlyWhenTheEstimateExceedsTheBudget) {
  Write("cgroup/memory.max", "536870912\n");  // 512 MiB
  Write("cgroup/memory.current", "0\n");
  const MemoryBudget b = AvailableMemory(sources_);
  const MemoryEstimate small = EstimateLoadMemory(10 * kMiB, "{\"traceEvents\":[");
  const MemoryEstimate large = EstimateLoadMemory(400 * kMiB, "{\"traceEvents\":[");
  ASSERT_LT(small.needed_bytes, b.bytes);
  ASSERT_GT(large.needed_bytes, b.bytes);
  EXPECT_FALSE(ShouldWarnBeforeLoad(small, b));
  EXPECT_TRUE(MemoryWarning("small.json", small, b).empty());
  EXPECT_TRUE(ShouldWarnBeforeLoad(large, b));
  const std::string warning = MemoryWarning("large.json", large, b);
  EXPECT_NE(warning.find("large.json: the trace needs about"), std::string::npos) << warning;
  EXPECT_NE(warning.find("but only 512 MB is available (cgroup memory.max)"), std::string::npos) << warning;
  EXPECT_FALSE(ShouldWarnBeforeLoad(MemoryEstimate{}, b));  // a pipe: size unknown
}

}  // namespace
}  // namespace stepline::loaders
