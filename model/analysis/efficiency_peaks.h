// Device peaks: the dense peak TFLOP/s of a device for one data type, from
// assets/device_peaks.tsv. The file is embedded into the binary at build time
// (model/analysis/CMakeLists.txt), so the build tree and the installed package
// find the same table without a path.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace stepline::analysis {

// The text of assets/device_peaks.tsv, as built.
extern const std::string_view kDevicePeaksTsv;

struct DevicePeakRow {
  std::string pattern;  // case-insensitive glob over the device name
  std::string dtype;    // "bf16", "fp16", "fp32", "tf32", "fp8", "fp64", "int8"
  double dense_tflops = 0;
  double memory_tbps = 0;
  std::string source;   // the datasheet
};

class DevicePeakTable {
 public:
  // The embedded table (parsed once).
  static const DevicePeakTable& Default();
  // Rows "PATTERN<TAB>DTYPE<TAB>TFLOPS<TAB>TBPS<TAB>SOURCE"; '#' and blank
  // lines skipped. False with `error` naming the line on a malformed row.
  static bool Parse(std::string_view tsv, DevicePeakTable* out, std::string* error);

  // The first row whose pattern matches `device_name` and whose dtype is
  // `dtype`; null when none (an unknown device or a dtype it has no figure for).
  const DevicePeakRow* Find(std::string_view device_name, std::string_view dtype) const;
  // Whether any row names the device (for "device known, dtype not").
  bool KnowsDevice(std::string_view device_name) const;
  const std::vector<DevicePeakRow>& rows() const { return rows_; }

 private:
  std::vector<DevicePeakRow> rows_;
};

}  // namespace stepline::analysis
