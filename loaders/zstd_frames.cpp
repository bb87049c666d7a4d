// ZstdFrames (see zstd_frames.h): mapping a multi-frame zstd file and
// decoding its frames in parallel, each in one call straight into place.
#include "loaders/zstd_frames.h"
#include "model/worker_thread.h"

#define ZSTD_STATIC_LINKING_ONLY  // ZSTD_findFrameCompressedSize's siblings live here in older headers
#include <zstd.h>

#include <algorithm>
#include <mutex>
#include <thread>

namespace stepline::loaders {
namespace {

constexpr uint32_t kFrameMagic = 0xFD2FB528;
constexpr uint32_t kSkippableMagic = 0x184D2A50;
constexpr uint32_t kSkippableMask = 0xFFFFFFF0;

}  // namespace

std::vector<ZstdFrame> MapZstdFrames(std::string_view in, uint64_t limit) {
  std::vector<ZstdFrame> frames;
  uint64_t pos = 0;
  uint64_t out = 0;
  while (pos < in.size()) {
    const uint64_t rest = in.size() - pos;
    const uint32_t magic = rest >= 4 ? ReadLe32(in.data() + pos) : 0;
    if (rest >= 8 && (magic & kSkippableMask) == kSkippableMagic) {
      const uint64_t payload = ReadLe32(in.data() + pos + 4);
      if (payload > rest - 8) return {};
      pos += 8 + payload;
      continue;
    }
    if (magic != kFrameMagic) {
      // Zero fill after the last frame is ignored by the sequential decoder too.
      if (std::all_of(in.begin() + static_cast<ptrdiff_t>(pos), in.end(), [](char c) { return c == 0; })) break;
      return {};
    }
    const size_t csize = ZSTD_findFrameCompressedSize(in.data() + pos, static_cast<size_t>(rest));
    const unsigned long long dsize = ZSTD_getFrameContentSize(in.data() + pos, static_cast<size_t>(rest));
    if (ZSTD_isError(csize) || dsize == ZSTD_CONTENTSIZE_UNKNOWN || dsize == ZSTD_CONTENTSIZE_ERROR) return {};
    if (dsize > limit - out) return {};
    frames.push_back({pos, csize, out, dsize});
    pos += csize;
    out += dsize;
  }
  if (frames.size() < 2) return {};
  return frames;
}

size_t DecodeZstdFrames(std::string_view in, const std::vector<ZstdFrame>& frames, char* out, int threads,
                        const std::function<void(uint64_t, uint64_t)>& publish, const std::function<bool()>& stopped,
                        const std::function<void(uint64_t)>& pace,
                        const std::function<void(uint64_t, uint64_t)>& prepare) {
  std::mutex mu;
  size_t next = 0;                 // next frame to claim
  size_t failed = frames.size();   // first failed frame
  size_t prefix = 0;               // frames [0, prefix) are decoded
  std::vector<char> done(frames.size(), 0);
  auto work = [&] {
    ZSTD_DCtx* dctx = ZSTD_createDCtx();
    if (dctx != nullptr) ZSTD_DCtx_setParameter(dctx, ZSTD_d_windowLogMax, 31);
    for (;;) {
      size_t i;
      {
        std::unique_lock lock(mu);
        if (pace && next > prefix && next < frames.size()) {
          const uint64_t at = frames[next].out_begin;
          lock.unlock();
          pace(at);  // blocks while the reader is far behind
          lock.lock();
        }
        if (next >= frames.size() || next >= failed || stopped()) break;
        i = next++;
      }
      const ZstdFrame& f = frames[i];
      if (prepare) prepare(f.out_begin, f.out_begin + f.out_size);
      const size_t n = dctx == nullptr ? 0
                                       : ZSTD_decompressDCtx(dctx, out + f.out_begin, static_cast<size_t>(f.out_size),
                                                             in.data() + f.in_begin, static_cast<size_t>(f.in_size));
      std::lock_guard lock(mu);
      if (dctx == nullptr || ZSTD_isError(n) || n != f.out_size) {
        failed = std::min(failed, i);
        break;
      }
      done[i] = 1;
      const size_t before = prefix;
      while (prefix < frames.size() && prefix < failed && done[prefix] != 0) ++prefix;
      if (prefix != before) {
        const ZstdFrame& last = frames[prefix - 1];
        publish(last.out_begin + last.out_size, last.in_begin + last.in_size);
      }
    }
    ZSTD_freeDCtx(dctx);
  };
  std::vector<WorkerThread> helpers;
  for (int t = 1; t < std::min<int>(threads, static_cast<int>(frames.size())); ++t) helpers.emplace_back(work);
  work();
  JoinAll(helpers);
  return std::min(failed, prefix);
}

}  // namespace stepline::loaders
