// The sizing pass (see xspace_sizing.h).
#include "loaders/xspace/xspace_sizing.h"

#include <algorithm>
#include <cstring>
#include <string_view>
#include <thread>
#include <unordered_map>

#include "loaders/proto_wire/wire_reader.h"
#include "model/worker_thread.h"

namespace stepline::loaders::xspace {
namespace {

// Args an event metadata entry gives each of its events: its stats, plus
// long_name when a different display_name is shown (PlaneMetadata's rule).
uint32_t MetadataArgCount(const WireField& entry_field, int64_t* key) {
  WireReader entry(entry_field.payload, entry_field.payload + entry_field.payload_size, 0);
  WireField f;
  uint32_t stats = 0;
  std::string_view name, display_name;
  while (!entry.done() && entry.Next(&f)) {
    if (f.number == 1 && f.type == WireType::kVarint) *key = static_cast<int64_t>(f.value);
    if (f.number != 2 || f.type != WireType::kLen) continue;
    WireReader value(f.payload, f.payload + f.payload_size, 0);
    WireField v;
    while (!value.done() && value.Next(&v)) {
      if (v.type != WireType::kLen) continue;
      if (v.number == 2) name = PayloadView(v);
      if (v.number == 4) display_name = PayloadView(v);
      stats += v.number == 5;
    }
  }
  return stats + (!display_name.empty() && display_name != name ? 1 : 0);
}

// Metadata id -> arg count of one plane: dense for the usual ids 1, 2, 3...
class ArgCountById {
 public:
  void Set(int64_t id, uint32_t count) {
    if (id >= 0 && id < kMaxDense) {
      if (static_cast<size_t>(id) >= dense_.size()) dense_.resize(static_cast<size_t>(id) + 1, 0);
      dense_[static_cast<size_t>(id)] = count;
    } else {
      sparse_[id] = count;
    }
  }
  uint32_t Get(int64_t id) const {
    if (id >= 0 && static_cast<uint64_t>(id) < dense_.size()) return dense_[static_cast<size_t>(id)];
    if (sparse_.empty()) return 0;
    auto it = sparse_.find(id);
    return it == sparse_.end() ? 0 : it->second;
  }
  void Clear() {
    dense_.clear();
    sparse_.clear();
  }

 private:
  static constexpr int64_t kMaxDense = 1 << 22;
  std::vector<uint32_t> dense_;
  std::unordered_map<int64_t, uint32_t> sparse_;
};

constexpr uint64_t kTagEventMetadataId = (1 << 3) | 0;  // XEvent.metadata_id, varint
constexpr uint64_t kTagEventStat = (4 << 3) | 2;        // XEvent.stats, length-delimited
constexpr uint64_t kTagLineEvent = (4 << 3) | 2;        // XLine.events, length-delimited

// A minimal tag walker for the hot loop over every event: no offsets, no
// error text, no field-number checks. Returns false at anything malformed
// (groups included: no producer writes them), leaving the count a lower bound.
class TagWalker {
 public:
  TagWalker(const char* begin, const char* end)
      : p_(reinterpret_cast<const uint8_t*>(begin)), end_(reinterpret_cast<const uint8_t*>(end)) {}
  bool done() const { return p_ >= end_; }
  // Reads one field: its tag, and either its varint value or its payload.
  // The XEvent loop: metadata_id and the number of stats, nothing else read.
  void CountEventFields(uint64_t* metadata_id, uint64_t* stats) {
    uint64_t tag = 0, len = 0;
    while (p_ < end_ && Varint(&tag)) {
      switch (tag & 7) {
        case 0:
          if (tag == kTagEventMetadataId ? !Varint(metadata_id) : !SkipVarint()) return;
          break;
        case 2:
          if (!Varint(&len) || !Skip(len)) return;
          *stats += tag == kTagEventStat;
          break;
        case 1:
          if (!Skip(8)) return;
          break;
        case 5:
          if (!Skip(4)) return;
          break;
        default: return;
      }
    }
  }
  bool Next(uint64_t* tag, uint64_t* value, const char** payload) {
    if (!Varint(tag)) return false;
    switch (*tag & 7) {
      case 0: return Varint(value);
      case 1: return Skip(8);
      case 5: return Skip(4);
      case 2:
        if (!Varint(value) || *value > static_cast<uint64_t>(end_ - p_)) return false;
        *payload = reinterpret_cast<const char*>(p_);
        p_ += *value;
        return true;
      default: return false;
    }
  }

