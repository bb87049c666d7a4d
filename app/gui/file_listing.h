// FileListing: what the file dialog shows and how its path field behaves,
// without ImGui: one directory's entries (folders first by name, files newest
// first), the trace-file filter, `~` expansion, Tab completion, and what
// Enter on a typed path means. app/gui/file_browser.* draws it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "app/gui/screenshot_name.h"  // ExpandHome: "~" and "~/x" become $HOME and $HOME/x

namespace stepline::app {

// True for names Stepline usually opens: JSON, protobuf and Perfetto traces,
// gzip- or zstd-compressed ("trace.json.gz", "x.xplane.pb", "a.pftrace").
// The loader sniffs content, so "All files" is always one click away.
bool LooksLikeTraceFile(const std::string& name);

struct FileEntry {
  std::string name;
  bool is_dir = false;
  uintmax_t size = 0;   // bytes; 0 for folders
  int64_t mtime_s = 0;  // last modification, seconds since the epoch (0 unknown)
};

// One directory's entries, hidden names skipped; `error` says why a folder
// could not be read (the entries are then empty).
struct DirListing {
  std::string dir;
  std::vector<FileEntry> entries;  // folders by name, then files newest first
  std::string error;
};
DirListing ListDirectory(const std::string& dir);

// The entries the dialog shows: folders always, files only when they look
// like traces (unless `all_files`), and only names starting with `prefix`.
std::vector<FileEntry> FilterEntries(const std::vector<FileEntry>& entries, const std::string& prefix,
                                     bool all_files);

// A path typed in the field, split at its last '/': the folder to list and
// the start of a name in it. "~/tr" -> {$HOME, "tr"}; "/a/b/" -> {"/a/b", ""}.
struct TypedPath {
  std::string dir;
  std::string prefix;
};
TypedPath SplitTypedPath(const std::string& typed, const std::string& current_dir);

// Tab in the field: the typed path with its last part completed as far as
// the matching names agree; a single matching folder gets its '/', so the
// next Tab goes on inside it. Unchanged when nothing matches.
std::string CompletePath(const std::string& typed, const std::string& current_dir, bool all_files);

// Enter on a typed path.
struct EnterAction {
  enum class Kind : uint8_t { kNone, kOpenFolder, kPickFile } kind = Kind::kNone;
  std::string path;  // the folder to open or the file picked (absolute when the input was)
};
EnterAction ResolveEnter(const std::string& typed, const std::string& current_dir);

// Human sizes for the size column: "812 B", "4.2 KB", "1.1 MB", "3.0 GB".
std::string FormatFileSize(uintmax_t bytes);
// Local date and time for the date column: "2026-11-24 21:07".
std::string FormatFileTime(int64_t mtime_s);

}  // namespace stepline::app
