// Failed system calls; see errno_message.h.
#include "app/errno_message.h"

#include <cerrno>
#include <cstring>

namespace stepline::app {

std::string ErrnoMessage(const std::string& what, const std::string& path) {
  return what + " " + path + ": " + std::strerror(errno);
}

}  // namespace stepline::app
