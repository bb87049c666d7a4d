// JsonScanner: the exact, sequential reading of a Chrome trace's structure.
// It validates JSON syntax byte by byte (no UTF-8 check: see ChunkDocument),
// finds the traceEvents array, and reports exact event boundaries to split
// on, where a truncated input stops being usable, and the first syntax or
// schema error with its byte offset and what was expected there.
//
// The fast path never needs it: speculative chunks that all parse are proof
// enough (json_chunker.h). It runs from the first chunk that failed, so its
// scalar speed only matters for damaged or unusual files.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace stepline::loaders {

struct ScanReport {
  enum class Status : uint8_t {
    kComplete,     // valid (possibly with tolerated quirks, see below)
    kTruncated,    // valid up to the end of the input, which cuts it short
    kSyntaxError,  // malformed JSON at error_offset
    kSchemaError,  // valid JSON of the wrong shape at error_offset
  };
  static constexpr uint64_t kNone = UINT64_MAX;

  Status status = Status::kComplete;
  uint64_t error_offset = kNone;  // syntax/schema error position
  std::string message;            // names what was expected there
  // For a syntax error inside the events array: the start of the event it is
  // in (or follows), which the scan proved to be an exact boundary; kNone
  // when the error is outside the array or before the scan's first event.
  uint64_t error_event_begin = kNone;
  bool object_form = false;       // {"traceEvents": [...]} rather than [...]
  uint64_t document_begin = 0;    // 3 after a UTF-8 byte order mark (which simdjson rejects), else 0
  bool found_events = false;      // the events array was opened
  // Exact starts of events (a '{' or other value at array-element level)
  // about `split_bytes` apart, ascending, after the scan's first event; each
  // is a safe chunk boundary.
  std::vector<uint64_t> splits;
  // The usable document is input[begin, valid_end) with the bytes at `blanks`
  // replaced by spaces (tolerated trailing commas), followed by `closer` (the
  // brackets a truncated or unterminated input is missing).
  uint64_t valid_end = 0;
  std::vector<uint64_t> blanks;
  std::string closer;
  bool missing_close_tolerated = false;  // array form without its final ']' (Catapult tolerates it)
  // Set when the scan stopped early at this event start (ScanStart::stop_at);
  // then valid_end == stopped_at and the rest of the input was not looked at.
  uint64_t stopped_at = kNone;
};

struct ScanStart {
  uint64_t offset = 0;
  // True: `offset` is the start of the document (a BOM and whitespace may
  // follow). False: `offset` is the start of an event inside the events array
  // of a document of the given form (a boundary an earlier chunk proved).
  bool document_start = true;
  bool object_form = false;
  // Stop at the first event that starts at or after this offset (a bounded
  // scan that only repairs one failed chunk); kNone scans to the end.
  uint64_t stop_at = ScanReport::kNone;
};

// Scans `text` (the whole decompressed input) from `start` to its end.
ScanReport ScanTraceJson(std::string_view text, const ScanStart& start, uint64_t split_bytes);

}  // namespace stepline::loaders
