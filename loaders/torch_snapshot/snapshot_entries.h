// A memory snapshot's device trace entries as compact records: the entry
// dict (read by the opcode loop, or by the reader's fast path) reduced to
// its action, address, size, time and stack, the stack interned once per
// distinct list of frames. Internal to loaders/torch_snapshot.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "loaders/torch_snapshot/pickle_reader.h"
#include "loaders/trace_builder.h"

namespace stepline::loaders::torch_snapshot {

using pickle::Tag;
using pickle::Value;

enum class Action : uint8_t {
  kAlloc, kFreeRequested, kFreeCompleted, kSegmentAlloc, kSegmentFree, kSegmentMap, kSegmentUnmap, kOom,
  kSnapshot, kOther
};

inline Action ActionOf(std::string_view a) {
  if (a == "alloc") return Action::kAlloc;
  if (a == "free_requested") return Action::kFreeRequested;
  if (a == "free_completed") return Action::kFreeCompleted;
  if (a == "segment_alloc") return Action::kSegmentAlloc;
  if (a == "segment_free") return Action::kSegmentFree;
  if (a == "segment_map") return Action::kSegmentMap;
  if (a == "segment_unmap") return Action::kSegmentUnmap;
  if (a == "oom") return Action::kOom;
  if (a == "snapshot") return Action::kSnapshot;
  return Action::kOther;
}

// One device trace entry (or one block live before the capture) with the
// pickle values it needs already read: entries become records as the reader
// meets them, so the whole trace never sits in pickle values. 32 bytes.
constexpr uint32_t kNoStack = UINT32_MAX;  // an entry without frames

struct Record {
  TimeNs ts_ns = kNoTime;
  uint64_t addr = 0;
  int64_t size = 0;
  uint32_t stack = kNoStack;  // Converter::Stack(): the whole stack and its first line
  StringId action_name;  // the action as written (names the instant of an unknown action)
  static constexpr TimeNs kNoTime = std::numeric_limits<TimeNs>::min();
};

inline bool IntOf(Value v, int64_t* out) {
  if (!v.is_int()) return false;
  *out = v.as_int();
  return true;
}

class Converter {
 public:
  explicit Converter(TraceBuilder* builder) : b_(builder) {}

  // The stack of a `frames` list, interned once per distinct list of frame
  // values (PyTorch shares one dict per distinct frame, so most entries
  // repeat a stack seen before). Its first line, the innermost frame, is
  // label(stack).
  uint32_t Frames(Value frames) {
    if (!frames.is_sequence()) return kNoStack;
    frame_nodes_.clear();
    frames.ForEachKid([&](Value f) { frame_nodes_.push_back(f.id()); });
    return FramesOf(*frames.doc(), frame_nodes_);
  }
  uint32_t FramesOf(const pickle::Document& doc, std::span<const pickle::NodeId> frames) {
    if (frames.empty()) return kNoStack;
    key_.clear();
    uint64_t hash = 0x9E3779B97F4A7C15ull;
    for (pickle::NodeId f : frames) {
      key_.push_back(doc.serial(f));
      hash = (hash ^ key_.back()) * 0xFF51AFD7ED558CCDull;
    }
    hash ^= hash >> 33;
    // Stacks with this hash are chained through StackIds::next; the serials compared settle it.
    auto [slot, inserted] = by_hash_.try_emplace(hash, kNoStack);
    for (uint32_t i = slot->second; i != kNoStack; i = stack_ids_[i].next) {
      const StackIds& known = stack_ids_[i];
      if (known.key_count == key_.size() &&
          std::equal(key_.begin(), key_.end(), key_store_.begin() + static_cast<ptrdiff_t>(known.key_begin))) {
        return i;
      }
    }
    std::string stack;
    std::string first;
    for (pickle::NodeId f : frames) {
      const std::string label = FrameLabel(Value(&doc, f));
      if (first.empty()) first = label;
      if (!stack.empty()) stack += '\n';
      stack += label;
    }
    const auto index = static_cast<uint32_t>(stack_ids_.size());
    stack_ids_.push_back({b_->Intern(stack), b_->Intern(first), key_store_.size(), static_cast<uint32_t>(key_.size()),
                          slot->second});
    key_store_.insert(key_store_.end(), key_.begin(), key_.end());
    slot->second = index;
    return index;
  }
  // The same for a fast-path list, looked up once per list content.
  uint32_t FramesOfList(const pickle::Document& doc, std::span<const pickle::NodeId> frames, uint32_t content) {
    if (content == pickle::FlatField::kNoContent) return FramesOf(doc, frames);
    if (content >= stack_of_content_.size()) stack_of_content_.resize(content + 1, kUnknownStack);
    uint32_t& stack = stack_of_content_[content];
    if (stack == kUnknownStack) stack = FramesOf(doc, frames);
    return stack;
  }
  // The interned stack and its first line (the label) of a Frames() index.
  std::pair<StringId, StringId> Stack(uint32_t index) const {
    return {stack_ids_[index].stack, stack_ids_[index].label};
  }

