// Whole-trace search; see search_matches.h.
#include "ui/search_matches.h"

#include <algorithm>
#include <regex>

#include "model/ascii_case.h"

namespace stepline::ui {

SearchResult ComputeSearchMatches(const Trace& trace, std::string_view text, bool regex) {
  SearchResult result;
  if (text.empty()) return result;
  const StringPool& pool = trace.strings();
  std::vector<bool> name_matches(pool.size(), false);
  if (regex) {
    std::regex re;
    try {  // std::regex reports a bad pattern only by throwing
      re = std::regex(std::string(text), std::regex::ECMAScript | std::regex::icase | std::regex::optimize);
    } catch (const std::regex_error& e) {
      result.error = std::string("bad regex: ") + e.what();
      return result;
    }
    for (size_t i = 1; i < pool.size(); ++i) {
      const std::string_view s = pool.Get(StringId::FromIndex(i));
      name_matches[i] = std::regex_search(s.begin(), s.end(), re);
    }
  } else {
    for (size_t i = 1; i < pool.size(); ++i) {
      const std::string_view s = pool.Get(StringId::FromIndex(i));
      name_matches[i] = ContainsIgnoringCase(s, text);
    }
  }
  const auto names = trace.slices().name();
  for (uint32_t r = 0; r < names.size(); ++r) {
    if (name_matches[names[r].index()]) result.rows.push_back(r);
  }
  return result;
}

SliceId StepSearch(const std::vector<uint32_t>& matches, SliceId current, bool backwards) {
  if (matches.empty()) return SliceId::None();
  if (current.is_none()) return SliceId(backwards ? matches.back() : matches.front());
  if (!backwards) {
    auto it = std::upper_bound(matches.begin(), matches.end(), current.value);
    return SliceId(it == matches.end() ? matches.front() : *it);
  }
  auto it = std::lower_bound(matches.begin(), matches.end(), current.value);
  return SliceId(it == matches.begin() ? matches.back() : *(it - 1));
}

size_t MatchPosition(const std::vector<uint32_t>& matches, SliceId current) {
  if (current.is_none()) return 0;
  auto it = std::lower_bound(matches.begin(), matches.end(), current.value);
  return it != matches.end() && *it == current.value ? static_cast<size_t>(it - matches.begin()) + 1 : 0;
}

SliceId NearestMatch(const Trace& trace, const std::vector<uint32_t>& matches, TimeRange view) {
  if (matches.empty()) return SliceId::None();
  // Twice the middles: integer math without halving.
  const TimeNs view_mid2 = view.start_ns + view.end_ns;
  const auto& start = trace.slices().start_ns();
  const auto& dur = trace.slices().dur_ns();
  uint32_t best = matches.front();
  TimeNs best_d = -1;
  for (uint32_t row : matches) {
    const TimeNs mid2 = 2 * start[row] + dur[row];
    const TimeNs d = mid2 > view_mid2 ? mid2 - view_mid2 : view_mid2 - mid2;
    if (best_d < 0 || d < best_d) {
      best = row;
      best_d = d;
    }
  }
  return SliceId(best);
}

}  // namespace stepline::ui
