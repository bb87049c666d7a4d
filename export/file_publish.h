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

}  // namespace stepline::exports::file_publish
