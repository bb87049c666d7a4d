// CompareView: runs, layout, the panels' menus, caption, menu bar and status;
// see compare_view.h.
//
// Layout: menu bar and status lines on top; the left column holds the
// summary table over the breakdown chart; the right holds the step selector
// and the aligned timelines (A over B) over the ops diff table; the caption
// strip, when on, runs along the bottom.
//
// [SECTION] Runs and op highlighting
// [SECTION] Frame
// [SECTION] Panels and their menus
// [SECTION] Menu bar and status
#include "ui/input/key_codes.h"
#include "ui/input/window_keys.h"
#include "ui/compare/compare_view.h"

#include <imgui.h>

#include <algorithm>
#include <cstring>

#include "ui/analysis_format.h"
#include "ui/caption.h"
#include "ui/compare/compare_chart_svg.h"
#include "ui/compare/compare_summary.h"
#include "ui/compare/compare_theme.h"
#include "ui/compare/op_diff_highlight.h"
#include "ui/notice_strips.h"
#include "ui/theme_style.h"
#include "ui/tooltip.h"
#include "ui/ui_scale.h"

namespace stepline::ui {

//-----------------------------------------------------------------------------
// [SECTION] Runs and op highlighting
//-----------------------------------------------------------------------------

void CompareView::SetRuns(std::shared_ptr<const TimelineData> a, std::string title_a,
                          std::shared_ptr<const TimelineData> b, std::string title_b) {
  states_[0] = ViewState{};
  states_[1] = ViewState{};
  states_[0].data = std::move(a);
  states_[1].data = std::move(b);
  titles_[0] = std::move(title_a);
  titles_[1] = std::move(title_b);
  selection_keys_.Reset();
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
  for (int side = 0; side < 2; ++side) heads_[side] = analysis::ComputeHeadline(states_[side].data->analysis.report);
  comparison_ = analysis::Compare({*states_[0].trace(), states_[0].data->analysis, titles_[0]},
                                  {*states_[1].trace(), states_[1].data->analysis, titles_[1]}, options);
}

void CompareView::HighlightSelectedOp() {
  const int sel = ops_.selected();
  if (sel < 0 || static_cast<size_t>(sel) >= comparison_.ops.size()) {
    for (ViewState& s : states_) HighlightOpNames(s, {}, false);
    return;
  }
  // The row carries each run's raw name ids: nothing is matched by name again.
  const analysis::OpDiffRow& row = comparison_.ops[sel];
  HighlightOpNames(states_[0], row.a_names, analysis::IsDeviceOpKind(row.kind));
  HighlightOpNames(states_[1], row.b_names, analysis::IsDeviceOpKind(row.kind));
  RevealHighlightedOp();
}

// When no occurrence is in view at a drawable width (at a wide zoom they
// fold into grey runs), frames the first one at or after the aligned step of
// the first run that has the op, about a twentieth of the view wide and
// inside the trace (OpRevealRange); the
// other run follows by sync. So a selected row always shows something.
void CompareView::RevealHighlightedOp() {
  for (int side = 0; side < 2; ++side) {
    ViewState& s = states_[side];
    if (s.links.op_occurrences.empty()) continue;
    const auto starts = s.trace()->slices().start_ns();
    const auto durs = s.trace()->slices().dur_ns();
    const Viewport& vp = s.viewport;
    const TimeNs origin = side == 0 ? timelines_.alignment().origin_a : timelines_.alignment().origin_b;
    uint32_t best = s.links.op_occurrences.front();
    bool have_after = false;
    for (uint32_t row : s.links.op_occurrences) {
      const bool in_view = starts[row] < vp.visible.end_ns && starts[row] + durs[row] > vp.visible.start_ns;
      if (in_view && static_cast<double>(durs[row]) * vp.px_per_ns() >= theme::kMinSlicePx) return;
      if (starts[row] >= origin && (!have_after || starts[row] < starts[best])) {
        best = row;
        have_after = true;
      }
    }
    s.selected = SliceId(best);
    s.requests.fit = OpRevealRange(starts[best], durs[best], s.trace()->span());
    s.requests.scroll_to_selection = true;
    return;
  }
}

//-----------------------------------------------------------------------------
// [SECTION] Frame
//-----------------------------------------------------------------------------

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
  caption_strip_.reset();
  // While a dialog is up, the keyboard is its own.
  const bool keys = !status.modal_open;
  if (keys && ImGui::IsKeyPressed(keycode::kF12, false)) req.save_screenshot = true;
  if (keys && io.KeyCtrl && ImGui::IsKeyPressed('O', false)) req.open_dialog = true;
  // Text size and Ctrl+Q by key code, Esc on menus and popups.
  HandleTextSizeAndQuitKeys(&req.quit);
  if (keys) CloseTopPopupOnEsc(nullptr);
  // Ctrl+C, M and Shift+M on one side's selection and notes.
  if (keys && !io.WantTextInput && has_runs()) req.notice = selection_keys_.Handle(states_);
  DrawMenuBar(status, &req);
  DrawStatus(status, &req);
  if (!has_runs()) {
    ImGui::TextDisabled("Nothing to compare yet.");
    ImGui::End();
    toast_.Draw(status.notice, status.capturing);
    return req;
  }
  // A partial run is said before any of its numbers is read.
  static constexpr const char* kDiagnosticsIds[] = {"load_diagnostics_a", "load_diagnostics_b"};
  for (int side = 0; side < 2; ++side) {
    const std::string prefix = std::string(side == 0 ? "A" : "B") + " (" + titles_[side] + ") is partial. ";
    DrawDataLossBanner(*states_[side].trace(), &diagnostics_open_[side], prefix);
  }
  const float s = UiScale();
  const float caption_h = status.show_caption ? CaptionHeight() : 0.f;
  const ImVec2 body = ImGui::GetCursorScreenPos();
  const ImVec2 avail(ImGui::GetContentRegionAvail().x, ImGui::GetContentRegionAvail().y - caption_h);
  // "The compare view": everything under the menu bar and status lines, the
  // caption strip aside (the saver stacks it under any panel).
  const ImVec2 win_pos = ImGui::GetWindowPos(), win_size = ImGui::GetWindowSize();
  ComparePanelMenus menus;
  menus.whole = PanelShot{"compare", win_pos.x, body.y, win_pos.x + win_size.x,
                          status.show_caption ? body.y + avail.y : win_pos.y + win_size.y};
  whole_ = menus.whole;
  float left_w = std::clamp(theme::kCompareLeftWidth * s, 300.f, std::max(300.f, avail.x * 0.4f));
  // Wide enough for the summary (labels and numbers), up to a share of the
  // window: at 1024 px 40% cut "Collective" and "Idle: launch".
  const ImGuiStyle& style = ImGui::GetStyle();
  const float summary_w = SummaryTableWidth(comparison_) + 2 * style.WindowPadding.x + style.ScrollbarSize;
  left_w = std::max(left_w, std::min(summary_w, avail.x * theme::kCompareLeftMaxShare));
  ImGui::BeginChild("##compare_left", ImVec2(left_w, avail.y), true);
  DrawLeftColumn(ImGui::GetContentRegionAvail().x, ImGui::GetContentRegionAvail().y, &menus);
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginGroup();
  const float right_w = ImGui::GetContentRegionAvail().x;
  // A short window keeps the height for the two timelines: at 700 px a
  // third for the ops table left each timeline about three rows.
  const float ops_share = avail.y < 900.f * s ? 0.22f : 0.32f;
  const float ops_h = std::clamp(theme::kCompareOpsHeight * s, 110.f, std::max(110.f, avail.y * ops_share));
  const float timelines_h = avail.y - ops_h - ImGui::GetStyle().ItemSpacing.y;
  timelines_.Draw(states_, titles_, comparison_, right_w, timelines_h, renderer, &menus);
  selection_keys_.Track(states_);
  ImGui::BeginChild("##ops_diff", ImVec2(right_w, std::max(40.f, body.y + avail.y - ImGui::GetCursorScreenPos().y)),
                    true);
  const OpsDiffTable::Event ev = DrawOpsDiff(&menus);
  ImGui::EndChild();
  ImGui::EndGroup();
  if (status.show_caption) DrawCaption();
  for (int side = 0; side < 2; ++side) {
    DrawDiagnosticsWindow(*states_[side].trace(), titles_[side], &diagnostics_open_[side], kDiagnosticsIds[side]);
  }
  ImGui::End();
  toast_.Draw(status.notice, status.capturing);
  req.save_panel = std::move(menus.save_panel);
  req.exports = std::move(menus.exports);
  if (menus.save_window) req.save_screenshot = true;
  // After drawing: a new comparison must not change the rows under the table mid-frame.
  if (ev.normalize_changed) SetNormalizeNames(pending_normalize_);
  if (ev.selected >= 0 || ev.cleared) HighlightSelectedOp();
  return req;
}

