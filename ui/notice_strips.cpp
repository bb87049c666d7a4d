// NoticeStrips: the data-loss banner, its Details window and the demo
// strip; see notice_strips.h.
#include "ui/notice_strips.h"

#include <imgui.h>

#include <algorithm>

#include "ui/load_warnings.h"
#include "ui/theme.h"
#include "ui/window_fit.h"
#include "ui/ui_scale.h"

namespace stepline::ui {
namespace {

// A filled strip of wrapped `text` across the available width, with one
// small button on its right; true when the button was pressed.
bool Strip(const std::string& text, uint32_t background, uint32_t color, const char* button) {
  const float pad = 5.f * UiScale();
  const float width = ImGui::GetContentRegionAvail().x;
  const ImGuiStyle& style = ImGui::GetStyle();
  const float button_w = ImGui::CalcTextSize(button).x + 2 * style.FramePadding.x;
  const float wrap = std::max(50.f, width - button_w - 4 * pad);
  const ImVec2 text_size = ImGui::CalcTextSize(text.c_str(), nullptr, false, wrap);
  const float height = std::max(text_size.y, ImGui::GetFrameHeight()) + 2 * pad;
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(p, ImVec2(p.x + width, p.y + height), background);
  dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(), ImVec2(p.x + 2 * pad, p.y + pad), color, text.c_str(), nullptr,
              wrap);
  ImGui::SetCursorScreenPos(ImVec2(p.x + width - button_w - pad, p.y + (height - ImGui::GetFrameHeight()) * 0.5f));
  const bool pressed = ImGui::Button(button);
  ImGui::SetCursorScreenPos(ImVec2(p.x, p.y + height));
  ImGui::Dummy(ImVec2(width, 0));
  return pressed;
}

}  // namespace

void DrawDataLossBanner(const Trace& trace, bool* details_open, const std::string& prefix) {
  const std::string text = DataLossBanner(trace);
  if (text.empty()) return;
  ImGui::PushID(prefix.c_str());
  if (Strip(prefix + text, theme::kDataLossBackground, theme::kDataLossText, "Details")) *details_open = !*details_open;
  ImGui::PopID();
}

void DrawDiagnosticsWindow(const Trace& trace, const std::string& title, bool* open, const char* id) {
  if (!*open) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  // Inside the window however small it is.
  ImGui::SetNextWindowSize(ImVec2(std::min(820.f, vp->Size.x - 40.f), std::min(320.f, vp->Size.y - 80.f)),
                           ImGuiCond_Appearing);
  ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + vp->Size.x * 0.5f, vp->Pos.y + 80.f), ImGuiCond_Appearing,
                          ImVec2(0.5f, 0.f));
  ImGui::SetNextWindowBgAlpha(1.f);
  const std::string name = "Load diagnostics: " + title + "###" + id;
  if (ImGui::Begin(name.c_str(), open, ImGuiWindowFlags_NoCollapse)) {
    KeepWindowInsideViewport();
    const std::vector<DiagnosticRow> rows = DiagnosticRows(trace.diagnostics());
    if (rows.empty()) ImGui::TextDisabled("No problems were met while loading this file.");
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollY |
                                  ImGuiTableFlags_SizingFixedFit;
    if (!rows.empty() && ImGui::BeginTable("##diagnostics", 5, flags)) {
      ImGui::TableSetupScrollFreeze(0, 1);
      ImGui::TableSetupColumn("Severity");
      ImGui::TableSetupColumn("Code");
      ImGui::TableSetupColumn("Count");
      ImGui::TableSetupColumn("First byte");
      ImGui::TableSetupColumn("Message", ImGuiTableColumnFlags_WidthStretch);
      ImGui::TableHeadersRow();
      for (const DiagnosticRow& r : rows) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        if (r.severity == "data_loss") {
          ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kDataLossText), "data loss");
        } else {
          ImGui::TextUnformatted(r.severity.c_str());
        }
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(r.code.c_str());
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(GroupDigits(r.count).c_str());
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(r.first_offset == Diagnostics::kNoOffset ? "-" : GroupDigits(r.first_offset).c_str());
        ImGui::TableNextColumn();
        ImGui::TextWrapped("%s", r.message.c_str());
      }
      ImGui::EndTable();
    }
  }
  ImGui::End();
}

bool IsDemoTrace(const Trace& trace) { return trace.info().format == "demo"; }

std::string DemoStripText(const std::string& title) {
  constexpr std::string_view kPrefix = "demo: ";
  std::string scenario = title.rfind(kPrefix, 0) == 0 ? title.substr(kPrefix.size()) : title;
  return "Demo trace: " + (scenario.empty() ? std::string("built-in") : scenario) +
         " training loop. Open your own trace: Ctrl+O, or drop a file here";
}

bool DrawDemoStrip(const std::string& title) {
  return Strip(DemoStripText(title), theme::kDemoStripBackground, theme::kDemoStripText, "Open...");
}

}  // namespace stepline::ui
