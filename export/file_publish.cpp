// The no-clobber publish of a written file; see file_publish.h.
#include "export/file_publish.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace stepline::exports::file_publish {

bool EndsWith(std::string_view s, std::string_view suffix) {
  if (s.size() < suffix.size()) return false;
  for (size_t i = 0; i < suffix.size(); ++i) {
    char c = s[s.size() - suffix.size() + i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != suffix[i]) return false;
  }
  return true;
}

std::string Errno(const std::string& what, const std::string& path) {
  return what + " " + path + ": " + std::strerror(errno);
}

bool PathExists(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0;
}

Result<bool, std::string> Publish(const std::string& tmp, const std::string& path, bool overwrite) {
  if (!overwrite) {
    if (::link(tmp.c_str(), path.c_str()) == 0) {
      ::unlink(tmp.c_str());
      return true;
    }
    if (errno == EEXIST) return MakeUnexpected(path + " already exists (use --force to replace it)");
    if (PathExists(path)) return MakeUnexpected(path + " already exists (use --force to replace it)");
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) return MakeUnexpected(Errno("cannot rename to", path));
  return true;
}

int CreateTempNextTo(const std::string& path, std::string_view tag, std::string* tmp, std::string* error) {
  *tmp = path;
  tmp->append(tag).append("-XXXXXX");
  const int fd = ::mkstemp(tmp->data());
  if (fd < 0) {
    *error = Errno("cannot create a temporary file next to", path);
    return -1;
  }
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  return fd;
}

}  // namespace stepline::exports::file_publish
