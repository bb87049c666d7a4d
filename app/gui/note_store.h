// Notes on disk: each trace's notes in the config folder
// ($XDG_CONFIG_HOME/stepline/notes/, else ~/.config/stepline/notes/), one
// JSON file per trace named by a hash of its identity (absolute path, size,
// modification time), and the same JSON as the export / import file that is
// shared with a colleague. The format is in docs/guide.md ("Notes").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "app/gui/notes_json.h"
#include "model/result.h"

namespace stepline::app {

// The identity of `path` as it is on disk now; false when it cannot be read
// (a demo, a file removed since).
bool IdentityOf(const std::string& path, TraceIdentity* out);

// $XDG_CONFIG_HOME/stepline/notes, else ~/.config/...; "" without either.
std::string DefaultNotesFolder();
// folder/<16 hex digits of the identity's hash>.json
std::string NotesFileFor(const std::string& folder, const TraceIdentity& identity);

Result<NotesFile, std::string> ReadNotesFile(const std::string& path);
// Temporary file then rename, creating the folder; false with a message.
bool WriteNotesFile(const std::string& path, const NotesFile& file, std::string* error);

// "" when notes made on `from` fit `to` (same file name and size: a
// colleague's copy of the trace lives elsewhere and has another mtime);
// otherwise a sentence saying what differs.
std::string IdentityMismatch(const TraceIdentity& from, const TraceIdentity& to);

}  // namespace stepline::app
