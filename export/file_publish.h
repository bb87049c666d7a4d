// Writing a finished file into place: the no-clobber rename (a hard link, or
// an existence check where links are missing), errno messages naming the
// path, and the case-insensitive suffix test that picks a compression.
#pragma once

#include <string>
#include <string_view>

#include "model/result.h"

namespace stepline::exports::file_publish {

bool EndsWith(std::string_view s, std::string_view suffix);           // suffix in lower case; s any case
std::string Errno(const std::string& what, const std::string& path);  // "what path: strerror(errno)"
bool PathExists(const std::string& path);
// Moves the finished temp file to `path`. Without overwrite, link() fails
// atomically when `path` appeared meanwhile; filesystems without hard links
// fall back to an existence check and rename().
Result<bool, std::string> Publish(const std::string& tmp, const std::string& path, bool overwrite);
// Creates an empty file named `path` + `tag` + "-XXXXXX" beside `path`, so
// Publish() is a rename within one folder, with the usual permissions
// (0666 & ~umask: mkstemp alone makes 0600). Returns its descriptor and sets
// *tmp, or -1 with *error naming `path`.
int CreateTempNextTo(const std::string& path, std::string_view tag, std::string* tmp, std::string* error);

}  // namespace stepline::exports::file_publish
