// The Notes tab: every note of the trace with its colour and text (both
// editable), where it is, and buttons to jump to it or delete it; plus
// export and import, which the app carries out (no file access here).
#pragma once

#include "ui/view_state.h"

namespace stepline::ui {

struct NotesTabRequests {
  bool export_notes = false;
  bool import_notes = false;
};

class NotesTab {
 public:
  NotesTabRequests Draw(ViewState& state);
};

}  // namespace stepline::ui
