// The viewer's frame; see viewer_frame.h.
#include <epoxy/gl.h>
// clang-format off
#include <GLFW/glfw3.h>
// clang-format on

#include "app/gui/viewer_frame.h"
#include "app/gui/query_backend.h"

#include <imgui.h>
#include "ui/theme.h"

namespace stepline::app {

ViewerSession::FrameResult RunViewerFrame(GlWindow& window, ViewerSession& session, PictureSaver& pictures,
                                          GlQuadRenderer* gl_renderer, ui::QuadRenderer* renderer) {
  // Redraw continuously while loading (progress bar) or about to take a
  // picture, else wait for input.
  const bool capture = pictures.CaptureThisFrame();
  window.BeginFrame(session.loading() || pictures.pending() ? 0.0 : 0.05, /*hide_pointer=*/capture);
  if (gl_renderer != nullptr) gl_renderer->BeginFrame();
  session.SetCapturing(capture);
  UpdateQueryBackend(&session.state());  // the Query tab follows the shown trace
  const ViewerSession::FrameResult r = session.Frame(window.TakeDroppedFiles(), renderer);
  ImGui::Render();
  int w = 0, h = 0;
  glfwGetFramebufferSize(window.handle(), &w, &h);
  glViewport(0, 0, w, h);
  const ImVec4 clear = ImGui::ColorConvertU32ToFloat4(ui::theme::kBackground);  // the theme in use
  glClearColor(clear.x, clear.y, clear.z, 1.f);
  glClear(GL_COLOR_BUFFER_BIT);
  window.RenderDrawData();
  const ImVec2 fb_scale = ImGui::GetIO().DisplayFramebufferScale;
  const std::string folder = session.state().pictures.export_folder;
  const std::string notice = pictures.AfterRender(w, h, fb_scale.x, fb_scale.y, session.caption_strip(), folder);
  if (!notice.empty()) session.SetNotice(notice);
  if (r.save_screenshot) pictures.RequestWindow();
  if (r.save_panel) pictures.RequestPanel(*r.save_panel);
  for (const ui::ExportRequest& e : r.exports) session.SetNotice(SaveExport(e, folder));
  window.Swap();
  return r;
}

}  // namespace stepline::app
