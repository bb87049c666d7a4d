// ArgTable: sets, typed values, lookup.
#include "model/arg_table.h"

#include <gtest/gtest.h>

#include <vector>

namespace stepline {
namespace {

TEST(ArgTableTest, EmptySetIsZero) {
  ArgTable args;
  EXPECT_TRUE(args.AddSet({}).is_none());
  EXPECT_EQ(args.set_count(), 1u);
  EXPECT_EQ(args.set_begin(ArgSetId::None()), args.set_end(ArgSetId::None()));
}

TEST(ArgTableTest, SetsKeepOrderAndTypes) {
  ArgTable args;
  const StringId k1(1), k2(2), k3(3);
  std::vector<Arg> a = {{k1, ArgValue::Int(-5)}, {k2, ArgValue::Double(2.5)}};
  std::vector<Arg> b = {{k3, ArgValue::String(StringId(7))}, {k1, ArgValue::Uint(1ull << 63)}, {k2, ArgValue::Bool(true)}};
  const ArgSetId sa = args.AddSet(a), sb = args.AddSet(b);
  EXPECT_EQ(sa.value, 1u);
  EXPECT_EQ(sb.value, 2u);
  EXPECT_EQ(args.set_end(sa) - args.set_begin(sa), 2u);
  EXPECT_EQ(args.set_end(sb) - args.set_begin(sb), 3u);
  ArgValue v;
  ASSERT_TRUE(args.Find(sa, k1, &v));
  EXPECT_EQ(v.type, ArgType::kInt);
  EXPECT_EQ(v.as_int(), -5);
  ASSERT_TRUE(args.Find(sa, k2, &v));
  EXPECT_DOUBLE_EQ(v.as_double(), 2.5);
  ASSERT_TRUE(args.Find(sb, k1, &v));
  EXPECT_EQ(v.as_uint(), 1ull << 63);
  ASSERT_TRUE(args.Find(sb, k3, &v));
  EXPECT_EQ(v.as_string(), StringId(7));
  EXPECT_FALSE(args.Find(sa, k3, &v));
  EXPECT_FALSE(args.Find(ArgSetId::None(), k1, &v));
}

// AppendRows + EndSet build the same table as AddSet, set for set and row
// for row, also across many sets (the columns grow while sets are added).
TEST(ArgTableTest, RowsWrittenInPlaceMatchAddSet) {
  ArgTable by_span, in_place;
  for (uint32_t set = 0; set < 5000; ++set) {
    std::vector<Arg> args;
    for (uint32_t k = 0; k <= set % 4; ++k) {
      args.push_back({StringId(k + 1), k % 2 == 0 ? ArgValue::Int(-static_cast<int64_t>(set)) : ArgValue::String(StringId(set))});
    }
    const ArgSetId a = by_span.AddSet(args);
    const ArgTable::Rows rows = in_place.AppendRows(args.size());
    for (size_t k = 0; k < args.size(); ++k) {
      rows.key[k] = args[k].key;
      rows.type[k] = args[k].value.type;
      rows.value[k] = args[k].value.bits;
    }
    ASSERT_EQ(in_place.EndSet(), a);
  }
  ASSERT_EQ(in_place.set_count(), by_span.set_count());
  ASSERT_EQ(in_place.size(), by_span.size());
  for (size_t set = 0; set < by_span.set_count(); ++set) {
    const ArgSetId id = ArgSetId::FromIndex(set);
    ASSERT_EQ(in_place.set_begin(id), by_span.set_begin(id)) << set;
    ASSERT_EQ(in_place.set_end(id), by_span.set_end(id)) << set;
  }
  for (uint32_t row = 0; row < by_span.size(); ++row) {
    ASSERT_EQ(in_place.key()[row], by_span.key()[row]) << row;
    ASSERT_EQ(in_place.value(row).type, by_span.value(row).type) << row;
    ASSERT_EQ(in_place.value(row).bits, by_span.value(row).bits) << row;
  }
}

TEST(ArgValueTest, ToInt64) {
  int64_t out = 0;
  EXPECT_TRUE(ArgValue::Double(42.9).ToInt64(&out));
  EXPECT_EQ(out, 42);
  EXPECT_TRUE(ArgValue::Bool(true).ToInt64(&out));
  EXPECT_EQ(out, 1);
  EXPECT_FALSE(ArgValue::String(StringId(1)).ToInt64(&out));
  EXPECT_FALSE(ArgValue::Double(1e300).ToInt64(&out));
}

}  // namespace
}  // namespace stepline
