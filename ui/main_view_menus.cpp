// MainView's menu bar (with the pictures and exports settings), help
// overlay, load status and the shortcut list; see main_view.h.
#include <imgui.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "ui/keys_window.h"
#include "ui/main_view.h"
#include "ui/theme.h"
#include "ui/tooltip.h"
#include "ui/theme_style.h"
#include "ui/window_fit.h"
#include "ui/ui_scale.h"

namespace stepline::ui {

const std::vector<Shortcut>& Shortcuts() {
  static const std::vector<Shortcut> kShortcuts = {
      {"Mouse wheel", "zoom around the cursor"},
      {"Shift + wheel", "scroll tracks"},
      {"Drag (left or middle)", "pan time and scroll tracks"},
      {"W / S", "zoom in / out (held: faster and faster)"},
      {"A / D", "pan left / right"},
      {"F", "fit the selected slice (or range)"},
      {"0", "fit the whole trace"},
      {"Alt+Left / Backspace, mouse back", "the view before (a zoom, pan, drag or jump)"},
      {"Alt+Right, mouse forward", "the view after"},
      {"Click", "select a slice; details below"},
      {"Drag on the ruler, Shift + drag", "select a time range; aggregate table below"},
      {"/ or Ctrl+F", "search slice names (substring or regex)"},
      {"Enter / Shift+Enter", "next / previous match (first: the nearest to the view)"},
      {"Right-click a track name", "pin or hide the track"},
      {"Click a group header", "collapse or expand a process or device"},
      {"Ctrl+O", "open a file (or drop files, or a TensorBoard log folder, on the window)"},
      {"Ctrl+= / Ctrl+- / Ctrl+0", "larger / smaller / normal text (also View > Text size)"},
      {"Esc", "close a menu, popup, dialog or this help"},
      {"Ctrl+Q", "quit"},
      {"Ctrl+C", "copy the selected slice's name"},
      {"M", "note on the selected slice, or on the range selection"},
      {"Shift+M", "flag at the mouse's time (the view's centre off the timeline)"},
      {"F12", "save a screenshot (PNG)"},
      {"Right-click a panel", "save it as PNG; copy (TSV) or save (CSV) its table"},
      {"?", "this help"},
  };
  return kShortcuts;
}

void MainView::DrawMenuBar(ViewState& state, const AppStatus& status, ViewRequests* req) {
  if (!ImGui::BeginMenuBar()) return;
  if (ImGui::BeginMenu("File")) {
    if (ImGui::MenuItem("Open...", "Ctrl+O")) req->open_dialog = true;
    if (ImGui::MenuItem("Open folder...")) req->open_folder_dialog = true;
    if (ImGui::IsItemHovered()) WrappedTooltip("A TensorBoard / XProf log directory: pick a profile run and host");
    if (ImGui::BeginMenu("Open recent", !status.recent.empty())) {
      for (const std::string& path : status.recent) {
        if (ImGui::MenuItem(path.c_str())) req->open_path = path;
      }
      ImGui::EndMenu();
    }
    if (ImGui::MenuItem("Compare with...", nullptr, false, state.trace() != nullptr)) req->compare_dialog = true;
    if (ImGui::IsItemHovered()) WrappedTooltip("Pick a second run (B) to compare with the trace on screen (A)");
    if (ImGui::MenuItem("Open memory snapshot...", nullptr, false, state.trace() != nullptr)) req->memory_snapshot_dialog = true;
    if (ImGui::IsItemHovered()) WrappedTooltip("A PyTorch memory snapshot of the same run: its memory rows under this trace's timeline");
    ImGui::Separator();
    if (ImGui::MenuItem("Export notes...", nullptr, false, state.trace() != nullptr)) req->export_notes = true;
    if (ImGui::IsItemHovered()) WrappedTooltip("This trace's notes as a JSON file, to share (docs/guide.md)");
    if (ImGui::MenuItem("Import notes...", nullptr, false, state.trace() != nullptr)) req->import_notes = true;
    ImGui::Separator();
    if (ImGui::MenuItem("Clear cache")) req->clear_cache = true;
    if (ImGui::IsItemHovered()) WrappedTooltip("Delete the column cache that makes large traces reopen instantly");
    if (ImGui::MenuItem("Quit", "Ctrl+Q")) req->quit = true;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("View")) {
    if (ImGui::MenuItem("Colour by name", nullptr, state.color_mode == ColorMode::kByName))
      state.color_mode = ColorMode::kByName;
    if (ImGui::MenuItem("Colour by kind", nullptr, state.color_mode == ColorMode::kByKind))
      state.color_mode = ColorMode::kByKind;
    ImGui::MenuItem("Show all flow arrows in view", nullptr, &state.show_all_flows);
    ImGui::MenuItem("Show critical path", nullptr, &state.show_critical_path);
    ImGui::MenuItem("Shade GPU idle gaps", nullptr, &state.links.show_gap_overlay);
    if (!narrow_) {
      ImGui::MenuItem("Overview column", nullptr, &state.panels.show_overview);
    } else {
      // Too narrow for the column: say what is shown instead, and offer the whole overview.
      ImGui::MenuItem("Overview summary line", nullptr, &state.panels.show_overview);
      if (ImGui::IsItemHovered()) WrappedTooltip("The overview column shows from 1280 px of width");
      ImGui::MenuItem("Overview window", nullptr, &overview_window_, state.panels.show_overview);
    }
    // Tracks hidden from their right-click menu come back here.
    const size_t hidden = state.layout.hidden_tracks.size();
    const std::string show_hidden = "Show hidden tracks" + (hidden ? " (" + std::to_string(hidden) + ")" : std::string());
    if (ImGui::MenuItem(show_hidden.c_str(), nullptr, false, hidden > 0)) state.layout.hidden_tracks.clear();
    if (ImGui::MenuItem("Fit whole trace", "0")) state.FitAll();
    // The peak and batch size behind MFU and samples/s (as --peak-tflops, --peak-dtype, --batch-size).
    if (ImGui::MenuItem("Efficiency settings...", nullptr, false, state.data && state.data->analysis_ready)) {
      state.requests.efficiency_settings = true;
    }
    // Text size on top of the monitor's content scale (high-DPI screens).
    float& text_scale = ImGui::GetIO().FontGlobalScale;
    ImGui::SetNextItemWidth(160);
    ImGui::SliderFloat("Text size", &text_scale, 0.75f, 2.5f, "%.2fx");
    DrawThemeMenu();
    ImGui::Separator();
    DrawPicturesMenu(state, req);
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Help")) {
    ImGui::MenuItem("Keyboard shortcuts", "?", &state.show_help);
    ImGui::MenuItem("Load diagnostics of this file", nullptr, &diagnostics_open_, state.trace() != nullptr);
    ImGui::EndMenu();
  }
  if (!status.title.empty()) {
    ImGui::SameLine(ImGui::GetWindowWidth() - ImGui::CalcTextSize(status.title.c_str()).x - 16);
    ImGui::TextDisabled("%s", status.title.c_str());
  }
  ImGui::EndMenuBar();
}

// Screenshots and exports: save now, the caption toggle, and the folder that
// pictures and saved tables go to (the app remembers it between runs).
void MainView::DrawPicturesMenu(ViewState& state, ViewRequests* req) {
  if (ImGui::MenuItem("Save screenshot", "F12")) req->save_screenshot = true;
  ImGui::MenuItem("Caption under pictures", nullptr, &state.pictures.show_caption);
  if (ImGui::IsItemHovered()) WrappedTooltip("A strip naming the trace, the visible time range and the step");
  if (ImGui::BeginMenu("Save pictures and tables to")) {
    if (ImGui::IsWindowAppearing()) {
      std::strncpy(folder_buf_, state.pictures.export_folder.c_str(), sizeof folder_buf_ - 1);
      folder_buf_[sizeof folder_buf_ - 1] = '\0';
    }
    ImGui::TextDisabled("Folder (files get a timestamped name)");
    ImGui::SetNextItemWidth(420 * UiScale());
    if (ImGui::InputText("##export_folder", folder_buf_, sizeof folder_buf_))
      state.pictures.export_folder = folder_buf_;
    ImGui::EndMenu();
  }
}

void MainView::DrawHelp(ViewState& state) {
  // Sized to its longest line, never clipped.
  DrawKeysWindow("Keyboard and mouse", &state.show_help, Shortcuts());
}

void MainView::DrawStatus(const AppStatus& status, ViewRequests* req) {
  if (status.loading) {
    const std::string label = (status.waiting ? "Waiting for data from " : "Loading ") + status.loading_name;
    ImGui::TextUnformatted(label.c_str());
    ImGui::SameLine();
    ImGui::ProgressBar(status.progress < 0 ? 0.f : static_cast<float>(status.progress), ImVec2(240, 0));
    ImGui::SameLine();
    if (ImGui::SmallButton("Cancel")) req->cancel_load = true;
  }
  if (!status.error.empty()) {
    // The button first: after a wrapped message it would sit past the
    // window's right edge.
    if (ImGui::SmallButton("Dismiss")) req->dismiss_error = true;
    ImGui::SameLine();
    ImGui::PushStyleColor(ImGuiCol_Text, theme::kErrorText);
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

void MainView::ReportTabForWalk(BottomTab tab, bool open) {
  const auto i = static_cast<size_t>(tab);
  const std::string name(BottomTabName(tab));
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  const std::string where = "name=" + name + " x=" + std::to_string(static_cast<int>((a.x + b.x) / 2)) +
                            " y=" + std::to_string(static_cast<int>((a.y + b.y) / 2));
  if (where != reported_tab_rects_[i]) {
    reported_tab_rects_[i] = where;
    TestEvent("tab.rect", where);
  }
  if (open && reported_open_tab_ != static_cast<int>(i)) {
    reported_open_tab_ = static_cast<int>(i);
    TestEvent("tab.show", "name=" + name);
  }
}

}  // namespace stepline::ui
