// FileWatch: notices when a file the window shows changes on disk (a rerun
// writing over it, a profiler still flushing it), so the window can offer to
// reload it. Each watched file is stat()ed at most once per interval: its
// size, modification time and inode. No file is read and no thread runs; the
// session polls once a frame and the stat calls happen once a second.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace stepline::app {

// What stat() says of a file; exists false when it cannot be stat()ed.
struct FileStamp {
  bool exists = false;
  uint64_t size = 0;
  int64_t mtime_ns = 0;
  uint64_t inode = 0;
  bool operator==(const FileStamp&) const = default;
};
FileStamp StampFile(const std::string& path);

class FileWatch {
 public:
  using Clock = std::chrono::steady_clock;
  explicit FileWatch(Clock::duration interval = std::chrono::seconds(1)) : interval_(interval) {}

  // Watches `path` as `label` ("" the trace alone, "A"/"B" a compared side,
  // "rank 3"), from its state now; replaces what `label` watched. A path that
  // is not a regular file (a pipe, standard input, a demo) is not watched.
  // `loaded_bytes`: the size the load read, when known; a file already
  // larger now (it grew during the load) is reported at the first poll.
  void Watch(const std::string& label, const std::string& path, uint64_t loaded_bytes = UINT64_MAX);
  void Clear() { files_.clear(); }
  bool empty() const { return files_.empty(); }

  struct Change {
    std::string label, path;
    bool grew = false;     // only larger, same file: a writer appending (a profiler still flushing)
    bool removed = false;  // gone (or unreadable) now
  };
  // The files that changed since they were watched or last reported, each
  // change reported once; stats nothing before `interval` since the last poll.
  std::vector<Change> Poll(Clock::time_point now);

 private:
  struct Watched {
    std::string label, path;
    FileStamp stamp;  // as last seen
  };
  Clock::duration interval_;
  Clock::time_point last_poll_{};
  std::vector<Watched> files_;
};

// The notice for changed files: "run.json changed on disk", "A (a.json) and
// B (b.json) changed on disk", "run.json is still growing on disk".
std::string ChangeNotice(const std::vector<FileWatch::Change>& changes);

}  // namespace stepline::app
