// RawEventBatch: what the tokenizer makes of one chunk of the traceEvents
// array, before any phase semantics: one compact RawEvent per event, its args,
// per-event problems, and a chunk-local string table. Workers fill batches in
// parallel; the importer consumes them in input order on one thread and maps
// the local string ids to the Trace's StringPool once per distinct string.
//
// Layout note: events are an array of small structs rather than columns
// because the batch is transient and the importer reads every field of an
// event together.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "model/arg_table.h"
#include "model/diagnostics.h"

namespace stepline::loaders {

// Strings every chunk table holds at fixed ids, so the tokenizer and importer
// compare ids instead of text. Order must match kWellKnownText in the .cpp.
enum WellKnown : uint32_t {
  kStrEmpty = 0,
  kStrName,           // "name": M args.name
  kStrLabels,         // "labels": M args.labels
  kStrSortIndex,      // "sort_index": M args.sort_index
  kStrCorrelation,    // "correlation": Kineto launch <-> activity id
  kStrCorrelationId,  // "correlation_id": TensorBoard / XSpace launch <-> activity id
  kStrMemcpyDetails,  // "memcpy_details": TensorBoard copy direction
  kStrStep,           // "step": legacy async T/p step name
  kStrProcessName,    // M names
  kStrProcessLabels,
  kStrProcessSortIndex,
  kStrThreadName,
  kStrThreadSortIndex,
  kWellKnownCount,
};

// Interns the strings of one chunk. A new string is copied into the table's
// arena, so the chunk's document can be reused as soon as it is tokenized
// (a chunk has few distinct strings: names, categories and keys repeat).
class LocalStringTable {
 public:
  LocalStringTable();
  LocalStringTable(LocalStringTable&&) noexcept = default;
  LocalStringTable& operator=(LocalStringTable&&) noexcept = default;

  void Clear();  // back to the well-known strings; keeps the memory for reuse
  uint32_t Intern(std::string_view s);
  // Where in an event a string was read. Consecutive events mostly repeat
  // the string of each place (their arg keys in the same order, a launch
  // call's name, a kernel's tf_op), so each place remembers its last string
  // and a repeat costs one comparison instead of a hash and two dependent
  // loads of the table (Intern was 11% of a load's CPU).
  static constexpr uint32_t kSitePositions = 8;  // arg positions told apart; later ones share the last
  enum Site : uint8_t {
    kSiteName = 0,
    kSiteCategory,
    kSiteArgKey,                                    // + the arg's position, below kSitePositions
    kSiteArgString = kSiteArgKey + kSitePositions,  // + the position
    kSiteCount = kSiteArgString + kSitePositions,
  };
  // Intern(s), answered from `site`'s last string when s repeats it.
  uint32_t InternAt(Site site, std::string_view s) {
    Recent& r = recent_[site];
    if (s.size() == r.size && r.size != 0 && SameText(r.data, s.data(), s.size())) return r.id;
    const uint32_t id = Intern(s);
    // The table's own copy: it lives until Clear(), which forgets these.
    r = Recent{strings_[id].data(), static_cast<uint32_t>(s.size()), id};
    return id;
  }
  std::string_view Get(uint32_t id) const { return strings_[id]; }
  size_t size() const { return strings_.size(); }

 private:
  struct Recent {
    const char* data = nullptr;
    uint32_t size = 0;  // 0 = none
    uint32_t id = 0;
  };
  // Equal bytes, without a memcmp call for the short strings that dominate
  // (keys, categories, short names): two overlapping loads a side, all in bounds.
  static bool SameText(const char* a, const char* b, size_t n);
  char* Allocate(size_t n);  // arena storage for the copies
  struct Slot {
    uint32_t hash = 0;
    uint32_t id_plus_one = 0;
  };
  uint32_t Insert(std::string_view s, uint32_t hash, size_t slot);
  void Grow();

