// JsonChunker: speculative and exact chunk plans (see json_chunker.h).
#include "loaders/chrome_json/json_chunker.h"

#include <algorithm>
#include <cstring>

#include "loaders/chrome_json/json_lexical.h"

namespace stepline::loaders {
namespace {

constexpr std::string_view kEventsKey = "\"traceEvents\"";
constexpr std::string_view kObjectOpener = "{\"traceEvents\":[";

// The offset of the '{' of a  '}' ws* ',' ws* '{'  pattern at or after `from`
// and before `limit`, or UINT64_MAX.
uint64_t FindSplit(std::string_view input, uint64_t from, uint64_t limit) {
  const char* data = input.data();
  limit = std::min<uint64_t>(limit, input.size());
  uint64_t i = from;
  while (i < limit) {
    const void* hit = std::memchr(data + i, ',', limit - i);
    if (hit == nullptr) return UINT64_MAX;
    const uint64_t comma = static_cast<uint64_t>(static_cast<const char*>(hit) - data);
    i = comma + 1;
    uint64_t b = comma;
    while (b > 0 && IsJsonSpace(data[b - 1])) --b;
    if (b == 0 || data[b - 1] != '}') continue;
    uint64_t f = comma + 1;
    while (f < input.size() && IsJsonSpace(data[f])) ++f;
    if (f < input.size() && data[f] == '{') return f;
  }
  return UINT64_MAX;
}

ChunkSpec MakeChunk(uint64_t begin, uint64_t end, bool first, bool last, bool object_form) {
  ChunkSpec c;
  c.begin = begin;
  c.end = end;
  c.starts_document = first;
  c.ends_document = last;
  c.object_form = object_form;
  if (!first) c.opener = last && object_form ? std::string(kObjectOpener) : "[";
  if (!last) c.closer = first && object_form ? "]}" : "]";
  return c;
}

}  // namespace

std::vector<ChunkSpec> PlanSpeculativeChunks(std::string_view input, uint64_t chunk_bytes, const ScanStart& start) {
  bool object_form = start.object_form;
  uint64_t region = start.offset;  // where events (may) start
  // A UTF-8 byte order mark is not JSON to simdjson: the document starts after it.
  const uint64_t bom = input.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  const uint64_t first_begin = start.document_start ? bom : start.offset;
  bool splittable = true;
  if (start.document_start) {
    uint64_t i = bom;
    while (i < input.size() && IsJsonSpace(input[i])) ++i;
    object_form = i < input.size() && input[i] == '{';
    splittable = object_form || (i < input.size() && input[i] == '[');
    region = i;
    if (object_form) {
      // Usually near the start, but Kineto writes deviceProperties first and
      // some tools put metadata before it; the first chunk's check catches a
      // match inside a string.
      const size_t at = input.find(kEventsKey, i);
      region = at == std::string_view::npos ? input.size() : at + kEventsKey.size();
    }
  }
  std::vector<ChunkSpec> chunks;
  if (!splittable || chunk_bytes == 0 || input.size() - std::min<uint64_t>(region, input.size()) <= chunk_bytes) {
    chunks.push_back(MakeChunk(first_begin, input.size(), start.document_start, true, object_form));
    return chunks;
  }
  uint64_t begin = first_begin;
  for (uint64_t target = region + chunk_bytes; target < input.size(); target += chunk_bytes) {
    // Search up to half a chunk past the target; a chunk without a candidate
    // (a huge event) simply grows.
    const uint64_t split = FindSplit(input, std::max(target, begin + 1), target + chunk_bytes / 2);
    if (split == UINT64_MAX || split >= input.size()) continue;
    chunks.push_back(MakeChunk(begin, split, chunks.empty() && start.document_start, false, object_form));
    begin = split;
    if (target < split) target = split - (split - region) % chunk_bytes;  // stay on the grid
  }
  chunks.push_back(MakeChunk(begin, input.size(), chunks.empty() && start.document_start, true, object_form));
  return chunks;
}

std::vector<ChunkSpec> PlanExactChunks(const ScanReport& report, const ScanStart& start) {
  std::vector<uint64_t> bounds;
  bounds.push_back(start.document_start ? report.document_begin : start.offset);
  for (uint64_t s : report.splits) {
    if (s > bounds.back() && s < report.valid_end) bounds.push_back(s);
  }
  bounds.push_back(std::max(report.valid_end, bounds.back()));
  const bool reaches_end = report.stopped_at == ScanReport::kNone;
  std::vector<ChunkSpec> chunks;
  const size_t n = bounds.size() - 1;
  for (size_t k = 0; k < n; ++k) {
    const bool first = k == 0 && start.document_start;
    const bool last = k + 1 == n && reaches_end;
    ChunkSpec c = MakeChunk(bounds[k], bounds[k + 1], first, last, report.object_form);
    if (last) c.closer = report.closer;
    for (uint64_t b : report.blanks) {
      if (b >= c.begin && b < c.end) c.blanks.push_back(b);
    }
    chunks.push_back(std::move(c));
  }
  return chunks;
}

uint64_t NextSplitCandidate(std::string_view input, uint64_t from) { return FindSplit(input, from, input.size()); }

ChunkSpec ChunkFromBoundary(std::string_view input, uint64_t begin, uint64_t end, bool object_form) {
  return MakeChunk(begin, end, false, end >= input.size(), object_form);
}

}  // namespace stepline::loaders
