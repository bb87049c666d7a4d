// StringPool: interns every name, category and arg key of a trace behind a
// 32-bit StringId, so columns hold 4-byte ids instead of strings.
//
// Id layout: ids are dense indices in interning order. Id 0 is the empty
// string and doubles as "none". The bytes live in blocks (4 KiB growing to
// 1 MiB) that never move (a string over 256 KiB gets a block of its own), so a string_view returned by Get()
// stays valid for the pool's lifetime. A string is stored once; the hash index
// is open-addressed with linear probing and keeps the 32-bit hash beside the id
// so most probes never touch the bytes.
//
// Not thread-safe while interning; read-only use after building is.
//
// Limits: at most kMaxStrings distinct strings and kMaxBytes of string bytes
// (a hostile or broken trace with 10^8 distinct names would otherwise take
// the machine's memory). Past either, Intern() returns the id of
// kOverflowText for every new string and counts it in overflowed(); loaders
// turn that count into a kLimitReached diagnostic.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "model/column.h"
#include "model/ids.h"

namespace stepline {

class StringPool {
 public:
  StringPool();
  StringPool(StringPool&&) noexcept = default;
  StringPool& operator=(StringPool&&) noexcept = default;

  static constexpr size_t kMaxStrings = size_t{1} << 26;  // 67,108,864 distinct strings
  static constexpr size_t kMaxBytes = size_t{4} << 30;    // 4 GiB of string bytes
  static constexpr std::string_view kOverflowText = "(string limit reached)";

  StringId Intern(std::string_view s);            // returns the existing id when present
  // The same with `hash` == Hash(s) computed by the caller, e.g. on a thread
  // that decodes ahead of the one interning. Not checked (that would hash
  // again): a wrong hash interns a duplicate.
  StringId Intern(std::string_view s, uint64_t hash);
  StringId Find(std::string_view s) const;        // None() (== id 0) when absent, or for ""
  std::string_view Get(StringId id) const { return views_[id.index()]; }
  size_t size() const { return views_.size(); }   // number of distinct strings, "" included
  size_t MemoryBytes() const;                     // resident estimate: blocks + index + views

  static uint64_t Hash(std::string_view s);

  // New strings refused by the limits (each interned as kOverflowText).
  uint64_t overflowed() const { return overflowed_; }
  // Lower limits (tests); both must leave room for kOverflowText.
  void set_limits(size_t max_strings, size_t max_bytes);

  // For the column cache (loaders/column_cache): visits every member that
  // makes up the pool, in a fixed order, through `v.Col(name, column)`,
  // `v.Scalar(name, value)` and `v.Text(name, string)`. A const pool is being
  // written: its strings go out as one byte column plus end offsets. A
  // non-const pool is being read: it takes borrowed columns and rebuilds its
  // views over them (strings are then read-only: Intern() must not be called).
  template <typename Visitor>
  void VisitStorage(Visitor& v) const;
  template <typename Visitor>
  void VisitStorage(Visitor& v);

 private:
  struct Slot {
    uint32_t hash = 0;
    uint32_t id_plus_one = 0;  // 0 = empty slot
  };
  std::string_view Store(std::string_view s);
  StringId Overflow();
  void Grow();

  std::vector<std::unique_ptr<char[]>> blocks_;
  size_t block_used_ = 0;
  size_t block_size_ = 0;
  size_t block_bytes_total_ = 0;
  std::vector<std::string_view> views_;
  Column<Slot> slots_;  // size is a power of two
  size_t max_strings_ = kMaxStrings;
  size_t max_bytes_ = kMaxBytes;
  size_t string_bytes_ = 0;   // bytes of every stored string
  uint64_t overflowed_ = 0;
  StringId overflow_id_;      // kOverflowText once the limit was first hit
};

template <typename Visitor>
void StringPool::VisitStorage(Visitor& v) const {
  GrowArray<char> bytes;
  bytes.reserve(string_bytes_);
  GrowArray<uint64_t> ends;
  ends.reserve(views_.size());
  for (std::string_view s : views_) {
    bytes.append(s.data(), s.size());
    ends.push_back(bytes.size());
  }
  const Column<char> bytes_column(std::move(bytes));
  const Column<uint64_t> ends_column(std::move(ends));
  v.Col("strings.bytes", bytes_column);
  v.Col("strings.ends", ends_column);
  v.Col("strings.slots", slots_);
  v.Scalar("strings.max_strings", max_strings_);
  v.Scalar("strings.max_bytes", max_bytes_);
  v.Scalar("strings.string_bytes", string_bytes_);
  v.Scalar("strings.overflowed", overflowed_);
  v.Scalar("strings.overflow_id", overflow_id_);
}

template <typename Visitor>
void StringPool::VisitStorage(Visitor& v) {
  Column<char> bytes;
  Column<uint64_t> ends;
  v.Col("strings.bytes", bytes);
  v.Col("strings.ends", ends);
  v.Col("strings.slots", slots_);
  v.Scalar("strings.max_strings", max_strings_);
  v.Scalar("strings.max_bytes", max_bytes_);
  v.Scalar("strings.string_bytes", string_bytes_);
  v.Scalar("strings.overflowed", overflowed_);
  v.Scalar("strings.overflow_id", overflow_id_);
  if (!v.ok()) return;
  blocks_.clear();
  block_used_ = block_size_ = 0;
  block_bytes_total_ = bytes.size();
  views_.clear();
  views_.reserve(ends.size());
  // Read through const references: a borrowed column has no mutable storage.
  const Column<char>& text = bytes;
  const Column<uint64_t>& text_ends = ends;
  const Column<Slot>& slots = slots_;
  uint64_t begin = 0;
  for (uint64_t end : text_ends) {
    if (end < begin || end > text.size()) return v.Fail("strings.ends out of order or past strings.bytes");
    views_.emplace_back(text.data() + begin, end - begin);
    begin = end;
  }
  if (views_.empty() || !views_[0].empty()) return v.Fail("strings: id 0 is not the empty string");
  if (slots.size() < views_.size() || (slots.size() & (slots.size() - 1)) != 0) {
    return v.Fail("strings.slots is not a power-of-two index over the strings");
  }
  for (const Slot& slot : slots) {
    if (slot.id_plus_one > views_.size()) return v.Fail("strings.slots names a string past the pool");
  }
}

}  // namespace stepline
