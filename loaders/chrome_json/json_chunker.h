// JsonChunker: splits a Chrome trace's traceEvents array into chunks that
// parse independently (in parallel, and each below simdjson's 4 GB limit).
//
// Speculative split. Split candidates are picked near even offsets at the
// pattern  '}' ws* ',' ws* '{'  and each chunk is wrapped so that it is a
// complete document on its own:
//
//   first   input[0, s1) minus its trailing comma, + "]}" (object form) or "]"
//   middle  "[" + input[s_i, s_i+1) minus its trailing comma + "]"
//   last    "{\"traceEvents\":[" (object form) or "[" + input[s_n-1, end)
//
// Why this is safe: the first chunk starts at the real document start, so in
// a real (non-string, element-boundary) state. If a chunk starting in that
// state parses as a complete document whose synthetic closer closes the
// traceEvents array (the tokenizer checks: no key follows traceEvents in the
// first chunk, nothing follows the top-level value in any chunk), its end was
// at array-element depth outside any string: a split inside a string leaves
// the closer inside an unterminated string, and a split inside a nested value
// leaves brackets unbalanced; both fail to parse. By induction every split is
// a true event boundary, so the chunks' events are exactly the array's events
// in order. If any chunk fails, everything from that chunk on is re-planned
// from an exact sequential scan (json_scanner.h), which also pinpoints syntax
// errors and truncation.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "loaders/chrome_json/json_scanner.h"

namespace stepline::loaders {

// One chunk: its document is opener + input[begin, end) + closer, where the
// bytes at `blanks` (and a trailing comma, for all but the last chunk) are
// replaced by spaces.
struct ChunkSpec {
  uint64_t begin = 0;
  uint64_t end = 0;
  std::string opener;
  std::string closer;
  std::vector<uint64_t> blanks;
  bool starts_document = false;  // begins with the document's own first byte
  bool ends_document = false;    // holds the document's real end (keys after traceEvents)
  bool object_form = false;
};

// Speculative plan over input[start, end): from the document start, or from
// an event boundary already proven (then start.object_form says the form).
// One chunk when the rest is small or no traceEvents array is visible.
// `chunk_bytes` is the target chunk size.
std::vector<ChunkSpec> PlanSpeculativeChunks(std::string_view input, uint64_t chunk_bytes,
                                             const ScanStart& start = ScanStart{});

// The same plan made incrementally while the input is still arriving (a
// decompressor writing it): each Extend() sees the bytes final so far and
// emits the chunks they settle; the last Extend(…, final=true) sees the whole
// input and completes the plan. Calling it once with final=true gives
// PlanSpeculativeChunks() (which is implemented that way).
class SpeculativePlanner {
 public:
  SpeculativePlanner(uint64_t chunk_bytes, const ScanStart& start);
  void Extend(std::string_view input, bool final, std::vector<ChunkSpec>* out);
  bool complete() const { return stage_ == Stage::kComplete; }
  // Input bytes the next Extend() needs to make progress (before the end).
  uint64_t needed() const { return needed_; }

 private:
  enum class Stage : uint8_t { kHead, kSplits, kComplete };
  bool FindRegion(std::string_view input, bool final);

  uint64_t chunk_bytes_;
  ScanStart start_;
  Stage stage_ = Stage::kHead;
  bool object_form_ = false;
  bool splittable_ = true;
  uint64_t first_begin_ = 0;
  uint64_t region_ = 0;
  uint64_t key_from_ = 0;  // where the traceEvents key search resumes
  uint64_t begin_ = 0;     // start of the chunk being planned
  uint64_t target_ = 0;
  uint64_t needed_ = 1;
  size_t emitted_ = 0;
};

// Exact plan for input[start, report.valid_end) from a scan that started at
// `start` (status kComplete or kTruncated). When the scan stopped early
// (report.stopped_at), the last chunk ends there and is not the document's end.
std::vector<ChunkSpec> PlanExactChunks(const ScanReport& report, const ScanStart& start);

// The next split candidate (the '{' of  '}' ws* ',' ws* '{') at or after
// `from`, or UINT64_MAX: a guess, proven only by the chunk that ends there.
uint64_t NextSplitCandidate(std::string_view input, uint64_t from);

// One chunk over input[begin, end), where `begin` is a proven event boundary
// inside the events array; it is the document's last chunk when `end` is the
// end of the input.
ChunkSpec ChunkFromBoundary(std::string_view input, uint64_t begin, uint64_t end, bool object_form);

}  // namespace stepline::loaders
