// GlWindow: GLFW + OpenGL 3.3 core + ImGui backends.
// epoxy must come before any other GL header.
#include <epoxy/gl.h>
// clang-format off
#include <GLFW/glfw3.h>
// clang-format on
#include "app/gui/gl_window.h"

#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

#include <algorithm>
#include <cfloat>
#include <filesystem>
#include "ui/theme.h"

#include "ui/ui_scale.h"

#include "ui/input/text_focus.h"

namespace stepline::app {
namespace {

constexpr const char* kFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
std::string g_glfw_error;

void OnGlfwError(int code, const char* description) {
  g_glfw_error = "GLFW error " + std::to_string(code) + ": " + (description ? description : "?");
}

}  // namespace

void SetUpImGuiStyle(float scale) {
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // layout persistence is ours to decide, not imgui.ini in the cwd
  io.Fonts->Clear();
  if (std::filesystem::exists(kFontPath)) {
    io.Fonts->AddFontFromFileTTF(kFontPath, 15.f * scale);
  } else {
    ImFontConfig config;
    config.SizePixels = 13.f * scale;
    io.Fonts->AddFontDefault(&config);
  }
  ImGui::StyleColorsDark();
  ImGuiStyle& style = ImGui::GetStyle();
  style.FrameRounding = 3.f;
  style.WindowBorderSize = 0.f;
  style.ScaleAllSizes(scale);
}

GlWindow::~GlWindow() {
  if (imgui_ready_) {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
  }
  if (window_) glfwDestroyWindow(window_);
  glfwTerminate();
}

bool GlWindow::Create(const Options& options, std::string* error) {
  glfwSetErrorCallback(OnGlfwError);
  if (!glfwInit()) {
    *error = "cannot initialise GLFW (is there a display? try xvfb-run): " + g_glfw_error;
    return false;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_VISIBLE, options.visible ? GLFW_TRUE : GLFW_FALSE);
  window_ = glfwCreateWindow(options.width, options.height, options.title.c_str(), nullptr, nullptr);
  if (!window_) {
    *error = "cannot create an OpenGL 3.3 core window: " + g_glfw_error;
    return false;
  }
  glfwMakeContextCurrent(window_);
  glfwSwapInterval(1);
  glfwSetWindowUserPointer(window_, this);
  glfwSetDropCallback(window_, OnDrop);
  font_scale_ = options.font_scale;
  if (font_scale_ <= 0) {
    float sx = 1.f, sy = 1.f;
    glfwGetWindowContentScale(window_, &sx, &sy);
    font_scale_ = std::max(1.f, sy);
  }
  ui::SetDisplayScale(font_scale_);  // the layout's cutoffs count logical px
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  SetUpImGuiStyle(font_scale_);
  ImGui_ImplGlfw_InitForOpenGL(window_, true);
  // Ours instead of the backend's (which would set io.KeysDown directly and
  // lose a press released before the next frame); mouse and focus stay its.
  glfwSetKeyCallback(window_, OnKey);
  glfwSetCharCallback(window_, OnChar);
  // Buttons too: two clicks within one slow frame must stay two, and a
  // double-click is judged from the clicks' own times.
  glfwSetMouseButtonCallback(window_, OnMouseButton);
  title_ = options.title;
  ImGui_ImplOpenGL3_Init("#version 330 core");
  imgui_ready_ = true;
  return true;
}

bool GlWindow::ShouldClose() const { return glfwWindowShouldClose(window_); }

void GlWindow::GetSize(int* width, int* height) const { glfwGetWindowSize(window_, width, height); }
void GlWindow::RequestClose() { glfwSetWindowShouldClose(window_, GLFW_TRUE); }

void GlWindow::BeginFrame(double wait_s, bool hide_pointer) {
  // What this poll hands over happened after the last poll ended (clicks
  // carry that bound: key_event_queue.h).
  events_since_s_ = last_poll_end_s_;
  if (wait_s > 0 && !keys_.pending()) {
    glfwWaitEventsTimeout(wait_s);
  } else {
    glfwPollEvents();
  }
  last_poll_end_s_ = glfwGetTime();
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  keys_.ApplyToImGui(ui::TextFocusPending());
  if (hide_pointer) ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
  ImGui::NewFrame();
  keys_.ApplyClickCounts();
}

void GlWindow::EndFrame() {
  ImGui::Render();
  int w = 0, h = 0;
  glfwGetFramebufferSize(window_, &w, &h);
  glViewport(0, 0, w, h);
  const ImVec4 clear = ImGui::ColorConvertU32ToFloat4(ui::theme::kBackground);  // the theme in use
  glClearColor(clear.x, clear.y, clear.z, 1.f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  glfwSwapBuffers(window_);
}

void GlWindow::RenderDrawData() { ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData()); }
void GlWindow::Swap() { glfwSwapBuffers(window_); }

std::vector<std::string> GlWindow::TakeDroppedFiles() {
  std::vector<std::string> out;
  out.swap(dropped_);
  return out;
}

void GlWindow::SetTitle(const std::string& title) {
  if (title == title_) return;
  title_ = title;
  glfwSetWindowTitle(window_, title.c_str());
}

void GlWindow::OnKey(GLFWwindow* window, int key, int /*scancode*/, int action, int /*mods*/) {
  if (action == GLFW_REPEAT) return;  // ImGui makes its own repeats from the held state
  static_cast<GlWindow*>(glfwGetWindowUserPointer(window))->keys_.PushKey(key, action == GLFW_PRESS, glfwGetTime());
}

void GlWindow::OnChar(GLFWwindow* window, unsigned int c) {
  static_cast<GlWindow*>(glfwGetWindowUserPointer(window))->keys_.PushChar(c, glfwGetTime());
}

void GlWindow::OnMouseButton(GLFWwindow* window, int button, int action, int /*mods*/) {
  double x = 0, y = 0;
  glfwGetCursorPos(window, &x, &y);
  auto* self = static_cast<GlWindow*>(glfwGetWindowUserPointer(window));
  const double now = glfwGetTime();
  self->keys_.PushMouseButton(button, action == GLFW_PRESS, now, static_cast<float>(x), static_cast<float>(y),
                              std::min(now, self->events_since_s_));
}

void GlWindow::OnDrop(GLFWwindow* window, int count, const char** paths) {
  auto* self = static_cast<GlWindow*>(glfwGetWindowUserPointer(window));
  for (int i = 0; i < count; ++i) self->dropped_.emplace_back(paths[i]);
}

}  // namespace stepline::app
