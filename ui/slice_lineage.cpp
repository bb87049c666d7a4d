// SliceAncestors, SliceChildCounts and SliceArgsJson; see slice_lineage.h.
#include "ui/slice_lineage.h"

#include "model/text_format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace stepline::ui {

std::vector<SliceId> SliceAncestors(const Trace& trace, SliceId slice) {
  std::vector<SliceId> chain;
  const auto parent = trace.slices().parent();
  // Depth is a uint16, so a chain is never longer; the bound also stops a
  // damaged parent column from looping.
  for (SliceId p = parent[slice.index()]; !p.is_none() && chain.size() <= UINT16_MAX; p = parent[p.index()]) {
    chain.push_back(p);
  }
  std::reverse(chain.begin(), chain.end());
  return chain;
}

ChildCounts SliceChildCounts(const Trace& trace, SliceId slice) {
  const SliceTable& s = trace.slices();
  const size_t i = slice.index();
  const TimeNs end_ns = s.start_ns()[i] + s.dur_ns()[i];
  const uint32_t track_end = trace.tracks().ranges(s.track()[i]).slice_end;
  ChildCounts counts;
  for (size_t j = i + 1; j < track_end && s.start_ns()[j] < end_ns; ++j) {
    if (s.depth()[j] <= s.depth()[i]) continue;  // a sibling at the same start, not inside
    ++counts.descendants;
    if (s.parent()[j] == slice) ++counts.direct;
  }
  return counts;
}

std::string SliceArgsJson(const Trace& trace, SliceId slice) {
  const ArgTable& args = trace.args();
  const ArgSetId set = trace.slices().arg_set()[slice.index()];
  std::string out = "{";
  for (uint32_t r = args.set_begin(set); r < args.set_end(set); ++r) {
    if (out.size() > 1) out += ", ";
    text::AppendJsonString(&out, trace.str(args.key()[r]));
    out += ": ";
    const ArgValue v = args.value(r);
    switch (v.type) {
      case ArgType::kInt: out += std::to_string(v.as_int()); break;
      case ArgType::kUint: out += std::to_string(v.as_uint()); break;
      // A number held for its digits (an id past 2^53): a string, as the exports write it.
      case ArgType::kDecimalString: text::AppendJsonString(&out, std::to_string(v.as_uint())); break;
      case ArgType::kDouble: {
        if (!std::isfinite(v.as_double())) {
          out += "null";  // JSON has no NaN or infinity
          break;
        }
        char buf[40];
        std::snprintf(buf, sizeof buf, "%.17g", v.as_double());
        out += buf;
        break;
      }
      case ArgType::kBool: out += v.as_bool() ? "true" : "false"; break;
      case ArgType::kString: text::AppendJsonString(&out, trace.str(v.as_string())); break;
      case ArgType::kJson: {
        const std::string_view text = trace.str(v.as_string());
        if (text.empty()) {
          out += "null";
        } else {
          out += text;
        }
        break;
      }
    }
  }
  out += "}";
  return out;
}

}  // namespace stepline::ui
