// Zstd(): one zstd frame of the given bytes, with a checksum (so any
// corruption is detected), for loader tests that need compressed inputs
// without committed binaries. With `content_size` false the frame header
// omits the decoded size, as a streaming compressor (`zstd -` from a pipe)
// writes it.
#pragma once

#include <gtest/gtest.h>
#include <zstd.h>

#include <string>
#include <string_view>

namespace stepline::loaders {

inline std::string Zstd(std::string_view in, bool content_size = true) {
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, content_size ? 1 : 0);
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
  std::string out(ZSTD_compressBound(in.size()), '\0');
  const size_t n = ZSTD_compress2(cctx, out.data(), out.size(), in.data(), in.size());
  EXPECT_FALSE(ZSTD_isError(n)) << ZSTD_getErrorName(n);
  ZSTD_freeCCtx(cctx);
  out.resize(n);
  return out;
}

}  // namespace stepline::loaders
