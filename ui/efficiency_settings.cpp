// EfficiencySettings: the fields, their checks and Apply (efficiency_settings.h).
#include "ui/efficiency_settings.h"

#include <imgui.h>

#include <algorithm>
#include <iterator>

#include "model/text_format.h"
#include "ui/input/test_events.h"
#include "ui/theme.h"
#include "ui/ui_scale.h"

namespace stepline::ui {
namespace {

constexpr int kEfficiencyDtypeCount = static_cast<int>(std::size(analysis::kPeakDtypes));
// The batch size's and the peak's limits are the command line's (app/cli/command_options.cpp).
constexpr long long kMaxBatchSize = 1LL << 40;
constexpr double kMaxPeakTflops = 1e9;

const char* EfficiencyDtypeLabel(int index) {
  static std::string labels[kEfficiencyDtypeCount + 1];
  if (labels[0].empty()) {
    labels[0] = "the trace's (matmul FLOPs)";
    for (int i = 0; i < kEfficiencyDtypeCount; ++i) labels[i + 1] = std::string(analysis::kPeakDtypes[i]);
  }
  return labels[index].c_str();
}

}  // namespace

std::optional<analysis::EfficiencyOptions> EfficiencyOptionsOfFields(double peak_tflops, int dtype_index,
                                                                      long long batch_size, std::string* error) {
  if (!(peak_tflops >= 0) || peak_tflops > kMaxPeakTflops) {
    *error = "The peak is a number of TFLOP/s from 0 (the device table's) up.";
    return std::nullopt;
  }
  if (dtype_index < 0 || dtype_index > kEfficiencyDtypeCount) {
    *error = "Pick a dtype from the list.";
    return std::nullopt;
  }
  if (batch_size < 0 || batch_size > kMaxBatchSize) {
    *error = "The batch size is a count of samples per step, 0 for none.";
    return std::nullopt;
  }
  error->clear();
  analysis::EfficiencyOptions o;
  o.peak_tflops = peak_tflops;
  o.peak_dtype = dtype_index == 0 ? std::string() : std::string(analysis::kPeakDtypes[dtype_index - 1]);
  o.batch_size = batch_size;
  return o;
}

void EfficiencySettings::Open(const analysis::EfficiencyOptions& current, const analysis::EfficiencyAnalysis& shown) {
  open_ = true;
  appear_ = true;
  error_.clear();
  peak_tflops_ = current.peak_tflops;
  dtype_index_ = 0;
  for (int i = 0; i < kEfficiencyDtypeCount; ++i) {
    if (analysis::kPeakDtypes[i] == current.peak_dtype) dtype_index_ = i + 1;
  }
  batch_size_ = static_cast<int>(std::min<int64_t>(current.batch_size, 1'000'000'000));
  const std::string device = shown.device_name.empty() ? std::string("an unnamed device") : shown.device_name;
  source_ = shown.peak_tflops < 0
                ? "No peak for " + device + (shown.peak_dtype.empty() ? "" : " (" + shown.peak_dtype + ")") +
                      ": MFU stays unknown until you give one."
                : "Now: " + text::FormatFixed(shown.peak_tflops, 1) + " TFLOP/s " + shown.peak_dtype + " for " +
                      device + ", from " + shown.peak_datasheet + ".";
  TestEvent("efficiency_settings.open");
}

std::optional<analysis::EfficiencyOptions> EfficiencySettings::Draw() {
  if (!open_) return std::nullopt;
  const float s = UiScale();
  if (appear_) {
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + vp->Size.x * 0.5f, vp->Pos.y + vp->Size.y * 0.3f), ImGuiCond_Always,
                            ImVec2(0.5f, 0.f));
    ImGui::SetNextWindowFocus();
    appear_ = false;
  }
  std::optional<analysis::EfficiencyOptions> applied;
  if (ImGui::Begin("Efficiency settings", &open_,
                   ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings)) {
    ImGui::PushTextWrapPos(420 * s);
    ImGui::TextWrapped("%s", source_.c_str());
    ImGui::PopTextWrapPos();
    ImGui::Spacing();
    const float field_w = 200 * s;
    ImGui::SetNextItemWidth(field_w);
    ImGui::InputDouble("Peak TFLOP/s (0: the table's)", &peak_tflops_, 0, 0, "%.1f");
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("The device's dense peak for MFU (as --peak-tflops); 0: the one assets/device_peaks.tsv gives");
    }
    ImGui::SetNextItemWidth(field_w);
    ImGui::Combo(
        "Peak dtype", &dtype_index_,
        [](void*, int i, const char** out) {
          *out = EfficiencyDtypeLabel(i);
          return true;
        },
        nullptr, kEfficiencyDtypeCount + 1);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Which of the device's peaks the table gives (as --peak-dtype)");
    ImGui::SetNextItemWidth(field_w);
    ImGui::InputInt("Batch size (0: none)", &batch_size_);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Samples per step (as --batch-size); 0: none, no samples/s");
    if (!error_.empty()) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kErrorText), "%s", error_.c_str());
    ImGui::Spacing();
    if (ImGui::Button("Apply")) {
      applied = EfficiencyOptionsOfFields(peak_tflops_, dtype_index_, batch_size_, &error_);
      if (applied) {
        open_ = false;
        TestEvent("efficiency_settings.apply");
      }
    }
    ImGui::SameLine();
    if (ImGui::Button("Defaults")) {  // the table's peak, the trace's dtype, no batch size
      peak_tflops_ = 0;
      dtype_index_ = 0;
      batch_size_ = 0;
    }
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) open_ = false;
    ImGui::TextDisabled("Apply analyses the trace again; the settings are kept for this file.");
  }
  ImGui::End();
  return applied;
}

}  // namespace stepline::ui
