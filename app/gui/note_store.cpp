// Notes files; see note_store.h.
#include "app/gui/note_store.h"

#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "export/safe_write.h"
#include "model/json_value.h"

namespace stepline::app {
namespace fs = std::filesystem;

namespace {

// A notes file is small; a huge one is not ours (and must not be slurped).
constexpr size_t kMaxNotesBytes = 8u << 20;

uint64_t Fnv1a(std::string_view s, uint64_t h = 1469598103934665603ull) {
  for (const char c : s) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  return h;
}

std::string FileNameOf(const std::string& path) { return fs::path(path).filename().string(); }

}  // namespace

bool IdentityOf(const std::string& path, TraceIdentity* out) {
  if (path.empty()) return false;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  std::error_code ec;
  const fs::path absolute = fs::absolute(path, ec);
  out->path = ec ? path : absolute.lexically_normal().string();
  out->bytes = static_cast<uint64_t>(st.st_size);
  out->mtime_ns = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  return true;
}

std::string DefaultNotesFolder() {
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) return std::string(xdg) + "/stepline/notes";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.config/stepline/notes";
  return {};
}

std::string NotesFileFor(const std::string& folder, const TraceIdentity& id) {
  const uint64_t h = Fnv1a(std::to_string(id.mtime_ns), Fnv1a(std::to_string(id.bytes) + "|", Fnv1a(id.path + "|")));
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return folder + "/" + buf + ".json";
}

Result<NotesFile, std::string> ReadNotesFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Unexpected<std::string>{path + ": cannot be read"};
  std::string text(kMaxNotesBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<size_t>(in.gcount()));
  if (text.size() > kMaxNotesBytes) {
    return Unexpected<std::string>{path + ": larger than " + std::to_string(kMaxNotesBytes) + " bytes, not a notes file"};
  }
  return ParseNotesJson(text, path);
}

bool WriteNotesFile(const std::string& path, const NotesFile& file, std::string* error) {
  std::error_code ec;
  const fs::path parent = fs::path(path).parent_path();
  if (!parent.empty()) fs::create_directories(parent, ec);
  exports::SafeWriteOptions options;
  options.overwrite = true;  // our own file (or the export the user asked for), replaced whole
  return exports::WriteFileSafely(path, FormatNotesJson(file), options, error);
}

std::string IdentityMismatch(const TraceIdentity& from, const TraceIdentity& to) {
  const std::string a = FileNameOf(from.path), b = FileNameOf(to.path);
  if (a == b && from.bytes == to.bytes) return {};
  // Nothing to compare with: the trace on screen is not a file (a demo), or
  // the notes file does not say which trace it was made on.
  if (b.empty() || (a.empty() && from.bytes == 0)) return {};
  return "the notes were made on " + (a.empty() ? std::string("an unnamed trace") : a) + " (" +
         std::to_string(from.bytes) + " bytes), this trace is " + b + " (" + std::to_string(to.bytes) +
         " bytes): times may not line up";
}

}  // namespace stepline::app