  // "name (filename:line)"; what is missing is left out.
  static std::string FrameLabel(Value f) {
    const std::string_view name = f.Get("name").as_string();
    const std::string_view file = f.Get("filename").as_string();
    int64_t line = -1;
    std::string out = name.empty() ? std::string("?") : std::string(name);
    if (!file.empty()) {
      out += " (" + std::string(file);
      if (IntOf(f.Get("line"), &line)) out += ":" + std::to_string(line);
      out += ")";
    }
    return out;
  }

  Action ActionOfName(StringId name, std::string_view text) {
    auto [it, inserted] = actions_.try_emplace(name.value, Action::kOther);
    if (inserted) it->second = ActionOf(text);
    return it->second;
  }

  // A device trace entry (a dict with an "action" string) as a record;
  // false for anything else. Read as the fast path's fields (each value a
  // node), so one Entry below decides for both ways of reading.
  bool Entry(Value e, Record* out) {
    if (e.tag() != Tag::kDict) return false;
    // The reader offers every list's items, and most lists are an entry's
    // `frames`: a dict whose first key names a frame field is no entry, and
    // saying so at once spares a pass over its keys (9 million on a 1 GB file).
    bool frame = false;
    e.ForFirstKid([&](Value first_key) { frame = IsFrameKey(first_key.as_string()); });
    if (frame) return false;
    dict_fields_.clear();
    bool is_key = true;
    e.ForEachKid([&](Value v) {
      if (is_key) dict_fields_.push_back({v.id(), pickle::FlatField::Kind::kNode, 0, 0});
      else dict_fields_.back().value = v.id();
      is_key = !is_key;
    });
    return Entry(*e.doc(), pickle::FlatItem{dict_fields_, {}}, out);
  }

  // An entry as fields (as the reader's fast path reads it, pickle::FlatItem):
  // no entry when its first key names a frame field; the last of a repeated
  // key wins.
  bool Entry(const pickle::Document& doc, const pickle::FlatItem& item, Record* out) {
    using Kind = pickle::FlatField::Kind;
    if (item.fields.empty() || IsFrameKey(Value(&doc, item.fields.front().key).as_string())) return false;
    Record r;
    Value action;
    for (const pickle::FlatField& f : item.fields) {
      const Value node(&doc, static_cast<pickle::NodeId>(f.value));
      int64_t n = 0;
      bool is_int = true;
      if (f.kind == Kind::kInt) n = static_cast<int64_t>(f.value);
      else if (f.kind == Kind::kNode && node.is_int()) n = node.as_int();
      else is_int = false;
      switch (FieldOf(Value(&doc, f.key))) {
        case Field::kAction:
          action = f.kind == Kind::kNode ? node : Value();
          break;
        case Field::kAddr:
          if (is_int) r.addr = static_cast<uint64_t>(n);
          break;
        case Field::kSize:
          if (is_int) r.size = n;
          break;
        case Field::kTime:
          if (is_int) r.ts_ns = TimeOf(n, 0, false);
          else if (f.kind == Kind::kFloat) r.ts_ns = TimeOf(0, std::bit_cast<double>(f.value), true);
          else if (f.kind == Kind::kNode && node.tag() == Tag::kFloat) r.ts_ns = TimeOf(0, node.as_double(), true);
          else r.ts_ns = Record::kNoTime;
          break;
        case Field::kFrames:
          if (f.kind == Kind::kList) r.stack = FramesOfList(doc, item.list_items.subspan(f.value, f.count), f.content);
          else if (f.kind == Kind::kNode) r.stack = Frames(node);
          else r.stack = kNoStack;
          break;
        case Field::kOther: break;
      }
    }
    if (action.as_string().empty()) return false;
    r.action_name = ActionName(action);
    *out = r;
    return true;
  }

