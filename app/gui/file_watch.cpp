// FileWatch (see file_watch.h): stat() once per interval, compare, report once.
#include "app/gui/file_watch.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>

namespace stepline::app {

FileStamp StampFile(const std::string& path) {
  FileStamp s;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return s;
  s.exists = true;
  s.size = static_cast<uint64_t>(st.st_size);
  s.mtime_ns = int64_t{st.st_mtim.tv_sec} * 1'000'000'000 + st.st_mtim.tv_nsec;
  s.inode = static_cast<uint64_t>(st.st_ino);
  return s;
}

void FileWatch::Watch(const std::string& label, const std::string& path, uint64_t loaded_bytes) {
  std::erase_if(files_, [&](const Watched& w) { return w.label == label; });
  FileStamp stamp = StampFile(path);
  if (path.empty() || !stamp.exists) return;
  if (loaded_bytes != UINT64_MAX) stamp.size = loaded_bytes;
  files_.push_back(Watched{label, path, stamp});
}

std::vector<FileWatch::Change> FileWatch::Poll(Clock::time_point now) {
  std::vector<Change> changes;
  if (files_.empty() || now - last_poll_ < interval_) return changes;
  last_poll_ = now;
  for (Watched& w : files_) {
    const FileStamp now_stamp = StampFile(w.path);
    if (now_stamp == w.stamp) continue;
    Change c{w.label, w.path};
    c.removed = !now_stamp.exists;
    c.grew = now_stamp.exists && now_stamp.inode == w.stamp.inode && now_stamp.size > w.stamp.size;
    changes.push_back(std::move(c));
    w.stamp = now_stamp;
  }
  return changes;
}

std::string ChangeNotice(const std::vector<FileWatch::Change>& changes) {
  std::string names;
  bool all_grew = true, all_removed = true;
  for (size_t i = 0; i < changes.size(); ++i) {
    const FileWatch::Change& c = changes[i];
    const std::string file = std::filesystem::path(c.path).filename().string();
    if (i > 0) names += i + 1 == changes.size() ? " and " : ", ";
    names += c.label.empty() ? file : c.label + " (" + file + ")";
    all_grew = all_grew && c.grew;
    all_removed = all_removed && c.removed;
  }
  if (names.empty()) return {};
  if (all_removed) return names + (changes.size() == 1 ? " was removed from disk" : " were removed from disk");
  if (all_grew) return names + (changes.size() == 1 ? " grew on disk" : " grew on disk") + ": Reload to see the rest";
  return names + " changed on disk: Reload to see it";
}

}  // namespace stepline::app
