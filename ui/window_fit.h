// WindowFit: keeps a floating window (a dialog, the help, the diagnostics
// list) inside the main window, however small the main window is or becomes:
// ImGui keeps a window's position and size when the main window shrinks, and
// its buttons would end up past the edge.
#pragma once

namespace stepline::ui {

// Call between Begin() (or BeginPopupModal()) and End() of the window to fit.
// Shrinks it to the main viewport less `margin` px on each side, then moves
// it back inside.
void KeepWindowInsideViewport(float margin = 8.f);

}  // namespace stepline::ui
