// Labels and swatches for the analysis panels; see analysis_format.h.
#include "ui/analysis_format.h"

#include <imgui.h>

#include <cfloat>
#include <cstdio>

#include "ui/theme.h"
#include "ui/ui_scale.h"

namespace stepline::ui {

const char* CategoryLabel(analysis::TimeCategory c) {
  static constexpr const char* kLabels[analysis::kTimeCategoryCount] = {
      "Compute",     "Collective",  "Memcpy H2D",  "Memcpy D2H",         "Memcpy other", "Memset",
      "Idle: input", "Idle: sync",  "Idle: launch", "Idle: host compute", "Idle: graph", "Idle: other"};
  return kLabels[static_cast<size_t>(c)];
}

const char* CauseLabel(analysis::IdleCause c) {
  static constexpr const char* kLabels[analysis::kIdleCauseCount] = {
      "Input", "Memcpy H2D", "Memcpy D2H", "Sync", "Launch", "Host compute", "Graph", "Other"};
  return kLabels[static_cast<size_t>(c)];
}

uint32_t CauseColor(analysis::IdleCause c) { return theme::kCauseColors[static_cast<size_t>(c)]; }

std::string FitText(const std::string& text, float width, float font_size) {
  ImFont* font = ImGui::GetFont();
  auto text_w = [&](const std::string& t) { return font->CalcTextSizeA(font_size, FLT_MAX, 0.f, t.c_str()).x; };
  if (text_w(text) <= width) return text;
  // The longest prefix that fits with "...", by binary search (widths grow
  // with length): the timeline cuts every visible track name each frame.
  const float dots = text_w("...");
  size_t lo = 0, hi = text.size();
  while (lo < hi) {
    const size_t mid = (lo + hi + 1) / 2;
    if (font->CalcTextSizeA(font_size, FLT_MAX, 0.f, text.data(), text.data() + mid).x + dots <= width) lo = mid;
    else hi = mid - 1;
  }
  // Do not leave half a UTF-8 sequence: cut before a continuation byte.
  while (lo > 0 && (static_cast<unsigned char>(text[lo]) & 0xC0) == 0x80) --lo;
  return text.substr(0, lo) + "...";
}

std::string FitTextTail(const std::string& text, float width, float font_size) {
  ImFont* font = ImGui::GetFont();
  auto w = [&](const char* b, const char* e) { return font->CalcTextSizeA(font_size, FLT_MAX, 0.f, b, e).x; };
  const char* end = text.data() + text.size();
  if (w(text.data(), end) <= width) return text;
  const float dots = w("...", nullptr);
  size_t lo = 0, hi = text.size();  // the fewest leading bytes to drop
  while (lo < hi) {
    const size_t mid = (lo + hi) / 2;
    if (w(text.data() + mid, end) + dots <= width) hi = mid;
    else lo = mid + 1;
  }
  while (lo < text.size() && (static_cast<unsigned char>(text[lo]) & 0xC0) == 0x80) ++lo;
  return "..." + text.substr(lo);
}

std::string PlainCodeSpans(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c != '`') out.push_back(c);
  }
  return out;
}

void SameLineIfFits(float next_w, float spacing) {
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  const float gap = spacing < 0 ? ImGui::GetStyle().ItemSpacing.x : spacing;
  if (ImGui::GetItemRectMax().x + gap + next_w <= right) ImGui::SameLine(0.f, spacing);
}

void ColorSwatch(uint32_t color, float spacing) {
  const float side = theme::kLegendSwatch * UiScale();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float pad = (ImGui::GetTextLineHeight() - side) / 2;
  ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + pad), ImVec2(p.x + side, p.y + pad + side), color);
  ImGui::Dummy(ImVec2(side, ImGui::GetTextLineHeight()));
  ImGui::SameLine(0.f, spacing);
}

void SectionTitle(const char* title) {
  ImGui::Spacing();
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kCardLabel), "%s", title);
  ImGui::Separator();
}

std::string Percent(double part, double whole) {
  if (whole <= 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * part / whole);
  return buf;
}

}  // namespace stepline::ui
