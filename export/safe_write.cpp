// Safe file writing; see safe_write.h.
#include "export/safe_write.h"

#include <fcntl.h>
#include <stdio.h>  // renameat2
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "loaders/posix_io.h"

namespace stepline::exports {
namespace fs = std::filesystem;

bool SameFile(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (fs::exists(a, ec) && fs::exists(b, ec)) return fs::equivalent(a, b, ec);
  const fs::path pa = fs::weakly_canonical(fs::absolute(a, ec), ec);
  const fs::path pb = fs::weakly_canonical(fs::absolute(b, ec), ec);
  return pa.lexically_normal() == pb.lexically_normal();
}

namespace {

// Writes all of `bytes` to a new file `path` (O_EXCL: never someone else's).
bool WriteNew(const std::string& path, std::string_view bytes, std::string* error) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    *error = std::strerror(errno);
    return false;
  }
  if (!loaders::WriteAll(fd, bytes)) {
    *error = std::strerror(errno);
    ::close(fd);
    return false;
  }
  // On disk before the rename makes it visible: a crash then leaves the old
  // state or the whole new file, never an empty one under the final name.
  if (::fsync(fd) != 0) {
    *error = std::strerror(errno);
    ::close(fd);
    return false;
  }
  if (::close(fd) != 0) {
    *error = std::strerror(errno);
    return false;
  }
  return true;
}

// Makes a rename durable: the directory entry is on disk too.
void SyncParentFolder(const std::string& path) {
  std::string dir = fs::path(path).parent_path().string();
  if (dir.empty()) dir = ".";
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;  // best effort: the file itself is complete either way
  ::fsync(fd);
  ::close(fd);
}

}  // namespace

bool WriteFileSafely(const std::string& path, std::string_view bytes, const SafeWriteOptions& options,
                     std::string* error) {
  for (const std::string& input : options.inputs) {
    if (SameFile(path, input)) {
      *error = path + ": that is the input trace; refusing to write over it";
      return false;
    }
  }
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    *error = path + ": is a folder";
    return false;
  }
  if (!options.overwrite && fs::exists(path, ec)) {
    *error = path + ": already exists (choose another name, or pass --force)";
    return false;
  }
  static std::atomic<unsigned> counter{0};
  const std::string tmp = path + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
  std::string why;
  if (!WriteNew(tmp, bytes, &why)) {
    *error = path + ": cannot write (" + why + ")";
    fs::remove(tmp, ec);
    return false;
  }
  if (!options.overwrite) {
    // Both fail if the target appeared meanwhile: never replace silently.
    // link() is the fallback where RENAME_NOREPLACE is unsupported.
    if (::renameat2(AT_FDCWD, tmp.c_str(), AT_FDCWD, path.c_str(), RENAME_NOREPLACE) == 0) {
      SyncParentFolder(path);
      return true;
    }
    if (errno != EINVAL && errno != ENOSYS) {
      *error = path + ": " + std::strerror(errno);
      fs::remove(tmp, ec);
      return false;
    }
    const bool linked = ::link(tmp.c_str(), path.c_str()) == 0;
    const int link_errno = errno;
    fs::remove(tmp, ec);
    if (!linked) {
      *error = path + ": " + std::strerror(link_errno);
      return false;
    }
    SyncParentFolder(path);
    return true;
  }
  fs::rename(tmp, path, ec);
  if (ec) {
    *error = path + ": " + ec.message();
    fs::remove(tmp, ec);
    return false;
  }
  SyncParentFolder(path);
  return true;
}

}  // namespace stepline::exports
