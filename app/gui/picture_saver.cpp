// Saving the viewer's pictures and exports; see picture_saver.h.
#include <epoxy/gl.h>

#include "app/gui/picture_saver.h"

#include <ctime>
#include <filesystem>

#include "app/gui/offscreen.h"
#include "export/safe_write.h"
#include "app/gui/screenshot_name.h"

namespace stepline::app {

namespace {
// Frames between the request and the picture: the asking menu closes in the
// first, the layout settles without it in the second.
constexpr int kSettleFrames = 2;
}  // namespace

void PictureSaver::RequestWindow() { pending_ = Pending{std::nullopt, kSettleFrames}; }

void PictureSaver::RequestPanel(ui::PanelShot shot) { pending_ = Pending{std::move(shot), kSettleFrames}; }

RgbaImage ComposePicture(const RgbaImage& frame, const std::optional<ui::PanelShot>& panel,
                         const std::optional<ui::PanelShot>& caption_strip, float scale_x, float scale_y) {
  if (!panel) return frame;
  const auto pixels = [&](const ui::PanelShot& s) {
    return ToPixelRect(s.x0, s.y0, s.x1, s.y1, scale_x, scale_y, frame.w, frame.h);
  };
  RgbaImage out = Crop(frame, pixels(*panel));
  if (caption_strip && !out.rgba.empty()) {
    // The strip spans the window; its text starts at the left, so cutting it
    // to the panel's width keeps what it says.
    out = StackBelow(out, Crop(frame, pixels(*caption_strip)));
  }
  return out;
}

bool UsableFolder(const std::string& folder, std::string* expanded, std::string* error) {
  *expanded = ExpandHome(folder.empty() ? ScreenshotFolder() : folder);
  std::error_code ec;
  if (!std::filesystem::is_directory(*expanded, ec)) {
    *error = "folder " + *expanded + " does not exist (View > Save pictures and tables to)";
    return false;
  }
  return true;
}

std::string PictureSaver::AfterRender(int fb_w, int fb_h, float scale_x, float scale_y,
                                      const std::optional<ui::PanelShot>& caption_strip, const std::string& folder) {
  if (!pending_) return {};
  if (pending_->frames_left > 0) {
    --pending_->frames_left;
    return {};
  }
  const Pending job = std::move(*pending_);
  pending_.reset();
  std::string dir, error;
  if (!UsableFolder(folder, &dir, &error)) return "Picture not saved: " + error;
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  glReadBuffer(GL_BACK);
  const RgbaImage frame{fb_w, fb_h, ReadFramebufferRgba(fb_w, fb_h)};
  const RgbaImage picture = ComposePicture(frame, job.panel, caption_strip, scale_x, scale_y);
  if (picture.rgba.empty()) return "Picture not saved: the panel is not on screen";
  const std::string what = job.panel ? job.panel->stem : "";
  const std::string path = TimestampedPath(dir, what, "png", std::time(nullptr));
  if (!WritePng(path, picture.w, picture.h, picture.rgba, exports::SafeWriteOptions{}, &error)) {
    return "Picture not saved: " + error;
  }
  return "Saved " + (what.empty() ? std::string("screenshot") : what + " picture") + " to " + path;
}

std::string SaveExport(const ui::ExportRequest& request, const std::string& folder) {
  std::string dir, error;
  if (!UsableFolder(folder, &dir, &error)) return request.stem + " not saved: " + error;
  const std::string path = TimestampedPath(dir, request.stem, request.extension, std::time(nullptr));
  if (!exports::WriteFileSafely(path, request.text, exports::SafeWriteOptions{}, &error)) return request.stem + " not saved: " + error;
  return "Saved " + request.stem + " to " + path;
}

}  // namespace stepline::app
