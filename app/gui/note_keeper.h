// NoteKeeper: the viewer's notes between the view state and the disk. When a
// trace is shown it reads that trace's saved notes (note_store.h); when the
// user changes them it writes them back; it exports them beside the pictures
// and imports a colleague's file.
#pragma once

#include <string>

#include "app/gui/note_store.h"
#include "ui/view_state.h"

namespace stepline::app {

class NoteKeeper {
 public:
  // `folder`: where each trace's notes are kept ("" = nowhere: in memory only).
  explicit NoteKeeper(std::string folder = DefaultNotesFolder()) : folder_(std::move(folder)) {}
  void set_folder(std::string folder) { folder_ = std::move(folder); }
  // Read-only: saved notes are shown but changes and imports are never
  // written (headless pictures must not touch the user's notes).
  void set_read_only(bool read_only) { read_only_ = read_only; }

  // Once a frame: loads the notes of a trace newly shown in `state` (a fresh
  // view state), saves them when their revision moved. Problems (a damaged
  // notes file, a failed save) go to `*notice`.
  void Sync(ui::ViewState* state, std::string* notice);

  struct Outcome {
    bool ok = false;
    std::string message;  // the notice on success, the error otherwise
  };
  // Writes the notes to `<export folder>/<trace file name>.notes.json`.
  Outcome Export(const ui::ViewState& state) const;
  // Adds the notes of `path` that are not there yet; the message warns when
  // they were made on another file (IdentityMismatch).
  Outcome Import(ui::ViewState* state, const std::string& path);

 private:
  std::string folder_;
  bool read_only_ = false;
  bool has_identity_ = false;  // the shown trace is a file (a demo has no identity: notes stay in memory)
  TraceIdentity identity_;
  uint64_t saved_revision_ = 0;
};

}  // namespace stepline::app
