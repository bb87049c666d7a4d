// DrawNotesOverlay; see notes_overlay.h.
#include "ui/notes/notes_overlay.h"

#include <algorithm>

#include "ui/theme.h"
#include "ui/ui_scale.h"

namespace stepline::ui {
namespace {

using theme::WithAlpha;

// The note's text on a chip of its colour, clipped to `max_w`; dark text
// reads on every note colour in both themes.
void DrawLabel(ImDrawList* dl, float x, float y, float max_w, const Note& note) {
  if (note.text.empty() || max_w < 8) return;
  const float pad = 3.f * UiScale();
  const ImVec2 size = ImGui::CalcTextSize(note.text.c_str());
  const float w = std::min(size.x + 2 * pad, max_w);
  dl->AddRectFilled(ImVec2(x, y), ImVec2(x + w, y + size.y + 2 * pad), WithAlpha(note.color, 230), 2.f);
  const ImVec4 clip(x, y, x + w - pad, y + size.y + 2 * pad);
  dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(), ImVec2(x + pad, y + pad), theme::kSliceText, note.text.c_str(),
              nullptr, 0.f, &clip);
}

}  // namespace

void DrawNotesOverlay(ViewState& state, ImDrawList* dl, float x0, float label_y, float x1, float y1) {
  const Viewport& vp = state.viewport;
  const ImVec2 mouse = ImGui::GetMousePos();
  state.notes.cursor_ns.reset();
  if (ImGui::IsWindowHovered() && mouse.x >= x0 && mouse.x < x1 && mouse.y >= label_y && mouse.y < y1) {
    state.notes.cursor_ns = vp.XToTime(mouse.x - x0);
  }
  if (state.notes.items.empty()) return;
  const float s = UiScale();
  const float line_h = ImGui::GetFontSize() + 6.f * s;
  dl->PushClipRect(ImVec2(x0, label_y), ImVec2(x1, y1), true);
  // Labels stack in rows so neighbouring notes do not cover each other.
  int label_row = 0;
  for (const Note& note : state.notes.items) {
    const float xa = x0 + static_cast<float>(vp.TimeToX(note.start_ns));
    const float xb = x0 + static_cast<float>(vp.TimeToX(note.end_ns));
    if (xb < x0 - 1 || xa > x1 + 1) continue;  // out of view
    const float ly = label_y + static_cast<float>(label_row % 3) * line_h;
    ++label_row;
    if (note.is_flag) {
      dl->AddLine(ImVec2(xa, label_y), ImVec2(xa, y1), WithAlpha(note.color, 220), 2.f * s);
      const float f = theme::kNoteFlagSize * s;
      dl->AddTriangleFilled(ImVec2(xa, ly), ImVec2(xa + f * 1.4f, ly + f / 2), ImVec2(xa, ly + f), note.color);
      DrawLabel(dl, xa + f * 1.6f, ly, x1 - xa - f * 1.6f, note);
      continue;
    }
    const float left = std::max(xa, x0), right = std::min(std::max(xb, xa + 1.f), x1);
    dl->AddRectFilled(ImVec2(left, label_y), ImVec2(right, y1), WithAlpha(note.color, theme::kNoteBandAlpha));
    dl->AddLine(ImVec2(xa, label_y), ImVec2(xa, y1), WithAlpha(note.color, 200), 1.5f * s);
    dl->AddLine(ImVec2(xb, label_y), ImVec2(xb, y1), WithAlpha(note.color, 200), 1.5f * s);
    DrawLabel(dl, left + 2 * s, ly, x1 - left - 2 * s, note);  // may run past a narrow band
  }
  dl->PopClipRect();
}

std::string NotesCaptionPart(const NoteSet& notes, TimeRange view) {
  constexpr size_t kMaxNamed = 3;
  std::string names;
  size_t in_view = 0;
  for (const Note& n : notes.items) {
    if (n.end_ns < view.start_ns || n.start_ns > view.end_ns) continue;
    if (++in_view > kMaxNamed) continue;
    if (!names.empty()) names += "; ";
    names += n.text.empty() ? (n.is_flag ? "(flag)" : "(note)") : n.text;
  }
  if (in_view == 0) return {};
  if (in_view > kMaxNamed) names += " +" + std::to_string(in_view - kMaxNamed) + " more";
  return "  |  notes: " + names;
}

}  // namespace stepline::ui
