// RawEventBatch and its chunk-local string table.
#include "loaders/chrome_json/raw_event_batch.h"

#include <algorithm>
#include <cstring>

#include "model/hash_mix.h"

namespace stepline::loaders {
namespace {

constexpr std::string_view kWellKnownText[kWellKnownCount] = {
    "",
    "name",
    "labels",
    "sort_index",
    "correlation",
    "correlation_id",
    "memcpy_details",
    "step",
    "process_name",
    "process_labels",
    "process_sort_index",
    "thread_name",
    "thread_sort_index",
};
constexpr size_t kInitialSlots = 4096;
constexpr size_t kArenaBlockBytes = size_t{1} << 16;

// Strings over 16 bytes (kernel names, tf_op paths, kernel details: tens of
// bytes each, hashed once per occurrence) 16 bytes a round in two
// independent lanes, so the multiplies overlap, and the last 16 bytes by two
// overlapping loads instead of a byte-count copy. StringPool::Hash, one lane
// and a copied tail, was 4% of a load's samples. Its values are kept where
// they matter (event ids hashed from text); this one is the table's own.
uint64_t LongHash(const char* p, size_t n) {
  constexpr uint64_t kP0 = 0xa0761d6478bd642full, kP1 = 0xe7037ed1a0b428dbull, kP2 = 0x8ebc6af09c88c6e3ull;
  uint64_t a = kP0 ^ n, b = kP2;
  const char* const last = p + n - 16;
  for (; p < last; p += 16) {
    uint64_t w0, w1;
    std::memcpy(&w0, p, 8);
    std::memcpy(&w1, p + 8, 8);
    a = MultiplyFold(a ^ w0, kP1);
    b = MultiplyFold(b ^ w1, kP0);
  }
  uint64_t t0, t1;
  std::memcpy(&t0, last, 8);
  std::memcpy(&t1, last + 8, 8);
  return MultiplyFold(MultiplyFold(a ^ t0, kP1) ^ MultiplyFold(b ^ t1, kP0), kP2);
}

// The table's hash: exact content for strings up to 16 bytes (most keys,
// categories and short names) from two overlapping loads and one multiply;
// LongHash beyond that.
uint32_t TableHash(std::string_view s) {
  const size_t n = s.size();
  const char* p = s.data();
  uint64_t a, b;
  if (n >= 8) {
    if (n > 16) {
      const uint64_t h = LongHash(p, n);
      return static_cast<uint32_t>(h >> 32) ^ static_cast<uint32_t>(h);
    }
    std::memcpy(&a, p, 8);
    std::memcpy(&b, p + n - 8, 8);
  } else if (n >= 4) {
    uint32_t x, y;
    std::memcpy(&x, p, 4);
    std::memcpy(&y, p + n - 4, 4);
    a = x;
    b = y;
  } else {
    a = static_cast<unsigned char>(p[0]) | static_cast<unsigned>(static_cast<unsigned char>(p[n / 2])) << 8 |
        static_cast<unsigned>(static_cast<unsigned char>(p[n - 1])) << 16;
    b = 0;
  }
  const uint64_t h = (a ^ n) * 0x9E3779B97F4A7C15ull ^ b * 0xC2B2AE3D27D4EB4Full;
  return static_cast<uint32_t>(h >> 32) ^ static_cast<uint32_t>(h);
}

}  // namespace

LocalStringTable::LocalStringTable() { Clear(); }

void LocalStringTable::Clear() {
  strings_.clear();
  // Keep a grown index: the next chunk of the same file has as many strings.
  if (slots_.empty())
    slots_.resize(kInitialSlots);
  else
    std::fill(slots_.begin(), slots_.end(), Slot{});
  block_ = 0;
  block_used_ = 0;
  big_.clear();
  for (Recent& r : recent_) r = Recent{};
  strings_.push_back(std::string_view());  // id 0: "", never in the index
  for (uint32_t i = 1; i < kWellKnownCount; ++i) Intern(kWellKnownText[i]);
}

char* LocalStringTable::Allocate(size_t n) {
  if (n > kArenaBlockBytes / 4) {
    big_.push_back(std::make_unique<char[]>(n));
    return big_.back().get();
  }
  if (block_ < blocks_.size() && block_used_ + n > kArenaBlockBytes) {
    ++block_;
    block_used_ = 0;
  }
  if (block_ == blocks_.size()) blocks_.push_back(std::make_unique<char[]>(kArenaBlockBytes));
  char* p = blocks_[block_].get() + block_used_;
  block_used_ += n;
  return p;
}

uint32_t LocalStringTable::Intern(std::string_view s) {
  if (s.empty()) return 0;
  const uint32_t hash = TableHash(s);
  const size_t mask = slots_.size() - 1;
  size_t i = hash & mask;
  while (slots_[i].id_plus_one != 0) {
    const Slot& slot = slots_[i];
    if (slot.hash == hash) {
      const std::string_view t = strings_[slot.id_plus_one - 1];
      if (t.size() == s.size() && SameText(t.data(), s.data(), s.size())) return slot.id_plus_one - 1;
    }
    i = (i + 1) & mask;
  }
  char* copy = Allocate(s.size());
  std::memcpy(copy, s.data(), s.size());
  return Insert(std::string_view(copy, s.size()), hash, i);
}

uint32_t LocalStringTable::Insert(std::string_view s, uint32_t hash, size_t slot) {
  const auto id = static_cast<uint32_t>(strings_.size());
  strings_.push_back(s);
  slots_[slot] = Slot{hash, id + 1};
  if (strings_.size() * 2 > slots_.size()) Grow();
  return id;
}

void LocalStringTable::Grow() {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(old.size() * 2, Slot{});
  const size_t mask = slots_.size() - 1;
  for (const Slot& slot : old) {
    if (slot.id_plus_one == 0) continue;
    size_t i = slot.hash & mask;
    while (slots_[i].id_plus_one != 0) i = (i + 1) & mask;
    slots_[i] = slot;
  }
}

void RawEventBatch::Clear() {
  events.clear();
  args.clear();
  problems.clear();
  metadata.clear();
  strings.Clear();
  input_begin = input_end = 0;
}

void RawEventBatch::AddProblem(uint64_t offset, DiagCode code, std::string detail) {
  problems.push_back(RawProblem{offset, code, std::move(detail)});
}

}  // namespace stepline::loaders
