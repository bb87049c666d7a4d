// `stepline [FILE [FILE_B]] [--demo SCENARIO]`: the viewer window. With no
// file it opens the built-in input-bound demo; with two it compares them.
#include <imgui.h>

#include <ostream>

#include "app/cli_args.h"
#include "app/commands.h"
#include "app/gui/gl_quad_renderer.h"
#include "app/gui/gl_window.h"
#include "app/gui/picture_saver.h"
#include "app/gui/screenshot_name.h"
#include "app/gui/viewer_frame.h"
#include "app/gui/viewer_session.h"
#include "app/gui/viewer_settings.h"

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
  if (parsed->positionals().size() >= 2) {
    session.OpenCompare(parsed->positionals()[0], parsed->positionals()[1]);  // `stepline A B`
  } else if (!parsed->positionals().empty()) {
    session.OpenFile(parsed->positionals().front());
  } else {
    session.OpenDemo(parsed->Value("--demo").value_or("input-bound"));
  }
  // The layout and picture options of the last run; saved again on change.
  const std::string settings_path = DefaultSettingsPath();
  const std::string default_folder = ScreenshotFolder();
  ViewerSettings saved = LoadSettings(settings_path);
  ApplySettings(saved, default_folder, &session.state());
  PictureSaver pictures;
  while (!window.ShouldClose()) {
    const ViewerSession::FrameResult r = RunViewerFrame(window, session, pictures, &gl_renderer, renderer);
    // Not while a splitter is being dragged: once when it is let go.
    if (const ViewerSettings now = SettingsOf(session.state(), default_folder);
        now != saved && !ImGui::IsAnyMouseDown()) {
      std::string save_error;
      if (!SaveSettings(settings_path, now, &save_error)) err << "stepline: settings not saved: " << save_error << "\n";
      saved = now;  // once: a read-only home must not flood the terminal
    }
    if (r.quit) window.RequestClose();
  }
  return 0;
}

}  // namespace stepline::app
