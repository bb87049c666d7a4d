// Whole reads and writes; see posix_io.h.
#include "loaders/posix_io.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace stepline::loaders {
namespace {

// Linux moves at most about 2 GiB in one call; larger requests come back short.
constexpr uint64_t kMaxChunk = uint64_t{1} << 30;

// Calls `transfer(offset, length)` until `bytes` have moved. A call that moves
// nothing fails with EIO unless it set errno itself.
template <typename Transfer>
bool TransferAll(uint64_t bytes, Transfer transfer) {
  uint64_t done = 0;
  while (done < bytes) {
    const ssize_t n = transfer(done, static_cast<size_t>(std::min(bytes - done, kMaxChunk)));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) {
      errno = EIO;
      return false;
    }
    done += static_cast<uint64_t>(n);
  }
  return true;
}

}  // namespace

ssize_t ReadSome(int fd, char* buf, size_t bytes) {
  for (;;) {
    const ssize_t n = ::read(fd, buf, bytes);
    if (n >= 0 || errno != EINTR) return n;
  }
}

bool WriteAll(int fd, std::string_view bytes) {
  return TransferAll(bytes.size(), [&](uint64_t done, size_t n) { return ::write(fd, bytes.data() + done, n); });
}

bool ReadAllAt(int fd, char* buf, uint64_t bytes, uint64_t at) {
  return TransferAll(bytes, [&](uint64_t done, size_t n) { return ::pread(fd, buf + done, n, static_cast<off_t>(at + done)); });
}

bool WriteAllAt(int fd, const char* data, uint64_t bytes, uint64_t at) {
  return TransferAll(bytes, [&](uint64_t done, size_t n) { return ::pwrite(fd, data + done, n, static_cast<off_t>(at + done)); });
}

}  // namespace stepline::loaders
