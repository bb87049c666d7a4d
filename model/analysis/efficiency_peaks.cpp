// The device peak table: parsing and lookup (the text is generated from
// assets/device_peaks.tsv into efficiency_peaks_data.cpp at build time).
#include "model/analysis/efficiency_peaks.h"

#include <charconv>
#include <system_error>

#include "model/analysis/idle_cause_table.h"

namespace stepline::analysis {
namespace {

std::string_view PeaksNextField(std::string_view* line) {
  const size_t tab = line->find('\t');
  std::string_view field = line->substr(0, tab);
  *line = tab == std::string_view::npos ? std::string_view() : line->substr(tab + 1);
  while (!field.empty() && (field.back() == '\r' || field.back() == ' ')) field.remove_suffix(1);
  return field;
}

bool PeaksParseNumber(std::string_view text, double* out) {
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && ptr == text.data() + text.size() && *out > 0;
}

}  // namespace

const DevicePeakTable& DevicePeakTable::Default() {
  static const DevicePeakTable table = [] {
    DevicePeakTable t;
    std::string error;
    Parse(kDevicePeaksTsv, &t, &error);  // a test parses the asset and checks it is well formed
    return t;
  }();
  return table;
}

bool DevicePeakTable::Parse(std::string_view tsv, DevicePeakTable* out, std::string* error) {
  size_t line_no = 0;
  while (!tsv.empty()) {
    const size_t nl = tsv.find('\n');
    std::string_view line = tsv.substr(0, nl);
    tsv = nl == std::string_view::npos ? std::string_view() : tsv.substr(nl + 1);
    ++line_no;
    if (line.empty() || line.front() == '#' || line == "\r") continue;
    DevicePeakRow row;
    row.pattern = std::string(PeaksNextField(&line));
    row.dtype = std::string(PeaksNextField(&line));
    const std::string_view tflops = PeaksNextField(&line);
    const std::string_view tbps = PeaksNextField(&line);
    row.source = std::string(PeaksNextField(&line));
    if (row.pattern.empty() || row.dtype.empty() || row.source.empty() || !PeaksParseNumber(tflops, &row.dense_tflops) ||
        !PeaksParseNumber(tbps, &row.memory_tbps)) {
      *error = "line " + std::to_string(line_no) +
               ": expected PATTERN<TAB>DTYPE<TAB>TFLOPS<TAB>TBPS<TAB>SOURCE with positive numbers";
      return false;
    }
    out->rows_.push_back(std::move(row));
  }
  return true;
}

const DevicePeakRow* DevicePeakTable::Find(std::string_view device_name, std::string_view dtype) const {
  if (device_name.empty()) return nullptr;
  for (const DevicePeakRow& r : rows_) {
    if (r.dtype == dtype && GlobMatch(r.pattern, device_name)) return &r;
  }
  return nullptr;
}

bool DevicePeakTable::KnowsDevice(std::string_view device_name) const {
  for (const DevicePeakRow& r : rows_) {
    if (GlobMatch(r.pattern, device_name)) return true;
  }
  return false;
}

}  // namespace stepline::analysis
