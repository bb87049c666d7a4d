// RanksWindow: the ranks view as a whole window, with what every other view
// of the window has: a menu bar (File: open a file or a folder, quit; View:
// text size, the screenshot; Help), F12 for a screenshot, `?` for the keys,
// Ctrl+O, Ctrl +/-, and a right-click menu that saves the view as PNG. The
// window and the headless `screenshot --view ranks` draw it alike.
#pragma once

#include <optional>
#include <string>

#include "ui/keys_window.h"
#include "ui/panel_capture.h"
#include "ui/ranks/ranks_view.h"
#include "ui/reload_notice.h"

namespace stepline::ui {

struct RanksRequests {
  bool open_dialog = false;         // File > Open file...
  bool open_folder_dialog = false;  // File > Open folder...
  bool save_screenshot = false;     // F12, View > Save screenshot
  std::optional<PanelShot> save_panel;  // right-click > Save ranks view as PNG
  std::optional<std::string> open_rank;  // a rank's file, double-clicked in the table
  bool quit = false;
  ReloadNoticeChoice reload = ReloadNoticeChoice::kNone;  // the answer to `reload_offer`
};

class RanksWindow {
 public:
  // `keys`: the keyboard is the window's (no dialog is up over it).
  // `reload_offer`: a rank's file changed on disk ("" when none): a notice
  // under the menu bar offers Reload.
  RanksRequests Draw(RanksView& view, const RanksViewInput& input, bool keys, const std::string& reload_offer = "");
  bool help_open() const { return help_open_; }

 private:
  void DrawMenuBar(RanksRequests* req);
  void DrawHelp();
  bool help_open_ = false;
};

// The ranks view's keys and mouse, for its help window.
const std::vector<Shortcut>& RanksShortcuts();

}  // namespace stepline::ui