//-----------------------------------------------------------------------------
// [SECTION] Panels and their menus
//-----------------------------------------------------------------------------

// The summary over the chart; each has its own menu over its part of the column.
void CompareView::DrawLeftColumn(float width, float height, ComparePanelMenus* menus) {
  const float x0 = ImGui::GetWindowPos().x, x1 = x0 + ImGui::GetWindowSize().x;
  const float top = ImGui::GetWindowPos().y, bottom = top + ImGui::GetWindowSize().y;
  SectionTitle("Summary: B against A (green: B better, red: B worse)");
  DrawCompareSummary(comparison_, heads_);
  const float split = ImGui::GetCursorScreenPos().y - ImGui::GetStyle().ItemSpacing.y / 2;
  SectionTitle("Step time breakdown");
  const float chart_h = std::max(theme::kCompareChartHeight * UiScale(), height - ImGui::GetCursorPosY() - 8);
  const int clicked = chart_.Draw(comparison_, timelines_.step(0), timelines_.step(1), width, chart_h);
  if (clicked >= 0) SelectStep(clicked);
  const PanelShot summary{"compare-summary", x0, top, x1, split};
  const PanelShot chart{"compare-chart", x0, split, x1, bottom};
  if (BeginRegionMenu("##summary_menu", summary)) {
    PictureMenuItems("summary", summary, menus);
    ImGui::Separator();
    TableExportMenuItems(
        "summary", "compare-summary", [&] { return CompareSummaryTextTable(comparison_); }, &menus->exports);
    ImGui::EndPopup();
  }
  if (BeginRegionMenu("##chart_menu", chart)) {
    PictureMenuItems("breakdown chart", chart, menus);
    ImGui::Separator();
    if (ImGui::MenuItem("Save breakdown chart as SVG")) {
      CompareChartSvgOptions options;
      options.title = "Step time: A " + titles_[0] + " vs B " + titles_[1];
      menus->exports.push_back(ExportRequest{"compare-chart", "svg", BuildCompareChartSvg(comparison_, options)});
    }
    ImGui::EndPopup();
  }
}

