// IdleCauseTable: glob matching, TSV parsing, the default table's verdicts on
// real profiler names, and the embedded copy staying equal to the asset file.
#include "model/analysis/idle_cause_table.h"

#include <gtest/gtest.h>

#include <cctype>
#include <random>

#include <fstream>
#include <sstream>

namespace stepline::analysis {
namespace {

TEST(GlobMatchTest, StarsQuestionMarksAndCase) {
  EXPECT_TRUE(GlobMatch("cuda*", "cudaLaunchKernel"));
  EXPECT_TRUE(GlobMatch("*IteratorGetNext*", "MultiDeviceIteratorGetNextFromShard"));
  EXPECT_TRUE(GlobMatch("*iteratorgetnext*", "IteratorGetNext"));  // case-insensitive
  EXPECT_TRUE(GlobMatch("a?c", "abc"));
  EXPECT_TRUE(GlobMatch("*", ""));
  EXPECT_TRUE(GlobMatch("a*b*c", "a-b-b-c"));  // needs backtracking past the first 'b'
  EXPECT_FALSE(GlobMatch("a?c", "ac"));
  EXPECT_FALSE(GlobMatch("cudaMemcpy", "cudaMemcpyAsync"));  // whole-name match
  EXPECT_FALSE(GlobMatch("a*b", "a-b-c"));
  EXPECT_FALSE(GlobMatch("", "x"));
}

TEST(IdleCauseTableTest, DefaultTableClassifiesProfilerNames) {
  const IdleCauseTable& t = IdleCauseTable::Default();
  EXPECT_EQ(t.Classify("IteratorGetNext"), HostCategory::kInput);
  EXPECT_EQ(t.Classify("tf_data_iterator_get_next"), HostCategory::kInput);
  EXPECT_EQ(t.Classify("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"), HostCategory::kInput);
  EXPECT_EQ(t.Classify("Iterator::Root::Prefetch::Map"), HostCategory::kInput);
  EXPECT_EQ(t.Classify("cudaStreamSynchronize"), HostCategory::kSync);
  EXPECT_EQ(t.Classify("cudaDeviceSynchronize"), HostCategory::kSync);
  EXPECT_EQ(t.Classify("cuEventSynchronize"), HostCategory::kSync);
  EXPECT_EQ(t.Classify("hipStreamSynchronize"), HostCategory::kSync);
  EXPECT_EQ(t.Classify("cudaMemcpy"), HostCategory::kSync);
  EXPECT_EQ(t.Classify("cuMemcpyDtoH_v2"), HostCategory::kSync);
  EXPECT_EQ(t.Classify("aten::item"), HostCategory::kSync);
  EXPECT_EQ(t.Classify("aten::_local_scalar_dense"), HostCategory::kSync);
  EXPECT_EQ(t.Classify("cudaLaunchKernel"), HostCategory::kLaunch);
  EXPECT_EQ(t.Classify("cuLaunchKernelEx"), HostCategory::kLaunch);
  EXPECT_EQ(t.Classify("hipLaunchKernel"), HostCategory::kLaunch);
  EXPECT_EQ(t.Classify("cudaMemcpyAsync"), HostCategory::kLaunch);
  EXPECT_EQ(t.Classify("cuMemcpyDtoHAsync_v2"), HostCategory::kLaunch);  // later row beats cuMemcpyDtoH*
  EXPECT_EQ(t.Classify("hipMemcpyDtoDAsync"), HostCategory::kLaunch);
  EXPECT_EQ(t.Classify("cudaStreamWaitEvent"), HostCategory::kLaunch);
  EXPECT_EQ(t.Classify("torch/cuda/__init__.py(975): synchronize"), HostCategory::kSync);
  EXPECT_EQ(t.Classify("aten::mm"), HostCategory::kNone);
  EXPECT_EQ(t.Classify("on_train_batch_end"), HostCategory::kNone);
}

TEST(IdleCauseTableTest, ParseSkipsCommentsAndLaterRowsWin) {
  IdleCauseTable t;
  std::string error;
  ASSERT_TRUE(
      IdleCauseTable::Parse("# comment\n\ninput\tfoo*\tthe foo family\r\nhost_compute\tfoo_bar\n"
                            "ignore\t## *\n",
                            &t, &error))
      << error;
  ASSERT_EQ(t.rows().size(), 3u);
  EXPECT_EQ(t.rows()[0].pattern, "foo*");  // the comment column and '\r' are dropped
  EXPECT_EQ(t.Classify("foo_baz"), HostCategory::kInput);
  EXPECT_EQ(t.Classify("foo_bar"), HostCategory::kHostCompute);
  EXPECT_EQ(t.Classify("## forward ##"), HostCategory::kIgnore);
  EXPECT_EQ(t.Classify("bar"), HostCategory::kNone);
}

TEST(IdleCauseTableTest, ParseReportsTheBadLineAndKeepsTheOldTable) {
  IdleCauseTable t;
  t.Add(HostCategory::kSync, "keep_me");
  std::string error;
  EXPECT_FALSE(IdleCauseTable::Parse("input\tok\n# two\ninptu\tx\n", &t, &error));
  EXPECT_EQ(error, "line 3: unknown category \"inptu\"");
  EXPECT_FALSE(IdleCauseTable::Parse("sync\n", &t, &error));
  EXPECT_EQ(error, "line 1: missing pattern");
  ASSERT_EQ(t.rows().size(), 1u);
  EXPECT_EQ(t.rows()[0].pattern, "keep_me");
}

TEST(IdleCauseTableTest, EmbeddedDefaultEqualsTheAssetFile) {
  std::ifstream in(std::string(STEPLINE_SOURCE_DIR) + "/assets/idle_cause_patterns.tsv", std::ios::binary);
  ASSERT_TRUE(in) << "assets/idle_cause_patterns.tsv missing";
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), std::string(kDefaultIdleCauseTsv));
  IdleCauseTable parsed;
  std::string error;
  EXPECT_TRUE(IdleCauseTable::Parse(text.str(), &parsed, &error)) << error;
  EXPECT_EQ(parsed.rows().size(), IdleCauseTable::Default().rows().size());
  EXPECT_GT(parsed.rows().size(), 30u);
}

