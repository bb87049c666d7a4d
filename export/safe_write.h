// Writing a user's file safely: into a temporary file in the same folder,
// then moved into place, so a crash never leaves half a file. Never replaces
// an existing file unless asked, and never writes over an input trace.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace stepline::exports {

struct SafeWriteOptions {
  bool overwrite = false;           // replace an existing file (--force)
  std::vector<std::string> inputs;  // files being read (the traces): never written, even with overwrite
};

// Writes `bytes` to `path`. False with a message naming the path otherwise;
// on failure nothing is left behind (no temporary file, target untouched).
bool WriteFileSafely(const std::string& path, std::string_view bytes, const SafeWriteOptions& options,
                     std::string* error);

// True when `a` and `b` name the same file (same inode when both exist, else
// the same normalised absolute path).
bool SameFile(const std::string& a, const std::string& b);

}  // namespace stepline::exports
