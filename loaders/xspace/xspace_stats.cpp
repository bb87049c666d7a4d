// XStat decoding and stat-name roles (trace-formats.md 1.2 XStat, 1.8).
#include "loaders/xspace/xspace_stats.h"

#include <libdeflate.h>

#include <cstring>
#include <memory>

#include "model/string_pool.h"

namespace stepline::loaders::xspace {

bool DecodeStat(const char* data, uint64_t size, uint64_t offset, RawStat* out, WireError* error) {
  *out = RawStat{};
  out->offset = offset;
  WireReader reader(data, data + size, offset);
  WireField f;
  while (!reader.done()) {
    if (!reader.Next(&f)) {
      *error = reader.error();
      return false;
    }
    const bool is_len = f.type == WireType::kLen;
    switch (f.number) {
      case 1:
        if (f.type == WireType::kVarint) out->metadata_id = static_cast<int64_t>(f.value);
        break;
      case 2:
        if (f.type == WireType::kFixed64) out->kind = StatValueKind::kDouble, out->bits = f.value;
        break;
      case 3:
        if (f.type == WireType::kVarint) out->kind = StatValueKind::kUint, out->bits = f.value;
        break;
      case 4:
        if (f.type == WireType::kVarint) out->kind = StatValueKind::kInt, out->bits = f.value;
        break;
      case 5:
        if (is_len) out->kind = StatValueKind::kString, out->text = PayloadView(f);
        out->text_is_utf8 = is_len && out->text.size() <= kMaxInternedStatBytes && IsValidUtf8(out->text);
        out->text_hash = out->text_is_utf8 ? StringPool::Hash(out->text) : 0;
        break;
      case 6:
        if (is_len) out->kind = StatValueKind::kBytes, out->text = PayloadView(f);
        break;
      case 7:
        if (f.type == WireType::kVarint) out->kind = StatValueKind::kRef, out->bits = f.value;
        break;
      case 8:
        if (is_len) out->kind = StatValueKind::kCompressedString, out->text = PayloadView(f);
        break;
      default:
        break;  // unknown fields are skipped (newer producers)
    }
  }
  return true;
}

StatRole ClassifyStatName(std::string_view name) {
  if (name == "correlation_id") return StatRole::kCorrelationId;
  if (name == "step_name") return StatRole::kStepName;
  if (name == "step_num") return StatRole::kStepNum;
  if (name == "iter_num") return StatRole::kIterNum;
  if (name == "graph_type") return StatRole::kGraphType;
  if (name == "memcpy_details") return StatRole::kMemcpyDetails;
  if (name == "hlo_category") return StatRole::kHloCategory;
  if (name == "Memset_details" || name == "memset_details") return StatRole::kMemsetDetails;
  if (name == "memalloc_details" || name == "MemFree_details" || name == "MemoryResidency_details") {
    return StatRole::kMemoryDetails;
  }
  return StatRole::kOther;
}

namespace {

// Length of the valid UTF-8 sequence at s[i], or 0 (RFC 3629: no overlongs,
// no surrogates, nothing above U+10FFFF).
size_t Utf8SequenceLength(std::string_view s, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(i);
  size_t n;
  unsigned char lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) n = 2;
  else if (c == 0xE0) n = 3, lo = 0xA0;
  else if (c == 0xED) n = 3, hi = 0x9F;
  else if (c >= 0xE1 && c <= 0xEF) n = 3;
  else if (c == 0xF0) n = 4, lo = 0x90;
  else if (c >= 0xF1 && c <= 0xF3) n = 4;
  else if (c == 0xF4) n = 4, hi = 0x8F;
  else return 0;
  if (i + n > s.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (size_t k = 2; k < n; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  }
  return n;
}

// Index of the first byte >= 0x80 at or after `i`, or text.size(): eight
// bytes per step, since nearly every name and stat in a profile is ASCII.
size_t SkipAscii(std::string_view text, size_t i) {
  const char* p = text.data();
  const size_t n = text.size();
  while (i + 8 <= n) {
    uint64_t word;
    std::memcpy(&word, p + i, 8);
    if (word & 0x8080808080808080ull) break;
    i += 8;
  }
  while (i < n && static_cast<unsigned char>(p[i]) < 0x80) ++i;
  return i;
}

}  // namespace

bool IsValidUtf8(std::string_view text) {
  size_t i = 0;
  for (;;) {
    i = SkipAscii(text, i);
    if (i == text.size()) return true;
    const size_t n = Utf8SequenceLength(text, i);
    if (n == 0) return false;
    i += n;
  }
}

std::string_view ValidUtf8(std::string_view text, std::string* scratch) {
  size_t i = 0;
  for (;;) {
    i = SkipAscii(text, i);
    if (i == text.size()) return text;
    const size_t n = Utf8SequenceLength(text, i);
    if (n == 0) break;
    i += n;
  }
  scratch->assign(text.substr(0, i));
  while (i < text.size()) {
    const size_t n = static_cast<unsigned char>(text[i]) < 0x80 ? 1 : Utf8SequenceLength(text, i);
    if (n == 0) {
      scratch->append("\xEF\xBF\xBD");
      ++i;
    } else {
      scratch->append(text.substr(i, n));
      i += n;
    }
  }
  return *scratch;
}

std::string BytesPlaceholder(uint64_t size) { return "<" + std::to_string(size) + " bytes>"; }

bool InflateGzipString(std::string_view gzip, size_t max_bytes, std::string* out) {
  // The gzip trailer's ISIZE (last 4 bytes, little-endian) is the inflated
  // size mod 2^32; good enough to size the buffer for strings this small.
  if (gzip.size() < 18) return false;
  const auto* tail = reinterpret_cast<const unsigned char*>(gzip.data() + gzip.size() - 4);
  const size_t isize = tail[0] | (tail[1] << 8) | (tail[2] << 16) | (static_cast<size_t>(tail[3]) << 24);
  if (isize > max_bytes) return false;
  std::unique_ptr<libdeflate_decompressor, void (*)(libdeflate_decompressor*)> d(libdeflate_alloc_decompressor(),
                                                                               libdeflate_free_decompressor);
  if (!d) return false;
  std::string text(isize, '\0');
  size_t actual = 0;
  if (libdeflate_gzip_decompress(d.get(), gzip.data(), gzip.size(), text.data(), text.size(), &actual) !=
      LIBDEFLATE_SUCCESS) {
    return false;
  }
  text.resize(actual);
  *out = std::move(text);
  return true;
}

}  // namespace stepline::loaders::xspace
