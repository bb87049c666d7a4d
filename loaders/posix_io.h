// Whole reads and writes on file descriptors, retrying short transfers and
// EINTR, for every layer above the model (the loaders, the column cache, the
// exporters, the commands). On failure errno says why; a transfer that makes
// no progress fails with errno EIO.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string_view>

namespace stepline::loaders {

// One read(2) of up to `bytes`, retried on EINTR: >0 bytes read, 0 at end of
// input, -1 on error.
ssize_t ReadSome(int fd, char* buf, size_t bytes);

// All of `bytes` to `fd` at its offset.
bool WriteAll(int fd, std::string_view bytes);

// Exactly `bytes` from offset `at` (end of file first is a failure).
bool ReadAllAt(int fd, char* buf, uint64_t bytes, uint64_t at);

// All of `bytes` at offset `at`.
bool WriteAllAt(int fd, const char* data, uint64_t bytes, uint64_t at);

}  // namespace stepline::loaders
