// Notes on disk: the JSON round trip, errors that name the file and the byte
// or the note, the per-trace store under the config folder (saved on change,
// read back for a fresh view of the same file, ignored for a changed file),
// and export / import between two people (a mismatched trace is named).
#include "app/gui/note_keeper.h"
#include "app/gui/note_store.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>

#include "tests/app/command_test_helpers.h"
#include "tests/support/synthetic_trace.h"

namespace stepline::app {
namespace {
namespace fs = std::filesystem;

std::vector<ui::Note> NoteStoreSample() {
  return {ui::Note{1000, 5000, false, "slow \"input\"\nline 2", 0xFF07C1FFu},
          ui::Note{7000, 7000, true, "flag", 0xFFF5A542u}};
}

// A trace read from `path` (the keeper keys the notes by that file).
std::shared_ptr<const ui::TimelineData> NoteStoreData(const std::string& path) {
  Trace t = stepline::testing::SyntheticTrace().Thread("main").Slice("step", 0, 10000).Build();
  t.mutable_info().source_path = path;
  return std::make_shared<const ui::TimelineData>(std::make_shared<const Trace>(std::move(t)));
}

class NoteStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = MakeScratchDir("stepline-notes");
    trace_path_ = (dir_ / "run.json").string();
    std::ofstream(trace_path_) << "[]";
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  fs::path dir_;
  std::string trace_path_;
};

TEST_F(NoteStoreTest, JsonRoundTrip) {
  TraceIdentity id;
  ASSERT_TRUE(IdentityOf(trace_path_, &id));
  EXPECT_EQ(id.bytes, 2u);
  EXPECT_TRUE(fs::path(id.path).is_absolute());
  const NotesFile file{id, NoteStoreSample()};
  const std::string text = FormatNotesJson(file);
  EXPECT_NE(text.find("\"kind\":\"flag\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"color\":\"#ffc107\""), std::string::npos) << text;
  auto back = ParseNotesJson(text, "x.json");
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(back->trace, id);
  EXPECT_EQ(back->notes, file.notes);
}

TEST_F(NoteStoreTest, CorruptFilesNameTheFileAndWhere) {
  const std::string bad = (dir_ / "bad.json").string();
  std::ofstream(bad) << R"({"stepline_notes": 1, "notes": [ {"kind": "span",, }]})";
  auto r = ReadNotesFile(bad);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find(bad), std::string::npos) << r.error();
  EXPECT_NE(r.error().find("byte 49"), std::string::npos) << r.error();