  std::vector<std::string_view> strings_;
  std::vector<Slot> slots_;                      // power of two, load <= 1/2
  std::vector<std::unique_ptr<char[]>> blocks_;  // fixed-size arena blocks, reused after Clear()
  size_t block_ = 0;                             // the block being filled
  size_t block_used_ = 0;
  std::vector<std::unique_ptr<char[]>> big_;  // one per large string, freed by Clear()
  Recent recent_[kSiteCount];                 // each site's last string
};

inline bool LocalStringTable::SameText(const char* a, const char* b, size_t n) {
  if (n > 16) return std::memcmp(a, b, n) == 0;
  uint64_t x0 = 0, x1 = 0, y0 = 0, y1 = 0;
  if (n >= 8) {
    std::memcpy(&x0, a, 8);
    std::memcpy(&y0, b, 8);
    std::memcpy(&x1, a + n - 8, 8);
    std::memcpy(&y1, b + n - 8, 8);
  } else if (n >= 4) {
    uint32_t u0, u1, v0, v1;
    std::memcpy(&u0, a, 4);
    std::memcpy(&v0, b, 4);
    std::memcpy(&u1, a + n - 4, 4);
    std::memcpy(&v1, b + n - 4, 4);
    x0 = u0, y0 = v0, x1 = u1, y1 = v1;
  } else {
    for (size_t i = 0; i < n; ++i) {
      if (a[i] != b[i]) return false;
    }
    return true;
  }
  return ((x0 ^ y0) | (x1 ^ y1)) == 0;
}

// One event. Numbers are final (ns, keys); strings are LocalStringTable ids.
struct RawEvent {
  enum Flags : uint16_t {
    kHasTs = 1 << 0,
    kHasDur = 1 << 1,
    kPidIsString = 1 << 2,  // pid holds a local string id (a name, not a number)
    kTidIsString = 1 << 3,
    kHasId = 1 << 4,          // "id" or "id2" present
    kBindEnclosing = 1 << 5,  // "bp": "e"
    kFlowIn = 1 << 6,         // flow v2 on X events
    kFlowOut = 1 << 7,
    kHasBindId = 1 << 8,           // "bind_id" present (flow v2)
    kHasCorrelation = 1 << 9,      // `correlation` is set
    kCorrelationFromTb = 1 << 10,  // ... from a TensorBoard "correlation_id" string arg
    kHasMemcpyDetails = 1 << 11,   // args hold "memcpy_details"
    kBadPhase = 1 << 12,           // "ph" is not one character; `phase_text` names it
    kHasPid = 1 << 13,
  };

  uint64_t offset = 0;  // input byte offset of the event's '{'
  int64_t ts_ns = 0;
  int64_t dur_ns = 0;
  int64_t pid = 0;  // number, or local string id with kPidIsString
  int64_t tid = 0;
  uint64_t id = 0;           // "id" / "id2", hashed when not an integer (mixed with "scope")
  uint64_t bind_id = 0;      // flow v2 "bind_id" (with kHasBindId), hashed when not an integer
  uint64_t correlation = 0;  // launch <-> GPU activity id
  uint32_t name = 0;         // local string ids; 0 = absent
  uint32_t cat = 0;
  uint32_t args_begin = 0;  // [args_begin, args_end) into RawEventBatch::args
  uint32_t args_end = 0;
  uint32_t phase_text = 0;  // local string id of a bad "ph" (with kBadPhase)
  uint16_t flags = 0;
  char ph = 0;     // phase character; 0 = missing
  char scope = 0;  // instant scope "s": 't', 'p', 'g'; 0 = absent

  bool has(Flags f) const { return (flags & f) != 0; }
  // Every field (the fast-path tests compare whole batches).
  bool operator==(const RawEvent&) const = default;
};

// One arg: key and string values are local string ids (kString, kJson).
struct RawArg {
  uint32_t key = 0;
  ArgType type = ArgType::kInt;
  uint64_t bits = 0;
  bool operator==(const RawArg&) const = default;
};

// A problem found while tokenizing (bad field, invalid UTF-8, ...). The
// importer records it when it reaches `offset` in input order.
struct RawProblem {
  uint64_t offset = 0;
  DiagCode code{};
  std::string detail;
};

struct RawEventBatch {
  void Clear();  // empties every table but keeps the memory (batches are pooled)

  std::vector<RawEvent> events;
  std::vector<RawArg> args;
  std::vector<RawProblem> problems;  // ascending offset
  std::vector<RawArg> metadata;      // top-level keys other than traceEvents (first/last chunk only)
  LocalStringTable strings;
  uint64_t input_begin = 0;  // input range this batch covers, for progress
  uint64_t input_end = 0;

  void AddProblem(uint64_t offset, DiagCode code, std::string detail);
};

}  // namespace stepline::loaders
