// The notes file's JSON; see notes_json.h.
#include "app/gui/notes_json.h"

#include <cstdio>
#include <filesystem>

#include "model/json_value.h"
#include "app/output/json_writer.h"
#include "model/text_format.h"

namespace stepline::app {
namespace {

constexpr int kFormatVersion = 1;

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

}  // namespace

std::string FormatNotesJson(const NotesFile& file) {
  JsonWriter w;
  w.BeginObject().Key("stepline_notes").Uint(kFormatVersion);
  w.Key("trace").BeginObject();
  w.Field("name", std::filesystem::path(file.trace.path).filename().string());
  w.Field("path", file.trace.path).Field("bytes", file.trace.bytes);
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
    if (const JsonValue* v = t->Find("path"); v && v->type == JsonValue::Type::kString) {
      out.trace.path = text::ValidUtf8(v->text);
    }
    // A hand-written file may give only the name.
    if (const JsonValue* v = t->Find("name"); v && v->type == JsonValue::Type::kString && out.trace.path.empty()) {
      out.trace.path = text::ValidUtf8(v->text);
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
    // Text as the writer would write it (invalid UTF-8 bytes as U+FFFD): a note
    // read, saved and read again is the same note (imports do not add it twice).
    if (const JsonValue* t = item.Find("text"); t && t->type == JsonValue::Type::kString) {
      n.text = text::ValidUtf8(t->text);
    }
    n.color = 0xFF07C1FFu;  // the first note colour when none or a bad one is given
    if (const JsonValue* c = item.Find("color"); c && c->type == JsonValue::Type::kString) {
      if (!ParseColor(c->text, &n.color)) return Error{where + "color must be \"#rrggbb\", got \"" + c->text + "\""};
    }
    out.notes.push_back(std::move(n));
  }
  return out;
}

}  // namespace stepline::app
