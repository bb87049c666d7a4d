// The pickle subset reader (see pickle_reader.h): a stack machine over the
// opcodes Python's pickler emits for dicts, lists, tuples, strings, numbers,
// bools and None, at protocols 2 to 5. Every length is checked against the
// bytes left before it is used.
#include "loaders/torch_snapshot/pickle_reader.h"

#include "loaders/torch_snapshot/pickle_machine.h"

#include <bit>
#include <cstddef>
#include <cstdio>
#include <span>

namespace stepline::loaders::pickle {
namespace {

struct OpcodeInfo {
  uint8_t op;
  std::string_view name;
};

// Every pickle opcode, so a refusal can name what it met.
constexpr OpcodeInfo kOpcodes[] = {
    {0x28, "MARK"}, {0x2E, "STOP"}, {0x30, "POP"}, {0x31, "POP_MARK"}, {0x32, "DUP"}, {0x46, "FLOAT"},
    {0x49, "INT"}, {0x4A, "BININT"}, {0x4B, "BININT1"}, {0x4C, "LONG"}, {0x4D, "BININT2"}, {0x4E, "NONE"},
    {0x50, "PERSID"}, {0x51, "BINPERSID"}, {0x52, "REDUCE"}, {0x53, "STRING"}, {0x54, "BINSTRING"},
    {0x55, "SHORT_BINSTRING"}, {0x56, "UNICODE"}, {0x58, "BINUNICODE"}, {0x61, "APPEND"}, {0x62, "BUILD"},
    {0x63, "GLOBAL"}, {0x64, "DICT"}, {0x7D, "EMPTY_DICT"}, {0x65, "APPENDS"}, {0x67, "GET"}, {0x68, "BINGET"},
    {0x69, "INST"}, {0x6A, "LONG_BINGET"}, {0x6C, "LIST"}, {0x5D, "EMPTY_LIST"}, {0x6F, "OBJ"}, {0x70, "PUT"},
    {0x71, "BINPUT"}, {0x72, "LONG_BINPUT"}, {0x73, "SETITEM"}, {0x74, "TUPLE"}, {0x29, "EMPTY_TUPLE"},
    {0x75, "SETITEMS"}, {0x47, "BINFLOAT"}, {0x80, "PROTO"}, {0x81, "NEWOBJ"}, {0x82, "EXT1"}, {0x83, "EXT2"},
    {0x84, "EXT4"}, {0x85, "TUPLE1"}, {0x86, "TUPLE2"}, {0x87, "TUPLE3"}, {0x88, "NEWTRUE"}, {0x89, "NEWFALSE"},
    {0x8A, "LONG1"}, {0x8B, "LONG4"}, {0x42, "BINBYTES"}, {0x43, "SHORT_BINBYTES"}, {0x8C, "SHORT_BINUNICODE"},
    {0x8D, "BINUNICODE8"}, {0x8E, "BINBYTES8"}, {0x8F, "EMPTY_SET"}, {0x90, "ADDITEMS"}, {0x91, "FROZENSET"},
    {0x92, "NEWOBJ_EX"}, {0x93, "STACK_GLOBAL"}, {0x94, "MEMOIZE"}, {0x95, "FRAME"}, {0x96, "BYTEARRAY8"},
    {0x97, "NEXT_BUFFER"}, {0x98, "READONLY_BUFFER"},
};

}  // namespace


// APPEND(S): the sink may take the items instead of the list; then what was
// made for them since their MARK is reclaimed.
bool Reader::Appends(size_t first, const Mark* mark) {
  if (sink_ && first > 0 && first <= stack_.size() && doc_->nodes_[stack_[first - 1]].tag == Tag::kList &&
      first < stack_.size()) {
    const std::span<const NodeId> items(stack_.data() + first, stack_.size() - first);
    if (sink_(*doc_, stack_[first - 1], items)) {
      if (flat_) NoteFlatList(stack_[first - 1]);
      if (mark != nullptr && !mark->dirty) Reclaim(*mark, items);
      stack_.resize(first);
      return true;
    }
  }
  return AddItems(first, Tag::kList);
}

// Drops the nodes, kids and runs made since `mark`, keeping (renumbered) the
// ones a memo entry still reaches: the strings and frame dicts later entries
// refer back to. Memo entries of the consumed items and of the containers
// they hold directly (an entry's `frames` list) are dropped with them.
void Reader::Reclaim(const Mark& mark, std::span<const NodeId> consumed) {
  const size_t w = mark.nodes;
  const size_t count = doc_->nodes_.size() - w;
  if (count == 0) return;
  std::vector<uint32_t> state(count, 0);  // 1 dropped, 2 kept
  const auto kids_of = [&](NodeId id, auto&& f) {
    const Node& n = doc_->nodes_[id];
    if (n.tag != Tag::kList && n.tag != Tag::kTuple && n.tag != Tag::kDict) return;
    for (uint32_t r = static_cast<uint32_t>(n.payload); r != kNoRun; r = doc_->runs_[r].next) {
      const auto& run = doc_->runs_[r];
      for (uint32_t k = 0; k < run.count; ++k) f(doc_->kids_[run.begin + k]);
    }
  };
  for (NodeId item : consumed) {
    if (item < w) continue;
    state[item - w] = 1;
    kids_of(item, [&](NodeId kid) {
      const Tag t = kid >= w ? doc_->nodes_[kid].tag : Tag::kNone;
      if (t == Tag::kList || t == Tag::kTuple || t == Tag::kDict) state[kid - w] = 1;
    });
  }
  std::vector<NodeId> todo;
  for (size_t i = mark.memo; i < memo_.size(); ++i) {
    const NodeId id = memo_[i];
    if (id >= w && id < kDropped && state[id - w] == 0) {
      state[id - w] = 2;
      todo.push_back(id);
    }
  }
  while (!todo.empty()) {
    const NodeId id = todo.back();
    todo.pop_back();
    kids_of(id, [&](NodeId kid) {
      if (kid >= w && state[kid - w] != 2) {
        state[kid - w] = 2;
        todo.push_back(kid);
      }
    });
  }
  // Survivors in creation order, their kids as old ids.
  std::vector<Node> kept;
  std::vector<uint32_t> kept_serials;
  std::vector<std::pair<uint32_t, uint32_t>> kept_kids;  // [begin, count) into old_kids
  std::vector<NodeId> old_kids;
  for (size_t i = 0; i < count; ++i) {
    if (state[i] != 2) continue;
    const NodeId id = static_cast<NodeId>(w + i);
    const auto begin = static_cast<uint32_t>(old_kids.size());
    kids_of(id, [&](NodeId kid) { old_kids.push_back(kid); });
    kept.push_back(doc_->nodes_[id]);
    kept_serials.push_back(doc_->serials_[id]);
    kept_kids.emplace_back(begin, static_cast<uint32_t>(old_kids.size()) - begin);
    state[i] = static_cast<uint32_t>(w + kept.size() + 2);  // new id + 3, past the two flags
  }
  const auto renumber = [&](NodeId old) { return old < w ? old : static_cast<NodeId>(state[old - w] - 3); };
  doc_->nodes_.resize(w);
  doc_->serials_.resize(w);
  doc_->kids_.resize(mark.kids);
  doc_->runs_.resize(mark.runs);
  for (size_t k = 0; k < kept.size(); ++k) {
    Node n = kept[k];
    const bool container = n.tag == Tag::kList || n.tag == Tag::kTuple || n.tag == Tag::kDict;
    if (container) n.payload = n.aux = kNoRun;
    doc_->nodes_.push_back(n);
    doc_->serials_.push_back(kept_serials[k]);
    if (!container || kept_kids[k].second == 0) continue;
    const size_t stack_size = stack_.size();
    for (uint32_t j = 0; j < kept_kids[k].second; ++j) stack_.push_back(renumber(old_kids[kept_kids[k].first + j]));
    AddRun(static_cast<NodeId>(doc_->nodes_.size() - 1), stack_size);
  }
  for (size_t i = mark.memo; i < memo_.size(); ++i) {
    NodeId& id = memo_[i];
    if (id >= w && id < kDropped) id = state[id - w] >= 3 ? renumber(id) : kDropped;
  }
}

bool Reader::PushLong(uint64_t length) {
  if (!Need(length)) return false;
  const auto* p = reinterpret_cast<const uint8_t*>(in_.data() + pos_);
  pos_ += length;
  int64_t v = 0;
  if (!DecodeLong(p, length, &v)) return Push(Tag::kBigInt, 0, static_cast<uint32_t>(std::min<uint64_t>(length, UINT32_MAX)));
  return PushInt(v);
}

bool Reader::Step() {
  op_at_ = pos_;
  op_ = static_cast<uint8_t>(in_[pos_++]);
  size_t first = 0;
  switch (op_) {
    case 0x80:  // PROTO
      if (!Need(1)) return false;
      if (static_cast<uint8_t>(in_[pos_]) < 2 || static_cast<uint8_t>(in_[pos_]) > 5) {
        return Fail(op_at_, "pickle protocol " + std::to_string(static_cast<uint8_t>(in_[pos_])) +
                                " (memory snapshots use protocols 2 to 5)");
      }
      ++pos_;
      return true;
    case 0x95:  // FRAME: a length hint only; the opcodes inside are read as they come
      if (!Need(8)) return false;
      pos_ += 8;
      return true;
    case 0x2E:  // STOP
      if (stack_.empty()) return Fail(op_at_, "STOP with an empty stack");
      doc_->root_ = stack_.back();
      stopped_ = true;
      return true;
    case 0x28:  // MARK
      if (marks_.size() >= limits_.max_depth) return Fail(op_at_, "marks nested deeper than " + std::to_string(limits_.max_depth));
      marks_.push_back({stack_.size(), doc_->nodes_.size(), doc_->kids_.size(), doc_->runs_.size(), memo_.size(), false});
      return true;
    case 0x7D:  // EMPTY_DICT: an item of a list the sink took goes the fast way when it can
      if (flat_ && AtFlatItem() && FlatItems()) return true;
      return PushContainer(Tag::kDict);
    case 0x5D: return PushContainer(Tag::kList);
    case 0x29: return PushContainer(Tag::kTuple);
    case 0x74: return PopMark(&first) && Collect(Tag::kTuple, first);
    case 0x6C: return PopMark(&first) && Collect(Tag::kList, first);
    case 0x64: return PopMark(&first) && Collect(Tag::kDict, first);
    case 0x85: case 0x86: case 0x87: {  // TUPLE1..3
      const size_t n = op_ - 0x84u;
      if (stack_.size() < n + MarkStack()) return Fail(op_at_, "opcode " + Describe(op_) + " with too few items on the stack");
      return Collect(Tag::kTuple, stack_.size() - n);
    }
    case 0x61:  // APPEND
      if (stack_.size() < 2 + MarkStack()) return Fail(op_at_, "APPEND with too few items on the stack");
      return Appends(stack_.size() - 1, nullptr);
    case 0x65: {  // APPENDS
      Mark mark;
      return PopMark(&first, &mark) && Appends(first, &mark);
    }
    case 0x73:  // SETITEM
      if (stack_.size() < 3 + MarkStack()) return Fail(op_at_, "SETITEM with too few items on the stack");
      return AddItems(stack_.size() - 2, Tag::kDict);
    case 0x75: return PopMark(&first) && AddItems(first, Tag::kDict);  // SETITEMS
    case 0x4A:  // BININT
      if (!Need(4)) return false;
      return PushInt(static_cast<int32_t>(static_cast<uint32_t>(LittleEndian(4))));
    case 0x4B:  // BININT1
      if (!Need(1)) return false;
      return PushInt(static_cast<int64_t>(LittleEndian(1)));
    case 0x4D:  // BININT2
      if (!Need(2)) return false;
      return PushInt(static_cast<int64_t>(LittleEndian(2)));
    case 0x8A:  // LONG1
      if (!Need(1)) return false;
      return PushLong(LittleEndian(1));
    case 0x8B: {  // LONG4
      if (!Need(4)) return false;
      const int64_t n = static_cast<int32_t>(static_cast<uint32_t>(LittleEndian(4)));
      if (n < 0) return Fail(op_at_, "LONG4 with a negative length");
      return PushLong(static_cast<uint64_t>(n));
    }
    case 0x47:  // BINFLOAT, big-endian
      if (!Need(8)) return false;
      return Push(Tag::kFloat, BigEndian8());
    case 0x4E: stack_.push_back(kNoneNode); return true;
    case 0x88: stack_.push_back(kTrueNode); return true;
    case 0x89: stack_.push_back(kFalseNode); return true;
    case 0x8C: case 0x43:  // SHORT_BINUNICODE, SHORT_BINBYTES
      if (!Need(1)) return false;
      return PushText(op_ == 0x8C ? Tag::kString : Tag::kBytes, LittleEndian(1));
    case 0x58: case 0x42:  // BINUNICODE, BINBYTES
      if (!Need(4)) return false;
      return PushText(op_ == 0x58 ? Tag::kString : Tag::kBytes, LittleEndian(4));
    case 0x8D: case 0x8E:  // BINUNICODE8, BINBYTES8
      if (!Need(8)) return false;
      return PushText(op_ == 0x8D ? Tag::kString : Tag::kBytes, LittleEndian(8));
    case 0x94: return Memo(memo_.size());  // MEMOIZE
    case 0x71: if (!Need(1)) return false; return Memo(LittleEndian(1));   // BINPUT
    case 0x72: if (!Need(4)) return false; return Memo(LittleEndian(4));   // LONG_BINPUT
    case 0x68: if (!Need(1)) return false; return Recall(LittleEndian(1)); // BINGET
    case 0x6A: if (!Need(4)) return false; return Recall(LittleEndian(4)); // LONG_BINGET
    default: break;
  }
  if (OpcodeName(op_).empty()) {
    return Fail(op_at_, Describe(op_).substr(0, 4) + " is not a pickle opcode; the file is not a memory snapshot, or it is damaged");
  }
  return Fail(op_at_, "pickle opcode " + Describe(op_) + " is not allowed in a memory snapshot");
}

bool Reader::Run() {
  doc_->nodes_.reserve(kFirstSmallInt + kSmallInts);
  NodeId unused = 0;
  NewNode(Tag::kNone, 0, 0, &unused);
  NewNode(Tag::kBool, 0, 0, &unused);
  NewNode(Tag::kBool, 1, 0, &unused);
  for (int i = 0; i < kSmallInts; ++i) NewNode(Tag::kInt, static_cast<uint64_t>(i), 0, &unused);
  uint64_t next_report = kConsumedChunk;
  while (!stopped_) {
    if (pos_ >= in_.size()) {
      return Fail(in_.size(), "the pickle ends at byte " + std::to_string(in_.size()) +
                                  " before its STOP opcode; the file is truncated");
    }
    if (!Step()) return false;
    if (stack_.size() > (uint64_t{1} << 28)) return Fail(op_at_, "the pickle stack grew beyond the reader's limit");
    if (pos_ >= next_report && consumed_) {
      consumed_(pos_);
      next_report = pos_ + kConsumedChunk;
    }
  }
  return true;
}


Value Document::root() const { return Value(this, root_); }

size_t Document::MemoryBytes() const {
  return nodes_.capacity() * sizeof(Node) + serials_.capacity() * sizeof(uint32_t) + runs_.capacity() * sizeof(Run) + kids_.capacity() * sizeof(NodeId) +
         text_.capacity();
}

double Value::as_double() const {
  const Node& n = doc_->node(id_);
  if (n.tag == Tag::kFloat) return std::bit_cast<double>(n.payload);
  return static_cast<double>(static_cast<int64_t>(n.payload));
}

Value Value::Get(std::string_view key) const {
  if (tag() != Tag::kDict) return Value();
  Value found;
  bool is_key = true, matched = false;
  ForEachKid([&](Value v) {
    if (is_key) matched = !found.valid() && v.tag() == Tag::kString && v.as_string() == key;
    else if (matched) found = v;
    is_key = !is_key;
  });
  return found;
}

bool Read(std::string_view bytes, const ReadLimits& limits, Document* doc, PickleError* error,
          const ConsumedCallback& consumed, const ItemSink& sink, const FlatSink& flat) {
  Reader reader(bytes, limits, doc, error, consumed, sink, flat);
  return reader.Run();
}

std::string_view OpcodeName(uint8_t op) {
  for (const OpcodeInfo& o : kOpcodes) {
    if (o.op == op) return o.name;
  }
  return {};
}

}  // namespace stepline::loaders::pickle
