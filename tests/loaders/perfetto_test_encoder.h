// A tiny protobuf encoder for Perfetto test inputs: messages are built field
// by field (numbers from shared/docs/trace-formats.md section 3), packets are
// framed as Trace field 1. Test-only; the loader never sees this code.
#pragma once

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <string_view>

namespace stepline::testing::pftest {

class Msg {
 public:
  Msg& Varint(uint32_t field, uint64_t v) {
    Tag(field, 0);
    PutVarint(v);
    return *this;
  }
  Msg& Fixed64(uint32_t field, uint64_t v) {
    Tag(field, 1);
    char b[8];
    std::memcpy(b, &v, 8);
    out_.append(b, 8);
    return *this;
  }
  Msg& Double(uint32_t field, double d) {
    uint64_t bits;
    std::memcpy(&bits, &d, 8);
    return Fixed64(field, bits);
  }
  Msg& Bytes(uint32_t field, std::string_view s) {
    Tag(field, 2);
    PutVarint(s.size());
    out_.append(s);
    return *this;
  }
  Msg& Sub(uint32_t field, const Msg& m) { return Bytes(field, m.str()); }
  const std::string& str() const { return out_; }

 private:
  void Tag(uint32_t field, uint32_t wire) { PutVarint((uint64_t{field} << 3) | wire); }
  void PutVarint(uint64_t v) {
    while (v >= 0x80) {
      out_.push_back(static_cast<char>((v & 0x7F) | 0x80));
      v >>= 7;
    }
    out_.push_back(static_cast<char>(v));
  }
  std::string out_;
};

// A Trace: each packet framed as field 1.
inline std::string TraceOf(std::initializer_list<Msg> packets) {
  Msg trace;
  for (const Msg& p : packets) trace.Sub(1, p);
  return trace.str();
}

// --- TracePacket fields ----------------------------------------------------
inline Msg Packet(uint32_t sequence, uint64_t ts) { return Msg().Varint(8, ts).Varint(10, sequence); }
inline Msg WithEvent(Msg packet, const Msg& event) { return packet.Sub(11, event); }

// --- TrackDescriptors (packet field 60) ------------------------------------
inline Msg ProcessTrack(uint64_t uuid, int64_t pid, std::string_view name) {
  return Msg().Sub(60, Msg().Varint(1, uuid).Sub(3, Msg().Varint(1, static_cast<uint64_t>(pid)).Bytes(6, name)));
}
inline Msg ThreadTrack(uint64_t uuid, uint64_t parent, int64_t pid, int64_t tid, std::string_view name) {
  return Msg().Sub(60, Msg().Varint(1, uuid).Varint(5, parent).Sub(
                           4, Msg().Varint(1, static_cast<uint64_t>(pid)).Varint(2, static_cast<uint64_t>(tid)).Bytes(5, name)));
}
inline Msg NamedTrack(uint64_t uuid, uint64_t parent, std::string_view name) {
  Msg d;
  d.Varint(1, uuid);
  if (parent != 0) d.Varint(5, parent);
  if (!name.empty()) d.Bytes(2, name);
  return Msg().Sub(60, d);
}
// `builtin_type` 1 = thread time in ns, 2 = instruction count, 0 = neither.
inline Msg CounterTrack(uint64_t uuid, uint64_t parent, std::string_view name, uint64_t multiplier = 1,
                        bool incremental = false, uint64_t builtin_type = 0) {
  Msg counter;
  if (builtin_type != 0) counter.Varint(1, builtin_type);
  if (multiplier != 1) counter.Varint(4, multiplier);
  if (incremental) counter.Varint(5, 1);
  Msg d;
  d.Varint(1, uuid).Varint(5, parent).Sub(8, counter);
  if (!name.empty()) d.Bytes(2, name);
  return Msg().Sub(60, d);
}

// --- TrackEvents (packet field 11) -----------------------------------------
inline Msg Begin(uint64_t track, std::string_view name) { return Msg().Varint(9, 1).Varint(11, track).Bytes(23, name); }
inline Msg End(uint64_t track) { return Msg().Varint(9, 2).Varint(11, track); }
inline Msg Instant(uint64_t track, std::string_view name) { return Msg().Varint(9, 3).Varint(11, track).Bytes(23, name); }
inline Msg Counter(uint64_t track, int64_t value) {
  return Msg().Varint(9, 4).Varint(11, track).Varint(30, static_cast<uint64_t>(value));
}

// --- DebugAnnotations (TrackEvent field 4) ---------------------------------
inline Msg IntArg(std::string_view name, int64_t v) { return Msg().Bytes(10, name).Varint(4, static_cast<uint64_t>(v)); }
inline Msg StringArg(std::string_view name, std::string_view v) { return Msg().Bytes(10, name).Bytes(6, v); }

}  // namespace stepline::testing::pftest
