// ArgTable: sets, typed values, lookup.
#include "model/arg_table.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
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
    for (size_t k = 0; k < args.size(); ++k) rows.Set(k, args[k].key, args[k].value.type, args[k].value.bits);
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

// Values whose bits fit in 32 (a kInt within int32, the others below 2^32)
// take the narrow column; the rest are held whole. Either way every value
// reads back bit for bit, at both edges of what fits.
TEST(ArgTableTest, ValuesReadBackWhetherTheyFitIn32BitsOrNot) {
  const std::vector<std::pair<ArgValue, bool>> cases = {
      // value, held whole
      {ArgValue::Int(0), false},
      {ArgValue::Int(-1), false},
      {ArgValue::Int(INT32_MIN), false},
      {ArgValue::Int(INT32_MAX), false},
      {ArgValue::Int(int64_t{INT32_MIN} - 1), true},
      {ArgValue::Int(int64_t{INT32_MAX} + 1), true},
      {ArgValue::Int(INT64_MIN), true},
      {ArgValue::Uint(UINT32_MAX), false},
      {ArgValue::Uint(uint64_t{UINT32_MAX} + 1), true},
      {ArgValue::Uint(UINT64_MAX), true},
      {ArgValue::Double(0.0), false},
      {ArgValue::Double(-0.0), true},
      {ArgValue::Double(2.5), true},
      {ArgValue::Bool(true), false},
      {ArgValue::String(StringId(UINT32_MAX - 1)), false},
      {ArgValue::Json(StringId(3)), false},
      {ArgValue::DecimalString(4294967295u), false},
      {ArgValue::DecimalString(uint64_t{1} << 40), true},
  };
  ArgTable args;
  std::vector<ArgSetId> sets;
  size_t whole = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    const Arg one[] = {{StringId(static_cast<uint32_t>(i + 1)), cases[i].first}};
    sets.push_back(args.AddSet(one));
    whole += cases[i].second ? 1 : 0;
  }
  EXPECT_EQ(args.wide_count(), whole);
  EXPECT_EQ(args.CheckInvariants(), "");
  EXPECT_EQ(ArgTable().CheckInvariants(), "");
  for (size_t i = 0; i < cases.size(); ++i) {
    ArgValue v;
    ASSERT_TRUE(args.Find(sets[i], StringId(static_cast<uint32_t>(i + 1)), &v)) << i;
    EXPECT_EQ(v.type, cases[i].first.type) << i;
    EXPECT_EQ(v.bits, cases[i].first.bits) << i;
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
