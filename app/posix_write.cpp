// Failed system calls; see posix_write.h.
#include "app/posix_write.h"

#include <cerrno>
#include <cstring>

namespace stepline::app {

std::string ErrnoMessage(const std::string& what, const std::string& path) {
  return what + " " + path + ": " + std::strerror(errno);
}

}  // namespace stepline::app
