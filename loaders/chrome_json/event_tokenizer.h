// EventTokenizer: simdjson on-demand over one chunk document, producing a
// RawEventBatch (raw events, args, chunk-local strings, per-event problems).
// No phase semantics here: that is the importer's job. One tokenizer per
// thread; it keeps its simdjson parser (and that parser's buffers) between
// chunks.
//
// A chunk either tokenizes completely or fails as a whole (bad structure,
// not the shape its role promises); failed chunks are re-planned exactly by
// the loader. Problems inside an event (a "ts" that is not a number, invalid
// UTF-8) are not failures: they become RawProblems and the event is skipped or
// repaired.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "loaders/chrome_json/chunk_document.h"
#include "loaders/chrome_json/json_chunker.h"
#include "loaders/chrome_json/raw_event_batch.h"

namespace stepline::loaders {

struct TokenizeResult {
  bool ok = false;
  bool saw_events = false;      // a traceEvents array (object form) or the top-level array was read
  uint64_t failure_offset = 0;  // input offset near the problem, when !ok
  std::string failure;          // what went wrong, when !ok
};

class EventTokenizer {
 public:
  explicit EventTokenizer(bool keep_args);
  ~EventTokenizer();
  EventTokenizer(const EventTokenizer&) = delete;
  EventTokenizer& operator=(const EventTokenizer&) = delete;

  // Builds the chunk's document (in this tokenizer's reused buffer, or the
  // input itself), parses it (repairing invalid UTF-8 and raw control bytes
  // once if simdjson rejects them) and fills `batch`, which must be empty.
  TokenizeResult Tokenize(const ChunkSpec& spec, std::string_view input, RawEventBatch* batch);

  // The fast path (fast_event_scanner.h) is tried on middle chunks unless
  // switched off here (tests compare both paths). Chunks it read, and chunks
  // it gave back to simdjson, since construction.
  void set_fast_path(bool enabled);
  uint64_t fast_chunks() const;
  uint64_t fast_give_ups() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace stepline::loaders
