// EfficiencySettings: the small window where the device's peak (TFLOP/s and
// its dtype) and the batch size are set for the trace on screen, the window's
// form of `report --peak-tflops X --peak-dtype T --batch-size N`. Apply hands
// the options to the app, which analyses the trace again with them and keeps
// them for the trace (app/gui/efficiency_store.h). Opened from the overview's
// MFU and samples/s tiles and from View > Efficiency settings.
#pragma once

#include <optional>
#include <string>

#include "model/analysis/efficiency.h"

namespace stepline::ui {

// The fields as typed: peak 0 is the device table's, dtype index 0 the
// trace's own dtype (then kPeakDtypes[index - 1]), batch 0 none. nullopt with
// `error` set when a field is out of range.
std::optional<analysis::EfficiencyOptions> EfficiencyOptionsOfFields(double peak_tflops, int dtype_index,
                                                                      long long batch_size, std::string* error);

class EfficiencySettings {
 public:
  // Opens it with `current` (what the analysis on screen used) in its fields;
  // `shown` is that analysis' result, for the line saying where the peak comes from.
  void Open(const analysis::EfficiencyOptions& current, const analysis::EfficiencyAnalysis& shown);
  bool is_open() const { return open_; }
  void Close() { open_ = false; }
  // Draws it while open; the options to analyse with on the frame Apply is
  // pressed (the window closes then), else nullopt.
  std::optional<analysis::EfficiencyOptions> Draw();

 private:
  bool open_ = false;
  bool appear_ = false;  // placed and focused on its first frame
  double peak_tflops_ = 0;
  int dtype_index_ = 0;
  int batch_size_ = 0;
  std::string source_;  // "989.4 TFLOP/s bf16 from NVIDIA H100 datasheet (SXM)", or why none
  std::string error_;
};

}  // namespace stepline::ui
