// ScanChunkEventsFast: the tokenizer's fast path. Reads a middle
// chunk's events ("[" + events + "]") straight from the input in one pass,
// without simdjson's structural index or the chunk's padded copy, and fills
// the batch exactly as EventTokenizer's simdjson walk would.
//
// It is a strict JSON reader for the common shape only: event objects whose
// keys and read strings carry no escapes, and values it can decide alone. On
// anything else (an escape in a name, a non-object element, a field that
// would become a problem, invalid UTF-8, a raw control byte, a number simdjson
// must judge) it gives up and returns false; the caller then clears the batch
// and tokenizes the chunk with simdjson, which owns every diagnostic. So when
// it returns true, the chunk is valid JSON (the speculative split proof of
// json_chunker.h holds) and the batch equals the simdjson walk's, string ids
// included (tests/loaders/fast_event_scanner_test.cpp and the fuzz target's
// chunked-against-whole comparison check that).
#pragma once

#include <string_view>

#include "loaders/chrome_json/json_chunker.h"
#include "loaders/chrome_json/raw_event_batch.h"

namespace stepline::loaders {

// Chunks the fast path reads: the middle ones, with no bytes to blank.
bool FastPathApplies(const ChunkSpec& spec);

// Tokenizes input[spec.begin, spec.end) into `batch` (empty on entry).
// False: the chunk needs the simdjson path (the batch holds partial rows);
// so is a chunk with no byte of the input after it (a middle chunk always
// has the next one's brace there, which the scanner may read).
bool ScanChunkEventsFast(const ChunkSpec& spec, std::string_view input, bool keep_args, RawEventBatch* batch);

}  // namespace stepline::loaders
