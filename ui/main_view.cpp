// MainView drawing; see main_view.h.
#include "ui/main_view.h"

#include <imgui.h>

#include <algorithm>
#include <cstring>

#include "ui/search_matches.h"
#include "ui/theme.h"

namespace stepline::ui {

const std::vector<Shortcut>& Shortcuts() {
  static const std::vector<Shortcut> kShortcuts = {
      {"Mouse wheel", "zoom around the cursor"},
      {"Shift + wheel", "scroll tracks"},
      {"Drag (left or middle)", "pan time and scroll tracks"},
      {"W / S", "zoom in / out"},
      {"A / D", "pan left / right"},
      {"F", "fit the selected slice (or range)"},
      {"0", "fit the whole trace"},
      {"Click", "select a slice; details below"},
      {"Drag on the ruler, Shift + drag", "select a time range; aggregate table below"},
      {"/ or Ctrl+F", "search slice names (substring or regex)"},
      {"Enter / Shift+Enter", "next / previous match"},
      {"Right-click a track name", "pin or hide the track"},
      {"Click a group header", "collapse or expand a process or device"},
      {"Ctrl+O", "open a file (or drop files on the window)"},
      {"Ctrl + +/-", "larger / smaller text (also View > Text size)"},
      {"F12", "save a screenshot (PNG)"},
      {"?", "this help"},
  };
  return kShortcuts;
}

ViewRequests MainView::Draw(ViewState& state, const AppStatus& status, QuadRenderer* renderer) {
  ViewRequests req;
  ImGuiIO& io = ImGui::GetIO();
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->Pos);
  ImGui::SetNextWindowSize(vp->Size);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_MenuBar |
                                 ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse;
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0.f);
  ImGui::Begin("Stepline", nullptr, flags);
  ImGui::PopStyleVar();
  // Typed characters that are shortcuts when no text field has focus.
  if (!io.WantTextInput) {
    for (ImWchar c : io.InputQueueCharacters) {
      if (c == '/') focus_search_ = true;
      if (c == '?') state.show_help = !state.show_help;
    }
  }
  if (io.KeyCtrl && ImGui::IsKeyPressed('F', false)) focus_search_ = true;
  if (io.KeyCtrl && ImGui::IsKeyPressed('O', false)) req.open_dialog = true;
  constexpr int kKeyF12 = 301;  // GLFW_KEY_F12; ImGui 1.86 indexes keys by backend codes
  if (ImGui::IsKeyPressed(kKeyF12, false)) req.save_screenshot = true;
  if (io.KeyCtrl && !io.WantTextInput) {
    for (ImWchar c : io.InputQueueCharacters) {
      if (c == '+' || c == '=') io.FontGlobalScale = std::min(2.5f, io.FontGlobalScale * 1.1f);
      if (c == '-') io.FontGlobalScale = std::max(0.75f, io.FontGlobalScale / 1.1f);
    }
  }
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false)) state.range.reset();
  DrawMenuBar(state, status, &req);
  DrawStatus(status, &req);
  if (state.trace() != nullptr) {
    DrawSearchBar(state);
    DrawBody(state, renderer);
  } else if (!status.loading) {
    ImGui::TextDisabled("Drop a trace file on this window, or use File > Open (Ctrl+O).");
  }
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false) && status.loading) req.cancel_load = true;
  ImGui::End();
  DrawHelp(state);
  return req;
}

// Left: the overview column; right: the timeline over the tabbed tables.
// Both splitters write their sizes into state.panels (unscaled px).
void MainView::DrawBody(ViewState& state, QuadRenderer* renderer) {
  ImGuiIO& io = ImGui::GetIO();
  const float scale = ImGui::GetFontSize() / 13.f;
  const float splitter = 6.f;
  PanelLayout& p = state.panels;
  if (p.overview_width <= 0) p.overview_width = theme::kOverviewPaneWidth;
  if (p.bottom_height <= 0) p.bottom_height = theme::kBottomPaneHeight;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  if (p.show_overview) {
    const float left = std::clamp(p.overview_width * scale, 200.f, std::max(200.f, avail.x * 0.5f));
    DrawLeftColumn(state, avail.y);
    ImGui::SameLine(0, 0);
    ImGui::InvisibleButton("##vsplitter", ImVec2(splitter, avail.y));
    if (ImGui::IsItemActive()) p.overview_width = (left + io.MouseDelta.x) / scale;
    if (ImGui::IsItemHovered() || ImGui::IsItemActive()) ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeEW);
    ImGui::SameLine(0, 0);
  }
  ImGui::BeginGroup();
  const float total = ImGui::GetContentRegionAvail().y;
  const float bottom = std::clamp(p.bottom_height * scale, 80.f, std::max(80.f, total - 150.f));
  ImGui::BeginChild("##timeline_area", ImVec2(0, total - bottom - splitter), false,
                    ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  timeline_.Draw(state, renderer);
  ImGui::EndChild();
  ImGui::InvisibleButton("##splitter", ImVec2(-1, splitter));
  if (ImGui::IsItemActive()) p.bottom_height = (bottom - io.MouseDelta.y) / scale;
  if (ImGui::IsItemHovered() || ImGui::IsItemActive()) ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeNS);
  ImGui::BeginChild("##bottom", ImVec2(0, 0), true);
  DrawBottomTabs(state);
  ImGui::EndChild();
  ImGui::EndGroup();
}

