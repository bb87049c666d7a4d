// The keys every window of the viewer answers the same way, whatever has
// focus (a dialog's own keys excepted): text size (Ctrl+= / Ctrl++ /
// Ctrl+keypad +, Ctrl+-, Ctrl+0), Ctrl+Q, Esc on menus and popups, and the
// view history (Alt+Left / Backspace / mouse back, Alt+Right / mouse
// forward). Read by key code (key_codes.h). Each handled action is written
// to the test events log (test_events.h).
#pragma once

namespace stepline::ui {

struct ViewState;

// Ctrl+= / Ctrl++ / Ctrl+keypad +: larger text; Ctrl+- / keypad -: smaller;
// Ctrl+0 / keypad 0: back to 1x (io.FontGlobalScale, 0.75x to 2.5x).
// Sets *quit on Ctrl+Q.
void HandleTextSizeAndQuitKeys(bool* quit);
// Esc closes the open menu or popup and every popup above it (not a modal
// dialog, which answers Esc itself: its popups above it only); with none
// open, the help window when `show_help` is given and no text field has the
// keyboard. True when Esc was used up.
bool CloseTopPopupOnEsc(bool* show_help);
// Back and forward through the view history (zoom_history.h), when no text
// field has the keyboard (Backspace edits text there).
void HandleHistoryKeys(ViewState& state);

}  // namespace stepline::ui
