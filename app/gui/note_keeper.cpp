// NoteKeeper; see note_keeper.h.
#include "app/gui/note_keeper.h"

#include <algorithm>
#include <filesystem>

namespace stepline::app {

void NoteKeeper::Sync(ui::ViewState* state, std::string* notice) {
  const Trace* trace = state->trace();
  if (trace == nullptr) return;
  ui::NoteSet& notes = state->notes;
  if (!notes.loaded) {
    notes.loaded = true;
    has_identity_ = IdentityOf(trace->info().source_path, &identity_);
    if (has_identity_ && !folder_.empty()) {
      const std::string path = NotesFileFor(folder_, identity_);
      std::error_code ec;
      if (std::filesystem::exists(path, ec)) {
        Result<NotesFile, std::string> read = ReadNotesFile(path);
        if (!read.ok()) {
          *notice = "Notes not loaded: " + read.error();
        } else if (read->trace == identity_) {  // a hash collision or an edited file would not match
          notes.items = std::move(read->notes);
        }
      }
    }
    saved_revision_ = notes.revision;
    return;
  }
  if (notes.revision == saved_revision_ || read_only_) return;
  saved_revision_ = notes.revision;
  if (!has_identity_ || folder_.empty()) return;
  const std::string path = NotesFileFor(folder_, identity_);
  std::string error;
  if (notes.items.empty()) {
    std::error_code ec;
    std::filesystem::remove(path, ec);  // no notes left: no file
    return;
  }
  if (!WriteNotesFile(path, NotesFile{identity_, notes.items}, &error)) *notice = "Notes not saved: " + error;
}

NoteKeeper::Outcome NoteKeeper::Export(const ui::ViewState& state) const {
  const Trace* trace = state.trace();
  if (trace == nullptr) return {false, "No trace to export notes of"};
  if (state.notes.items.empty()) return {false, "No notes to export (M marks the selection, Shift+M drops a flag)"};
  NotesFile file{identity_, state.notes.items};
  if (!has_identity_) file.trace.path = trace->info().source_path;
  std::string stem = std::filesystem::path(file.trace.path).filename().string();
  if (stem.empty()) stem = "trace";
  const std::string folder = state.pictures.export_folder.empty() ? "." : state.pictures.export_folder;
  const std::string path = folder + "/" + stem + ".notes.json";
  std::string error;
  if (!WriteNotesFile(path, file, &error)) return {false, "Notes not exported: " + error};
  return {true, "Exported " + std::to_string(file.notes.size()) + " notes to " + path};
}

NoteKeeper::Outcome NoteKeeper::Import(ui::ViewState* state, const std::string& path) {
  const Trace* trace = state->trace();
  if (trace == nullptr) return {false, "No trace to import notes onto"};
  std::string unused;
  Sync(state, &unused);  // the trace's saved notes first, so the import adds to them
  Result<NotesFile, std::string> read = ReadNotesFile(path);
  if (!read.ok()) return {false, read.error()};
  TraceIdentity here = identity_;
  if (!has_identity_) here.path = trace->info().source_path;
  size_t added = 0;
  for (ui::Note& n : read->notes) {
    if (std::find(state->notes.items.begin(), state->notes.items.end(), n) != state->notes.items.end()) continue;
    state->notes.items.push_back(std::move(n));
    ++added;
  }
  if (added > 0) ++state->notes.revision;
  std::string message = "Imported " + std::to_string(added) + " notes from " + path;
  if (const std::string mismatch = IdentityMismatch(read->trace, here); !mismatch.empty()) message += " (" + mismatch + ")";
  return {true, message};
}

}  // namespace stepline::app