  auto missing = ParseNotesJson(R"({"stepline_notes": 1, "notes": [{"kind": "span", "start_ns": 5}]})", "n.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error(), "n.json: note 1: end_ns is missing or not an integer");
  auto backwards =
      ParseNotesJson(R"({"stepline_notes": 1, "notes": [{"kind": "span", "start_ns": 5, "end_ns": 1}]})", "n.json");
  ASSERT_FALSE(backwards.ok());
  EXPECT_NE(backwards.error().find("before"), std::string::npos);
  EXPECT_FALSE(ParseNotesJson(R"({"notes": []})", "n.json").ok()) << "not ours without the version";
  EXPECT_FALSE(ParseNotesJson(R"({"stepline_notes": 99, "notes": []})", "n.json").ok()) << "a newer format";
  EXPECT_FALSE(ParseNotesJson(R"({"stepline_notes": 1, "notes": [{"kind": "flag", "time_ns": 1, "color": "red"}]})",
                              "n.json")
                   .ok());
  EXPECT_FALSE(ReadNotesFile((dir_ / "none.json").string()).ok());
}

// Every cut of a valid file, and every byte of it replaced by a quote, a
// brace or a NUL: an error naming the file (or a good parse), never a crash.
// (A cheap stand-in for a fuzzer over this small reader.)
TEST_F(NoteStoreTest, EveryCutAndDamagedByteIsAnErrorOrAParse) {
  TraceIdentity id;
  ASSERT_TRUE(IdentityOf(trace_path_, &id));
  const std::string text = FormatNotesJson(NotesFile{id, NoteStoreSample()});
  size_t errors = 0;
  const auto check = [&](const std::string& damaged) {
    auto r = ParseNotesJson(damaged, "d.json");
    if (!r.ok()) {
      ++errors;
      EXPECT_EQ(r.error().rfind("d.json: ", 0), 0u) << r.error();
    }
  };
  for (size_t cut = 0; cut < text.size(); ++cut) check(text.substr(0, cut));
  for (size_t i = 0; i < text.size(); ++i) {
    for (const char c : {'"', '{', '\0'}) {
      std::string damaged = text;
      damaged[i] = c;
      check(damaged);
    }
  }
  EXPECT_GT(errors, text.size()) << "most cuts and damages are errors";
}

// Found by fuzz_notes_json: a text with bytes that are not UTF-8 was read
// as is, and written back with U+FFFD in their place, so a note read, saved
// and read again was another note. The reader now reads what the writer writes.
TEST_F(NoteStoreTest, InvalidUtf8IsReadAsTheWriterWritesIt) {
  auto r = ParseNotesJson("{\"stepline_notes\": 1, \"trace\": {\"path\": \"/x/r\xFFn.json\"}, \"notes\": "
                          "[{\"kind\": \"flag\", \"time_ns\": -5, \"text\": \"before\xB0 caf\xC3\xA9\"}]}",
                          "u.json");
  ASSERT_TRUE(r.ok()) << r.error();
  ASSERT_EQ(r->notes.size(), 1u);
  EXPECT_EQ(r->notes[0].text, "before\xEF\xBF\xBD caf\xC3\xA9") << "the bad byte replaced, the good sequence kept";
  EXPECT_EQ(r->trace.path, "/x/r\xEF\xBF\xBDn.json");
  auto again = ParseNotesJson(FormatNotesJson(*r), "again.json");
  ASSERT_TRUE(again.ok()) << again.error();
  EXPECT_EQ(again->notes, r->notes);
  EXPECT_EQ(again->trace, r->trace);
}

TEST_F(NoteStoreTest, KeeperSavesOnChangeAndReadsBackForTheSameFile) {
  const std::string folder = (dir_ / "config" / "notes").string();
  NoteKeeper keeper(folder);
  std::string notice;
  ui::ViewState state;
  state.data = NoteStoreData(trace_path_);
  keeper.Sync(&state, &notice);  // loads: nothing there yet
  EXPECT_TRUE(state.notes.loaded);
  EXPECT_TRUE(state.notes.items.empty());
  state.notes.items = NoteStoreSample();
  ++state.notes.revision;
  keeper.Sync(&state, &notice);
  EXPECT_TRUE(notice.empty()) << notice;
  TraceIdentity id;
  ASSERT_TRUE(IdentityOf(trace_path_, &id));
  const std::string stored = NotesFileFor(folder, id);
  ASSERT_TRUE(fs::exists(stored));

  // Another session (a fresh view state) on the same file gets them back.
  NoteKeeper again(folder);
  ui::ViewState fresh;
  fresh.data = NoteStoreData(trace_path_);
  again.Sync(&fresh, &notice);
  EXPECT_EQ(fresh.notes.items, NoteStoreSample());

  // Deleting every note removes the file.
  fresh.notes.items.clear();
  ++fresh.notes.revision;
  again.Sync(&fresh, &notice);
  EXPECT_FALSE(fs::exists(stored));
}

TEST_F(NoteStoreTest, ChangedFileOrDamagedStoreGivesNoNotes) {
  const std::string folder = (dir_ / "notes").string();
  TraceIdentity id;
  ASSERT_TRUE(IdentityOf(trace_path_, &id));
  std::string error;
  // Stored under this file's name but made for another identity: not shown.
  TraceIdentity other = id;
  other.bytes = 999;
  ASSERT_TRUE(WriteNotesFile(NotesFileFor(folder, id), NotesFile{other, NoteStoreSample()}, &error)) << error;
  NoteKeeper keeper(folder);
  std::string notice;
  ui::ViewState state;
  state.data = NoteStoreData(trace_path_);
  keeper.Sync(&state, &notice);
  EXPECT_TRUE(state.notes.items.empty());

  // A damaged store file: a notice naming it, no notes, no crash.
  std::ofstream(NotesFileFor(folder, id), std::ios::trunc) << "{\"stepline_notes\": 1, \"notes\": [";
  ui::ViewState again;
  again.data = NoteStoreData(trace_path_);
  keeper.Sync(&again, &notice);
  EXPECT_TRUE(again.notes.items.empty());
  EXPECT_NE(notice.find(NotesFileFor(folder, id)), std::string::npos) << notice;
  EXPECT_NE(notice.find("byte"), std::string::npos) << notice;
}

TEST_F(NoteStoreTest, ExportThenImportOnAColleaguesCopy) {
  NoteKeeper mine((dir_ / "mine").string());
  std::string notice;
  ui::ViewState state;
  state.data = NoteStoreData(trace_path_);
  state.pictures.export_folder = dir_.string();
  mine.Sync(&state, &notice);
  EXPECT_FALSE(mine.Export(state).ok) << "no notes yet";
  state.notes.items = NoteStoreSample();
  ++state.notes.revision;
  const NoteKeeper::Outcome exported = mine.Export(state);
  ASSERT_TRUE(exported.ok) << exported.message;
  const std::string shared = (dir_ / "run.json.notes.json").string();
  EXPECT_NE(exported.message.find(shared), std::string::npos);

  // The colleague's copy: same name and size, another folder and time.
  fs::create_directories(dir_ / "theirs");
  const std::string copy = (dir_ / "theirs" / "run.json").string();
  std::ofstream(copy) << "[]";
  NoteKeeper theirs((dir_ / "their-config").string());
  ui::ViewState their_state;
  their_state.data = NoteStoreData(copy);
  const NoteKeeper::Outcome imported = theirs.Import(&their_state, shared);
  ASSERT_TRUE(imported.ok) << imported.message;
  EXPECT_EQ(imported.message, "Imported 2 notes from " + shared);
  EXPECT_EQ(their_state.notes.items, NoteStoreSample());
  // Importing again adds nothing twice.
  EXPECT_EQ(theirs.Import(&their_state, shared).message, "Imported 0 notes from " + shared);
  EXPECT_EQ(their_state.notes.items.size(), 2u);

  // A different file: imported, with a warning that names both.
  const std::string other = (dir_ / "theirs" / "other.json").string();
  std::ofstream(other) << "[1, 2]";
  ui::ViewState other_state;
  other_state.data = NoteStoreData(other);
  const NoteKeeper::Outcome mismatch = theirs.Import(&other_state, shared);
  ASSERT_TRUE(mismatch.ok);
  EXPECT_NE(mismatch.message.find("made on run.json (2 bytes), this trace is other.json (6 bytes)"), std::string::npos)
      << mismatch.message;
  // A corrupt file is an error naming it.
  const std::string bad = (dir_ / "bad.notes.json").string();
  std::ofstream(bad) << "not json";
  const NoteKeeper::Outcome failed = theirs.Import(&other_state, bad);
  EXPECT_FALSE(failed.ok);
  EXPECT_NE(failed.message.find(bad + ": byte 0"), std::string::npos) << failed.message;
}

}  // namespace
}  // namespace stepline::app