  StringId Intern(std::string_view s) { return b_->Intern(s); }

 private:
  static bool IsFrameKey(std::string_view k) { return k == "name" || k == "filename" || k == "line"; }
  // The action's interned name, by the serial of its string: snapshots
  // memoize the few action strings, so the same few serials come back
  // millions of times and most skip interning.
  StringId ActionName(Value action) {
    ActionSlot& slot = action_names_[action.serial() % action_names_.size()];
    if (slot.serial == action.serial()) return slot.name;
    const StringId name = b_->Intern(action.as_string());
    ActionOfName(name, action.as_string());
    slot = {action.serial(), name};
    return name;
  }
  // time_us as ns. Epoch microseconds in ns stay inside int64 until the year 2262.
  static TimeNs TimeOf(int64_t us, double us_float, bool is_float) {
    const double v = is_float ? us_float : static_cast<double>(us);
    if (!(v > -9.2e15 && v < 9.2e15)) return Record::kNoTime;
    return is_float ? static_cast<TimeNs>(us_float * 1000.0) : us * 1000;
  }

  enum class Field : uint8_t { kOther, kAction, kAddr, kSize, kTime, kFrames };
  // Which entry field a key names. Snapshots memoize their keys, so the same
  // few key values (by serial, which no other value ever takes) come back
  // millions of times: a small cache spares comparing their text each time.
  Field FieldOf(Value key) {
    const uint32_t serial = key.serial();
    FieldSlot& slot = fields_[serial % fields_.size()];
    if (slot.serial == serial) return slot.field;
    const std::string_view k = key.as_string();
    Field f = Field::kOther;
    if (k == "action") f = Field::kAction;
    else if (k == "addr") f = Field::kAddr;
    else if (k == "size") f = Field::kSize;
    else if (k == "time_us") f = Field::kTime;
    else if (k == "frames") f = Field::kFrames;
    slot = {serial, f};
    return f;
  }
  struct FieldSlot {
    uint32_t serial = UINT32_MAX;
    Field field = Field::kOther;
  };
  std::array<FieldSlot, 16> fields_{};

  TraceBuilder* b_;
  struct StackIds {
    StringId stack, label;
    size_t key_begin = 0;  // its frames' serials in key_store_
    uint32_t key_count = 0;
    uint32_t next = kNoStack;  // the next stack of the same hash
  };
  std::vector<pickle::FlatField> dict_fields_;       // Entry(Value): the dict's pairs
  std::vector<pickle::NodeId> frame_nodes_;          // Frames(): the list's items
  static constexpr uint32_t kUnknownStack = UINT32_MAX - 1;
  std::vector<uint32_t> stack_of_content_;           // FramesOfList(): by FlatField::content
  std::vector<uint32_t> key_;                        // the serials of the frames being looked up
  std::unordered_map<uint64_t, uint32_t> by_hash_;   // hash of the serials -> first stack with it
  std::vector<StackIds> stack_ids_;
  std::vector<uint32_t> key_store_;
  std::unordered_map<uint32_t, Action> actions_;
  struct ActionSlot {
    uint32_t serial = UINT32_MAX;
    StringId name;
  };
  std::array<ActionSlot, 16> action_names_{};
};

}  // namespace stepline::loaders::torch_snapshot