 private:
  // Skips a varint whose value is not needed: eight bytes at a time.
  bool SkipVarint() {
    if (end_ - p_ >= 8) {
      uint64_t word;
      std::memcpy(&word, p_, 8);
      const uint64_t last = ~word & 0x8080808080808080ull;  // bytes without a continuation bit
      if (last != 0) {
        p_ += (__builtin_ctzll(last) >> 3) + 1;
        return true;
      }
    }
    uint64_t ignored;
    return Varint(&ignored);
  }
  bool Varint(uint64_t* out) {
    if (p_ < end_ && *p_ < 0x80) return *out = *p_++, true;  // tags, stat lengths, small ids
    uint64_t v = 0;
    for (int shift = 0; shift < 64 && p_ < end_; shift += 7) {
      const uint8_t b = *p_++;
      v |= uint64_t{b & 0x7Fu} << shift;
      if (b < 0x80) return *out = v, true;
    }
    return false;
  }
  bool Skip(uint64_t n) {
    if (n > static_cast<uint64_t>(end_ - p_)) return false;
    p_ += n;
    return true;
  }
  const uint8_t* p_;
  const uint8_t* end_;
};

}  // namespace

XSpaceSize MeasureXSpace(const char* input, const std::vector<PlaneSpan>& planes, bool with_args, unsigned threads) {
  constexpr uint64_t kMinBytesPerThread = 8'000'000;  // below this a thread costs more than it saves
  uint64_t total = 0;
  for (const PlaneSpan& plane : planes) total += plane.size;
  const uint64_t hostnames = with_args ? 1 : 0;  // one trace metadata arg for XSpace.hostnames
  if (threads < 2 || planes.size() < 2 || total < 2 * kMinBytesPerThread) {
    XSpaceSize size = MeasurePlanes(input, planes.data(), planes.data() + planes.size(), with_args);
    size.arg_rows += hostnames;
    return size;
  }
  // Two halves of about equal bytes; planes stay whole.
  size_t split = 0;
  for (uint64_t bytes = 0; split < planes.size() && bytes + planes[split].size / 2 < total / 2; ++split) {
    bytes += planes[split].size;
  }
  split = std::clamp<size_t>(split, 1, planes.size() - 1);
  XSpaceSize first;
  WorkerThread worker([&] { first = MeasurePlanes(input, planes.data(), planes.data() + split, with_args); });
  const XSpaceSize second = MeasurePlanes(input, planes.data() + split, planes.data() + planes.size(), with_args);
  worker.join();
  return XSpaceSize{first.events + second.events, first.arg_rows + second.arg_rows + hostnames};
}

XSpaceSize MeasurePlanes(const char* input, const PlaneSpan* begin, const PlaneSpan* end, bool with_args) {
  XSpaceSize size;
  // Trace metadata beyond plane stats: "<plane>/programs" of metadata planes.
  size.arg_rows = with_args ? static_cast<uint64_t>(end - begin) : 0;
  std::vector<WireField> lines;
  ArgCountById md_args;
  for (const PlaneSpan* p = begin; p != end; ++p) {
    const PlaneSpan& plane = *p;
    lines.clear();
    md_args.Clear();
    WireReader reader(input + plane.offset, input + plane.offset + plane.size, plane.offset);
    WireField f;
    while (!reader.done() && reader.Next(&f)) {
      if (f.type != WireType::kLen) continue;
      if (f.number == 3) lines.push_back(f);
      if (f.number == 6) size.arg_rows += with_args;  // a plane stat: one trace metadata arg
      if (f.number == 4 && with_args) {
        int64_t key = 0;
        const uint32_t count = MetadataArgCount(f, &key);
        md_args.Set(key, count);
      }
    }
    for (const WireField& line : lines) {
      TagWalker fields(line.payload, line.payload + line.payload_size);
      uint64_t tag = 0, value = 0;
      const char* payload = nullptr;
      while (!fields.done() && fields.Next(&tag, &value, &payload)) {
        if (tag != kTagLineEvent) continue;
        ++size.events;
        if (!with_args) continue;
        TagWalker event(payload, payload + value);
        uint64_t metadata_id = 0;
        event.CountEventFields(&metadata_id, &size.arg_rows);
        size.arg_rows += md_args.Get(static_cast<int64_t>(metadata_id));
      }
    }
  }
  return size;
}

}  // namespace stepline::loaders::xspace
