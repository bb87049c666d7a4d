// DecodeStream: decompresses a .gz/.zst file on a thread of its own into a
// buffer that a parser on other threads reads while it is being written, so
// decompression overlaps parsing. The whole-buffer OpenInput()
// (byte_source.h) stays for everything that needs the complete content.
//
// Design: the decoded bytes go to an anonymous mapping reserved at the
// decompression-bomb limit (MAP_NORESERVE: address space only, pages are
// committed as written), so the buffer never moves and a reader can hold
// pointers into it. The decoder publishes how many bytes are final (an
// atomic, plus a condition variable for waiting readers); the reader gives
// back pages behind its position (MADV_DONTNEED), and the decoder pauses when
// it runs more than a window ahead of that position, unless a reader is
// waiting for bytes (a chunk with no split point grows until one exists), so
// only a window of the decoded text is resident and there is never a deadlock.
// Truncation and corruption are found and described by the same decoders as
// OpenInput(), at the same offsets.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "loaders/byte_source.h"
#include "loaders/recycled_pages.h"

namespace stepline::loaders {

// What a decoder calls while it writes (on the decoder thread).
class StreamSink {
 public:
  virtual ~StreamSink() = default;
  // [0, decoded_bytes) is final and compressed [0, consumed) will not be
  // read again; may pause (backpressure).
  virtual void Publish(uint64_t decoded_bytes, uint64_t consumed) = 0;
  virtual void Hint(uint64_t expected_total) = 0;    // a guess from a trailer or a frame header
  virtual bool Stopped() const = 0;                  // the reader is gone: stop decoding
  // The decoder is about to write decoded [begin, end): the sink may put
  // recycled pages there first. `sequential`: the decoder writes front to
  // back and alone, so pages a little past `end` may be readied too.
  virtual void Prepare(uint64_t /*begin*/, uint64_t /*end*/, bool /*sequential*/) {}
};

// One gzip or zstd layer of `in` decoded into `*out` (an empty
// ReserveAddressSpace() buffer), as OpenInput() decodes it (byte_source.cpp).
// `gzip_zlib`: stream gzip through zlib (output every window) instead of
// libdeflate (output per member). `zstd_resume_at`: a zstd frame boundary to
// go on from, `*out` already holding the frames before it.
struct LayerOutcome {
  std::optional<LoadError> error;
  std::string format;  // "gzip" / "zstd"
  bool truncated = false;
  uint64_t truncated_at = 0;
  std::string detail;
};
LayerOutcome DecodeLayerStreaming(std::string_view in, const std::string& name, LoadProgress* progress, uint64_t limit,
                                  ByteBuffer* out, StreamSink* sink, bool gzip_zlib, uint64_t zstd_resume_at = 0);
bool IsCompressedHead(std::string_view head);  // gzip or zstd magic

struct StreamOptions {
  uint64_t max_decoded_bytes = 0;       // 0: DefaultMaxDecodedBytes()
  uint64_t ahead_bytes = uint64_t{64} << 20;  // how far the decoder may run ahead of the reader's releases
  bool gzip_zlib = true;                // see DecodeLayerStreaming
  int zstd_threads = 0;                 // frames decoded at once (zstd_frames.h); 0: min(cores, 4)
};

class DecodeStream final : public StreamSink {
 public:
  // Starts decoding `file` (a mapped compressed file) on a thread. Null when
  // the content is not compressed or the address space cannot be reserved
  // (the caller then takes the whole-buffer path).
  static std::unique_ptr<DecodeStream> Start(ByteBuffer file, const std::string& name, LoadProgress* progress,
                                             const StreamOptions& options = {});
  ~DecodeStream() override;  // stops the decoder and joins it
  DecodeStream(const DecodeStream&) = delete;
  DecodeStream& operator=(const DecodeStream&) = delete;

  // Blocks until at least `n` decoded bytes are final or decoding ended;
  // returns the final bytes (padded by zeros past their end).
  std::string_view WaitFor(uint64_t n);
  std::string_view WaitForEnd() { return WaitFor(UINT64_MAX); }
  bool done() const { return done_.load(std::memory_order_acquire); }
  // The decoded size as the trailer or frame headers declare it, else a
  // guess from the compressed size (sizes chunks and presizes the model).
  uint64_t size_hint() const;
  // The reader is past [begin, end): its pages go to the decoder, to be
  // written again further on (recycled_pages.h), or back to the kernel;
  // either way they read as zero once taken, and the decoder may run
  // further ahead.
  void Release(uint64_t begin, uint64_t end);
  // Decoded bytes written on recycled pages rather than fresh ones.
  uint64_t recycled_bytes() const { return recycled_->moved_bytes(); }
  // Ends decoding early (the reader is gone) and joins the thread.
  void Stop();

  // After WaitForEnd(): the decoding error (bomb limit, cancel), else the
  // content as OpenInput() would have returned it (same truncation facts).
  // The stream is empty afterwards.
  Result<DecodedInput, LoadError> TakeResult();

  // StreamSink (decoder thread).
  void Publish(uint64_t decoded_bytes, uint64_t consumed) override;
  void Hint(uint64_t expected_total) override;
  bool Stopped() const override { return stop_.load(std::memory_order_relaxed); }
  void Prepare(uint64_t begin, uint64_t end, bool sequential) override;
  // Blocks while decoded offset `at` is beyond the window ahead of the
  // reader and no reader waits for bytes at or past it (parallel frames).
  void Pace(uint64_t at);

 private:
  DecodeStream() = default;
  void Run();
  LayerOutcome Decode();  // Run()'s work, which may throw std::bad_alloc

  ByteBuffer file_;     // the compressed input (a read-only mapping)
  ByteBuffer out_;      // owned by the decoder thread until done_
  const char* base_ = nullptr;  // out_'s storage, for the reader
  std::string name_;
  LoadProgress* progress_ = nullptr;
  StreamOptions options_;
  LayerOutcome outcome_;  // written by the decoder before done_

  std::atomic<uint64_t> available_{0};
  std::atomic<uint64_t> hint_{0};
  std::atomic<bool> done_{false};
  std::atomic<bool> stop_{false};
  std::mutex mu_;
  std::condition_variable cv_;
  uint64_t released_ = 0;    // guarded by mu_
  std::unique_ptr<RecycledPages> recycled_;  // over out_'s pages; made by Start()
  uint64_t prepared_end_ = 0;                // guarded by mu_: no page before it is ever a move's target
  uint64_t pages_released_ = 0;              // guarded by mu_: whole pages before it went to recycled_
  // Readers waiting for bytes: changed under mu_; Publish reads it without
  // the lock. Sequentially consistent with available_, so a publish either
  // is seen by the waiting reader or sees the reader and wakes it.
  std::atomic<int> starving_{0};
  uint64_t wanted_ = 0;      // the most bytes a waiting reader asked for; guarded by mu_
  uint64_t notified_ = 0;    // decoder thread only
  uint64_t file_released_ = 0;  // compressed bytes given back; decoder thread only
  std::thread thread_;
};

}  // namespace stepline::loaders
