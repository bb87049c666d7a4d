// LocalStringTable: ids are dense and stable within a chunk; InternAt gives
// the same ids as Intern whatever the order of repeats at a site, and a
// Clear() forgets each site's last string (its bytes' place in the arena is
// reused by the next chunk's strings).
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "loaders/chrome_json/raw_event_batch.h"

namespace stepline::loaders {
namespace {

TEST(LocalStringTableTest, InternAtGivesInternsIds) {
  // Same length, same first or last bytes, long and short: the comparisons'
  // edge cases.
  const std::vector<std::string> pool = {"a", "b", "ab", "ba", "abcd", "abce", "xbcd", "abcdefgh", "abcdefgi",
                                         "zbcdefgh", "abcdefghijklmnop", "abcdefghijklmnoq",
                                         "void tensorflow::functor::ApplyAdamKernel<float>",
                                         "void tensorflow::functor::ApplyAdamKernel<double>"};
  LocalStringTable by_site, plain;
  std::mt19937 rng(11);
  for (int i = 0; i < 5000; ++i) {
    const auto site = static_cast<LocalStringTable::Site>(rng() % LocalStringTable::kSiteCount);
    const std::string& s = pool[rng() % 3 == 0 ? rng() % pool.size() : (i / 7) % pool.size()];
    ASSERT_EQ(by_site.InternAt(site, s), plain.Intern(s)) << i << " " << s;
    ASSERT_EQ(by_site.Get(by_site.InternAt(site, s)), s);
  }
  EXPECT_EQ(by_site.size(), plain.size());
}

TEST(LocalStringTableTest, ClearForgetsEachSitesLastString) {
  LocalStringTable table;
  table.Intern("q");
  const uint32_t before = table.InternAt(LocalStringTable::kSiteName, "aaaa");
  table.Clear();
  // The arena now holds "qaaaa" where "q" and "aaaa" were, and "other" has
  // the id "aaaa" had: a site that remembered "aaaa" would answer with it.
  const uint32_t qaaaa = table.Intern("qaaaa");
  const uint32_t other = table.Intern("other");
  EXPECT_EQ(other, before);
  const uint32_t after = table.InternAt(LocalStringTable::kSiteName, "aaaa");
  EXPECT_NE(after, other);
  EXPECT_NE(after, qaaaa);
  EXPECT_EQ(table.Get(after), "aaaa");
}

}  // namespace
}  // namespace stepline::loaders
