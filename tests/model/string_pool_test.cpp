// StringPool: interning, lookup, id stability across growth.
#include "model/string_pool.h"

#include <gtest/gtest.h>

#include <string>

namespace stepline {
namespace {

TEST(StringPoolTest, EmptyStringIsIdZero) {
  StringPool pool;
  EXPECT_EQ(pool.Intern("").value, 0u);
  EXPECT_TRUE(pool.Intern("").is_none());
  EXPECT_EQ(pool.Get(StringId::None()), "");
  EXPECT_EQ(pool.size(), 1u);
}

TEST(StringPoolTest, InternReturnsSameIdForEqualStrings) {
  StringPool pool;
  const StringId a = pool.Intern("aten::conv2d");
  const StringId b = pool.Intern("aten::relu");
  EXPECT_NE(a, b);
  EXPECT_EQ(pool.Intern(std::string("aten::") + "conv2d"), a);
  EXPECT_EQ(pool.Get(a), "aten::conv2d");
  EXPECT_EQ(pool.Find("aten::relu"), b);
  EXPECT_TRUE(pool.Find("missing").is_none());
  EXPECT_EQ(pool.size(), 3u);
}

TEST(StringPoolTest, ViewsStayValidWhileGrowing) {
  StringPool pool;
  const StringId first = pool.Intern("first");
  std::string_view first_view = pool.Get(first);
  std::vector<StringId> ids;
  for (int i = 0; i < 200000; ++i) ids.push_back(pool.Intern("name_" + std::to_string(i)));
  EXPECT_EQ(first_view, "first");  // the view was taken before 200k inserts
  EXPECT_EQ(pool.Get(first).data(), first_view.data());
  for (int i = 0; i < 200000; i += 9973) {
    EXPECT_EQ(pool.Get(ids[i]), "name_" + std::to_string(i));
    EXPECT_EQ(pool.Find("name_" + std::to_string(i)), ids[i]);
  }
  EXPECT_EQ(pool.size(), 200002u);
}

TEST(StringPoolTest, InterningWithTheCallersHashFindsTheSameIds) {
  StringPool pool;
  const StringId a = pool.Intern("kernel_details");
  EXPECT_EQ(pool.Intern("kernel_details", StringPool::Hash("kernel_details")), a);
  const StringId b = pool.Intern("regs:32 shm:0", StringPool::Hash("regs:32 shm:0"));
  EXPECT_EQ(pool.Intern("regs:32 shm:0"), b);
  EXPECT_EQ(pool.Find("regs:32 shm:0"), b);
  EXPECT_TRUE(pool.Intern("", StringPool::Hash("")).is_none());
}

TEST(StringPoolTest, LongStringsAndEmbeddedNul) {
  StringPool pool;
  std::string big(3 << 20, 'x');  // larger than a block
  const StringId id = pool.Intern(big);
  const StringId small = pool.Intern("after");
  EXPECT_EQ(pool.Get(id), big);
  EXPECT_EQ(pool.Get(small), "after");
  const std::string with_nul("a\0b", 3);
  const StringId nul_id = pool.Intern(with_nul);
  EXPECT_NE(nul_id, pool.Intern("a"));
  EXPECT_EQ(pool.Get(nul_id), with_nul);
}

}  // namespace
}  // namespace stepline
