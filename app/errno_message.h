// The message of a failed system call. (Whole writes to a descriptor are
// loaders::WriteAll, loaders/posix_io.h.)
#pragma once

#include <string>

namespace stepline::app {

// "<what> <path>: <strerror(errno)>", for the errno of the call just failed.
std::string ErrnoMessage(const std::string& what, const std::string& path);

}  // namespace stepline::app
