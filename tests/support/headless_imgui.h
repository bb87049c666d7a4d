// A Dear ImGui context with no platform or renderer backend (as imgui's
// examples/example_null), for tests that draw views and panels without a window.
// Header-only on purpose: only ui_tests and app_tests link ImGui, and
// stepline_test_support (linked by every suite) must not need it.
#pragma once

#include <imgui.h>

namespace stepline::testing {

// Creates the context when constructed and destroys it when destroyed; make it
// a fixture's first member so it outlives the views that draw with it.
// NewFrame() asserts unless the display size, delta time and font atlas are
// set, which a backend would do; this does it once for every headless test.
class HeadlessImGui {
 public:
  explicit HeadlessImGui(ImVec2 display_size) {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = display_size;
    io.DeltaTime = 1.f / 60.f;
    io.IniFilename = nullptr;                                   // no imgui.ini next to the test
    io.BackendFlags |= ImGuiBackendFlags_RendererHasVtxOffset;  // large draw lists are fine
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->AddFontDefault();
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  }
  ~HeadlessImGui() { ImGui::DestroyContext(); }
  HeadlessImGui(const HeadlessImGui&) = delete;
  HeadlessImGui& operator=(const HeadlessImGui&) = delete;
};

}  // namespace stepline::testing
