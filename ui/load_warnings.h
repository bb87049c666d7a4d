// LoadWarnings: what a trace's diagnostics tell a reader, as text: one banner
// line when part of the input did not make it into the model (severity
// data-loss, e.g. a cut file), and one row per diagnostic for the Details
// list. Shared by the window's banner, the compare view, `stepline report`
// and `stepline diff`, so all of them say the same thing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/trace.h"

namespace stepline::ui {

// "This file ends early at byte 300,000 (gzip stream cut): events after the
// cut are missing; the analysis covers what was loaded (the first 656.5 ms)."
// Empty when no diagnostic has severity data-loss.
std::string DataLossBanner(const Trace& trace);

// One diagnostic, data-loss first, then in code order.
struct DiagnosticRow {
  std::string severity;  // "data_loss", "error", "warning", "info"
  std::string code;      // stable name, e.g. "truncated"
  uint64_t count = 0;
  uint64_t first_offset = Diagnostics::kNoOffset;  // byte offset in the decompressed input
  std::string message;   // the first occurrence's detail, else the code's description
};
std::vector<DiagnosticRow> DiagnosticRows(const Diagnostics& diagnostics);

// "1,234,567".
std::string GroupDigits(uint64_t n);

}  // namespace stepline::ui