// Classify skips rows by a literal substring and compares lowercased text;
// it must answer exactly as the plain case-insensitive glob over every row,
// last row first, does. Names: the default table's own patterns with the
// wildcards filled in, in mixed case, plus random text from the patterns'
// alphabet, so many names share substrings with patterns but do not match.
TEST(IdleCauseTableTest, ClassifyEqualsTheGlobOverEveryRow) {
  const IdleCauseTable& table = IdleCauseTable::Default();
  auto brute = [&](std::string_view name) {
    for (size_t i = table.rows().size(); i-- > 0;) {
      if (GlobMatch(table.rows()[i].pattern, name)) return table.rows()[i].category;
    }
    return HostCategory::kNone;
  };
  std::mt19937 rng(11);
  std::vector<std::string> names = {"", "a", "CUDASTREAMSYNCHRONIZE", "cudaMemcpy", "cudamemcpyasync",
                                    "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"};
  const std::string alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_:.#()";
  for (const auto& row : table.rows()) {
    for (int k = 0; k < 20; ++k) {
      std::string name;
      for (char c : row.pattern) {
        if (c == '*') {
          for (int n = static_cast<int>(rng() % 4); n > 0; --n) name += alphabet[rng() % alphabet.size()];
        } else if (c == '?') {
          name += alphabet[rng() % alphabet.size()];
        } else {
          name += rng() % 2 ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
        }
      }
      if (k % 3 == 1 && !name.empty()) name.erase(rng() % name.size(), 1);  // often no longer a match
      if (k % 3 == 2) name.insert(rng() % (name.size() + 1), 1, alphabet[rng() % alphabet.size()]);
      names.push_back(name);
    }
  }
  size_t matched = 0;
  for (const std::string& name : names) {
    ASSERT_EQ(table.Classify(name), brute(name)) << name;
    matched += brute(name) != HostCategory::kNone;
  }
  EXPECT_GT(matched, names.size() / 3);
  EXPECT_LT(matched, names.size());
}

}  // namespace
}  // namespace stepline::analysis
