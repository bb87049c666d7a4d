// The pickle reader's machine (see pickle_reader.h), shared by the generic
// opcode loop (pickle_reader.cpp) and the flat-item fast path
// (pickle_flat_items.cpp). Internal to loaders/torch_snapshot.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "loaders/torch_snapshot/pickle_reader.h"

namespace stepline::loaders::pickle {

constexpr uint32_t kNoRun = UINT32_MAX;
constexpr NodeId kDropped = UINT32_MAX - 1;  // a memo entry whose value an ItemSink consumed
constexpr NodeId kNoneNode = 0, kFalseNode = 1, kTrueNode = 2, kFirstSmallInt = 3;
constexpr int kSmallInts = 256;  // BININT1 values share nodes: stream ids, line numbers, flags
constexpr uint64_t kConsumedChunk = uint64_t{64} << 20;

class Reader {
 public:
  Reader(std::string_view bytes, const ReadLimits& limits, Document* doc, PickleError* error,
         const ConsumedCallback& consumed, const ItemSink& sink, const FlatSink& flat)
      : in_(bytes), limits_(limits), doc_(doc), error_(error), consumed_(consumed), sink_(sink), flat_(flat) {}

  bool Run();

 private:
  bool Fail(uint64_t at, std::string message) {
    error_->offset = at;
    error_->message = std::move(message);
    return false;
  }
  bool Need(size_t n) {
    if (in_.size() - pos_ >= n) return true;
    return Fail(in_.size(), "the pickle ends inside the argument of opcode " + Describe(op_) +
                                " (at byte " + std::to_string(op_at_) + "); the file is truncated");
  }
  uint64_t LittleEndian(size_t n) {
    uint64_t v = 0;
    for (size_t i = 0; i < n; ++i) v |= uint64_t{static_cast<uint8_t>(in_[pos_ + i])} << (8 * i);
    pos_ += n;
    return v;
  }
  static std::string Describe(uint8_t op) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02X", op);
    const std::string_view name = OpcodeName(op);
    return std::string(hex) + (name.empty() ? std::string(" (not an opcode)") : " (" + std::string(name) + ")");
  }
  uint64_t BigEndian8() {
    uint64_t v = 0;
    for (size_t i = 0; i < 8; ++i) v = (v << 8) | static_cast<uint8_t>(in_[pos_ + i]);
    pos_ += 8;
    return v;
  }
  // A LONG1/LONG4 argument: two's complement, little-endian; false when it
  // does not fit in 64 bits (every byte past the eighth must only repeat the sign).
  static bool DecodeLong(const uint8_t* p, uint64_t length, int64_t* out) {
    if (length == 0) {
      *out = 0;
      return true;
    }
    const bool negative = (p[length - 1] & 0x80) != 0;
    bool fits = true;
    for (uint64_t i = 8; i < length; ++i) fits &= p[i] == (negative ? 0xFF : 0x00);
    if (length > 8 && fits) fits = ((p[7] & 0x80) != 0) == negative;
    if (!fits) return false;
    uint64_t v = negative ? ~uint64_t{0} : 0;
    for (uint64_t i = 0; i < std::min<uint64_t>(length, 8); ++i) {
      v &= ~(uint64_t{0xFF} << (8 * i));
      v |= uint64_t{p[i]} << (8 * i);
    }
    *out = static_cast<int64_t>(v);
    return true;
  }
  // A node; false, saying nothing, past the reader's limits (NewNode says it).
  bool AddNode(Tag tag, uint64_t payload, uint32_t aux, NodeId* id) {
    if (doc_->nodes_.size() >= limits_.max_nodes || next_serial_ == UINT32_MAX) return false;
    *id = static_cast<NodeId>(doc_->nodes_.size());
    doc_->nodes_.push_back(Node{payload, aux, tag});
    doc_->serials_.push_back(next_serial_++);
    return true;
  }
  bool NewNode(Tag tag, uint64_t payload, uint32_t aux, NodeId* id) {
    return AddNode(tag, payload, aux, id) || Fail(op_at_, "more values than the reader allows");
  }
  // Copies `length` bytes of string from the input (checked by the caller)
  // into the text arena; their offset there.
  uint64_t CopyText(uint64_t length) {
    const uint64_t offset = doc_->text_.size();
    doc_->text_.insert(doc_->text_.end(), in_.data() + pos_, in_.data() + pos_ + length);
    pos_ += length;
    return offset;
  }
  bool Push(Tag tag, uint64_t payload, uint32_t aux = 0) {
    NodeId id = 0;
    if (!NewNode(tag, payload, aux, &id)) return false;
    stack_.push_back(id);
    return true;
  }
  bool PushInt(int64_t v) {
    if (v >= 0 && v < kSmallInts) {
      stack_.push_back(kFirstSmallInt + static_cast<NodeId>(v));
      return true;
    }
    return Push(Tag::kInt, static_cast<uint64_t>(v));
  }
  bool PushText(Tag tag, uint64_t length) {
    if (!Need(length)) return false;
    if (length > UINT32_MAX) return Fail(op_at_, "a string longer than 4 GiB");
    const uint64_t offset = CopyText(length);
    return Push(tag, offset, static_cast<uint32_t>(length));
  }
  bool PushLong(uint64_t length);
  bool PushContainer(Tag tag) { return Push(tag, kNoRun, kNoRun); }
  // Pops the items above the topmost mark; false when there is no mark.
  // What existed when a MARK was pushed: everything above these sizes was
  // made for the items that follow the mark, unless `dirty`.
  struct Mark {
    size_t stack = 0, nodes = 0, kids = 0, runs = 0, memo = 0;
    bool dirty = false;  // an older container grew, or an older memo entry was overwritten, since
  };
  bool PopMark(size_t* first, Mark* mark = nullptr) {
    if (marks_.empty()) return Fail(op_at_, "opcode " + Describe(op_) + " without a MARK before it");
    *first = marks_.back().stack;
    if (mark != nullptr) *mark = marks_.back();
    marks_.pop_back();
    return true;
  }
  size_t MarkStack() const { return marks_.empty() ? 0 : marks_.back().stack; }
  // Marks are pushed in creation order, so their watermarks ascend.
  void Dirty(size_t Mark::*field, size_t below) {
    for (auto it = marks_.rbegin(); it != marks_.rend() && below < (*it).*field; ++it) it->dirty = true;
  }
  bool Appends(size_t first, const Mark* mark);
  void Reclaim(const Mark& mark, std::span<const NodeId> consumed);
  void AddRun(NodeId container, size_t first) {
    Dirty(&Mark::nodes, container);
    const uint32_t count = static_cast<uint32_t>(stack_.size() - first);
    if (count == 0) return;
    const auto run = static_cast<uint32_t>(doc_->runs_.size());
    doc_->runs_.push_back({static_cast<uint32_t>(doc_->kids_.size()), count, kNoRun});
    doc_->kids_.insert(doc_->kids_.end(), stack_.begin() + static_cast<ptrdiff_t>(first), stack_.end());
    stack_.resize(first);
    Node& n = doc_->nodes_[container];
    if (n.payload == kNoRun) n.payload = run;
    else doc_->runs_[n.aux].next = run;
    n.aux = run;
  }
  // APPEND(S) / SETITEM(S): the items from `first` go into the container just below them.
  bool AddItems(size_t first, Tag want) {
    if (first == 0 || first > stack_.size()) return Fail(op_at_, "opcode " + Describe(op_) + " with nothing to add to");
    const NodeId target = stack_[first - 1];
    if (doc_->nodes_[target].tag != want) {
      return Fail(op_at_, "opcode " + Describe(op_) + " adds to a value that is not a " +
                              (want == Tag::kDict ? "dict" : "list"));
    }
    if (want == Tag::kDict && (stack_.size() - first) % 2 != 0) return Fail(op_at_, "SETITEMS with an odd number of items");
    AddRun(target, first);
    return true;
  }
  // TUPLE/LIST/DICT/TUPLEn: a new container holding the items from `first`.
  bool Collect(Tag tag, size_t first) {
    if (tag == Tag::kDict && (stack_.size() - first) % 2 != 0) return Fail(op_at_, "DICT with an odd number of items");
    NodeId id = 0;
    if (!NewNode(tag, kNoRun, kNoRun, &id)) return false;
    AddRun(id, first);
    stack_.push_back(id);
    return true;
  }
  bool Memo(uint64_t index) {
    if (stack_.empty()) return Fail(op_at_, "opcode " + Describe(op_) + " with an empty stack");
    if (index > memo_.size() + (uint64_t{1} << 16)) return Fail(op_at_, "memo index " + std::to_string(index) + " is far beyond the memo");
    if (index < memo_.size()) {
      Dirty(&Mark::memo, index);
      ForgetKnownLists();  // the same bytes may now name another value
    }
    if (index >= memo_.size()) memo_.resize(index + 1, UINT32_MAX);
    memo_[index] = stack_.back();
    return true;
  }
  bool Recall(uint64_t index) {
    if (index >= memo_.size() || memo_[index] == UINT32_MAX) {
      return Fail(op_at_, "memo index " + std::to_string(index) + " was never stored");
    }
    if (memo_[index] == kDropped) {
      return Fail(op_at_, "memo index " + std::to_string(index) +
                              " refers to a device trace entry that was already read (snapshots never share them)");
    }
    stack_.push_back(memo_[index]);
    return true;
  }
  bool Step();

