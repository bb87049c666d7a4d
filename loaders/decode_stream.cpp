// DecodeStream (see decode_stream.h): the decoder thread, publishing and
// waiting, backpressure, and the hand-over of the finished content.
#include "loaders/decode_stream.h"

#include "loaders/zstd_frames.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <vector>
#include <utility>

namespace stepline::loaders {
namespace {

// Waking readers costs a lock; below this much new output nobody is woken.
constexpr uint64_t kNotifyBytes = uint64_t{256} << 10;
constexpr uint64_t kFileReleaseBytes = uint64_t{4} << 20;

}  // namespace

std::unique_ptr<DecodeStream> DecodeStream::Start(ByteBuffer file, const std::string& name, LoadProgress* progress,
                                                  const StreamOptions& options) {
  if (!IsCompressedHead(file.view())) return nullptr;
  const uint64_t limit = options.max_decoded_bytes != 0 ? options.max_decoded_bytes : DefaultMaxDecodedBytes();
  ByteBuffer out = ByteBuffer::ReserveAddressSpace(static_cast<size_t>(limit));
  if (out.data() == nullptr) return nullptr;
  std::unique_ptr<DecodeStream> s(new DecodeStream());
  s->file_ = std::move(file);
  s->out_ = std::move(out);
  s->base_ = s->out_.data();
  s->name_ = name;
  s->progress_ = progress;
  s->options_ = options;
  s->options_.max_decoded_bytes = limit;
  s->thread_ = std::thread([p = s.get()] { p->Run(); });
  return s;
}

DecodeStream::~DecodeStream() { Stop(); }

void DecodeStream::Run() {
  const std::string_view in = file_.view();
  const int threads = options_.zstd_threads > 0 ? options_.zstd_threads
                                                : static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 4u));
  std::vector<ZstdFrame> frames;
  if (threads > 1) frames = MapZstdFrames(in, options_.max_decoded_bytes);
  LayerOutcome outcome;
  if (frames.empty()) {
    outcome = DecodeLayerStreaming(in, name_, progress_, options_.max_decoded_bytes, &out_, this, options_.gzip_zlib);
  } else {
    // Frames of declared sizes: decoded at once, each into its place. A
    // frame that fails is decoded again by the sequential decoder, which
    // keeps what it can and describes the damage as OpenInput() does.
    Hint(frames.back().out_begin + frames.back().out_size);
    const auto cancelled = [this] {
      return Stopped() || (progress_ != nullptr && progress_->cancel.load(std::memory_order_relaxed));
    };
    const size_t decoded = DecodeZstdFrames(
        in, frames, out_.mutable_data(), threads, [this](uint64_t n, uint64_t c) { Publish(n, c); }, cancelled,
        [this](uint64_t at) { Pace(at); });
    outcome.format = "zstd";
    if (decoded == frames.size()) {
      out_.Resize(static_cast<size_t>(frames.back().out_begin + frames.back().out_size));
    } else if (cancelled()) {
      out_.Resize(static_cast<size_t>(frames[decoded].out_begin));
      LoadError e = MakeLoadError(LoadErrorCode::kCancelled, name_, out_.size(), "cancelled while decompressing");
      e.compressed_offset = frames[decoded].in_begin;
      outcome.error = std::move(e);
    } else {
      out_.Resize(static_cast<size_t>(frames[decoded].out_begin));
      outcome = DecodeLayerStreaming(in, name_, progress_, options_.max_decoded_bytes, &out_, this, options_.gzip_zlib,
                                     frames[decoded].in_begin);
    }
  }
  std::lock_guard lock(mu_);
  outcome_ = std::move(outcome);
  available_.store(out_.size(), std::memory_order_release);
  done_.store(true, std::memory_order_release);
  cv_.notify_all();
}

