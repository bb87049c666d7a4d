// `stepline screenshot FILE --out PNG [--view timeline] [--size WxH]
// [--range START_MS:END_MS] [--scale S] [--force]`: renders a view with a
// hidden window into an offscreen framebuffer of exactly the asked size and
// writes a PNG. No interaction; exit 0 on success, 1 with a message otherwise.
#include <epoxy/gl.h>

#include <cmath>
#include <cstdio>
#include <ostream>

#include "app/cli_args.h"
#include "app/commands.h"
#include "app/gui/gl_quad_renderer.h"
#include "app/gui/gl_window.h"
#include "app/gui/headless_frame.h"
#include "app/gui/offscreen.h"
#include "app/gui/viewer_session.h"
#include "loaders/demo/demo_generator.h"
#include "loaders/load.h"

namespace stepline::app {
namespace {

struct Size {
  int w = 1920, h = 1080;
};

bool ParseSize(const std::string& text, Size* out) {
  int w = 0, h = 0;
  char x = 0, extra = 0;
  if (std::sscanf(text.c_str(), "%d%c%d%c", &w, &x, &h, &extra) != 3 || (x != 'x' && x != 'X')) return false;
  if (w < 16 || h < 16 || w > 16384 || h > 16384) return false;
  *out = Size{w, h};
  return true;
}

bool ParseRangeMs(const std::string& text, double* start_ms, double* end_ms) {
  char colon = 0, extra = 0;
  if (std::sscanf(text.c_str(), "%lf%c%lf%c", start_ms, &colon, end_ms, &extra) != 3 || colon != ':') return false;
  return std::isfinite(*start_ms) && std::isfinite(*end_ms) && *end_ms > *start_ms;
}

}  // namespace

int RunScreenshot(const Args& args, std::ostream& out, std::ostream& err) {
  auto parsed = ParsedArgs::Parse(
      args, ArgSpec{{"--force"}, {"--out", "--view", "--size", "--range", "--scale", "--demo", "--step"}});
  if (!parsed.ok()) {
    err << "stepline screenshot: " << parsed.error() << "\n";
    return 1;
  }
  const ParsedArgs& a = *parsed;
  const auto out_path = a.Value("--out");
  if (!out_path || (a.positionals().empty() && !a.Value("--demo"))) {
    err << "usage: stepline screenshot FILE --out OUT.png [--view timeline] [--size WxH] "
           "[--range START_MS:END_MS] [--scale S] [--force]\n";
    return 1;
  }
  const std::string view = a.Value("--view").value_or("timeline");
  if (view != "timeline") {
    err << "stepline screenshot: --view " << view << " is not available yet (only: timeline)\n";
    return 1;
  }
  Size size;
  if (auto s = a.Value("--size"); s && !ParseSize(*s, &size)) {
    err << "stepline screenshot: --size wants WIDTHxHEIGHT between 16 and 16384, got '" << *s << "'\n";
    return 1;
  }
  double scale = 1.0;
  if (auto s = a.Value("--scale")) {
    char* end = nullptr;
    scale = std::strtod(s->c_str(), &end);
    if (*end != '\0' || !(scale >= 0.5 && scale <= 4.0)) {
      err << "stepline screenshot: --scale wants a number from 0.5 to 4, got '" << *s << "'\n";
      return 1;
    }
  }
  double start_ms = 0, end_ms = 0;
  const auto range = a.Value("--range");
  if (range && !ParseRangeMs(*range, &start_ms, &end_ms)) {
    err << "stepline screenshot: --range wants START_MS:END_MS with END > START, got '" << *range << "'\n";
    return 1;
  }
  // Load first: a bad file fails fast, before any window exists.
  std::string title;
  Result<Trace, std::string> loaded = Unexpected<std::string>{"not loaded"};
  if (!a.positionals().empty()) {
    title = a.positionals().front();
    auto r = loaders::LoadFile(title);
    loaded = r.ok() ? Result<Trace, std::string>(std::move(r).value())
                    : Result<Trace, std::string>(Unexpected<std::string>{r.error().ToString()});
  } else {
    loaders::DemoOptions options;
    options.scenario = *a.Value("--demo");
    title = "demo: " + options.scenario;
    loaded = loaders::GenerateDemoTrace(options);
  }
  if (!loaded.ok()) {
    err << "stepline screenshot: " << loaded.error() << "\n";
    return 1;
  }
  auto data = std::make_shared<const ui::TimelineData>(std::make_shared<const Trace>(std::move(loaded).value()));

  GlWindow window;
  std::string error;
  GlWindow::Options options;
  options.width = size.w;
  options.height = size.h;
  options.visible = false;
  options.font_scale = static_cast<float>(scale);
  if (!window.Create(options, &error)) {
    err << "stepline screenshot: " << error << "\n";
    return 1;
  }
  GlQuadRenderer renderer;
  if (!renderer.Init(&error)) {
    err << "stepline screenshot: " << error << "\n";
    return 1;
  }
  OffscreenTarget target;
  if (!target.Create(size.w, size.h, &error)) {
    err << "stepline screenshot: " << error << "\n";
    return 1;
  }
  ViewerSession session{RecentFiles("/dev/null/never")};  // headless: never touch the user's recent list
  session.Show(data, title);
  if (range) {
    const TimeNs origin = data->trace->span().start_ns;
    session.state().request_fit = TimeRange{origin + static_cast<TimeNs>(std::llround(start_ms * 1e6)),
                                            origin + static_cast<TimeNs>(std::llround(end_ms * 1e6))};
  }
  // A few frames let ImGui settle table and window sizes.
  RenderHeadlessFrames(size.w, size.h, 4, [&] {
    renderer.BeginFrame();
    session.Frame({}, &renderer);
  }, target);
  if (!WritePng(*out_path, size.w, size.h, target.ReadRgba(), a.Has("--force"), &error)) {
    err << "stepline screenshot: " << error << "\n";
    return 1;
  }
  out << *out_path << "\n";
  return 0;
}

}  // namespace stepline::app
