// CompareView: runs, menu bar, status and layout; see compare_view.h.
//
// Layout: menu bar and status lines on top; the left column holds the
// summary table over the breakdown chart; the right holds the step selector
// and the aligned timelines (A over B) over the ops diff table.
#include "ui/compare/compare_view.h"

#include <imgui.h>

#include <algorithm>

#include "ui/analysis_format.h"
#include "ui/compare/compare_summary.h"
#include "ui/compare/compare_theme.h"
#include "ui/compare/op_diff_highlight.h"

namespace stepline::ui {

namespace {
float Scale() { return ImGui::GetFontSize() / 13.f; }
constexpr int kKeyF12 = 301;  // GLFW_KEY_F12; ImGui 1.86 indexes keys by backend codes
}  // namespace

void CompareView::SetRuns(std::shared_ptr<const TimelineData> a, std::string title_a,
                          std::shared_ptr<const TimelineData> b, std::string title_b) {
  states_[0] = ViewState{};
  states_[1] = ViewState{};
  states_[0].data = std::move(a);
  states_[1].data = std::move(b);
  titles_[0] = std::move(title_a);
  titles_[1] = std::move(title_b);
  Recompare();
  timelines_.SelectSteps(states_[0], states_[1], comparison_, comparison_.a.first_full_step,
                         comparison_.b.first_full_step);
}

void CompareView::SetNormalizeNames(bool normalize) {
  normalize_names_ = normalize;
  Recompare();
}

void CompareView::Recompare() {
  ops_.Reset();
  for (ViewState& s : states_) HighlightOpNames(s, {}, false);
  if (!has_runs()) {
    comparison_ = analysis::Comparison{};
    return;
  }
  analysis::CompareOptions options;
  options.normalize_names = normalize_names_;
  const analysis::CompareSource sa{titles_[0], states_[0].trace()->span()};
  const analysis::CompareSource sb{titles_[1], states_[1].trace()->span()};
  comparison_ = analysis::Compare(states_[0].data->analysis.report, states_[1].data->analysis.report, options, sa, sb);
}

void CompareView::HighlightSelectedOp() {
  const int sel = ops_.selected();
  if (sel < 0 || static_cast<size_t>(sel) >= comparison_.ops.size()) {
    for (ViewState& s : states_) HighlightOpNames(s, {}, false);
    return;
  }
  const analysis::OpDiffRow& row = comparison_.ops[sel];
  for (ViewState& s : states_) {
    const std::vector<StringId> names =
        MatchDiffRowNames(s.data->analysis, row.name, row.kind, comparison_.names_normalized);
    HighlightOpNames(s, names, analysis::IsDeviceOpKind(row.kind));
  }
  RevealHighlightedOp();
}

// When no occurrence is in view at a drawable width (at a wide zoom they
// fold into grey runs), frames the first one at or after the aligned step of
// the first run that has the op, about a twentieth of the view wide; the
// other run follows by sync. So a selected row always shows something.
void CompareView::RevealHighlightedOp() {
  for (int side = 0; side < 2; ++side) {
    ViewState& s = states_[side];
    if (s.op_occurrences.empty()) continue;
    const auto starts = s.trace()->slices().start_ns();
    const auto durs = s.trace()->slices().dur_ns();
    const Viewport& vp = s.viewport;
    const TimeNs origin = side == 0 ? timelines_.alignment().origin_a : timelines_.alignment().origin_b;
    uint32_t best = s.op_occurrences.front();
    bool have_after = false;
    for (uint32_t row : s.op_occurrences) {
      const bool in_view = starts[row] < vp.visible.end_ns && starts[row] + durs[row] > vp.visible.start_ns;
      if (in_view && static_cast<double>(durs[row]) * vp.px_per_ns() >= theme::kMinSlicePx) return;
      if (starts[row] >= origin && (!have_after || starts[row] < starts[best])) {
        best = row;
        have_after = true;
      }
    }
    const DurNs dur = std::max<DurNs>(durs[best], 1000);
    s.selected = SliceId(best);
    s.request_fit = TimeRange{starts[best] - 10 * dur, starts[best] + 11 * dur};
    s.request_scroll_to_selection = true;
    return;
  }
}

CompareRequests CompareView::Draw(const CompareStatus& status, QuadRenderer* renderer) {
  CompareRequests req;
  ImGuiIO& io = ImGui::GetIO();
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->Pos);
  ImGui::SetNextWindowSize(vp->Size);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_MenuBar |
                                 ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse;
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0.f);
  ImGui::Begin("Stepline compare", nullptr, flags);
  ImGui::PopStyleVar();
  if (ImGui::IsKeyPressed(kKeyF12, false)) req.save_screenshot = true;
  if (io.KeyCtrl && ImGui::IsKeyPressed('O', false)) req.open_dialog = true;
  if (io.KeyCtrl && !io.WantTextInput) {
    for (ImWchar ch : io.InputQueueCharacters) {
      if (ch == '+' || ch == '=') io.FontGlobalScale = std::min(2.5f, io.FontGlobalScale * 1.1f);
      if (ch == '-') io.FontGlobalScale = std::max(0.75f, io.FontGlobalScale / 1.1f);
    }
  }
  DrawMenuBar(status, &req);
  DrawStatus(status, &req);
  if (!has_runs()) {
    ImGui::TextDisabled("Nothing to compare yet.");
    ImGui::End();
    toast_.Draw(status.notice, status.capturing);
    return req;
  }
  const float s = Scale();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float left_w = std::clamp(theme::kCompareLeftWidth * s, 300.f, std::max(300.f, avail.x * 0.4f));
  ImGui::BeginChild("##compare_left", ImVec2(left_w, avail.y), true);
  DrawLeftColumn(ImGui::GetContentRegionAvail().x, ImGui::GetContentRegionAvail().y);
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginGroup();
  const float right_w = ImGui::GetContentRegionAvail().x;
  const float ops_h = std::clamp(theme::kCompareOpsHeight * s, 120.f, std::max(120.f, avail.y * 0.32f));
  timelines_.Draw(states_, titles_, comparison_, right_w, avail.y - ops_h - ImGui::GetStyle().ItemSpacing.y, renderer);
  ImGui::BeginChild("##ops_diff", ImVec2(right_w, 0), true);
  const size_t counts[2] = {states_[0].op_occurrences.size(), states_[1].op_occurrences.size()};
  bool normalize = normalize_names_;
  const OpsDiffTable::Event ev = ops_.Draw(comparison_, &normalize, counts);
  ImGui::EndChild();
  ImGui::EndGroup();
  ImGui::End();
  toast_.Draw(status.notice, status.capturing);
  // After drawing: a new comparison must not change the rows under the table mid-frame.
  if (ev.normalize_changed) SetNormalizeNames(normalize);
  if (ev.selected >= 0 || ev.cleared) HighlightSelectedOp();
  return req;
}