void DecodeStream::Publish(uint64_t decoded_bytes, uint64_t consumed) {
  available_.store(decoded_bytes);  // seq_cst: see starving_
  if (consumed >= file_released_ + kFileReleaseBytes) {
    // The compressed file's pages are read once, front to back: with the
    // decoded window they are the rest of a streamed load's input memory.
    file_.ReleasePages(file_released_, consumed);
    file_released_ = consumed;
  }
  // Small steps wake nobody, unless a reader waits: it may wait for these
  // very bytes, and the last frames of a file may all be small (a reader
  // left asleep there kept a pacing frame decoder, and the load, waiting).
  if (decoded_bytes - notified_ < kNotifyBytes && starving_.load() == 0) return;
  notified_ = decoded_bytes;
  std::unique_lock lock(mu_);
  cv_.notify_all();
  // Backpressure: stay within a window of the reader, unless a reader waits
  // for more bytes (then running ahead is the only way forward). The timeout
  // re-checks cancellation, which nobody signals.
  while (decoded_bytes > released_ + options_.ahead_bytes && starving_ == 0 && !Stopped()) {
    if (progress_ != nullptr && progress_->cancel.load(std::memory_order_relaxed)) break;
    cv_.wait_for(lock, std::chrono::milliseconds(20));
  }
}

uint64_t DecodeStream::size_hint() const {
  // zstd frames written from a pipe (pzstd, `zstd -`) declare no size. Trace
  // JSON compresses 8-20x; a low guess only costs the model a reallocation.
  constexpr uint64_t kGuessedRatio = 8;
  const uint64_t declared = hint_.load(std::memory_order_relaxed);
  return declared != 0 ? declared : file_.size() * kGuessedRatio;
}

void DecodeStream::Pace(uint64_t at) {
  std::unique_lock lock(mu_);
  while (at > released_ + options_.ahead_bytes && !(starving_ > 0 && wanted_ > at) && !Stopped()) {
    if (progress_ != nullptr && progress_->cancel.load(std::memory_order_relaxed)) break;
    cv_.wait_for(lock, std::chrono::milliseconds(20));
  }
}

void DecodeStream::Hint(uint64_t expected_total) { hint_.store(expected_total, std::memory_order_relaxed); }

std::string_view DecodeStream::WaitFor(uint64_t n) {
  uint64_t have = available_.load(std::memory_order_acquire);
  if (have < n && !done()) {
    std::unique_lock lock(mu_);
    ++starving_;
    wanted_ = std::max(wanted_, n);
    cv_.notify_all();  // a paused decoder must go on
    cv_.wait(lock, [&] {
      have = available_.load();  // seq_cst: see starving_
      return have >= n || done();
    });
    if (--starving_ == 0) wanted_ = 0;
    have = available_.load(std::memory_order_acquire);
  }
  return {base_, static_cast<size_t>(have)};
}

void DecodeStream::Release(uint64_t begin, uint64_t end) {
  const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  end = std::min(end, available_.load(std::memory_order_acquire));
  const uint64_t first = (begin + page - 1) / page * page;  // base_ is page-aligned
  const uint64_t last = end / page * page;
  if (first < last) ::madvise(const_cast<char*>(base_) + first, static_cast<size_t>(last - first), MADV_DONTNEED);
  std::lock_guard lock(mu_);
  if (end > released_) {
    released_ = end;
    cv_.notify_all();
  }
}

void DecodeStream::Stop() {
  stop_.store(true, std::memory_order_relaxed);
  {
    std::lock_guard lock(mu_);
    cv_.notify_all();
  }
  if (thread_.joinable()) thread_.join();
}

Result<DecodedInput, LoadError> DecodeStream::TakeResult() {
  WaitForEnd();
  if (thread_.joinable()) thread_.join();
  if (outcome_.error) return MakeUnexpected(std::move(*outcome_.error));
  DecodedInput input;
  input.compression = outcome_.format;
  input.file_bytes = file_.size();
  input.truncated = outcome_.truncated;
  input.truncated_at = outcome_.truncated_at;
  input.truncation_detail = outcome_.detail;
  input.bytes = std::move(out_);
  base_ = nullptr;
  return input;
}

}  // namespace stepline::loaders
