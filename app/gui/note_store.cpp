// Notes files; see note_store.h.
#include "app/gui/note_store.h"

#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/output/json_writer.h"
#include "export/safe_write.h"
#include "model/json_value.h"

namespace stepline::app {
namespace fs = std::filesystem;

namespace {

constexpr int kFormatVersion = 1;
// A notes file is small; a huge one is not ours (and must not be slurped).
constexpr size_t kMaxNotesBytes = 8u << 20;

uint64_t Fnv1a(std::string_view s, uint64_t h = 1469598103934665603ull) {
  for (const char c : s) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  return h;
}

std::string ColorText(uint32_t abgr) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", abgr & 0xFF, (abgr >> 8) & 0xFF, (abgr >> 16) & 0xFF);
  return buf;
}

bool ParseColor(const std::string& text, uint32_t* out) {
  if (text.size() != 7 || text[0] != '#') return false;
  unsigned rgb = 0;
  for (size_t i = 1; i < 7; ++i) {
    const char c = text[i];
    const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (d < 0) return false;
    rgb = rgb << 4 | static_cast<unsigned>(d);
  }
  *out = ((rgb >> 16) & 0xFF) | (rgb & 0xFF00) | ((rgb & 0xFF) << 16) | 0xFF000000u;
  return true;
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

std::string FormatNotesJson(const NotesFile& file) {
  JsonWriter w;
  w.BeginObject().Key("stepline_notes").Uint(kFormatVersion);
  w.Key("trace").BeginObject();
  w.Field("name", FileNameOf(file.trace.path)).Field("path", file.trace.path).Field("bytes", file.trace.bytes);
  w.Key("mtime_ns").Int(file.trace.mtime_ns).EndObject();
  w.Key("notes").BeginArray();
  for (const ui::Note& n : file.notes) {
    w.BeginObject().Field("kind", n.is_flag ? "flag" : "span");
    if (n.is_flag) {
      w.Key("time_ns").Int(n.start_ns);
    } else {
      w.Key("start_ns").Int(n.start_ns).Key("end_ns").Int(n.end_ns);
    }
    w.Field("text", n.text).Field("color", ColorText(n.color)).EndObject();
  }
  w.EndArray().EndObject();
  return w.text() + "\n";
}

Result<NotesFile, std::string> ParseNotesJson(std::string_view text, const std::string& file_name) {
  using Error = Unexpected<std::string>;
  size_t offset = 0;
  const std::optional<JsonValue> doc = ParseJson(text, &offset);
  if (!doc) return Error{file_name + ": byte " + std::to_string(offset) + ": not JSON (expected a notes file)"};
  if (doc->type != JsonValue::Type::kObject) return Error{file_name + ": expected a JSON object"};
  const JsonValue* version = doc->Find("stepline_notes");
  if (version == nullptr || !version->AsUint()) {
    return Error{file_name + ": not a Stepline notes file (no \"stepline_notes\" version)"};
  }
  if (*version->AsUint() > kFormatVersion) {
    return Error{file_name + ": notes format " + std::to_string(*version->AsUint()) + " is newer than this Stepline (" +
                 std::to_string(kFormatVersion) + ")"};
  }
  NotesFile out;
  if (const JsonValue* t = doc->Find("trace"); t != nullptr && t->type == JsonValue::Type::kObject) {
    if (const JsonValue* v = t->Find("path"); v && v->type == JsonValue::Type::kString) out.trace.path = v->text;
    // A hand-written file may give only the name.
    if (const JsonValue* v = t->Find("name"); v && v->type == JsonValue::Type::kString && out.trace.path.empty()) {
      out.trace.path = v->text;
    }
    if (const JsonValue* v = t->Find("bytes"); v && v->AsUint()) out.trace.bytes = *v->AsUint();
    if (const JsonValue* v = t->Find("mtime_ns"); v && v->AsInt()) out.trace.mtime_ns = *v->AsInt();
  }
  const JsonValue* notes = doc->Find("notes");
  if (notes == nullptr || notes->type != JsonValue::Type::kArray) return Error{file_name + ": no \"notes\" array"};
  for (size_t i = 0; i < notes->items.size(); ++i) {
    const JsonValue& item = notes->items[i];
    const std::string where = file_name + ": note " + std::to_string(i + 1) + ": ";
    if (item.type != JsonValue::Type::kObject) return Error{where + "expected an object"};
    const auto time = [&](const char* key, TimeNs* v) {
      const JsonValue* f = item.Find(key);
      if (f == nullptr || !f->AsInt()) return false;
      *v = *f->AsInt();
      return true;
    };
    ui::Note n;
    const JsonValue* kind = item.Find("kind");
    const std::string kind_text = kind && kind->type == JsonValue::Type::kString ? kind->text : "";
    if (kind_text == "flag") {
      n.is_flag = true;
      if (!time("time_ns", &n.start_ns)) return Error{where + "time_ns is missing or not an integer"};
      n.end_ns = n.start_ns;
    } else if (kind_text == "span") {
      if (!time("start_ns", &n.start_ns)) return Error{where + "start_ns is missing or not an integer"};
      if (!time("end_ns", &n.end_ns)) return Error{where + "end_ns is missing or not an integer"};
      if (n.end_ns < n.start_ns) return Error{where + "end_ns is before start_ns"};
    } else {
      return Error{where + "kind must be \"span\" or \"flag\""};
    }
    if (const JsonValue* t = item.Find("text"); t && t->type == JsonValue::Type::kString) n.text = t->text;
    n.color = 0xFF07C1FFu;  // the first note colour when none or a bad one is given
    if (const JsonValue* c = item.Find("color"); c && c->type == JsonValue::Type::kString) {
      if (!ParseColor(c->text, &n.color)) return Error{where + "color must be \"#rrggbb\", got \"" + c->text + "\""};
    }
    out.notes.push_back(std::move(n));
  }
  return out;
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
