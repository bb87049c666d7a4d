// The timing figures the commands print: milliseconds since a start, and the
// median of repeated measurements (`bench`, `export`, `report`).
#pragma once

#include <algorithm>
#include <chrono>
#include <vector>

namespace stepline::app {

inline double MsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// The middle value, or the mean of the two middle ones; 0 for none.
inline double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n == 0 ? 0 : n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace stepline::app
