// ChunkDocument: the bytes simdjson parses for one chunk (json_chunker.h):
// opener + input slice + closer, padded, or the input itself when the chunk
// is the whole input. Maps document offsets back to input offsets, and
// repairs what simdjson rejects document-wide but we accept per string.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "loaders/chrome_json/json_chunker.h"
#include "loaders/chrome_json/raw_event_batch.h"

namespace stepline::loaders {

// Marker written over each invalid UTF-8 byte by Repair(); strings of a
// repaired document turn it into U+FFFD (a genuine DEL byte in the same chunk
// is replaced too, an accepted imprecision on an already damaged chunk).
inline constexpr char kInvalidByteMarker = '\x7F';
inline constexpr size_t kDocumentPadding = 64;  // simdjson reads this far past the end

struct ChunkDocument {
  const char* data = nullptr;  // `size` bytes followed by >= kDocumentPadding readable bytes
  size_t size = 0;
  size_t opener_size = 0;
  uint64_t input_begin = 0;  // input offset of data[opener_size]
  uint64_t input_end = 0;
  bool in_place = false;  // points into the input (no copy)
  bool repaired = false;  // Repair() rewrote bytes

  // Input offset of a document byte (synthetic bytes map to the chunk's ends).
  uint64_t InputOffset(size_t doc_offset) const;
  uint64_t InputOffset(const char* p) const { return InputOffset(static_cast<size_t>(p - data)); }
  bool Contains(const char* p) const { return p >= data && p <= data + size; }
};

// Builds the document for `spec`. Copies into *buffer (growing it) unless the
// chunk is the entire input, which `input` guarantees is padded.
ChunkDocument BuildChunkDocument(const ChunkSpec& spec, std::string_view input, std::unique_ptr<char[]>* buffer,
                                 size_t* capacity);

// Rewrites, inside strings, raw control bytes to spaces and invalid UTF-8
// bytes (also outside strings) to kInvalidByteMarker, recording one problem
// per rewrite. Copies an in-place document into *buffer first.
void RepairChunkDocument(ChunkDocument* doc, std::unique_ptr<char[]>* buffer, size_t* capacity,
                         std::vector<RawProblem>* problems);

}  // namespace stepline::loaders
