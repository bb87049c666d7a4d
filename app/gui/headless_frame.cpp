// Headless ImGui frames into an offscreen target.
#include <epoxy/gl.h>

#include "app/gui/headless_frame.h"

#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

#include <cfloat>

#include "ui/theme.h"

namespace stepline::app {

void RenderHeadlessFrames(int width, int height, int frames, const std::function<void()>& draw,
                          const OffscreenTarget& target) {
  for (int f = 0; f < frames; ++f) {
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGuiIO& io = ImGui::GetIO();
    // Override what the GLFW backend read from the (hidden) window: the exact
    // size asked for, no pointer, a constant clock.
    io.DisplaySize = ImVec2(static_cast<float>(width), static_cast<float>(height));
    io.DisplayFramebufferScale = ImVec2(1.f, 1.f);
    io.DeltaTime = 1.f / 60.f;
    io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    for (bool& down : io.MouseDown) down = false;
    io.MouseWheel = 0.f;
    ImGui::NewFrame();
    draw();
    ImGui::Render();
    target.Bind();
    glDisable(GL_SCISSOR_TEST);
    const ImVec4 clear = ImGui::ColorConvertU32ToFloat4(ui::theme::kBackground);  // the theme in use
    glClearColor(clear.x, clear.y, clear.z, 1.f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  }
  glFinish();
}

}  // namespace stepline::app
