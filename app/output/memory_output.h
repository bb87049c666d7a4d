// The memory part of `stepline report`: the `memory` JSON object,
// memory.csv (the allocation table) and the text section.
#pragma once

#include <iosfwd>
#include <string>

#include "model/analysis/report.h"

namespace stepline::app {

// Appends `,"memory":{...}` (an object keyed by pool name; {} without memory events).
void AppendMemoryJson(const analysis::Report& report, std::string* out);
// memory.csv: device,op,addr,bytes,alloc_ns,free_ns,lifetime_ns; unknown cells empty
// (alloc_ns: allocated before the capture; free_ns and lifetime_ns: never freed in it).
void AppendMemoryCsv(const analysis::Report& report, std::string* out);
// "Memory" section: per pool the peaks, growth and the top operators at the peak.
void WriteMemoryText(const analysis::Report& report, TimeNs origin_ns, std::ostream& out);

}  // namespace stepline::app
