// A reader of the pickle subset PyTorch memory snapshots use (protocols 2 to
// 5): dicts, lists, tuples, strings, ints, floats, bools and None. It never
// executes anything: the opcodes that name or call Python code (GLOBAL,
// STACK_GLOBAL, REDUCE, BUILD, INST, OBJ, NEWOBJ, PERSID, EXT*, ...) are
// refused with the byte offset of the opcode.
//
// The value is a flat arena of 16-byte nodes. Strings are copied into one
// text arena (snapshots memoize every string, so each distinct frame name is
// read once), which lets the caller drop the input pages behind the reader.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace stepline::loaders::pickle {

enum class Tag : uint8_t { kNone, kBool, kInt, kBigInt, kFloat, kString, kBytes, kList, kTuple, kDict };

using NodeId = uint32_t;

struct Node {
  uint64_t payload = 0;  // int bits, float bits, text offset, or first run of a container
  uint32_t aux = 0;      // text length, or last run of a container
  Tag tag = Tag::kNone;
};

// A container's items arrive in batches (APPENDS and SETITEMS carry at most
// 1000); each batch is a run of `kids`, and a container chains its runs.
struct Run {
  uint32_t begin = 0, count = 0;
  uint32_t next = UINT32_MAX;
};

class Value;

struct PickleError {
  uint64_t offset = 0;
  std::string message;
};

struct ReadLimits {
  uint32_t max_depth = 200;            // nesting of marks and containers on the stack
  uint64_t max_nodes = uint64_t{1} << 31;
};

class Document {
 public:
  Value root() const;
  const Node& node(NodeId id) const { return nodes_[id]; }
  uint32_t serial(NodeId id) const { return serials_[id]; }
  std::string_view text(const Node& n) const { return std::string_view(text_.data() + n.payload, n.aux); }
  const std::vector<Run>& runs() const { return runs_; }
  const std::vector<NodeId>& kids() const { return kids_; }
  size_t MemoryBytes() const;

 private:
  friend class Reader;
  std::vector<Node> nodes_;
  std::vector<uint32_t> serials_;  // per node: its creation number, kept when reclaiming renumbers it
  std::vector<Run> runs_;
  std::vector<NodeId> kids_;
  std::vector<char> text_;
  NodeId root_ = 0;
};

// A read-only handle on one node.
class Value {
 public:
  Value() = default;
  Value(const Document* doc, NodeId id) : doc_(doc), id_(id) {}
  bool valid() const { return doc_ != nullptr; }
  const Document* doc() const { return doc_; }
  NodeId id() const { return id_; }
  // Which value this is, for as long as the document lives: ids are reused
  // once an ItemSink's items are reclaimed, serials never are.
  uint32_t serial() const { return doc_->serial(id_); }
  Tag tag() const { return valid() ? doc_->node(id_).tag : Tag::kNone; }
  bool is_int() const { return tag() == Tag::kInt || tag() == Tag::kBool; }
  int64_t as_int() const { return static_cast<int64_t>(doc_->node(id_).payload); }
  double as_double() const;
  std::string_view as_string() const { return tag() == Tag::kString ? doc_->text(doc_->node(id_)) : std::string_view(); }
  bool is_sequence() const { return tag() == Tag::kList || tag() == Tag::kTuple; }
  // Items of a list or tuple; keys and values alternating for a dict.
  template <typename F>
  void ForEachKid(F&& f) const {
    if (!valid()) return;
    const Node& n = doc_->node(id_);
    if (n.tag != Tag::kList && n.tag != Tag::kTuple && n.tag != Tag::kDict) return;
    for (uint32_t r = static_cast<uint32_t>(n.payload); r != UINT32_MAX; r = doc_->runs()[r].next) {
      const Run& run = doc_->runs()[r];
      for (uint32_t k = 0; k < run.count; ++k) f(Value(doc_, doc_->kids()[run.begin + k]));
    }
  }
  // The first item of a list or tuple, or the first key of a dict; nothing for an empty one.
  template <typename F>
  void ForFirstKid(F&& f) const {
    if (!valid()) return;
    const Node& n = doc_->node(id_);
    if (n.tag != Tag::kList && n.tag != Tag::kTuple && n.tag != Tag::kDict) return;
    const auto r = static_cast<uint32_t>(n.payload);
    if (r != UINT32_MAX && doc_->runs()[r].count > 0) f(Value(doc_, doc_->kids()[doc_->runs()[r].begin]));
  }
  // The value of a dict's string key; invalid when absent or not a dict.
  Value Get(std::string_view key) const;

 private:
  const Document* doc_ = nullptr;
  NodeId id_ = 0;
};

// Called every `chunk` input bytes with the offset below which the reader
// will not look again (the caller may release those pages).
using ConsumedCallback = std::function<void(uint64_t consumed)>;

// Offered each batch of items appended to a list (APPEND, APPENDS) before
// they are added; returning true takes them instead: the list stays without
// them, and what was made for them is reclaimed (a snapshot's device trace
// entries are read as they come, so the whole trace never sits in values).
// The document is only valid during the call for the items' values.
using ItemSink = std::function<bool(const Document& doc, NodeId list, std::span<const NodeId> items)>;

// The fast path for a list whose items an ItemSink took: each later batch
// (MARK items APPENDS) is read straight from the bytes, without values on
// the stack or reclaiming, when every item is a dict of string keys (memo
// references) whose values are numbers, None/True/False, strings, or a list
// of memo references (an entry's `frames`), and the FlatSink takes each.
// Anything else, anywhere in the batch, and the whole batch is read again by
// the opcode loop (and offered to the ItemSink as before): all or nothing,
// so a file reads to the same values, and fails with the same error, either
// way.
struct FlatField {
  enum class Kind : uint8_t { kNode, kInt, kFloat, kList };
  NodeId key = 0;  // the key's node (the fast path reads string keys only)
  Kind kind = Kind::kNode;
  uint64_t value = 0;  // kNode: its NodeId; kInt: int64 bits; kFloat: double bits; kList: first item in `list_items`
  uint32_t count = 0;  // kList: its items
  // kList: the same number for lists of the same items (read from the same
  // bytes), so a reader of many such lists can look each up once; kNoContent
  // when not known.
  uint32_t content = kNoContent;
  static constexpr uint32_t kNoContent = UINT32_MAX;
};
struct FlatItem {
  std::span<const FlatField> fields;
  std::span<const NodeId> list_items;  // the dicts of every kList field, each field a run
};
struct FlatSink {
  // One item of the batch; false leaves the batch to the opcode loop.
  std::function<bool(const Document& doc, NodeId list, const FlatItem& item)> item;
  // After the batch: true when it was taken whole, false when it is left to
  // the loop (then forget what `item` kept of it).
  std::function<void(bool taken)> end;
  explicit operator bool() const { return static_cast<bool>(item); }
};

// Reads one pickle. Returns false with `error` set (the offset of the opcode
// at fault, or the input size when the input ends early).
bool Read(std::string_view bytes, const ReadLimits& limits, Document* doc, PickleError* error,
          const ConsumedCallback& consumed = {}, const ItemSink& sink = {}, const FlatSink& flat = {});

// "SHORT_BINUNICODE" for 0x8C; "" for a byte that is no opcode.
std::string_view OpcodeName(uint8_t op);

}  // namespace stepline::loaders::pickle
