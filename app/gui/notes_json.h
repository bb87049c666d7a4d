// The notes file's JSON, the same for each trace's notes in the config
// folder and for the export / import file shared with a colleague (format in
// docs/guide.md, "Notes"): writing it, and reading it back from bytes that
// may be anything (a hand-edited or damaged file; fuzzed by
// tests/fuzz/fuzz_notes_json.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/result.h"
#include "ui/notes/note_set.h"

namespace stepline::app {

// Which file a set of notes belongs to.
struct TraceIdentity {
  std::string path;      // absolute
  uint64_t bytes = 0;
  int64_t mtime_ns = 0;  // modification time, ns since the epoch
  bool operator==(const TraceIdentity&) const = default;
};

struct NotesFile {
  TraceIdentity trace;
  std::vector<ui::Note> notes;
};

std::string FormatNotesJson(const NotesFile& file);
// `file_name` names the source in errors: "notes.json: byte 42: not JSON",
// "notes.json: note 3: start_ns is missing or not an integer".
Result<NotesFile, std::string> ParseNotesJson(std::string_view text, const std::string& file_name);

}  // namespace stepline::app
