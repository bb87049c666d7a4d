// A text field asked for the keyboard (ImGui::SetKeyboardFocusHere) takes it
// a frame or two later. Until it has, the keys typed after the request are
// the field's: the window's key queue (app/gui/key_event_queue.h) holds them
// back while TextFocusPending() says so, instead of letting the view see them.
#pragma once

namespace stepline::ui {

// Call together with ImGui::SetKeyboardFocusHere() for a text field.
void RequestTextFocus();
// Once per frame, before the frame: true while a requested field has not
// yet taken the keyboard (never for more than a few frames).
bool TextFocusPending();

}  // namespace stepline::ui
