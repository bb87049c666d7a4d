// GlWindow: a GLFW window with an OpenGL 3.3 core context and Dear ImGui set
// up on it (GLFW + OpenGL3 backends, DejaVu font when installed). Visible for
// the viewer, hidden for headless screenshots. Owns the ImGui context.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "app/gui/key_event_queue.h"

struct GLFWwindow;

namespace stepline::app {

class GlWindow {
 public:
  struct Options {
    int width = 1600, height = 1000;
    bool visible = true;
    float font_scale = 0;  // 0: from the monitor's content scale (high-DPI)
    std::string title = "Stepline";
  };
  GlWindow() = default;
  GlWindow(const GlWindow&) = delete;
  GlWindow& operator=(const GlWindow&) = delete;
  ~GlWindow();

  // False with a message (no display, no GL 3.3) instead of crashing.
  bool Create(const Options& options, std::string* error);
  GLFWwindow* handle() const { return window_; }
  bool ShouldClose() const;
  void RequestClose();
  // Polls events (waiting up to `wait_s` when idle and no key press is still
  // queued) and starts an ImGui frame.
  // `hide_pointer`: the frame sees no mouse (a frame saved as a picture has
  // no hover highlight or tooltip).
  void BeginFrame(double wait_s, bool hide_pointer = false);
  // Renders the ImGui frame to the window and swaps.
  void EndFrame();
  // The two halves of EndFrame() for callers that draw or read back in between
  // (call ImGui::Render() first).
  void RenderDrawData();
  void Swap();
  // Files dropped on the window since the last call.
  std::vector<std::string> TakeDroppedFiles();
  float font_scale() const { return font_scale_; }
  // The window's size in screen coordinates (what Options::width/height set).
  void GetSize(int* width, int* height) const;
  void SetTitle(const std::string& title);

 private:
  static void OnDrop(GLFWwindow* window, int count, const char** paths);
  static void OnKey(GLFWwindow* window, int key, int scancode, int action, int mods);
  static void OnChar(GLFWwindow* window, unsigned int c);
  static void OnMouseButton(GLFWwindow* window, int button, int action, int mods);

  GLFWwindow* window_ = nullptr;
  bool imgui_ready_ = false;
  float font_scale_ = 1.f;
  std::vector<std::string> dropped_;
  double last_poll_end_s_ = 0, events_since_s_ = 0;  // around the event poll (clicks' earliest times)
  KeyEventQueue keys_;  // replaces ImGui's key, char and mouse button callbacks
  std::string title_;
};

// Sets up fonts and style on the current ImGui context (shared by the window
// and the headless tests): DejaVu Sans at 15 px * scale, ImGui's own font as
// fallback.
void SetUpImGuiStyle(float scale);

}  // namespace stepline::app
