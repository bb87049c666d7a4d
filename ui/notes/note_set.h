// Notes and bookmarks on a trace: a span note marks a time range (a slice or
// a range selection), a flag marks one instant. Each has text and a colour.
// Plain data in the view state; the app keeps them per trace in the config
// folder and exports / imports them (app/gui/note_store.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/time.h"

namespace stepline::ui {

struct Note {
  TimeNs start_ns = 0;  // trace time, as the trace's own timestamps
  TimeNs end_ns = 0;    // == start_ns for a flag
  bool is_flag = false;
  std::string text;
  uint32_t color = 0;   // packed ABGR, as the theme's colours
  bool operator==(const Note&) const = default;
};

struct NoteSet {
  std::vector<Note> items;  // in the order they were made
  // Bumped on every change the user makes; the app saves when it moves.
  uint64_t revision = 0;
  // The app has read this trace's saved notes into the set (a fresh view
  // state, for a newly shown trace, has not).
  bool loaded = false;
  // The time under the mouse over the timeline this frame (Shift+M's flag); unset off it.
  std::optional<TimeNs> cursor_ns;
};

}  // namespace stepline::ui
