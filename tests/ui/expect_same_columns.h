// Per-pixel column checks shared by the counter and Memory row tests: NaN
// (nothing drawn) must match NaN, every other column exactly.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace stepline::ui {

inline void ExpectSameColumns(const std::vector<float>& got, const std::vector<float>& want, const std::string& where) {
  ASSERT_EQ(got.size(), want.size()) << where;
  for (size_t c = 0; c < got.size(); ++c) {
    if (std::isnan(want[c])) {
      ASSERT_TRUE(std::isnan(got[c])) << where << " column " << c << " got " << got[c];
    } else {
      ASSERT_EQ(got[c], want[c]) << where << " column " << c;
    }
  }
}

}  // namespace stepline::ui
