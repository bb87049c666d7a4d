// Inflating compressed packet blobs (see compressed_packets.h).
#include "loaders/perfetto/compressed_packets.h"

#include <zlib.h>
#include <zstd.h>

#include <climits>

namespace stepline::loaders::perfetto {
namespace {

constexpr size_t kChunk = 64 * 1024;

bool InflateDeflate(std::string_view in, std::string* out, std::string* error) {
  z_stream z{};
  if (inflateInit2(&z, 15 + 32) != Z_OK) {  // 15-bit window, zlib or gzip header
    *error = "zlib could not start";
    return false;
  }
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  bool ok = true;
  size_t left = in.size();
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    if (z.avail_in == 0) {
      const size_t n = left < UINT_MAX ? left : UINT_MAX;
      z.avail_in = static_cast<uInt>(n);
      left -= n;
    }
    const size_t before = out->size();
    out->resize(before + kChunk);
    z.next_out = reinterpret_cast<Bytef*>(out->data() + before);
    z.avail_out = kChunk;
    rc = inflate(&z, Z_NO_FLUSH);
    out->resize(before + (kChunk - z.avail_out));
    if (rc == Z_STREAM_END) break;
    if (rc != Z_OK && rc != Z_BUF_ERROR) {
      *error = std::string("deflate data is corrupt") + (z.msg ? std::string(": ") + z.msg : "");
      ok = false;
      break;
    }
    if (rc == Z_BUF_ERROR && z.avail_in == 0 && left == 0) {
      *error = "deflate data ends before its end marker";
      ok = false;
      break;
    }
    if (out->size() > kMaxInflatedPacketsBytes) {
      *error = "inflates past 2 GiB";
      ok = false;
      break;
    }
  }
  inflateEnd(&z);
  return ok;
}

bool InflateZstd(std::string_view in, std::string* out, std::string* error) {
  ZSTD_DStream* z = ZSTD_createDStream();
  if (z == nullptr) {
    *error = "zstd could not start";
    return false;
  }
  ZSTD_inBuffer input{in.data(), in.size(), 0};
  size_t last = 0;
  bool ok = true;
  for (;;) {
    const size_t before = out->size();
    out->resize(before + kChunk);
    ZSTD_outBuffer output{out->data() + before, kChunk, 0};
    last = ZSTD_decompressStream(z, &output, &input);
    out->resize(before + output.pos);
    if (ZSTD_isError(last)) {
      *error = std::string("zstd data is corrupt: ") + ZSTD_getErrorName(last);
      ok = false;
      break;
    }
    if (out->size() > kMaxInflatedPacketsBytes) {
      *error = "inflates past 2 GiB";
      ok = false;
      break;
    }
    if (input.pos == input.size && output.pos < output.size) break;  // all input read, all output flushed
  }
  if (ok && last != 0) {
    *error = "zstd data ends inside a frame";
    ok = false;
  }
  ZSTD_freeDStream(z);
  return ok;
}

}  // namespace

bool InflatePackets(std::string_view compressed, PacketCompression kind, std::string* out, std::string* error) {
  return kind == PacketCompression::kDeflate ? InflateDeflate(compressed, out, error)
                                             : InflateZstd(compressed, out, error);
}

}  // namespace stepline::loaders::perfetto
