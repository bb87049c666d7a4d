// libFuzzer target for the notes file reader (app/gui/notes_json.h): any
// bytes must parse to notes or to an error naming the file, never crash or
// hang; what parses keeps the reader's promises (a span ends at or after its
// start, a flag is one instant, colours are opaque) and survives a round trip
// through the writer unchanged.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "app/gui/notes_json.h"

namespace {

[[noreturn]] void NotesFinding(const char* what) {
  std::fprintf(stderr, "fuzz finding: %s\n", what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace stepline::app;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto parsed = ParseNotesJson(bytes, "fuzz.notes.json");
  if (!parsed.ok()) {
    if (parsed.error().rfind("fuzz.notes.json: ", 0) != 0) NotesFinding("an error that does not name the file");
    return 0;
  }
  for (const stepline::ui::Note& n : parsed->notes) {
    if (n.end_ns < n.start_ns) NotesFinding("a note that ends before it starts");
    if (n.is_flag && n.end_ns != n.start_ns) NotesFinding("a flag that is not one instant");
    if ((n.color >> 24) != 0xFF) NotesFinding("a colour that is not opaque");
  }
  const std::string written = FormatNotesJson(*parsed);
  auto again = ParseNotesJson(written, "round-trip");
  if (!again.ok()) NotesFinding("the writer's output does not parse");
  if (again->trace != parsed->trace) NotesFinding("the trace identity changed in a round trip");
  if (again->notes != parsed->notes) NotesFinding("the notes changed in a round trip");
  return 0;
}