void MainView::DrawLeftColumn(ViewState& state, float height) {
  const float scale = ImGui::GetFontSize() / 13.f;
  const float width = std::clamp(state.panels.overview_width * scale, 200.f,
                                 std::max(200.f, ImGui::GetContentRegionAvail().x * 0.5f));
  ImGui::BeginGroup();
  // The selection details keep a fixed share at the bottom of the column.
  const float details_h = std::min(height * 0.3f, 240.f * scale);
  ImGui::BeginChild("##overview", ImVec2(width, height - details_h), true);
  overview_.Draw(state);
  ImGui::EndChild();
  ImGui::BeginChild("##details", ImVec2(width, 0), true);
  details_.Draw(state);
  ImGui::EndChild();
  ImGui::EndGroup();
}

void MainView::DrawBottomTabs(ViewState& state) {
  if (!ImGui::BeginTabBar("##analysis_tabs")) return;
  struct Tab {
    const char* label;
    BottomTab tab;
  };
  static constexpr Tab kTabs[] = {{"Idle gaps", BottomTab::kIdleGaps},
                                  {"Op stats", BottomTab::kOpStats},
                                  {"GPU kernels", BottomTab::kKernels},
                                  {"Selection", BottomTab::kSelection}};
  for (const Tab& t : kTabs) {
    const bool force = state.request_bottom_tab && state.panels.bottom_tab == t.tab;
    if (!ImGui::BeginTabItem(t.label, nullptr, force ? ImGuiTabItemFlags_SetSelected : 0)) continue;
    if (!state.request_bottom_tab) state.panels.bottom_tab = t.tab;
    switch (t.tab) {
      case BottomTab::kIdleGaps: gaps_.Draw(state); break;
      case BottomTab::kOpStats: ops_.Draw(state); break;
      case BottomTab::kKernels: kernels_.Draw(state); break;
      case BottomTab::kSelection: DrawSelectionTab(state); break;
    }
    ImGui::EndTabItem();
  }
  state.request_bottom_tab = false;
  ImGui::EndTabBar();
}

void MainView::DrawSelectionTab(ViewState& state) {
  // Range aggregation, plus the details when the overview column (which
  // normally holds them) is hidden.
  if (!state.panels.show_overview) {
    const float half = ImGui::GetContentRegionAvail().x * 0.5f;
    ImGui::BeginChild("##range", ImVec2(half, 0), false);
    range_.Draw(state);
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("##details_tab", ImVec2(0, 0), false);
    details_.Draw(state);
    ImGui::EndChild();
  } else {
    range_.Draw(state);
  }
}