OpsDiffTable::Event CompareView::DrawOpsDiff(ComparePanelMenus* menus) {
  const size_t counts[2] = {states_[0].links.op_occurrences.size(), states_[1].links.op_occurrences.size()};
  pending_normalize_ = normalize_names_;
  const OpsDiffTable::Event ev = ops_.Draw(comparison_, &pending_normalize_, counts);
  const PanelShot shot = CurrentWindowShot("ops-diff");
  if (BeginPanelMenu("##ops_diff_menu")) {
    PictureMenuItems("ops diff", shot, menus);
    ImGui::Separator();
    TableExportMenuItems(
        "ops diff", "ops-diff", [&] { return OpsDiffTextTable(comparison_, ops_.visible_rows()); }, &menus->exports);
    ImGui::EndPopup();
  }
  return ev;
}

std::string CompareView::CaptionText() const {
  return BuildCompareCaption(titles_[0], titles_[1], comparison_, timelines_.step(0), timelines_.step(1),
                             states_[0].viewport.visible, timelines_.alignment().origin_a);
}

// The strip across the bottom of the window, as MainView draws its own.
void CompareView::DrawCaption() {
  caption_strip_ = DrawCaptionStrip(CaptionText());
}

//-----------------------------------------------------------------------------
// [SECTION] Menu bar and status
//-----------------------------------------------------------------------------

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
    DrawThemeMenu();
    ImGui::Separator();
    DrawPicturesMenu(status, req);
    ImGui::EndMenu();
  }
  // Buttons for what the menu hides: swapping and leaving are frequent.
  ImGui::BeginDisabled(busy);
  if (ImGui::SmallButton("Swap A/B")) req->swap = true;
  ImGui::EndDisabled();
  if (ImGui::SmallButton("Close compare")) req->close = true;
  // Both titles fit: when the two paths are too long, each keeps its end
  // (the file name) in half the room; B's name was once cut off the window.
  const float room = ImGui::GetWindowWidth() - ImGui::GetCursorPosX() - 36;
  const float fixed = ImGui::CalcTextSize("A: B:  vs ").x + 4 * ImGui::GetStyle().ItemSpacing.x;
  std::string shown[2] = {titles_[0], titles_[1]};
  if (ImGui::CalcTextSize((shown[0] + shown[1]).c_str()).x + fixed > room) {
    for (std::string& t : shown) t = FitTextTail(t, std::max(40.f, (room - fixed) / 2), ImGui::GetFontSize());
  }
  const std::string title = "A: " + shown[0] + "   vs   B: " + shown[1];
  const float title_w = ImGui::CalcTextSize(title.c_str()).x;
  ImGui::SameLine(std::max(ImGui::GetCursorPosX() + 20, ImGui::GetWindowWidth() - title_w - 16));
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kRunA), "A: %s", shown[0].c_str());
  if (shown[0] != titles_[0] && ImGui::IsItemHovered()) WrappedTooltip("%s", titles_[0].c_str());
  ImGui::SameLine();
  ImGui::TextDisabled("vs");
  ImGui::SameLine();
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kRunB), "B: %s", shown[1].c_str());
  if (shown[1] != titles_[1] && ImGui::IsItemHovered()) WrappedTooltip("%s", titles_[1].c_str());
  ImGui::EndMenuBar();
}

