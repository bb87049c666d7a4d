// XStat decoding: one stat from its wire bytes into a RawStat (value bits or
// a view of its bytes, no copy), the role a stat name plays for the loader
// (correlation_id, step_name, memcpy_details, ...), and the facts an event's
// stats carry. Turning a RawStat into an interned arg is PlaneMetadata's job.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "loaders/proto_wire/wire_reader.h"

namespace stepline::loaders::xspace {

// Which XStat.value member was set (the last one on the wire wins, as oneof).
enum class StatValueKind : uint8_t {
  kNone = 0,           // no value: an empty oneof (proto3 default)
  kDouble,             // double_value (2): bits = IEEE-754 bits
  kUint,               // uint64_value (3)
  kInt,                // int64_value (4); booleans are stored here as 0/1
  kString,             // str_value (5): text
  kBytes,              // bytes_value (6): text = the blob (never interned)
  kRef,                // ref_value (7): bits = id of the XStatMetadata whose *name* is the value
  kCompressedString,   // compressed_str_value (8): text = gzip bytes
};

struct RawStat {
  int64_t metadata_id = 0;  // key into XPlane.stat_metadata; the name of the stat
  uint64_t bits = 0;
  std::string_view text;    // view into the input (or into a metadata message)
  uint64_t offset = 0;      // absolute offset of the XStat (of its map entry for metadata stats)
  // StringPool::Hash(text) when text_is_utf8 (a str_value short enough to be
  // interned as it is): the decode worker computes it so that the building
  // thread, the loader's bottleneck, only probes the pool.
  uint64_t text_hash = 0;
  StatValueKind kind = StatValueKind::kNone;
  bool text_is_utf8 = false;  // `text` already checked valid (done by the decode worker)
};

// Strings longer than this (str_value, inflated compressed_str_value) are
// shown as a "<N bytes>" placeholder instead of being interned: a trace can
// carry megabyte-sized texts (HLO dumps) that no one reads in an args panel.
inline constexpr size_t kMaxInternedStatBytes = 64 * 1024;

// Decodes one XStat message payload; false on malformed wire data (`error` set).
bool DecodeStat(const char* data, uint64_t size, uint64_t offset, RawStat* out, WireError* error);

// What a stat name means to the loader; everything else is kOther.
enum class StatRole : uint8_t {
  kOther = 0,
  kCorrelationId,   // correlation_id: host launch <-> device activity
  kStepName,        // step_name: replaces the displayed event name
  kStepNum,         // step_num
  kIterNum,         // iter_num
  kGraphType,       // graph_type: prefix of a step's name
  kMemcpyDetails,   // memcpy_details: "kind_src:... kind_dst:... size:..."
  kMemsetDetails,   // Memset_details
  kMemoryDetails,   // memalloc_details, MemFree_details, MemoryResidency_details
  kHloCategory,     // hlo_category: what an XLA op does ("fusion", "all-reduce", ...)
};
StatRole ClassifyStatName(std::string_view name);

// Facts gathered from an event's metadata stats and own stats, in that order
// (so the event's own value wins). Views point into the StringPool.
struct StatFacts {
  bool has_correlation_id = false;
  uint64_t correlation_id = 0;
  bool has_step_name = false;
  std::string_view step_name;
  bool has_step_num = false;
  int64_t step_num = 0;
  bool has_iter_num = false;
  int64_t iter_num = 0;
  std::string_view graph_type;
  bool has_memcpy_details = false;
  std::string_view memcpy_details;
  bool has_memset_details = false;
  bool has_memory_details = false;
  std::string_view hlo_category;  // XLA Ops events
  bool has_number = false;  // first numeric stat, for counter samples
  double number = 0;
};

// `text` itself when it is valid UTF-8; otherwise a copy in `scratch` with
// every invalid byte replaced by U+FFFD (XSpace strings are `bytes` on our
// side, so nothing upstream checked them).
std::string_view ValidUtf8(std::string_view text, std::string* scratch);
bool IsValidUtf8(std::string_view text);

// Text shown for a blob instead of its bytes: "<1234 bytes>".
std::string BytesPlaceholder(uint64_t size);
// Inflates a gzip compressed_str_value into `out`; false (out untouched) when
// it is not valid gzip or would exceed `max_bytes`.
bool InflateGzipString(std::string_view gzip, size_t max_bytes, std::string* out);

}  // namespace stepline::loaders::xspace