void CompareView::DrawLeftColumn(float width, float height) {
  SectionTitle("Summary: B against A (green: B better, red: B worse)");
  DrawCompareSummary(comparison_);
  SectionTitle("Step time breakdown");
  const float chart_h = std::max(theme::kCompareChartHeight * Scale(), height - ImGui::GetCursorPosY() - 8);
  const int clicked = chart_.Draw(comparison_, timelines_.step(0), timelines_.step(1), width, chart_h);
  if (clicked >= 0) SelectStep(clicked);
}

void CompareView::DrawMenuBar(const CompareStatus& status, CompareRequests* req) {
  if (!ImGui::BeginMenuBar()) return;
  const bool busy = status.load[0].loading || status.load[1].loading;
  if (ImGui::BeginMenu("File")) {
    if (ImGui::MenuItem("Open alone...", "Ctrl+O")) req->open_dialog = true;
    for (int side = 0; side < 2; ++side) {
      const char* label = side == 0 ? "Replace A..." : "Replace B...";
      if (ImGui::MenuItem(label, nullptr, false, !busy)) req->replace_dialog = side;
      const char* recent_label = side == 0 ? "Replace A with recent" : "Replace B with recent";
      if (ImGui::BeginMenu(recent_label, !busy && !status.recent.empty())) {
        for (const std::string& path : status.recent) {
          if (ImGui::MenuItem(path.c_str())) {
            req->replace_side = side;
            req->replace_path = path;
          }
        }
        ImGui::EndMenu();
      }
    }
    if (ImGui::MenuItem("Swap A and B", nullptr, false, !busy)) req->swap = true;
    ImGui::Separator();
    if (ImGui::MenuItem("Close compare (show A alone)")) req->close = true;
    if (ImGui::MenuItem("Quit")) req->quit = true;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("View")) {
    bool normalize = normalize_names_;
    if (ImGui::MenuItem("Normalize op names", nullptr, &normalize)) SetNormalizeNames(normalize);
    if (ImGui::MenuItem("Align on the first full steps")) {
      timelines_.SelectSteps(states_[0], states_[1], comparison_, comparison_.a.first_full_step,
                             comparison_.b.first_full_step);
    }
    float& text_scale = ImGui::GetIO().FontGlobalScale;
    ImGui::SetNextItemWidth(160);
    ImGui::SliderFloat("Text size", &text_scale, 0.75f, 2.5f, "%.2fx");
    ImGui::Separator();
    if (ImGui::MenuItem("Save screenshot", "F12")) req->save_screenshot = true;
    ImGui::EndMenu();
  }
  // Buttons for what the menu hides: swapping and leaving are frequent.
  ImGui::BeginDisabled(busy);
  if (ImGui::SmallButton("Swap A/B")) req->swap = true;
  ImGui::EndDisabled();
  if (ImGui::SmallButton("Close compare")) req->close = true;
  const std::string title = "A: " + titles_[0] + "   vs   B: " + titles_[1];
  const float title_w = ImGui::CalcTextSize(title.c_str()).x;
  ImGui::SameLine(std::max(ImGui::GetCursorPosX() + 20, ImGui::GetWindowWidth() - title_w - 16));
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kRunA), "A: %s", titles_[0].c_str());
  ImGui::SameLine();
  ImGui::TextDisabled("vs");
  ImGui::SameLine();
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kRunB), "B: %s", titles_[1].c_str());
  ImGui::EndMenuBar();
}

void CompareView::DrawStatus(const CompareStatus& status, CompareRequests* req) {
  for (int side = 0; side < 2; ++side) {
    const CompareStatus::Load& l = status.load[side];
    if (!l.loading) continue;
    ImGui::PushID(side);
    const std::string label = "Loading " + l.name;
    ImGui::TextUnformatted(label.c_str());
    ImGui::SameLine();
    ImGui::ProgressBar(l.progress < 0 ? 0.f : static_cast<float>(l.progress), ImVec2(240, 0));
    ImGui::SameLine();
    if (ImGui::SmallButton("Cancel")) req->cancel_load = true;
    ImGui::PopID();
  }
  if (!status.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(theme::kErrorText));
    ImGui::TextWrapped("%s", status.error.c_str());
    ImGui::PopStyleColor();
    ImGui::SameLine();
    if (ImGui::SmallButton("Dismiss")) req->dismiss_error = true;
  }
}

}  // namespace stepline::ui
