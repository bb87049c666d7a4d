// PlaneMetadata: one XPlane's event and stat metadata, resolved once per
// plane: interned names, display names, each stat name's role, and each event
// metadata's own stats already turned into args. Events only carry metadata
// ids, so this is what gives them names (trace-formats.md 1.4).
//
// The map entries are decoded by hand with WireReader, like the lines (each
// still checked against kMaxProtobufMessageBytes first, so a huge one stays a
// kTooLarge). Everything that needs interning goes through the TraceBuilder,
// so a PlaneMetadata is used on the builder's thread.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "loaders/load_error.h"
#include "loaders/trace_builder.h"
#include "loaders/xspace/xspace_stats.h"

namespace stepline::loaders::xspace {

class PlaneMetadata {
 public:
  struct StatMeta {
    StringId name;                   // stat name; None = missing metadata
    StatRole role = StatRole::kOther;
  };
  struct EventMeta {
    StringId name;        // what is shown: display_name, else name
    StringId long_name;   // `name` when a different display_name is shown, else None
    std::string_view full_name;      // `name`, a view into the StringPool
    uint32_t args_begin = 0, args_end = 0;  // this metadata's stats, as args, in args()
    StatFacts facts;      // facts from this metadata's stats
  };

  PlaneMetadata(TraceBuilder* builder, bool keep_args) : builder_(builder), keep_args_(keep_args) {}

  // Decode one `stat_metadata` / `event_metadata` map entry (the entry's
  // payload at absolute `offset`). Stat entries must all be added before the
  // event entries, whose stats refer to them. On failure returns false with
  // `error` set (kProtobufInvalid with the offending offset, or kTooLarge).
  bool AddStatEntry(const char* data, uint64_t size, uint64_t offset, const std::string& path, LoadError* error);
  bool AddEventEntry(const char* data, uint64_t size, uint64_t offset, const std::string& path, LoadError* error);

  const StatMeta* FindStat(int64_t id) const;
  const EventMeta* FindEvent(int64_t id) const;
  // Index of an event metadata in [0, event_count()), or UINT32_MAX.
  uint32_t FindEventIndex(int64_t id) const { return event_index_.Find(id); }
  const EventMeta& event(uint32_t index) const { return events_[index]; }
  size_t event_count() const { return events_.size(); }
  std::span<const Arg> args(const EventMeta& md) const {
    return std::span<const Arg>(metadata_args_).subspan(md.args_begin, md.args_end - md.args_begin);
  }

  // Resolves one stat: appends its arg to `args` (when args are kept and the
  // stat has a value) and records what it means in `facts`. `text_is_stable`:
  // stat.text outlives the load (a view into the input), so facts may point
  // into it instead of interning it.
  void ApplyStat(const RawStat& stat, std::vector<Arg>* args, StatFacts* facts, bool text_is_stable);
  // ApplyStat for an event's own stat (text is a view into the input), with
  // the common case inline: a number under a stat name the loader ignores.
  void ApplyEventStat(const RawStat& stat, std::vector<Arg>* args, StatFacts* facts) {
    const bool is_number = stat.kind == StatValueKind::kInt || stat.kind == StatValueKind::kUint ||
                           stat.kind == StatValueKind::kDouble;
    const uint32_t index = is_number ? stat_index_.Find(stat.metadata_id) : IdIndex::kNotFound;
    if (index == IdIndex::kNotFound || stats_[index].role != StatRole::kOther) {
      ApplyStat(stat, args, facts, /*text_is_stable=*/true);
      return;
    }
    if (keep_args_) args->push_back(Arg{stats_[index].name, ArgValue{NumberArgType(stat.kind), stat.bits}});
    if (!facts->has_number) facts->has_number = true, facts->number = NumberOf(stat);
  }
  // The stat's value as an arg value (strings interned); false for no value.
  bool StatValue(const RawStat& stat, ArgValue* out);
  // `text`, or a U+FFFD-repaired copy valid until the next call, recording a
  // kInvalidUtf8 diagnostic at `offset` when it needed repair.
  std::string_view CheckUtf8(std::string_view text, uint64_t offset);
  StringId InternChecked(std::string_view text, uint64_t offset) { return builder_->Intern(CheckUtf8(text, offset)); }

 private:
  // Dense id -> index while ids stay small (producers number them 1, 2, 3...),
  // a hash map for anything else.
  class IdIndex {
   public:
    static constexpr uint32_t kNotFound = UINT32_MAX;
    void Insert(int64_t id, uint32_t index);
    uint32_t Find(int64_t id) const {  // kNotFound when absent; inline: called per stat
      if (id >= 0 && static_cast<uint64_t>(id) < dense_.size()) return dense_[static_cast<size_t>(id)] - 1;
      return FindSparse(id);
    }

   private:
    uint32_t FindSparse(int64_t id) const;
    static constexpr int64_t kMaxDense = 1 << 22;
    std::vector<uint32_t> dense_;  // index + 1; 0 = absent (so 0 - 1 wraps to kNotFound)
    std::unordered_map<int64_t, uint32_t> sparse_;
  };

  StringId InternText(const RawStat& stat);  // a str_value, checked unless already known valid
  // A numeric stat (kInt, kUint, kDouble) as an arg type, and as a double.
  static ArgType NumberArgType(StatValueKind kind) {
    return kind == StatValueKind::kDouble ? ArgType::kDouble : kind == StatValueKind::kUint ? ArgType::kUint : ArgType::kInt;
  }
  static double NumberOf(const RawStat& stat);

  TraceBuilder* builder_;
  bool keep_args_;
  std::vector<StatMeta> stats_;
  IdIndex stat_index_;
  std::vector<EventMeta> events_;
  IdIndex event_index_;
  std::vector<Arg> metadata_args_;
  std::vector<RawStat> entry_stats_;  // the current event entry's stats (reused)
  std::string scratch_;       // inflated compressed strings
  std::string utf8_scratch_;  // repaired text
};

}  // namespace stepline::loaders::xspace
