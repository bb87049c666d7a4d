// StringPool implementation: block storage plus an open-addressed hash index.
#include "model/string_pool.h"

#include <algorithm>
#include <cstring>

#include "model/hash_mix.h"
#include "model/sl_assert.h"

namespace stepline {
namespace {
// Blocks grow from 4 KiB to 1 MiB so a trace with a few hundred names does
// not hold a mostly empty megabyte.
constexpr size_t kFirstBlockBytes = size_t{4} << 10;
constexpr size_t kBlockBytes = size_t{1} << 20;
constexpr size_t kInitialSlots = 1024;
}  // namespace

uint64_t StringPool::Hash(std::string_view s) {
  // Multiply-fold over 8-byte words: fast on the long demangled kernel names
  // that dominate GPU traces, good enough spread for linear probing.
  constexpr uint64_t kP0 = 0xa0761d6478bd642full, kP1 = 0xe7037ed1a0b428dbull;
  uint64_t h = kP0 ^ s.size();
  const char* p = s.data();
  size_t n = s.size();
  while (n >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    h = MultiplyFold(h ^ w, kP1);
    p += 8;
    n -= 8;
  }
  uint64_t tail = 0;
  std::memcpy(&tail, p, n);
  return MultiplyFold(h ^ tail, kP0 ^ kP1);
}

StringPool::StringPool() {
  slots_.resize(kInitialSlots);
  views_.emplace_back();  // id 0: the empty string, never in the index
}

std::string_view StringPool::Store(std::string_view s) {
  if (s.size() > kBlockBytes / 4) {
    auto big = std::unique_ptr<char[]>(new char[s.size()]);
    std::memcpy(big.get(), s.data(), s.size());
    std::string_view v(big.get(), s.size());
    // Keep the current block last so interning continues into it.
    blocks_.insert(blocks_.end() - (blocks_.empty() ? 0 : 1), std::move(big));
    block_bytes_total_ += s.size();
    return v;
  }
  if (blocks_.empty() || block_used_ + s.size() > block_size_) {
    size_t size = std::clamp(block_size_ * 2, kFirstBlockBytes, kBlockBytes);
    while (size < s.size()) size *= 2;
    // Default-initialised: pages are touched only as strings land in them.
    blocks_.push_back(std::unique_ptr<char[]>(new char[size]));
    block_size_ = size;
    block_used_ = 0;
    block_bytes_total_ += size;
  }
  char* dst = blocks_.back().get() + block_used_;
  std::memcpy(dst, s.data(), s.size());
  block_used_ += s.size();
  return std::string_view(dst, s.size());
}

void StringPool::Grow() {
  GrowArray<Slot> old = std::move(slots_.Owned());
  slots_.Owned().assign(old.size() * 2, Slot{});
  const size_t mask = slots_.size() - 1;
  for (const Slot& slot : old) {
    if (slot.id_plus_one == 0) continue;
    // Re-probe with the stored 32-bit hash; the full hash is not needed.
    size_t i = slot.hash & mask;
    while (slots_[i].id_plus_one != 0) i = (i + 1) & mask;
    slots_[i] = slot;
  }
}

StringId StringPool::Intern(std::string_view s) { return s.empty() ? StringId::None() : Intern(s, Hash(s)); }

StringId StringPool::Intern(std::string_view s, uint64_t hash) {
  if (s.empty()) return StringId::None();
  const uint32_t h = static_cast<uint32_t>(hash);
  size_t mask = slots_.size() - 1;
  size_t i = h & mask;
  while (slots_[i].id_plus_one != 0) {
    const Slot& slot = slots_[i];
    if (slot.hash == h && views_[slot.id_plus_one - 1] == s) return StringId(slot.id_plus_one - 1);
    i = (i + 1) & mask;
  }
  if (views_.size() + 1 >= max_strings_ || string_bytes_ + s.size() + kOverflowText.size() > max_bytes_) {
    return Overflow();
  }
  string_bytes_ += s.size();
  const uint32_t id = static_cast<uint32_t>(views_.size());
  views_.push_back(Store(s));
  slots_[i] = Slot{h, id + 1};
  if (views_.size() * 2 > slots_.size()) Grow();  // load factor <= 0.5
  return StringId(id);
}

// The one slot kept free below the limits goes to kOverflowText.
StringId StringPool::Overflow() {
  ++overflowed_;
  if (overflow_id_.is_none()) {
    const size_t saved_strings = max_strings_, saved_bytes = max_bytes_;
    max_strings_ = SIZE_MAX;
    max_bytes_ = SIZE_MAX;
    overflow_id_ = Intern(kOverflowText);
    max_strings_ = saved_strings;
    max_bytes_ = saved_bytes;
  }
  return overflow_id_;
}

void StringPool::set_limits(size_t max_strings, size_t max_bytes) {
  max_strings_ = std::min(max_strings, kMaxStrings);
  max_bytes_ = std::min(max_bytes, kMaxBytes);
}

StringId StringPool::Find(std::string_view s) const {
  if (s.empty()) return StringId::None();
  const uint32_t h = static_cast<uint32_t>(Hash(s));
  const size_t mask = slots_.size() - 1;
  size_t i = h & mask;
  while (slots_[i].id_plus_one != 0) {
    const Slot& slot = slots_[i];
    if (slot.hash == h && views_[slot.id_plus_one - 1] == s) return StringId(slot.id_plus_one - 1);
    i = (i + 1) & mask;
  }
  return StringId::None();
}

size_t StringPool::MemoryBytes() const {
  return block_bytes_total_ + views_.capacity() * sizeof(std::string_view) + slots_.capacity() * sizeof(Slot);
}

}  // namespace stepline
