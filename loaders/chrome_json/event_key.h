// EventKey: the event members the tokenizers read, and the classification
// of a member's key: a perfect hash of the 16 known keys into a table of 32,
// found by one multiply and shift (no two share a slot; BuildKnownKeys fails
// to compile otherwise). A switch over them compared the packed key up to
// five times, 6% of a load's instructions (callgrind, 42 MB demo). Inline:
// the fast scanner classifies every key of every event.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <utility>

namespace stepline::loaders {

enum class EventKey : uint8_t {
  kOther,
  kPh,
  kTs,
  kDur,
  kPid,
  kTid,
  kName,
  kCat,
  kArgs,
  kId,
  kId2,
  kBindId,
  kBp,
  kScope,
  kS,
  kFlowIn,
  kFlowOut
};

namespace event_key_detail {

// Little-endian packing of a key of up to 8 bytes.
constexpr uint64_t Pack(std::string_view s) {
  uint64_t v = 0;
  for (size_t i = s.size(); i-- > 0;) v = v << 8 | static_cast<unsigned char>(s[i]);
  return v;
}

constexpr uint64_t kKnownKeyMultiplier = 0xa648a7dd06839eb9ull;
constexpr size_t KnownKeySlot(uint64_t packed) { return static_cast<size_t>((packed * kKnownKeyMultiplier) >> 59); }

struct KnownKey {
  uint64_t packed = 0;  // 0 in an empty slot: no key packs to it (its last byte is not 0)
  EventKey key = EventKey::kOther;
};

constexpr std::array<KnownKey, 32> BuildKnownKeys() {
  constexpr std::pair<std::string_view, EventKey> kKeys[] = {
      {"ph", EventKey::kPh},         {"ts", EventKey::kTs},       {"id", EventKey::kId},
      {"bp", EventKey::kBp},         {"s", EventKey::kS},         {"pid", EventKey::kPid},
      {"tid", EventKey::kTid},       {"dur", EventKey::kDur},     {"cat", EventKey::kCat},
      {"id2", EventKey::kId2},       {"name", EventKey::kName},   {"args", EventKey::kArgs},
      {"scope", EventKey::kScope},   {"bind_id", EventKey::kBindId}, {"flow_in", EventKey::kFlowIn},
      {"flow_out", EventKey::kFlowOut}};
  std::array<KnownKey, 32> table{};
  for (const auto& [text, key] : kKeys) {
    KnownKey& slot = table[KnownKeySlot(Pack(text))];
    if (slot.packed != 0) throw "two known keys share a slot: choose another multiplier";
    slot = {Pack(text), key};
  }
  return table;
}
inline constexpr std::array<KnownKey, 32> kKnownKeys = BuildKnownKeys();

// `packed`: a key of `size` bytes (1 to 8), packed little-endian.
inline EventKey ClassifyPacked(uint64_t packed, size_t size) {
  // A key equal to a known one plus trailing NULs ("ph\0", from an escape)
  // packs the same: its last byte is then 0.
  if (((packed >> (8 * (size - 1))) & 0xFF) == 0) return EventKey::kOther;
  const KnownKey& known = kKnownKeys[KnownKeySlot(packed)];
  return known.packed == packed ? known.key : EventKey::kOther;
}

}  // namespace event_key_detail

inline EventKey ClassifyEventKey(std::string_view k) {
  if (k.empty() || k.size() > 8) return EventKey::kOther;
  return event_key_detail::ClassifyPacked(event_key_detail::Pack(k), k.size());
}

// The same answer for a key with at least 8 readable bytes from its start
// up to `readable_end` (a key inside a chunk, followed by its quote and the
// rest of the event): one 8-byte load and a mask instead of a loop whose
// exit, a different byte for each key, the branch predictor missed.
inline EventKey ClassifyEventKeyIn(std::string_view k, const char* readable_end) {
  if (k.size() - 1 >= 8 || readable_end - k.data() < 8) return ClassifyEventKey(k);  // size 0 wraps
  uint64_t w;
  std::memcpy(&w, k.data(), 8);
  if constexpr (std::endian::native == std::endian::big) w = __builtin_bswap64(w);
  w &= ~uint64_t{0} >> (64 - 8 * k.size());
  return event_key_detail::ClassifyPacked(w, k.size());
}

// A known member's whole `"key":` at p, read with two loads and no scan
// for the key's closing quote: the scanner's generic path (find the quote,
// pack the key, classify, find the colon) was a chain of dependent steps per
// member, a fifth of the scanner's samples (perf annotate, 413 MB demo). The
// first 4 bytes (the quote and up to 3 of the key) choose the one candidate,
// a masked compare of 8 bytes confirms it. Keys whose `"key":` is longer than
// 8 bytes (bind_id, flow_in, flow_out), keys spaced from their colon and every
// other key return 0: the caller's generic path.
namespace event_key_detail {

struct KnownMember {
  uint64_t pattern = 1;  // an empty slot never matches: no masked value is 1 under mask 0
  uint64_t mask = 0;
  uint8_t length = 0;  // bytes of `"key":`
  EventKey key = EventKey::kOther;
};

constexpr uint32_t kKnownMemberMultiplier = 0x39263059u;
constexpr size_t KnownMemberSlot(uint32_t head) { return (head * kKnownMemberMultiplier) >> 27; }

constexpr std::array<KnownMember, 32> BuildKnownMembers() {
  std::array<KnownMember, 32> table{};
  for (const KnownKey& known : kKnownKeys) {
    if (known.key == EventKey::kOther) continue;
    size_t size = 0;
    while (size < 8 && ((known.packed >> (8 * size)) & 0xFF) != 0) ++size;
    const size_t length = size + 3;  // the quotes and the colon
    if (length > 8) continue;
    const uint64_t pattern =
        '"' | known.packed << 8 | uint64_t{'"'} << (8 * (size + 1)) | uint64_t{':'} << (8 * (size + 2));
    KnownMember& slot = table[KnownMemberSlot(static_cast<uint32_t>(pattern))];
    if (slot.length != 0) throw "two known members share a slot: choose another multiplier";
    slot = {pattern, length == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * length)) - 1, static_cast<uint8_t>(length),
            known.key};
  }
  return table;
}
inline constexpr std::array<KnownMember, 32> kKnownMembers = BuildKnownMembers();

}  // namespace event_key_detail

// The length of the known member's `"key":` at p (p at its opening quote, 8
// bytes readable), with *key its kind; 0 when p holds anything else.
inline size_t MatchKnownMember(const char* p, EventKey* key) {
  if constexpr (std::endian::native != std::endian::little) return 0;
  uint32_t head;
  std::memcpy(&head, p, 4);
  const event_key_detail::KnownMember& m = event_key_detail::kKnownMembers[event_key_detail::KnownMemberSlot(head)];
  uint64_t w;
  std::memcpy(&w, p, 8);
  if ((w & m.mask) != m.pattern) return 0;
  *key = m.key;
  return m.length;
}

}  // namespace stepline::loaders
