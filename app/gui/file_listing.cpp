// FileListing: directory listing, filter, completion; see file_listing.h.
#include "app/gui/file_listing.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>

namespace stepline::app {
namespace fs = std::filesystem;

namespace {

bool EndsWith(const std::string& s, std::string_view tail) {
  return s.size() >= tail.size() && std::equal(tail.rbegin(), tail.rend(), s.rbegin(), [](char a, char b) {
           return a == static_cast<char>(std::tolower(static_cast<unsigned char>(b)));
         });
}

int64_t MtimeSeconds(const fs::directory_entry& e) {
  std::error_code ec;
  const fs::file_time_type t = e.last_write_time(ec);
  if (ec) return 0;
  // file_time_type's clock is not system_clock in C++20 libstdc++ before
  // clock_cast; the offset between "now" on both clocks converts it.
  const auto sys = std::chrono::time_point_cast<std::chrono::seconds>(
      t - fs::file_time_type::clock::now() + std::chrono::system_clock::now());
  return sys.time_since_epoch().count();
}

std::string JoinPath(const std::string& dir, const std::string& name) {
  if (dir.empty() || dir.back() == '/') return dir + name;
  return dir + "/" + name;
}

}  // namespace

bool LooksLikeTraceFile(const std::string& name) {
  static constexpr std::array<std::string_view, 9> kTails = {".json", ".pb", ".pftrace", ".perfetto-trace", ".trace",
                                                             ".gz",   ".zst", ".zstd",   ".xplane"};
  return std::any_of(kTails.begin(), kTails.end(), [&](std::string_view t) { return EndsWith(name, t); });
}

DirListing ListDirectory(const std::string& dir) {
  DirListing out;
  out.dir = dir;
  std::error_code ec;
  for (fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end; !ec && it != end;
       it.increment(ec)) {
    FileEntry e;
    e.name = it->path().filename().string();
    if (e.name.empty() || e.name[0] == '.') continue;
    std::error_code e2;
    e.is_dir = it->is_directory(e2);
    e.size = e.is_dir ? 0 : it->file_size(e2);
    if (e2) e.size = 0;
    e.mtime_s = MtimeSeconds(*it);
    out.entries.push_back(std::move(e));
  }
  if (ec) {
    out.error = dir + ": " + ec.message();
    out.entries.clear();
  }
  std::sort(out.entries.begin(), out.entries.end(), [](const FileEntry& a, const FileEntry& b) {
    if (a.is_dir != b.is_dir) return a.is_dir;
    if (a.is_dir) return a.name < b.name;
    return a.mtime_s != b.mtime_s ? a.mtime_s > b.mtime_s : a.name < b.name;
  });
  return out;
}

std::vector<FileEntry> FilterEntries(const std::vector<FileEntry>& entries, const std::string& prefix,
                                     bool all_files) {
  std::vector<FileEntry> out;
  for (const FileEntry& e : entries) {
    if (!e.is_dir && !all_files && !LooksLikeTraceFile(e.name)) continue;
    if (e.name.compare(0, prefix.size(), prefix) != 0) continue;
    out.push_back(e);
  }
  return out;
}

TypedPath SplitTypedPath(const std::string& typed, const std::string& current_dir) {
  const std::string path = ExpandHome(typed);
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return {current_dir, path};
  std::string dir = path.substr(0, slash);
  if (dir.empty()) dir = "/";
  if (dir[0] != '/') dir = JoinPath(current_dir, dir);
  return {dir, path.substr(slash + 1)};
}

std::string CompletePath(const std::string& typed, const std::string& current_dir, bool all_files) {
  const TypedPath split = SplitTypedPath(typed, current_dir);
  const std::vector<FileEntry> matches = FilterEntries(ListDirectory(split.dir).entries, split.prefix, all_files);
  if (matches.empty()) return typed;
  std::string common = matches.front().name;
  for (const FileEntry& m : matches) {
    size_t n = 0;
    while (n < common.size() && n < m.name.size() && common[n] == m.name[n]) ++n;
    common.resize(n);
  }
  // Keep what the user typed before the last part ("~/" stays "~/").
  const size_t slash = typed.rfind('/');
  std::string out = (slash == std::string::npos ? std::string() : typed.substr(0, slash + 1)) + common;
  if (matches.size() == 1 && matches.front().is_dir) out += '/';
  return out;
}

EnterAction ResolveEnter(const std::string& typed, const std::string& current_dir) {
  EnterAction action;
  std::string path = ExpandHome(typed);
  if (path.empty()) return action;
  if (path[0] != '/') path = JoinPath(current_dir, path);
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec) return action;
  if (fs::is_directory(st)) {
    action.kind = EnterAction::Kind::kOpenFolder;
  } else if (fs::exists(st)) {
    action.kind = EnterAction::Kind::kPickFile;
  } else {
    return action;
  }
  action.path = fs::path(path).lexically_normal().string();
  if (action.path.size() > 1 && action.path.back() == '/') action.path.pop_back();
  return action;
}

std::string FormatFileSize(uintmax_t bytes) {
  char buf[32];
  const double b = static_cast<double>(bytes);
  if (bytes < 1000) {
    std::snprintf(buf, sizeof buf, "%ju B", bytes);
  } else if (b < 1e6) {
    std::snprintf(buf, sizeof buf, "%.1f KB", b / 1e3);
  } else if (b < 1e9) {
    std::snprintf(buf, sizeof buf, "%.1f MB", b / 1e6);
  } else {
    std::snprintf(buf, sizeof buf, "%.1f GB", b / 1e9);
  }
  return buf;
}

std::string FormatFileTime(int64_t mtime_s) {
  if (mtime_s <= 0) return "";
  const std::time_t t = static_cast<std::time_t>(mtime_s);
  std::tm tm{};
  localtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M", &tm);
  return buf;
}

}  // namespace stepline::app
