// Diagnostics: counts, first offsets, bounded details, merge.
#include "model/diagnostics.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace stepline {
namespace {

TEST(DiagnosticsTest, CountsAndKeepsFirstDetails) {
  Diagnostics d;
  EXPECT_TRUE(d.empty());
  for (int i = 0; i < 20; ++i) d.Record(DiagCode::kUnmatchedEnd, 100 + i, "e" + std::to_string(i));
  d.Record(DiagCode::kUnmatchedEnd, 50, "earlier");
  EXPECT_EQ(d.count(DiagCode::kUnmatchedEnd), 21u);
  EXPECT_EQ(d.entry(DiagCode::kUnmatchedEnd).first_offset, 50u);
  EXPECT_EQ(d.entry(DiagCode::kUnmatchedEnd).instances.size(), Diagnostics::kMaxDetailsPerCode);
  EXPECT_EQ(d.entry(DiagCode::kUnmatchedEnd).instances[0].detail, "e0");
  EXPECT_EQ(d.total(), 21u);
  ASSERT_EQ(d.NonEmpty().size(), 1u);
}

TEST(DiagnosticsTest, BulkAddAndMerge) {
  Diagnostics a, b;
  a.Add(DiagCode::kOverlappingSlices, 5, Diagnostics::kNoOffset, "x");
  b.Record(DiagCode::kOverlappingSlices, 7, "y");
  b.Record(DiagCode::kTruncated, 1000, "cut");
  a.Merge(b);
  EXPECT_EQ(a.count(DiagCode::kOverlappingSlices), 6u);
  EXPECT_EQ(a.entry(DiagCode::kOverlappingSlices).first_offset, 7u);
  EXPECT_EQ(a.count(DiagCode::kTruncated), 1u);
  EXPECT_EQ(a.NonEmpty().size(), 2u);
}

TEST(DiagnosticsTest, EveryCodeHasAUniqueName) {
  std::set<std::string_view> names;
  for (int c = 0; c < kDiagCodeCount; ++c) {
    const auto& info = GetDiagCodeInfo(static_cast<DiagCode>(c));
    EXPECT_FALSE(info.name.empty());
    EXPECT_FALSE(info.description.empty());
    names.insert(info.name);
  }
  EXPECT_EQ(names.size(), static_cast<size_t>(kDiagCodeCount));
}

}  // namespace
}  // namespace stepline
