// DrawXlaModulesTable, DeviceOpsTitle and DeviceWord (see xla_modules_table.h).
#include "ui/xla_modules_table.h"

#include <imgui.h>

#include <string>

#include "ui/timeline/time_ruler.h"

namespace stepline::ui {

const char* DeviceOpsTitle(const analysis::Report& report) {
  const int p = report.primary_device_index;
  const bool gpu = p < 0 || report.devices[static_cast<size_t>(p)].kind == analysis::DeviceKind::kGpu ||
                   report.devices[static_cast<size_t>(p)].kind == analysis::DeviceKind::kUnknown;
  return gpu ? "GPU kernels" : "Device ops";
}

std::string DeviceWord(const analysis::Report& report) {
  const int p = report.primary_device_index;
  if (p < 0) return "GPU";
  switch (report.devices[static_cast<size_t>(p)].kind) {
    case analysis::DeviceKind::kTpu: return "TPU";
    case analysis::DeviceKind::kOther: return "Device";
    default: return "GPU";
  }
}

void DrawXlaModulesTable(const analysis::Report& report) {
  const auto& modules = report.xla.modules;
  if (modules.empty()) return;
  const std::string header = "XLA modules (" + std::to_string(modules.size()) + ")###xla_modules";
  if (!ImGui::CollapsingHeader(header.c_str(), ImGuiTreeNodeFlags_DefaultOpen)) return;
  const float rows = static_cast<float>(std::min<size_t>(modules.size(), 6) + 1);
  const ImVec2 size(0, rows * ImGui::GetTextLineHeightWithSpacing() + 8);
  constexpr ImGuiTableFlags kFlags =
      ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollY | ImGuiTableFlags_Resizable;
  if (!ImGui::BeginTable("##xla_modules", 5, kFlags, size)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("Module", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn("Executions", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("Total", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("Mean", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("Device ops", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableHeadersRow();
  for (const analysis::XlaModuleStat& m : modules) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(m.name.data(), m.name.data() + m.name.size());
    ImGui::TableNextColumn();
    // No XLA Modules row: the executions are unknown, the times are its ops'.
    ImGui::TextUnformatted(m.executions > 0 ? std::to_string(m.executions).c_str() : "-");
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(FormatDuration(m.total_ns).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(FormatDuration(m.mean_ns).c_str());
    ImGui::TableNextColumn();
    ImGui::Text("%llu", static_cast<unsigned long long>(m.ops));
  }
  ImGui::EndTable();
}

}  // namespace stepline::ui