void MainView::DrawMenuBar(ViewState& state, const AppStatus& status, ViewRequests* req) {
  if (!ImGui::BeginMenuBar()) return;
  if (ImGui::BeginMenu("File")) {
    if (ImGui::MenuItem("Open...", "Ctrl+O")) req->open_dialog = true;
    if (ImGui::BeginMenu("Open recent", !status.recent.empty())) {
      for (const std::string& path : status.recent) {
        if (ImGui::MenuItem(path.c_str())) req->open_path = path;
      }
      ImGui::EndMenu();
    }
    ImGui::Separator();
    if (ImGui::MenuItem("Quit")) req->quit = true;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("View")) {
    if (ImGui::MenuItem("Colour by name", nullptr, state.color_mode == ColorMode::kByName))
      state.color_mode = ColorMode::kByName;
    if (ImGui::MenuItem("Colour by kind", nullptr, state.color_mode == ColorMode::kByKind))
      state.color_mode = ColorMode::kByKind;
    ImGui::MenuItem("Show all flow arrows in view", nullptr, &state.show_all_flows);
    ImGui::MenuItem("Shade GPU idle gaps", nullptr, &state.show_gap_overlay);
    ImGui::MenuItem("Overview column", nullptr, &state.panels.show_overview);
    if (ImGui::MenuItem("Fit whole trace", "0")) state.FitAll();
    // Text size on top of the monitor's content scale (high-DPI screens).
    float& text_scale = ImGui::GetIO().FontGlobalScale;
    ImGui::SetNextItemWidth(160);
    ImGui::SliderFloat("Text size", &text_scale, 0.75f, 2.5f, "%.2fx");
    ImGui::Separator();
    if (ImGui::MenuItem("Save screenshot", "F12")) req->save_screenshot = true;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Help")) {
    ImGui::MenuItem("Keyboard shortcuts", "?", &state.show_help);
    ImGui::EndMenu();
  }
  if (!status.title.empty()) {
    ImGui::SameLine(ImGui::GetWindowWidth() - ImGui::CalcTextSize(status.title.c_str()).x - 16);
    ImGui::TextDisabled("%s", status.title.c_str());
  }
  ImGui::EndMenuBar();
}

void MainView::DrawSearchBar(ViewState& state) {
  ImGui::SetNextItemWidth(320);
  if (focus_search_) {
    ImGui::SetKeyboardFocusHere();
    focus_search_ = false;
  }
  const bool enter = ImGui::InputTextWithHint("##search", "Search slices ( / )", search_buf_, sizeof search_buf_,
                                              ImGuiInputTextFlags_EnterReturnsTrue);
  const bool text_changed = state.search_text != search_buf_;
  ImGui::SameLine();
  bool regex_changed = ImGui::Checkbox("regex", &state.search_regex);
  if (text_changed || regex_changed) {
    state.search_text = search_buf_;
    SearchResult r = ComputeSearchMatches(*state.trace(), state.search_text, state.search_regex);
    state.search_matches = std::move(r.rows);
    state.search_error = std::move(r.error);
  }
  if (enter) {
    const SliceId next = StepSearch(state.search_matches, state.selected, ImGui::GetIO().KeyShift);
    if (!next.is_none()) state.SelectAndReveal(next);
    ImGui::SetKeyboardFocusHere(-1);  // keep typing / pressing Enter
  }
  if (!state.search_error.empty()) {
    ImGui::SameLine();
    ImGui::TextColored(ImVec4(1, 0.5f, 0.4f, 1), "%s", state.search_error.c_str());
  } else if (!state.search_text.empty()) {
    ImGui::SameLine();
    ImGui::Text("%zu matches", state.search_matches.size());
  }
}

void MainView::DrawHelp(ViewState& state) {
  if (!state.show_help) return;
  ImGui::SetNextWindowSize(ImVec2(520, 0), ImGuiCond_Appearing);
  if (ImGui::Begin("Keyboard and mouse", &state.show_help, ImGuiWindowFlags_NoCollapse)) {
    if (ImGui::BeginTable("##keys", 2, ImGuiTableFlags_RowBg)) {
      for (const Shortcut& s : Shortcuts()) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(s.keys);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(s.action);
      }
      ImGui::EndTable();
    }
  }
  ImGui::End();
}

void MainView::DrawStatus(const AppStatus& status, ViewRequests* req) {
  if (status.loading) {
    const std::string label = "Loading " + status.loading_name;
    ImGui::TextUnformatted(label.c_str());
    ImGui::SameLine();
    ImGui::ProgressBar(status.progress < 0 ? 0.f : static_cast<float>(status.progress), ImVec2(240, 0));
    ImGui::SameLine();
    if (ImGui::SmallButton("Cancel")) req->cancel_load = true;
  }
  if (!status.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.f, 0.47f, 0.43f, 1.f));
    ImGui::TextWrapped("%s", status.error.c_str());
    ImGui::PopStyleColor();
    ImGui::SameLine();
    if (ImGui::SmallButton("Dismiss")) req->dismiss_error = true;
  }
  if (!status.notice.empty()) ImGui::TextDisabled("%s", status.notice.c_str());
}

}  // namespace stepline::ui
