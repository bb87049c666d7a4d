// ArgTable: append-only arg sets.
#include "model/arg_table.h"

#include <cmath>
#include <cstring>

#include "model/sl_assert.h"

namespace stepline {

ArgValue ArgValue::Double(double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return {ArgType::kDouble, bits};
}

double ArgValue::as_double() const {
  double v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

bool ArgValue::ToInt64(int64_t* out) const {
  switch (type) {
    case ArgType::kInt: *out = as_int(); return true;
    case ArgType::kUint:
    case ArgType::kDecimalString: *out = static_cast<int64_t>(bits); return true;
    case ArgType::kBool: *out = as_bool() ? 1 : 0; return true;
    case ArgType::kDouble: {
      const double d = as_double();
      if (!std::isfinite(d) || std::fabs(d) > 9.2e18) return false;
      *out = static_cast<int64_t>(d);
      return true;
    }
    case ArgType::kString:
    case ArgType::kJson: return false;
  }
  return false;
}

ArgSetId ArgTable::AddSet(std::span<const Arg> args) {
  if (args.empty()) return ArgSetId::None();
  const Rows rows = AppendRows(args.size());
  for (size_t k = 0; k < args.size(); ++k) rows.Set(k, args[k].key, args[k].value.type, args[k].value.bits);
  return EndSet();
}

ArgTable::Rows ArgTable::AppendRows(size_t n) {
  SL_ASSERT(n > 0 && key_.size() + n < UINT32_MAX && "arg table overflow");
  const size_t at = key_.size();
  // Every caller writes each row, so no zeroes first: three memset calls per
  // set, most of whose time (a 413 MB load, perf) was the first touch of
  // fresh pages that the caller's writes now take instead.
  key_.resize_for_overwrite(at + n);
  type_.resize_for_overwrite(at + n);
  value_.resize_for_overwrite(at + n);
  Rows rows;
  rows.key_ = key_.data() + at;
  rows.type_ = type_.data() + at;
  rows.value_ = value_.data() + at;
  rows.wide_ = &wide_;
  return rows;
}

ArgSetId ArgTable::EndSet() {
  set_begin_.push_back(static_cast<uint32_t>(key_.size()));
  return ArgSetId::FromIndex(set_begin_.size() - 2);
}

void ArgTable::Reserve(size_t sets, size_t rows, size_t wide) {
  set_begin_.reserve(set_begin_.size() + sets);
  if (wide > 0) wide_.reserve(wide_.size() + wide);
  key_.reserve(key_.size() + rows);
  type_.reserve(type_.size() + rows);
  value_.reserve(value_.size() + rows);
}

std::vector<std::pair<const void*, size_t>> ArgTable::ReservedStorage() const {
  std::vector<std::pair<const void*, size_t>> out;
  out.emplace_back(set_begin_.data(), set_begin_.capacity() * sizeof(uint32_t));
  out.emplace_back(key_.data(), key_.capacity() * sizeof(StringId));
  out.emplace_back(type_.data(), type_.capacity() * sizeof(uint8_t));
  out.emplace_back(value_.data(), value_.capacity() * sizeof(uint32_t));
  out.emplace_back(wide_.data(), wide_.capacity() * sizeof(uint64_t));
  return out;
}

std::string ArgTable::CheckInvariants() const {
  if (type_.size() != key_.size() || value_.size() != key_.size()) return "arg columns of different lengths";
  if (set_begin_.size() < 2 || set_begin_[0] != 0 || set_begin_.back() != key_.size())
    return "arg sets do not cover the rows";
  for (size_t i = 1; i < set_begin_.size(); ++i) {
    if (set_begin_[i] < set_begin_[i - 1]) return "arg sets out of order";
  }
  for (size_t r = 0; r < key_.size(); ++r) {
    if ((type_[r] & kWideValue) && value_[r] >= wide_.size()) return "arg value past the wide column";
  }
  return {};
}

bool ArgTable::Find(ArgSetId set, StringId key, ArgValue* out) const {
  if (set.is_none()) return false;
  for (uint32_t r = set_begin(set); r < set_end(set); ++r) {
    if (key_[r] == key) {
      *out = value(r);
      return true;
    }
  }
  return false;
}

size_t ArgTable::MemoryBytes() const {
  return set_begin_.capacity() * sizeof(uint32_t) + key_.capacity() * sizeof(StringId) + type_.capacity() +
         value_.capacity() * sizeof(uint32_t) + wide_.capacity() * sizeof(uint64_t);
}

}  // namespace stepline
