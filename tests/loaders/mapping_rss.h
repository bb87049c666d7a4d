// Test helper: how much of one mapping is resident in this process, from
// /proc/self/smaps (the "Rss:" of the mapping that contains `address`).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>

namespace stepline::testing {

inline std::optional<uint64_t> MappingRssBytes(const void* address) {
  std::ifstream smaps("/proc/self/smaps");
  const auto a = reinterpret_cast<uintptr_t>(address);
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    const size_t dash = line.find('-');
    const size_t space = line.find(' ');
    if (dash != std::string::npos && space != std::string::npos && dash < space &&
        line.find_first_not_of("0123456789abcdef") == dash) {  // a mapping's header line
      const uintptr_t begin = std::strtoull(line.substr(0, dash).c_str(), nullptr, 16);
      const uintptr_t end = std::strtoull(line.substr(dash + 1, space - dash - 1).c_str(), nullptr, 16);
      inside = begin <= a && a < end;
    } else if (inside && line.rfind("Rss:", 0) == 0) {
      return std::strtoull(line.c_str() + 4, nullptr, 10) * 1024;
    }
  }
  return std::nullopt;
}

}  // namespace stepline::testing
