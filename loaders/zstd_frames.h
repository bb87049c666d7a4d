// ZstdFrames: a zstd file made of several independent frames whose decoded
// sizes are all declared (pzstd, `zstd` of pieces concatenated) decodes on
// several threads at once, each frame straight into its place in the output
// (DecodeStream, decode_stream.h). Anything else decodes as one stream.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

namespace stepline::loaders {

// A little-endian uint32 at `p` (zstd frame headers and magic numbers).
inline uint32_t ReadLe32(const char* p) {
  const auto* u = reinterpret_cast<const unsigned char*>(p);
  return uint32_t{u[0]} | uint32_t{u[1]} << 8 | uint32_t{u[2]} << 16 | uint32_t{u[3]} << 24;
}

struct ZstdFrame {
  uint64_t in_begin = 0;   // compressed offset of the frame (after any skippable frames)
  uint64_t in_size = 0;    // compressed size
  uint64_t out_begin = 0;  // decoded offset
  uint64_t out_size = 0;   // declared decoded size
};

// The frames of `in` when there are at least two, every frame's compressed
// extent parses and declares its decoded size, the total fits `limit`, and
// nothing but skippable frames or zero fill lies between and after them.
// Empty otherwise (the sequential decoder then says what is wrong, where).
std::vector<ZstdFrame> MapZstdFrames(std::string_view in, uint64_t limit);

// Decodes `frames` on `threads` threads (the caller's included) into `out`,
// claiming frames in order. `publish(n, c)` is told, under a lock and in
// order, each time the decoded prefix [0, n) grows, with the compressed
// bytes [0, c) it came from (it may block: that paces the decoders); `stopped()` is polled between frames. Returns the
// index of the first frame that failed to decode to its declared size (its
// bytes and all after it are not valid), frames.size() when all decoded, or
// the first index not decoded when stopped.
// `pace(o)` is called before a frame decoded at `o` is claimed while an
// earlier one is still being decoded; it may block (so frames do not run
// far ahead of the reader). `prepare(b, e)` is called, unlocked, after a
// frame decoded to [b, e) is claimed and before it is decoded.
size_t DecodeZstdFrames(std::string_view in, const std::vector<ZstdFrame>& frames, char* out, int threads,
                        const std::function<void(uint64_t, uint64_t)>& publish, const std::function<bool()>& stopped,
                        const std::function<void(uint64_t)>& pace = {},
                        const std::function<void(uint64_t, uint64_t)>& prepare = {});

}  // namespace stepline::loaders
