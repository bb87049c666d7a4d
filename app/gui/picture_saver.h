// PictureSaver: the viewer's pictures (F12, a panel's "Save as PNG") and
// exports (tables as CSV, the step chart as SVG), written under timestamped
// names in the folder the View menu sets.
//
// A picture is taken two frames after it was asked for, so the menu that
// asked has closed and is not in it; the frame it is taken from hides the
// pointer (no hover highlight, no tooltip) and the toast. With the caption
// strip on, a panel's picture gets the strip stacked under it.
#pragma once

#include <optional>
#include <string>

#include "app/gui/image_crop.h"
#include "ui/panel_capture.h"
#include "ui/table_export.h"

namespace stepline::app {

class PictureSaver {
 public:
  void RequestWindow();
  void RequestPanel(ui::PanelShot shot);
  bool pending() const { return pending_.has_value(); }
  // True when the frame about to be drawn is the one to keep.
  bool CaptureThisFrame() const { return pending_ && pending_->frames_left == 0; }
  // Call after each rendered frame, before the swap. When this frame was the
  // one to keep, reads the back buffer, saves the picture and returns the
  // notice for the toast (the path, or why it failed); else counts down and
  // returns "".
  std::string AfterRender(int fb_w, int fb_h, float scale_x, float scale_y,
                          const std::optional<ui::PanelShot>& caption_strip, const std::string& folder);

 private:
  struct Pending {
    std::optional<ui::PanelShot> panel;  // none: the whole window
    int frames_left = 0;
  };
  std::optional<Pending> pending_;
};

// The picture to save from a whole frame: the frame itself, or the panel's
// pixels (at framebuffer scale) with the caption strip's stacked under them.
RgbaImage ComposePicture(const RgbaImage& frame, const std::optional<ui::PanelShot>& panel,
                         const std::optional<ui::PanelShot>& caption_strip, float scale_x, float scale_y);

// Checks the user's folder ("~" expanded); false with a message.
bool UsableFolder(const std::string& folder, std::string* expanded, std::string* error);

// Writes an export under a timestamped name in `folder`; returns the notice.
std::string SaveExport(const ui::ExportRequest& request, const std::string& folder);

}  // namespace stepline::app
