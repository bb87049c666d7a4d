// RanksWindow: the ranks view's window, menus and keys (ranks_window.h).
#include "ui/ranks/ranks_window.h"

#include <imgui.h>

#include <algorithm>

#include "ui/input/key_codes.h"
#include "ui/input/window_keys.h"
#include "ui/keys_window.h"
#include "ui/theme_style.h"
#include "ui/window_fit.h"

namespace stepline::ui {

const std::vector<Shortcut>& RanksShortcuts() {
  static const std::vector<Shortcut> kKeys = {
      {"Ctrl+O", "Open a trace file"},
      {"F12", "Save the window as PNG"},
      {"?", "Show or hide this help"},
      {"Ctrl+= / Ctrl+- / Ctrl+0", "Larger / smaller / normal text"},
      {"Esc", "Close a menu, popup or this help"},
      {"Ctrl+Q", "Quit"},
      {"Double-click a rank's row", "Open that rank alone"},
      {"Click a table header", "Sort the ranks by that column"},
      {"Mouse wheel over the timeline", "Zoom (Shift: scroll the ranks); drag to pan"},
      {"Right-click", "Save the ranks view as PNG"},
  };
  return kKeys;
}

RanksRequests RanksWindow::Draw(RanksView& view, const RanksViewInput& input, bool keys, const std::string& reload_offer) {
  RanksRequests req;
  ImGuiIO& io = ImGui::GetIO();
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->Pos);
  ImGui::SetNextWindowSize(vp->Size);
  ImGui::Begin("Ranks", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_MenuBar);
  if (keys && !io.WantTextInput) {
    for (ImWchar c : io.InputQueueCharacters) {
      if (c == '?') help_open_ = !help_open_;
    }
  }
  // Text size and quit by key code (X11 sends no '+' while Ctrl is held), and
  // Esc closing the open menu, popup or help window, as in the other views.
  if (keys) {
    HandleTextSizeAndQuitKeys(&req.quit);
    CloseTopPopupOnEsc(&help_open_);
  }
  if (keys && ImGui::IsKeyPressed(keycode::kF12, false)) req.save_screenshot = true;
  if (keys && io.KeyCtrl && ImGui::IsKeyPressed('O', false)) req.open_dialog = true;
  DrawMenuBar(&req);
  req.reload = DrawReloadNotice(reload_offer);
  // The view's own picture: everything under the menu bar.
  const ImVec2 top = ImGui::GetCursorScreenPos();
  const ImVec2 win_pos = ImGui::GetWindowPos(), win_size = ImGui::GetWindowSize();
  const PanelShot shot{"ranks", win_pos.x, top.y, win_pos.x + win_size.x, win_pos.y + win_size.y};
  req.open_rank = view.Draw(input);
  if (BeginPanelMenu("##ranks_menu")) {
    if (ImGui::MenuItem("Save ranks view as PNG")) req.save_panel = shot;
    if (ImGui::MenuItem("Save window as PNG", "F12")) req.save_screenshot = true;
    ImGui::EndPopup();
  }
  ImGui::End();
  DrawHelp();
  return req;
}

void RanksWindow::DrawMenuBar(RanksRequests* req) {
  if (!ImGui::BeginMenuBar()) return;
  if (ImGui::BeginMenu("File")) {
    if (ImGui::MenuItem("Open...", "Ctrl+O")) req->open_dialog = true;
    if (ImGui::MenuItem("Open folder...")) req->open_folder_dialog = true;
    ImGui::Separator();
    if (ImGui::MenuItem("Quit")) req->quit = true;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("View")) {
    float& text_scale = ImGui::GetIO().FontGlobalScale;
    ImGui::SetNextItemWidth(160);
    ImGui::SliderFloat("Text size", &text_scale, 0.75f, 2.5f, "%.2fx");
    DrawThemeMenu();
    ImGui::Separator();
    if (ImGui::MenuItem("Save screenshot", "F12")) req->save_screenshot = true;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Help")) {
    if (ImGui::MenuItem("Keyboard and mouse", "?", help_open_)) help_open_ = !help_open_;
    ImGui::EndMenu();
  }
  ImGui::EndMenuBar();
}

void RanksWindow::DrawHelp() { DrawKeysWindow("Keyboard and mouse###ranks_help", &help_open_, RanksShortcuts()); }

}  // namespace stepline::ui
