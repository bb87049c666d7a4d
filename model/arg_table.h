// ArgTable: the sparse args of slices, instants and flows, grouped in arg
// sets. A set is a contiguous run of rows; ArgSetId k covers rows
// [set_begin[k], set_begin[k+1]). Set 0 is the empty set ("no args").
//
// Columns per row:
//   key    StringId  interned arg name ("correlation", "grid", ...)
//   type   uint8     the ArgType, plus kWideValue when the value is in `wide`
//   value  uint32    the value's bits when they fit in 32 (a kInt sign-extended,
//                    the others zero-extended), else its index into `wide`
// and one column of the values that do not fit:
//   wide   uint64    the bits: int64, uint64, double, StringId (kString / kJson), 0/1 (kBool) or
//                    the number a kDecimalString spells
// Nearly every value fits (string ids, small integers, correlation ids: all
// of the demo's), so a row takes 9 bytes instead of 13: args were half of a
// Kineto trace's model, every byte of it a fresh page on the load's import
// thread.
// Rows within a set keep the order the trace gave them.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/column.h"
#include "model/ids.h"

namespace stepline {

enum class ArgType : uint8_t {
  kInt = 0,  // int64
  kUint,     // uint64
  kDouble,   // double
  kString,   // StringId
  kBool,     // 0 / 1
  kJson,     // StringId of compact JSON text (arrays, objects, null)
  // A string of decimal digits held as the uint64 it spells, not in the
  // pool: TensorBoard writes every launch's "correlation_id" as a string
  // ("11253"), one distinct string per launch, and interning them cost 15%
  // of a load. Only canonical text ("0", or digits without a
  // leading zero, up to UINT64_MAX) is held so, so the digits give the text
  // back exactly: shown, written and exported as that string.
  kDecimalString,
};

struct ArgValue {
  ArgType type = ArgType::kInt;
  uint64_t bits = 0;

  static ArgValue Int(int64_t v) { return {ArgType::kInt, static_cast<uint64_t>(v)}; }
  static ArgValue Uint(uint64_t v) { return {ArgType::kUint, v}; }
  static ArgValue Double(double v);
  static ArgValue String(StringId s) { return {ArgType::kString, s.value}; }
  static ArgValue Bool(bool b) { return {ArgType::kBool, b ? 1u : 0u}; }
  static ArgValue Json(StringId s) { return {ArgType::kJson, s.value}; }
  static ArgValue DecimalString(uint64_t v) { return {ArgType::kDecimalString, v}; }

  int64_t as_int() const { return static_cast<int64_t>(bits); }
  uint64_t as_uint() const { return bits; }
  double as_double() const;
  StringId as_string() const { return StringId(static_cast<uint32_t>(bits)); }
  bool as_bool() const { return bits != 0; }
  // Numeric value of kInt/kUint/kDouble/kBool/kDecimalString; false for
  // pooled strings (a uint64 past INT64_MAX wraps, as kUint's does).
  bool ToInt64(int64_t* out) const;
};

struct Arg {
  StringId key;
  ArgValue value;
};

class ArgTable {
 public:
  ArgTable() { set_begin_.push_back(0); set_begin_.push_back(0); }  // set 0: empty

  // Appends one set and returns its id; an empty span returns ArgSetId 0.
  ArgSetId AddSet(std::span<const Arg> args);
  // The same in two steps, for a loader that writes its args straight into
  // the columns: AppendRows(n) makes room for n > 0 rows of one set (left
  // unset: the caller fills every one through Rows::Set, valid until the
  // table grows again),
  // EndSet() closes the set and returns its id. No per-row capacity checks,
  // no intermediate list (the JSON importer: ~4 args per kernel).
  class Rows {
   public:
    // Row k of the set (k < n), each written once.
    void Set(size_t k, StringId key, ArgType type, uint64_t bits) const {
      key_[k] = key;
      if (Fits(type, bits)) {
        type_[k] = static_cast<uint8_t>(type);
        value_[k] = static_cast<uint32_t>(bits);
        return;
      }
      type_[k] = static_cast<uint8_t>(type) | kWideValue;
      value_[k] = static_cast<uint32_t>(wide_->size());
      wide_->push_back(bits);
    }

   private:
    friend class ArgTable;
    StringId* key_;
    uint8_t* type_;
    uint32_t* value_;
    Column<uint64_t>* wide_;
  };
  Rows AppendRows(size_t n);
  ArgSetId EndSet();
  // Building phase: room for `sets` more sets holding `rows` more args in
  // all, `wide` of them with values past 32 bits.
  void Reserve(size_t sets, size_t rows, size_t wide = 0);
  // As SliceTable::ReservedStorage(): (address, bytes) of each column's capacity.
  std::vector<std::pair<const void*, size_t>> ReservedStorage() const;
  size_t set_count() const { return set_begin_.size() - 1; }  // including the empty set 0
  size_t size() const { return key_.size(); }                 // total rows

  // Rows of one set, as [begin, end) into the columns.
  uint32_t set_begin(ArgSetId id) const { return set_begin_[id.index()]; }
  uint32_t set_end(ArgSetId id) const { return set_begin_[id.index() + 1]; }
  std::span<const StringId> key() const { return key_; }
  ArgValue value(uint32_t row) const {
    const uint8_t type = type_[row];
    if (type & kWideValue) return ArgValue{static_cast<ArgType>(type & ~kWideValue), wide_[value_[row]]};
    const uint32_t bits = value_[row];
    return ArgValue{static_cast<ArgType>(type),
                    type == static_cast<uint8_t>(ArgType::kInt)
                        ? static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(bits)))
                        : bits};
  }
  size_t wide_count() const { return wide_.size(); }  // values held in 64 bits (for tests)
  const void* wide_data() const { return wide_.data(); }  // tells the wide column among ReservedStorage()

  // "" when the columns agree (sets ascending and ending at size(), every
  // wide row's index inside `wide`); else what does not (Trace::CheckInvariants).
  std::string CheckInvariants() const;
  // The first arg named `key` in the set, if any.
  bool Find(ArgSetId set, StringId key, ArgValue* out) const;
  size_t MemoryBytes() const;

  // For the column cache (loaders/column_cache): visits every member that
  // makes up the finalized table, in a fixed order (`self` is const when
  // writing, non-const when reading borrowed columns back).
  template <typename Self, typename Visitor>
  static void VisitStorage(Self& self, Visitor& v) {
    v.Col("args.set_begin", self.set_begin_);
    v.Col("args.key", self.key_);
    v.Col("args.type", self.type_);
    v.Col("args.value", self.value_);
    v.Col("args.wide", self.wide_);
  }

 private:
  static constexpr uint8_t kWideValue = 0x80;
  // Whether `bits` of `type` survive the round trip through 32 bits.
  static bool Fits(ArgType type, uint64_t bits) {
    if (type == ArgType::kInt) {
      const auto v = static_cast<int64_t>(bits);
      return v >= INT32_MIN && v <= INT32_MAX;
    }
    return bits <= UINT32_MAX;
  }

  Column<uint32_t> set_begin_;  // size set_count() + 1
  Column<StringId> key_;
  Column<uint8_t> type_;
  Column<uint32_t> value_;
  Column<uint64_t> wide_;
};

}  // namespace stepline