  // The fast path (pickle_flat_items.cpp). At an EMPTY_DICT: whether it
  // is the first item of a batch of a list the ItemSink took.
  bool AtFlatItem();
  bool IsFlatList(NodeId list) const;
  void NoteFlatList(NodeId list);
  // Reads the batch from op_at_ through its APPENDS when every item fits
  // the flat shape and the FlatSink takes it; false, with nothing changed,
  // when not.
  bool FlatItems();
  bool ReadFlatBatch(NodeId list);
  bool ReadFlatItem();  // one item into flat_fields_/flat_items_; false to let the loop read it
  bool ReadFlatPair(int key_op);  // a string key (a memo reference) and its value
  bool FlatValue(NodeId key);
  bool FlatMemo(NodeId value);  // an optional MEMOIZE/BINPUT after a value
  int NextOp();                 // the next opcode past FRAMEs; -1 at the end
  bool MemoRef(int op, NodeId* id);
  bool FlatString(int op, NodeId* id);
  bool ReadFlatList(FlatField* f);
  // The end of a list's items when they are memo references only (MARK ...
  // APPENDS batches, or one item and APPEND), and a hash of their bytes.
  bool ScanListBytes(size_t from, size_t* end, uint64_t* hash) const;
  void ForgetKnownLists() {
    known_lists_.clear();
    known_slots_.clear();
    known_items_.clear();
    known_bytes_.clear();
  }

