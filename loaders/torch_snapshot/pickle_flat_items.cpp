// The reader's fast path for the items of a list the ItemSink took (see
// FlatSink in pickle_reader.h). A memory snapshot's device trace holds
// millions of entry dicts of one shape; reading each through the opcode
// loop made a node per value, a run per container and a reclaim per batch,
// most of a load's time. Here an entry is read straight from the bytes into
// a list of fields. A batch with anything that does not fit (a frame dict
// met the first time, a dict within a dict, a LONG4, ...) is left whole,
// untouched, to the loop: the fast path changes how fast a file reads,
// never what it reads to.
#include <algorithm>
#include <cstring>
#include <span>

#include "loaders/torch_snapshot/pickle_machine.h"

namespace stepline::loaders::pickle {
namespace {

constexpr size_t kMaxFlatFields = 64;  // an entry has about 7; more is not an entry

}  // namespace

bool Reader::IsFlatList(NodeId list) const {
  for (const FlatList& l : flat_lists_) {
    if (l.id == list && l.serial == doc_->serials_[list]) return true;
  }
  return false;
}

void Reader::NoteFlatList(NodeId list) {
  if (!IsFlatList(list)) flat_lists_.push_back({list, doc_->serials_[list]});
}

// Only at a batch's first item: once the loop has read into a batch, the
// batch is the loop's.
bool Reader::AtFlatItem() {
  if (marks_.empty()) return false;
  const size_t m = marks_.back().stack;
  if (m == 0 || m != stack_.size()) return false;
  const NodeId list = stack_[m - 1];
  return doc_->nodes_[list].tag == Tag::kList && IsFlatList(list);
}

bool Reader::FlatItems() {
  const NodeId list = stack_[marks_.back().stack - 1];
  const size_t nodes = doc_->nodes_.size(), text = doc_->text_.size(), memo = memo_.size();
  const uint32_t serial = next_serial_;
  pos_ = op_at_;
  const bool taken = ReadFlatBatch(list);
  flat_.end(taken);
  if (taken) {
    // As APPENDS would: the batch's mark is done, its items taken.
    marks_.pop_back();
    return true;
  }
  // Undo what the batch made (strings and memo entries, all at the ends).
  doc_->nodes_.resize(nodes);
  doc_->serials_.resize(nodes);
  doc_->text_.resize(text);
  memo_.resize(memo);
  next_serial_ = serial;
  pos_ = op_at_ + 1;
  return false;
}

// Items up to the batch's APPENDS, each given to the FlatSink as it is read.
bool Reader::ReadFlatBatch(NodeId list) {
  for (;;) {
    if (!ReadFlatItem() || !flat_.item(*doc_, list, FlatItem{flat_fields_, flat_items_})) return false;
    const int next = NextOp();
    if (next == 0x65) return true;  // APPENDS
    if (next != 0x7D) return false;
    --pos_;  // the next item's EMPTY_DICT, read again by ReadFlatItem
  }
}

int Reader::NextOp() {
  while (pos_ < in_.size() && static_cast<uint8_t>(in_[pos_]) == 0x95) {  // FRAME: a length hint only
    if (in_.size() - pos_ < 9) return -1;
    pos_ += 9;
  }
  if (pos_ >= in_.size()) return -1;
  return static_cast<uint8_t>(in_[pos_++]);
}

bool Reader::MemoRef(int op, NodeId* id) {
  uint64_t index = 0;
  if (op == 0x68) {  // BINGET
    if (in_.size() - pos_ < 1) return false;
    index = LittleEndian(1);
  } else if (op == 0x6A) {  // LONG_BINGET
    if (in_.size() - pos_ < 4) return false;
    index = LittleEndian(4);
  } else {
    return false;
  }
  if (index >= memo_.size() || memo_[index] >= kDropped) return false;
  *id = memo_[index];
  return true;
}

// Python memoizes every dict, list and string right after its opcode:
// MEMOIZE, or BINPUT/LONG_BINPUT with the next index. Another index is left
// to the loop (it may overwrite an entry).
bool Reader::FlatMemo(NodeId value) {
  const size_t here = pos_;
  const int op = NextOp();
  uint64_t index = memo_.size();
  if (op == 0x71 || op == 0x72) {  // BINPUT, LONG_BINPUT
    const size_t n = op == 0x71 ? 1 : 4;
    if (in_.size() - pos_ < n) return false;
    index = LittleEndian(n);
  } else if (op != 0x94) {  // not MEMOIZE: the value is not memoized
    pos_ = here;
    return true;
  }
  if (index != memo_.size() || memo_.size() >= UINT32_MAX - 2) return false;
  memo_.push_back(value);
  return true;
}

bool Reader::FlatString(int op, NodeId* id) {
  const size_t n = op == 0x8C ? 1 : 4;  // SHORT_BINUNICODE, BINUNICODE
  if (in_.size() - pos_ < n) return false;
  const uint64_t length = LittleEndian(n);
  // (Past the limits the batch is given up, and FlatItems undoes the text.)
  return in_.size() - pos_ >= length && AddNode(Tag::kString, CopyText(length), static_cast<uint32_t>(length), id) &&
         FlatMemo(*id);
}

bool Reader::FlatValue(NodeId key) {
  FlatField f;
  f.key = key;
  const int op = NextOp();
  NodeId id = 0;
  switch (op) {
    case 0x68: case 0x6A:  // BINGET, LONG_BINGET
      if (!MemoRef(op, &id)) return false;
      f.value = id;
      break;
    case 0x4B: case 0x4D: case 0x4A: {  // BININT1, BININT2, BININT
      const size_t n = op == 0x4B ? 1 : op == 0x4D ? 2 : 4;
      if (in_.size() - pos_ < n) return false;
      const uint64_t v = LittleEndian(n);
      f.kind = FlatField::Kind::kInt;
      f.value = op == 0x4A ? static_cast<uint64_t>(int64_t{static_cast<int32_t>(static_cast<uint32_t>(v))}) : v;
      break;
    }
    case 0x8A: {  // LONG1 of at most 8 bytes
      if (in_.size() - pos_ < 1) return false;
      const size_t n = static_cast<uint8_t>(in_[pos_++]);
      int64_t v = 0;
      if (n > 8 || in_.size() - pos_ < n || !DecodeLong(reinterpret_cast<const uint8_t*>(in_.data() + pos_), n, &v)) {
        return false;
      }
      pos_ += n;
      f.kind = FlatField::Kind::kInt;
      f.value = static_cast<uint64_t>(v);
      break;
    }
    case 0x47:  // BINFLOAT, big-endian
      if (in_.size() - pos_ < 8) return false;
      f.kind = FlatField::Kind::kFloat;
      f.value = BigEndian8();
      break;
    case 0x4E: f.value = kNoneNode; break;
    case 0x88: f.value = kTrueNode; break;
    case 0x89: f.value = kFalseNode; break;
    case 0x8C: case 0x58:
      if (!FlatString(op, &id)) return false;
      f.value = id;
      break;
    case 0x5D:  // EMPTY_LIST: items are memo references (an entry's frame dicts)
      if (!ReadFlatList(&f)) return false;
      break;
    default: return false;
  }
  flat_fields_.push_back(f);
  return true;
}

bool Reader::ScanListBytes(size_t from, size_t* end, uint64_t* hash) const {
  const auto byte = [&](size_t at) { return at < in_.size() ? static_cast<uint8_t>(in_[at]) : 0; };
  const auto ref_size = [&](size_t at) -> size_t { return byte(at) == 0x68 ? 2 : byte(at) == 0x6A ? 5 : 0; };
  size_t at = from;
  for (;;) {
    if (byte(at) == 0x28) {  // MARK refs APPENDS
      size_t n = 0;
      for (at += 1; (n = ref_size(at)) != 0; at += n) {
      }
      if (byte(at) != 0x65) return false;
      at += 1;
      continue;
    }
    const size_t n = ref_size(at);
    if (n != 0 && byte(at + n) == 0x61) {  // ref APPEND
      at += n + 1;
      continue;
    }
    break;
  }
  if (at == from || at > in_.size()) return false;
  // Eight bytes a step: lists are tens of bytes, met millions of times.
  uint64_t h = 0x9E3779B97F4A7C15ull ^ (at - from);
  size_t i = from;
  for (; i + 8 <= at; i += 8) {
    uint64_t word = 0;
    std::memcpy(&word, in_.data() + i, 8);
    h = (h ^ word) * 0xFF51AFD7ED558CCDull;
    h ^= h >> 29;
  }
  for (; i < at; ++i) h = (h ^ static_cast<uint8_t>(in_[i])) * 0x100000001B3ull;
  *end = at;
  *hash = h;
  return true;
}

bool Reader::ReadFlatList(FlatField* f) {
  f->kind = FlatField::Kind::kList;
  f->value = flat_items_.size();
  if (!FlatMemo(kDropped)) return false;
  size_t end = 0;
  uint64_t hash = 0;
  const size_t from = pos_;
  const bool plain = ScanListBytes(from, &end, &hash);
  const std::string_view bytes = plain ? in_.substr(from, end - from) : std::string_view();
  if (plain) {
    if (const KnownList* hit = FindKnownList(hash, bytes); hit != nullptr) {
      const KnownList& known = *hit;
      flat_items_.insert(flat_items_.end(), known_items_.begin() + known.first,
                         known_items_.begin() + known.first + known.count);
      f->count = known.count;
      f->content = known.content;
      pos_ = end;
      return true;
    }
  }
  NodeId id = 0;
  for (;;) {
    const size_t here = pos_;
    const int next = NextOp();
    if (next == 0x28) {  // MARK ... APPENDS (a batch; more may follow)
      for (int item = NextOp(); item != 0x65; item = NextOp()) {
        if (!MemoRef(item, &id)) return false;
        flat_items_.push_back(id);
      }
      continue;
    }
    if (next == 0x68 || next == 0x6A) {  // one item and APPEND, or the dict's next key
      if (!MemoRef(next, &id)) return false;
      if (NextOp() == 0x61) {
        flat_items_.push_back(id);
        continue;
      }
    }
    pos_ = here;
    break;
  }
  f->count = static_cast<uint32_t>(flat_items_.size() - f->value);
  // Kept for next time when every item is older than this batch (nothing
  // reclaimed later can renumber it) and the list read is the list scanned.
  constexpr size_t kMaxKnownLists = size_t{1} << 20;
  const auto items = std::span<const NodeId>(flat_items_).subspan(f->value);
  if (plain && pos_ == end && known_lists_.size() < kMaxKnownLists && !marks_.empty() &&
      std::all_of(items.begin(), items.end(), [&](NodeId n) { return n < marks_.back().nodes; })) {
    f->content = next_content_++;
    AddKnownList(hash, bytes, items, f->content);
  }
  return true;
}

const Reader::KnownList* Reader::FindKnownList(uint64_t hash, std::string_view bytes) const {
  if (known_slots_.empty()) return nullptr;
  const size_t mask = known_slots_.size() - 1;
  for (size_t slot = hash & mask; known_slots_[slot] != 0; slot = (slot + 1) & mask) {
    const KnownList& k = known_lists_[known_slots_[slot] - 1];
    if (k.hash == hash && std::string_view(known_bytes_).substr(k.bytes_at, k.bytes_size) == bytes) return &k;
  }
  return nullptr;
}

void Reader::AddKnownList(uint64_t hash, std::string_view bytes, std::span<const NodeId> items, uint32_t content) {
  if (2 * (known_lists_.size() + 1) > known_slots_.size()) {  // at most half full
    std::vector<uint32_t> slots(std::max<size_t>(1024, 2 * known_slots_.size()), 0);
    const size_t mask = slots.size() - 1;
    for (size_t i = 0; i < known_lists_.size(); ++i) {
      size_t slot = known_lists_[i].hash & mask;
      while (slots[slot] != 0) slot = (slot + 1) & mask;
      slots[slot] = static_cast<uint32_t>(i + 1);
    }
    known_slots_ = std::move(slots);
  }
  const size_t mask = known_slots_.size() - 1;
  size_t slot = hash & mask;
  while (known_slots_[slot] != 0) slot = (slot + 1) & mask;
  known_lists_.push_back({hash, known_bytes_.size(), static_cast<uint32_t>(bytes.size()),
                          static_cast<uint32_t>(known_items_.size()), static_cast<uint32_t>(items.size()), content});
  known_slots_[slot] = static_cast<uint32_t>(known_lists_.size());
  known_bytes_.append(bytes);
  known_items_.insert(known_items_.end(), items.begin(), items.end());
}

bool Reader::ReadFlatPair(int key_op) {
  NodeId key = 0;
  return flat_fields_.size() < kMaxFlatFields && MemoRef(key_op, &key) && doc_->nodes_[key].tag == Tag::kString &&
         FlatValue(key);
}

bool Reader::ReadFlatItem() {
  flat_fields_.clear();
  flat_items_.clear();
  if (NextOp() != 0x7D || !FlatMemo(kDropped)) return false;
  // Pairs come in batches: MARK key value ... SETITEMS, and a last single
  // pair as key value SETITEM (Python's pickler batches 1,000).
  for (;;) {
    const size_t here = pos_;
    int op = NextOp();
    if (op == 0x28) {
      while ((op = NextOp()) != 0x75) {
        if (!ReadFlatPair(op)) return false;
      }
      continue;
    }
    if (op == 0x68 || op == 0x6A) {
      if (!ReadFlatPair(op) || NextOp() != 0x73) return false;
      continue;
    }
    pos_ = here;
    return !flat_fields_.empty();
  }
}

}  // namespace stepline::loaders::pickle
