// NoticeStrips: full-width strips drawn across the top of the timeline that
// tell the reader what they are looking at before they read a number: the
// file lost data while loading (with a Details list of every diagnostic), or
// the trace is the built-in demo (with the way to open their own).
#pragma once

#include <string>

#include "model/trace.h"

namespace stepline::ui {

// The data-loss banner (nothing when the trace lost no data), its text after
// `prefix` ("A is partial: " in the compare view). Its Details button
// toggles `*details_open`, the window listing every diagnostic.
void DrawDataLossBanner(const Trace& trace, bool* details_open, const std::string& prefix = "");
// The window listing every diagnostic of `trace`, while `*open`; `id` tells
// two such windows apart (one per side when comparing).
void DrawDiagnosticsWindow(const Trace& trace, const std::string& title, bool* open,
                           const char* id = "load_diagnostics");

// "Demo trace: input-bound training loop. Open your own trace: Ctrl+O, or
// drop a file here"; `title` is the session's ("demo: input-bound").
std::string DemoStripText(const std::string& title);
// The demo strip; true when its Open button was pressed.
bool DrawDemoStrip(const std::string& title);
// The trace on show is a built-in demo (generated, not read from a file).
bool IsDemoTrace(const Trace& trace);

}  // namespace stepline::ui
