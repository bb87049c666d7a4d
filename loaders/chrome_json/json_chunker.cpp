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

// Bytes past a split's search range that Extend() waits for, so that the
// whitespace after a comma is seen whole: the plan then matches the one made
// over the whole input (it need not: any plan is proven by parsing).
constexpr uint64_t kSplitLookahead = 4096;

// The first chunk (the document's head) and the last (its end) are read by
// simdjson, not the fast scanner (FastPathApplies): about 2.4 times the CPU
// per byte (perf, 413 MB demo, 4 MB chunks: 5% of tokenizing for 2% of the
// bytes), and the last one is on the critical path at the end of the load.
// So both are cut short: 1/16 of a chunk, the rest planned as middle chunks.
constexpr uint64_t kEdgeDivisor = 16;

SpeculativePlanner::SpeculativePlanner(uint64_t chunk_bytes, const ScanStart& start)
    : chunk_bytes_(chunk_bytes), start_(start), object_form_(start.object_form), region_(start.offset) {}

// Finds where events (may) start: after the BOM, whitespace and, for the
// object form, the traceEvents key. False while `input` is too short to say.
bool SpeculativePlanner::FindRegion(std::string_view input, bool final) {
  if (!start_.document_start) {
    first_begin_ = start_.offset;
    return true;
  }
  // A UTF-8 byte order mark is not JSON to simdjson: the document starts after it.
  if (!final && input.size() < 3) {
    needed_ = 3;
    return false;
  }
  const uint64_t bom = input.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  first_begin_ = bom;
  uint64_t i = bom;
  while (i < input.size() && IsJsonSpace(input[i])) ++i;
  if (i == input.size() && !final) {
    needed_ = input.size() + 1;
    return false;
  }
  object_form_ = i < input.size() && input[i] == '{';
  splittable_ = object_form_ || (i < input.size() && input[i] == '[');
  region_ = i;
  if (object_form_) {
    // Usually near the start, but Kineto writes deviceProperties first and
    // some tools put metadata before it; the first chunk's check catches a
    // match inside a string.
    const size_t at = input.find(kEventsKey, std::max<uint64_t>(i, key_from_));
    if (at == std::string_view::npos && !final) {
      key_from_ = input.size() - std::min<uint64_t>(input.size(), kEventsKey.size());
      needed_ = input.size() + (uint64_t{1} << 16);
      return false;
    }
    region_ = at == std::string_view::npos ? input.size() : at + kEventsKey.size();
  }
  return true;
}

void SpeculativePlanner::Extend(std::string_view input, bool final, std::vector<ChunkSpec>* out) {
  if (stage_ == Stage::kHead) {
    if (!FindRegion(input, final)) return;
    begin_ = first_begin_;
    // The grid stays at region_ + k * chunk_bytes_; only the head is short.
    target_ = region_ + (start_.document_start ? chunk_bytes_ / kEdgeDivisor : chunk_bytes_);
    stage_ = splittable_ && chunk_bytes_ != 0 ? Stage::kSplits : Stage::kComplete;
    if (stage_ == Stage::kComplete && !final) {  // one chunk, ending at the end
      stage_ = Stage::kSplits;
      target_ = UINT64_MAX;
    }
  }
  if (stage_ == Stage::kComplete && !final) return;
  if (stage_ == Stage::kSplits) {
    for (; target_ < (final ? input.size() : UINT64_MAX); target_ += chunk_bytes_) {
      const uint64_t limit = target_ + chunk_bytes_ / 2;
      if (!final && limit + kSplitLookahead > input.size()) {
        needed_ = limit + kSplitLookahead;
        return;
      }
      // Search up to half a chunk past the target; a chunk without a candidate
      // (a huge event) simply grows.
      const uint64_t split = FindSplit(input, std::max(target_, begin_ + 1), limit);
      if (split == UINT64_MAX || split >= input.size()) continue;
      out->push_back(MakeChunk(begin_, split, emitted_ == 0 && start_.document_start, false, object_form_));
      ++emitted_;
      begin_ = split;
      if (target_ < split) target_ = split - (split - region_) % chunk_bytes_;  // stay on the grid
    }
    if (!final) {
      needed_ = UINT64_MAX;  // only the end of the input settles the last chunk
      return;
    }
  }
  // A short last chunk, when the plan has middle chunks to hand the rest to.
  const uint64_t edge = chunk_bytes_ / kEdgeDivisor;
  if (emitted_ > 0 && input.size() - begin_ > 2 * edge) {
    const uint64_t split = FindSplit(input, std::max(begin_ + 1, input.size() - edge), input.size());
    if (split < input.size()) {
      out->push_back(MakeChunk(begin_, split, false, false, object_form_));
      ++emitted_;
      begin_ = split;
    }
  }
  out->push_back(MakeChunk(begin_, input.size(), emitted_ == 0 && start_.document_start, true, object_form_));
  ++emitted_;
  stage_ = Stage::kComplete;
}

std::vector<ChunkSpec> PlanSpeculativeChunks(std::string_view input, uint64_t chunk_bytes, const ScanStart& start) {
  SpeculativePlanner planner(chunk_bytes, start);
  std::vector<ChunkSpec> chunks;
  planner.Extend(input, /*final=*/true, &chunks);
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
