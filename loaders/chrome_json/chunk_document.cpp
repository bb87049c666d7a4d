// ChunkDocument: building, offset mapping and repair (see chunk_document.h).
#include "loaders/chrome_json/chunk_document.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "loaders/chrome_json/json_lexical.h"
#include "loaders/chrome_json/json_validate.h"

namespace stepline::loaders {
namespace {

char* Reserve(std::unique_ptr<char[]>* buffer, size_t* capacity, size_t n) {
  if (*capacity < n) {
    // Grow geometrically: pooled buffers then settle at the chunk size.
    const size_t grown = std::max(n, *capacity + *capacity / 2);
    *buffer = std::make_unique_for_overwrite<char[]>(grown);
    *capacity = grown;
  }
  return buffer->get();
}

}  // namespace

uint64_t ChunkDocument::InputOffset(size_t doc_offset) const {
  if (doc_offset < opener_size) return input_begin;
  return std::min<uint64_t>(input_begin + (doc_offset - opener_size), input_end);
}

ChunkDocument BuildChunkDocument(const ChunkSpec& spec, std::string_view input, std::unique_ptr<char[]>* buffer,
                                 size_t* capacity) {
  ChunkDocument doc;
  doc.input_begin = spec.begin;
  doc.input_end = spec.end;
  doc.opener_size = spec.opener.size();
  const size_t body = spec.end - spec.begin;
  if (spec.opener.empty() && spec.closer.empty() && spec.blanks.empty() && spec.ends_document &&
      spec.end == input.size()) {
    doc.data = input.data() + spec.begin;
    doc.size = body;
    doc.in_place = true;
    return doc;
  }
  doc.size = spec.opener.size() + body + spec.closer.size();
  char* out = Reserve(buffer, capacity, doc.size + kDocumentPadding);
  std::memcpy(out, spec.opener.data(), spec.opener.size());
  char* slice = out + spec.opener.size();
  std::memcpy(slice, input.data() + spec.begin, body);
  for (uint64_t b : spec.blanks) slice[b - spec.begin] = ' ';
  if (!spec.ends_document) {
    // Every chunk but the last ends with the comma before the next event.
    size_t k = body;
    while (k > 0 && IsJsonSpace(slice[k - 1])) --k;
    if (k > 0 && slice[k - 1] == ',') slice[k - 1] = ' ';
  }
  std::memcpy(slice + body, spec.closer.data(), spec.closer.size());
  std::memset(out + doc.size, 0, kDocumentPadding);
  doc.data = out;
  return doc;
}

void RepairChunkDocument(ChunkDocument* doc, std::unique_ptr<char[]>* buffer, size_t* capacity,
                         std::vector<RawProblem>* problems) {
  if (doc->in_place) {
    char* out = Reserve(buffer, capacity, doc->size + kDocumentPadding);
    std::memcpy(out, doc->data, doc->size);
    std::memset(out + doc->size, 0, kDocumentPadding);
    doc->data = out;
    doc->in_place = false;
  }
  auto* p = reinterpret_cast<unsigned char*>(const_cast<char*>(doc->data));
  const unsigned char* end = p + doc->size;
  bool in_string = false;
  char detail[96];
  for (unsigned char* c = p; c < end; ++c) {
    if (*c == '"') {
      in_string = !in_string;
    } else if (in_string && *c == '\\') {
      ++c;  // the escaped byte cannot open or close the string
    } else if (in_string && *c < 0x20) {
      std::snprintf(detail, sizeof detail, "raw control byte 0x%02X in a string (must be escaped); read as a space",
                    *c);
      problems->push_back({doc->InputOffset(static_cast<size_t>(c - p)), DiagCode::kInvalidUtf8, detail});
      *c = ' ';
    } else if (*c >= 0x80) {
      const size_t len = Utf8SequenceLength(c, end);
      if (len == 0) {
        std::snprintf(detail, sizeof detail, "invalid UTF-8 byte 0x%02X; replaced by U+FFFD", *c);
        problems->push_back({doc->InputOffset(static_cast<size_t>(c - p)), DiagCode::kInvalidUtf8, detail});
        *c = static_cast<unsigned char>(kInvalidByteMarker);
      } else {
        c += len - 1;
      }
    }
  }
  doc->repaired = true;
}

}  // namespace stepline::loaders
