// `stepline [FILE...] [--demo SCENARIO]`: the viewer window. With no file it
// opens the built-in input-bound demo.
#include <epoxy/gl.h>
// clang-format off
#include <GLFW/glfw3.h>
// clang-format on

#include <imgui.h>

#include <ostream>

#include "app/cli_args.h"
#include "app/commands.h"
#include "app/gui/gl_quad_renderer.h"
#include "app/gui/gl_window.h"
#include "app/gui/offscreen.h"
#include "app/gui/screenshot_name.h"
#include "app/gui/viewer_session.h"

namespace stepline::app {

int RunViewer(const Args& args, std::ostream& /*out*/, std::ostream& err) {
  auto parsed = ParsedArgs::Parse(args, ArgSpec{{}, {"--demo"}});
  if (!parsed.ok()) {
    err << "stepline: " << parsed.error() << "\n";
    return 2;
  }
  GlWindow window;
  std::string error;
  if (!window.Create(GlWindow::Options{}, &error)) {
    err << "stepline: " << error << "\n";
    return 1;
  }
  GlQuadRenderer gl_renderer;
  ui::DrawListQuadRenderer fallback;
  ui::QuadRenderer* renderer = &gl_renderer;
  if (!gl_renderer.Init(&error)) {
    err << "stepline: instanced renderer unavailable (" << error << "); drawing with ImGui\n";
    renderer = &fallback;
  }
  ViewerSession session{RecentFiles()};
  if (!parsed->positionals().empty()) {
    session.OpenFile(parsed->positionals().front());
  } else {
    session.OpenDemo(parsed->Value("--demo").value_or("input-bound"));
  }
  while (!window.ShouldClose()) {
    // Redraw continuously while loading (progress bar), else wait for input.
    window.BeginFrame(session.loading() ? 0.0 : 0.05);
    gl_renderer.BeginFrame();
    const ViewerSession::FrameResult r = session.Frame(window.TakeDroppedFiles(), renderer);
    ImGui::Render();
    int w = 0, h = 0;
    glfwGetFramebufferSize(window.handle(), &w, &h);
    glViewport(0, 0, w, h);
    glClearColor(0.09f, 0.1f, 0.12f, 1.f);
    glClear(GL_COLOR_BUFFER_BIT);
    window.RenderDrawData();
    if (r.save_screenshot) {
      const std::string path = TimestampedScreenshotPath(ScreenshotFolder());
      std::string write_error;
      glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
      glReadBuffer(GL_BACK);
      if (WritePng(path, w, h, ReadFramebufferRgba(w, h), false, &write_error)) {
        session.SetNotice("Saved screenshot to " + path);
      } else {
        session.SetNotice("Screenshot failed: " + write_error);
      }
    }
    window.Swap();
    if (r.quit) window.RequestClose();
  }
  return 0;
}

}  // namespace stepline::app
