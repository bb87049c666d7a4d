// DecodeStream (see decode_stream.h): the decoder thread, publishing and
// waiting, backpressure, and the hand-over of the finished content.
#include "loaders/decode_stream.h"

#include "loaders/memory_estimate.h"
#include "loaders/zstd_frames.h"
#include "model/worker_thread.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <new>
#include <vector>
#include <utility>

namespace stepline::loaders {
namespace {

// Waking readers costs a lock; below this much new output nobody is woken.
constexpr uint64_t kNotifyBytes = uint64_t{256} << 10;
constexpr uint64_t kFileReleaseBytes = uint64_t{4} << 20;
// A front-to-back decoder gets recycled pages this far past the step it is
// about to decode, so that pages move a parser chunk or more at a time.
constexpr uint64_t kPrepareAheadBytes = uint64_t{4} << 20;

uint64_t PageSize() { return static_cast<uint64_t>(::sysconf(_SC_PAGESIZE)); }
uint64_t RoundUp(uint64_t n, uint64_t page) { return (n + page - 1) / page * page; }

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
  // Pages waiting for reuse add to the resident memory: no more than the
  // decoder's next two readied stretches.
  s->recycled_ = std::make_unique<RecycledPages>(s->out_.mutable_data(), 2 * kPrepareAheadBytes);
  s->name_ = name;
  s->progress_ = progress;
  s->options_ = options;
  s->options_.max_decoded_bytes = limit;
  s->thread_ = StartThread([p = s.get()] { p->Run(); });
  return s;
}

DecodeStream::~DecodeStream() { Stop(); }

void DecodeStream::Run() {
  LayerOutcome outcome;
  try {
    outcome = Decode();
  } catch (const std::bad_alloc&) {
    // On this thread an escaping exception would be std::terminate: the
    // reader gets it as the stream's error instead, at the bytes decoded.
    outcome.error = MakeLoadError(LoadErrorCode::kOutOfMemory, name_, available_.load(),
                                  OutOfMemoryMessage("decompressing", EstimateLoadMemory(name_)));
  }
  recycled_->Close();  // nothing is written any more: what waits goes back
  std::lock_guard lock(mu_);
  outcome_ = std::move(outcome);
  available_.store(out_.size(), std::memory_order_release);
  done_.store(true, std::memory_order_release);
  cv_.notify_all();
}

LayerOutcome DecodeStream::Decode() {
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
        [this](uint64_t at) { Pace(at); }, [this](uint64_t b, uint64_t e) { Prepare(b, e, /*sequential=*/false); });
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
  return outcome;
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

void DecodeStream::Prepare(uint64_t begin, uint64_t end, bool sequential) {
  const uint64_t page = PageSize();
  uint64_t from = 0;
  uint64_t to = 0;
  {
    std::lock_guard lock(mu_);
    if (end <= prepared_end_) return;
    // Never a page a decoder was offered before (it may hold output), nor
    // the zero padding a reader may read past the bytes published so far.
    from = RoundUp(std::max(prepared_end_, begin + ByteBuffer::kPadding), page);
    // Frames decode side by side: the page holding `end` may be the next
    // frame's too. A sequential decoder writes nothing past `end` yet.
    to = sequential ? RoundUp(std::max(end, from + kPrepareAheadBytes), page) : end / page * page;
    to = std::min(to, options_.max_decoded_bytes / page * page);
    if (from >= to) {
      prepared_end_ = std::max(prepared_end_, end);
      return;
    }
    // Held until the moves are made: a frame decoder preparing next must not
    // target these pages. What stays unfilled past `end` may be filled later.
    prepared_end_ = to;
  }
  const uint64_t moved = recycled_->MoveInto(from, to);
  std::lock_guard lock(mu_);
  if (prepared_end_ == to) prepared_end_ = std::max(end, from + moved);
}

void DecodeStream::Release(uint64_t begin, uint64_t end) {
  if (base_ == nullptr) return;  // the buffer went to TakeResult()'s caller
  const uint64_t page = PageSize();
  end = std::min(end, available_.load(std::memory_order_acquire));
  const uint64_t last = end / page * page;
  std::lock_guard lock(mu_);
  // Each page goes to the recycler once: a page moved away must not be
  // queued again. A release that joins the last one takes the page the two
  // share (base_ is page-aligned: offsets are addresses).
  const uint64_t first = begin <= pages_released_ ? pages_released_ : RoundUp(begin, page);
  if (first < last) {
    recycled_->Add(first, last);
    pages_released_ = last;
  }
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