  std::string_view in_;
  size_t pos_ = 0;
  ReadLimits limits_;
  Document* doc_;
  PickleError* error_;
  const ConsumedCallback& consumed_;
  const ItemSink& sink_;
  const FlatSink& flat_;
  struct FlatList {
    NodeId id;
    uint32_t serial;
  };
  std::vector<FlatList> flat_lists_;  // the lists whose batches the ItemSink took
  std::vector<FlatField> flat_fields_;
  std::vector<NodeId> flat_items_;
  // Lists of memo references read before, by a hash of their bytes: the
  // same bytes name the same values until a memo entry is overwritten, so
  // an entry's `frames` list (mostly one of a few thousand) is looked up
  // once instead of resolving each reference (ReadFlatList).
  struct KnownList {
    uint64_t hash = 0;
    uint64_t bytes_at = 0;          // in known_bytes_
    uint32_t bytes_size = 0;
    uint32_t first = 0, count = 0;  // in known_items_
    uint32_t content = 0;
  };
  const KnownList* FindKnownList(uint64_t hash, std::string_view bytes) const;  // null when not known
  void AddKnownList(uint64_t hash, std::string_view bytes, std::span<const NodeId> items, uint32_t content);
  std::vector<KnownList> known_lists_;
  std::vector<uint32_t> known_slots_;  // open addressing by hash: index + 1 into known_lists_, 0 empty
  std::vector<NodeId> known_items_;
  std::string known_bytes_;
  uint32_t next_content_ = 0;
  std::vector<NodeId> stack_;
  std::vector<Mark> marks_;
  std::vector<NodeId> memo_;
  uint32_t next_serial_ = 0;
  uint8_t op_ = 0;
  size_t op_at_ = 0;
  bool stopped_ = false;
};

}  // namespace stepline::loaders::pickle
