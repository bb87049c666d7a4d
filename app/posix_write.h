// Writing to file descriptors, and the message of a failed system call.
#pragma once

#include <string>
#include <string_view>

namespace stepline::app {

// Writes all of `bytes` to `fd`, retrying short writes and EINTR.
bool WriteAll(int fd, std::string_view bytes);

// "<what> <path>: <strerror(errno)>", for the errno of the call just failed.
std::string ErrnoMessage(const std::string& what, const std::string& path);

}  // namespace stepline::app
