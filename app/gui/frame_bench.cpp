// Frame benchmark; see frame_bench.h.
#include <epoxy/gl.h>

#include "app/gui/frame_bench.h"

#include <imgui.h>

#include <time.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "app/gui/gl_quad_renderer.h"
#include "app/gui/gl_window.h"
#include "app/gui/headless_frame.h"
#include "app/runs/timing.h"
#include "ui/main_view.h"

namespace stepline::app {
namespace {

using Clock = std::chrono::steady_clock;

// Wall time, or the CPU time of this thread: a frame is built on one thread,
// and its CPU time does not grow when other processes share the cores.
double NowMs(bool cpu_time) {
  if (cpu_time) {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
  }
  return std::chrono::duration<double, std::milli>(Clock::now().time_since_epoch()).count();
}

TimeRange LevelRange(const TimeRange& span, double fraction) {
  const double width = static_cast<double>(span.duration_ns()) * fraction;
  const TimeNs mid = span.start_ns + span.duration_ns() / 2;
  return TimeRange{mid - static_cast<TimeNs>(width / 2), mid + static_cast<TimeNs>(width / 2)};
}

// Runs `frames` frames per zoom level through `frame(state)` and returns the
// median time of each level (thread CPU time or wall time).
template <typename Frame>
FrameTimes MeasureLevels(ui::ViewState& state, int frames, bool cpu_time, Frame frame) {
  FrameTimes out;
  const TimeRange span = state.trace()->span();
  double* slots[] = {&out.fit_all, &out.zoom_10pct, &out.zoom_1pct, &out.zoom_0_1pct};
  const double fractions[] = {1.0, 0.1, 0.01, 0.001};
  for (int level = 0; level < 4; ++level) {
    state.requests.fit = LevelRange(span, fractions[level]);
    frame(state);  // applies the fit; not timed
    std::vector<double> ms;
    for (int i = 0; i < frames; ++i) {
      const double t0 = NowMs(cpu_time);
      frame(state);
      ms.push_back(NowMs(cpu_time) - t0);
    }
    *slots[level] = Median(ms);
  }
  return out;
}

}  // namespace

FrameBenchResult MeasureFrames(std::shared_ptr<const ui::TimelineData> data, int width, int height,
                               int frames_per_level) {
  FrameBenchResult result;
  // CPU only: ImGui without a backend, quads through the ImDrawList renderer's
  // cheaper sibling (the instanced renderer only copies them).
  {
    ImGuiContext* ctx = ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.BackendFlags |= ImGuiBackendFlags_RendererHasVtxOffset;
    SetUpImGuiStyle(1.f);
    unsigned char* pixels = nullptr;
    int tw = 0, th = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &tw, &th);
    ui::ViewState state;
    state.data = data;
    ui::MainView view;
    ui::AppStatus status;
    // Collects quads like the GL renderer does, without a GL context.
    struct CopyingRenderer : ui::QuadRenderer {
      std::vector<ui::QuadInstance> quads;
      void Draw(ImDrawList*, std::span<const ui::QuadInstance> q) override { quads.assign(q.begin(), q.end()); }
    } renderer;
    result.build_ms = MeasureLevels(state, frames_per_level, /*cpu_time=*/true, [&](ui::ViewState& s) {
      io.DisplaySize = ImVec2(static_cast<float>(width), static_cast<float>(height));
      io.DeltaTime = 1.f / 60.f;
      ImGui::NewFrame();
      view.Draw(s, status, &renderer);
      ImGui::Render();
    });
    ImGui::DestroyContext(ctx);
  }
  // With GL: the same frames rendered into an offscreen target, to glFinish().
  GlWindow window;
  GlWindow::Options options;
  options.width = width;
  options.height = height;
  options.visible = false;
  options.font_scale = 1.f;
  std::string error;
  GlQuadRenderer gl;
  OffscreenTarget target;
  if (!window.Create(options, &error) || !gl.Init(&error) || !target.Create(width, height, &error)) {
    result.gl_note = error;
    return result;
  }
  ui::ViewState state;
  state.data = data;
  ui::MainView view;
  ui::AppStatus status;
  result.total_ms = MeasureLevels(state, frames_per_level, /*cpu_time=*/false, [&](ui::ViewState& s) {
    RenderHeadlessFrames(width, height, 1, [&] {
      gl.BeginFrame();
      view.Draw(s, status, &gl);
    }, target);
  });
  return result;
}

}  // namespace stepline::app