// Pictures and exports, as in MainView: the toggle and the folder are the
// app's preferences, so they come in the status and go back as requests.
void CompareView::DrawPicturesMenu(const CompareStatus& status, CompareRequests* req) {
  if (ImGui::MenuItem("Save screenshot", "F12")) req->save_screenshot = true;
  // The body's rectangle of the last frame: the layout holds still while a menu is open.
  if (has_runs() && whole_ && ImGui::MenuItem("Save compare view as PNG")) req->save_panel = *whole_;
  bool caption = status.show_caption;
  if (ImGui::MenuItem("Caption under pictures", nullptr, &caption)) req->show_caption = caption;
  if (ImGui::IsItemHovered()) WrappedTooltip("A strip naming both runs, the aligned steps and the visible range");
  if (ImGui::BeginMenu("Save pictures and tables to")) {
    if (ImGui::IsWindowAppearing()) {
      std::strncpy(folder_buf_, status.export_folder.c_str(), sizeof folder_buf_ - 1);
      folder_buf_[sizeof folder_buf_ - 1] = '\0';
    }
    ImGui::TextDisabled("Folder (files get a timestamped name)");
    ImGui::SetNextItemWidth(420 * UiScale());
    if (ImGui::InputText("##export_folder", folder_buf_, sizeof folder_buf_))
      req->export_folder = std::string(folder_buf_);
    ImGui::EndMenu();
  }
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
    if (ImGui::SmallButton("Dismiss")) req->dismiss_error = true;  // first: never past the right edge
    ImGui::SameLine();
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(theme::kErrorText));
    ImGui::TextWrapped("%s", status.error.c_str());
    ImGui::PopStyleColor();
  }
  if (!status.reload_offer.empty()) {
    if (ImGui::SmallButton("Reload")) req->reload = true;
    ImGui::SameLine();
    if (ImGui::SmallButton("Dismiss##reload")) req->dismiss_reload = true;
    ImGui::SameLine();
    ImGui::TextWrapped("%s", status.reload_offer.c_str());
  }
}

}  // namespace stepline::ui
