// Chrome JSON loader: chunk planning, the parse/import pipeline, and the
// exact fallback (see chrome_json_loader.h).
//
// Call flow:
//   LoadChromeJson (a decoded buffer) | LoadChromeJsonStreamed (a DecodeStream still writing)
//     LoadFromFeed                     TextFeed: the text final so far, or all of it
//     ChunkPipeline::RunStreamed       SpeculativePlanner (json_chunker) plans chunks as the
//                                      text arrives; workers tokenize them; this thread
//                                      imports in order and releases the pages behind
//     on a failed chunk i (the whole text is awaited from here on):
//       ScanTraceJson from chunk i     json_scanner: exact boundaries up to the next chunk
//                                      (or the end), syntax errors, truncation
//       ChunkPipeline::Run(exact plan)
//       speculate again (PlanSpeculativeChunks) from the first exact boundary after chunk i
//     on a syntax error found by the scan:
//       RetryPastDamage                the events before it exactly, then the damaged
//                                      event as simdjson reads it in a chunk of its own
//     EventImporter::Finish            GPU rows, launch links, names
//     NoteXlaEventCap                  XLA's trace viewer cap (xla_event_cap.h)
//     TraceBuilder::Finish             Trace::Finalize
//
// (input: TextFeed, text_feed.h)
// [SECTION] Pipeline
// [SECTION] Entry point
#include "loaders/chrome_json/chrome_json_loader.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "loaders/chrome_json/event_importer.h"
#include "loaders/chrome_json/event_tokenizer.h"
#include "loaders/chrome_json/json_chunker.h"
#include "loaders/chrome_json/json_scanner.h"
#include "loaders/chrome_json/text_feed.h"
#include "loaders/decode_stream.h"
#include "loaders/trace_builder.h"
#include "model/worker_thread.h"

namespace stepline::loaders {
namespace {

// Chunks of a few MB: a thread's parser, document copy and batch are then
// reused from chunk to chunk instead of page-faulting fresh memory, they stay
// warm in cache between tokenizing and importing, and parsing overlaps
// importing. Measured on the 54 MB Kineto trace with 2 threads: 1-2 MB chunks
// load ~30% faster than 7 MB ones.
constexpr uint64_t kMinAutoChunkBytes = uint64_t{1} << 20;
constexpr uint64_t kMaxAutoChunkBytes = uint64_t{4} << 20;
constexpr uint64_t kMaxChunkBytes = uint64_t{256} << 20;  // far below simdjson's 4 GB document limit
constexpr uint64_t kSingleThreadChunkBytes = uint64_t{4} << 20;
constexpr uint64_t kParserLimitBytes = (uint64_t{4} << 30) - 64;

uint64_t ChooseChunkBytes(uint64_t input_bytes, int threads, uint64_t requested) {
  if (requested != 0) return std::min(requested, kMaxChunkBytes);
  if (threads <= 1) return kSingleThreadChunkBytes;
  // Many chunks per thread so parsing overlaps importing.
  return std::clamp<uint64_t>(input_bytes / (static_cast<uint64_t>(threads) * 16), kMinAutoChunkBytes,
                              kMaxAutoChunkBytes);
}

// A batch for a chunk of `chunk_bytes`, its event and arg lists reserved for
// dense chunks (a 4 MB chunk of memory events holds ~65,000). Growing them by
// doubling instead copied each element and first-touched its pages twice:
// 28 MB of the 290 MB of fresh memory a 413 MB load touched (perf,
// page-faults). Untouched reserved pages cost address space only.
std::unique_ptr<RawEventBatch> NewBatch(uint64_t chunk_bytes) {
  constexpr uint64_t kDenseEventBytes = 48, kDenseArgBytes = 24, kMaxReserved = uint64_t{1} << 20;
  auto batch = std::make_unique<RawEventBatch>();
  batch->events.reserve(static_cast<size_t>(std::min(chunk_bytes / kDenseEventBytes, kMaxReserved)));
  batch->args.reserve(static_cast<size_t>(std::min(chunk_bytes / kDenseArgBytes, kMaxReserved)));
  return batch;
}

//-----------------------------------------------------------------------------
// [SECTION] Pipeline
//-----------------------------------------------------------------------------

// Tokenizes the chunks of a plan on `threads` threads (this one included)
// and imports the batches here, strictly in plan order. This thread imports
// whenever the next batch is ready and tokenizes otherwise. Tokenizing stays
// at most threads + 2 chunks ahead of the import, which bounds memory.
// A streamed plan grows while the text arrives: a thread with nothing to
// claim extends it (one at a time), waiting for the decoder if need be; a
// chunk is planned, so claimed, only once its bytes are final.
class ChunkPipeline {
 public:
  struct Outcome {
    size_t failed_chunk = SIZE_MAX;  // first chunk that did not tokenize; SIZE_MAX = none
    ChunkSpec failed_spec;
    TokenizeResult failure;
    bool cancelled = false;
  };

  ChunkPipeline(TextFeed* feed, const LoadOptions& options, int threads, LoadProgress* progress,
                EventImporter* importer)
      : feed_(feed),
        keep_args_(options.keep_args),
        threads_(threads),
        progress_(progress),
        importer_(importer),
        tokenizer_(options.keep_args) {}

  // `speculative`: the plan's splits are guesses, so the first chunk must
  // also prove it read the traceEvents array.
  Outcome Run(const std::vector<ChunkSpec>& plan, bool speculative);
  // A speculative plan made by `planner` as the feed's text arrives.
  Outcome RunStreamed(SpeculativePlanner* planner);
  // The pooled batches (~3 MB touched per chunk, a few chunks per thread),
  // given back before the serial tail allocates its own tables.
  void DropBuffers() { std::vector<std::unique_ptr<RawEventBatch>>().swap(pool_); }

 private:
  struct Slot {
    std::unique_ptr<RawEventBatch> batch;
    TokenizeResult result;
    bool done = false;
    std::exception_ptr error;  // what tokenizing threw (std::bad_alloc): rethrown by the importing thread
  };

  bool Claimable() const { return !stop_ && next_claim_ < plan_.size() && next_claim_ < import_cursor_ + max_ahead_; }
  // Extending the plan helps only when it is used up and the claim window is open.
  bool CanPlan() const {
    return planner_ != nullptr && !planning_ && !plan_complete_ && !stop_ && next_claim_ >= plan_.size() &&
           next_claim_ < import_cursor_ + max_ahead_;
  }
  bool AllClaimed() const { return plan_complete_ && next_claim_ >= plan_.size(); }
  void Stop() {
    std::lock_guard lock(mu_);
    stop_ = true;
    cv_.notify_all();
  }
  void PlanMore(std::unique_lock<std::mutex>& lock);
  Outcome Drive(bool speculative, size_t worker_count);
  void Tokenize(EventTokenizer* tokenizer, size_t index, std::unique_lock<std::mutex>& lock);
  void WorkerLoop();
  bool Cancelled() const { return progress_ != nullptr && progress_->cancel.load(std::memory_order_relaxed); }

  // Imported chunks' bytes are copied into the model, so the pages behind the
  // import are dropped (a mapped file, or a buffer marked single-reader;
  // ByteBuffer::ReleasePages): the input is resident only within the window
  // being tokenized (peak memory).
  TextFeed* feed_;
  uint64_t released_ = 0;  // input released up to here
  bool keep_args_;
  int threads_;
  LoadProgress* progress_;
  EventImporter* importer_;
  EventTokenizer tokenizer_;  // this thread's

  std::mutex mu_;
  std::condition_variable cv_;
  // Deques: a thread holds references to its chunk and slot while the plan grows.
  std::deque<ChunkSpec> plan_;
  std::deque<Slot> slots_;
  std::string_view input_;  // the text final so far; covers every planned chunk
  SpeculativePlanner* planner_ = nullptr;
  bool planning_ = false;
  bool plan_complete_ = true;
  std::vector<std::unique_ptr<RawEventBatch>> pool_;  // cleared batches, memory kept
  size_t next_claim_ = 0;
  size_t import_cursor_ = 0;
  size_t max_ahead_ = 1;
  bool stop_ = false;
  std::exception_ptr plan_error_;  // what extending the plan threw: rethrown by the importing thread
};

// Called with the lock held after claiming `index`; returns with it held.
void ChunkPipeline::Tokenize(EventTokenizer* tokenizer, size_t index, std::unique_lock<std::mutex>& lock) {
  std::unique_ptr<RawEventBatch> batch;
  if (!pool_.empty()) {
    batch = std::move(pool_.back());
    pool_.pop_back();
  }
  const ChunkSpec& spec = plan_[index];  // a deque's elements stay put while it grows
  const std::string_view input = input_;
  lock.unlock();
  TokenizeResult result;
  std::exception_ptr error;
  try {
    if (!batch) batch = NewBatch(spec.end - spec.begin);
    result = tokenizer->Tokenize(spec, input, batch.get());
  } catch (...) {
    error = std::current_exception();
  }
  lock.lock();
  slots_[index].batch = std::move(batch);
  slots_[index].result = std::move(result);
  slots_[index].error = std::move(error);
  slots_[index].done = true;
  cv_.notify_all();
}

// Called with the lock held and the plan used up; returns with it held.
// Waits (unlocked) for the bytes the next chunk needs, or the end.
void ChunkPipeline::PlanMore(std::unique_lock<std::mutex>& lock) {
  planning_ = true;
  const uint64_t needed = planner_->needed();
  lock.unlock();
  bool final = false;
  std::string_view text;
  std::vector<ChunkSpec> chunks;
  try {
    text = feed_->Next(needed, &final);
    planner_->Extend(text, final, &chunks);
    lock.lock();
    input_ = text;
    for (ChunkSpec& c : chunks) plan_.push_back(std::move(c));
    slots_.resize(plan_.size());
    plan_complete_ = planner_->complete();
  } catch (...) {
    // Every thread would wait for a plan that never comes: stop them all.
    if (!lock.owns_lock()) lock.lock();
    plan_error_ = std::current_exception();
    stop_ = true;
  }
  planning_ = false;
  cv_.notify_all();
}

void ChunkPipeline::WorkerLoop() {
  EventTokenizer tokenizer(keep_args_);
  std::unique_lock lock(mu_);
  for (;;) {
    cv_.wait(lock, [&] { return Claimable() || stop_ || CanPlan() || AllClaimed(); });
    if (Cancelled()) stop_ = true;  // checked before claiming: a claimed chunk is always finished
    if (Claimable()) {
      Tokenize(&tokenizer, next_claim_++, lock);
    } else if (CanPlan()) {
      PlanMore(lock);
    } else if (stop_ || AllClaimed()) {
      cv_.notify_all();
      return;
    }
  }
}

ChunkPipeline::Outcome ChunkPipeline::Run(const std::vector<ChunkSpec>& plan, bool speculative) {
  plan_.assign(plan.begin(), plan.end());
  bool all_there = false;  // a static plan is made over the whole text
  input_ = feed_->Next(0, &all_there);
  plan_complete_ = true;
  planner_ = nullptr;
  return Drive(speculative, std::min<size_t>(static_cast<size_t>(threads_ - 1), plan.size() - 1));
}

ChunkPipeline::Outcome ChunkPipeline::RunStreamed(SpeculativePlanner* planner) {
  plan_.clear();
  planner_ = planner;
  plan_complete_ = false;
  planning_ = false;
  next_claim_ = import_cursor_ = 0;
  stop_ = false;
  max_ahead_ = static_cast<size_t>(threads_) + 2;
  {
    // The first extension here: a whole text is planned at once, and then
    // no more workers start than there are chunks.
    std::unique_lock lock(mu_);
    PlanMore(lock);
    if (plan_error_) std::rethrow_exception(std::exchange(plan_error_, nullptr));
  }
  const size_t workers = static_cast<size_t>(threads_ - 1);
  return Drive(/*speculative=*/true, plan_complete_ ? std::min(workers, plan_.size() - 1) : workers);
}

ChunkPipeline::Outcome ChunkPipeline::Drive(bool speculative, size_t worker_count) {
  slots_.clear();
  slots_.resize(plan_.size());
  next_claim_ = import_cursor_ = 0;
  stop_ = false;
  max_ahead_ = static_cast<size_t>(threads_) + 2;
  plan_error_ = nullptr;
  std::vector<WorkerThread> workers;
  // However this returns (also by an exception, even one starting a worker), the workers
  // stop before they are joined: declared after them, the guard goes first.
  struct StopWorkers {
    ChunkPipeline* p;
    ~StopWorkers() { p->Stop(); }
  } stop_workers{this};
  for (size_t w = 0; w < worker_count; ++w) workers.emplace_back([this] { WorkerLoop(); });

  Outcome outcome;
  for (size_t i = 0;; ++i) {
    Slot* slot_ptr = nullptr;
    const ChunkSpec* spec_ptr = nullptr;
    {
      std::unique_lock lock(mu_);
      bool finished = false;
      for (;;) {
        if (Cancelled()) stop_ = true;
        if (i < plan_.size() && slots_[i].done) break;
        if (i >= plan_.size() && plan_complete_) {
          finished = true;
          break;
        }
        if (Claimable()) {
          Tokenize(&tokenizer_, next_claim_++, lock);
          continue;
        }
        // Nothing to claim: wait for chunk i. Every claimed chunk finishes,
        // so this ends even after a stop (an unclaimed chunk i means cancel).
        if (stop_ && i >= next_claim_) break;
        if (CanPlan()) {
          PlanMore(lock);
          continue;
        }
        cv_.wait(lock, [&] {
          return (i < plan_.size() && slots_[i].done) || Claimable() || (stop_ && i >= next_claim_) || CanPlan() ||
                 (i >= plan_.size() && plan_complete_);
        });
      }
      if (plan_error_) std::rethrow_exception(plan_error_);
      if (i < plan_.size() && slots_[i].error) std::rethrow_exception(slots_[i].error);
      if (finished) break;
      if (!slots_[i].done) {
        outcome.cancelled = true;
        break;
      }
      slot_ptr = &slots_[i];  // indexing a deque that another thread may grow needs the lock
      spec_ptr = &plan_[i];
    }
    Slot& slot = *slot_ptr;
    const ChunkSpec& spec = *spec_ptr;
    if (!slot.result.ok || (speculative && spec.starts_document && spec.object_form && !slot.result.saw_events)) {
      outcome.failed_chunk = i;
      outcome.failed_spec = spec;
      outcome.failure = slot.result;
      break;
    }
    importer_->Import(*slot.batch);
    slot.batch->Clear();
    if (spec.end > released_) {
      feed_->Release(released_, spec.end);
      released_ = spec.end;
    }
    {
      std::lock_guard lock(mu_);
      pool_.push_back(std::move(slot.batch));
      import_cursor_ = i + 1;
      cv_.notify_all();
    }
    if (progress_ != nullptr) progress_->bytes_done.store(spec.end, std::memory_order_relaxed);
    if (Cancelled()) {
      outcome.cancelled = true;
      break;
    }
  }
  Stop();
  JoinAll(workers);
  slots_.clear();
  plan_.clear();
  planner_ = nullptr;
  return outcome;
}

// Records where and why the input stops early (JSON cut and/or a cut
// compressed stream); quotes the compressed detail so load.cpp does not add
// a second record.
void RecordTruncation(TraceBuilder* builder, const DecodedInput& input, const ScanReport* report) {
  const uint64_t size = input.bytes.size();
  std::string detail;
  if (report != nullptr) {
    detail = "the JSON text ends early (missing \"" + report->closer + "\"); the last " +
             std::to_string(size - report->valid_end) + " bytes, after the last complete event or key at byte " +
             std::to_string(report->valid_end) + ", were dropped";
  }
  if (input.truncated) {
    if (!detail.empty()) detail += "; ";
    detail += "compressed input cut at byte " + std::to_string(input.truncated_at) + ": " + input.truncation_detail;
  }
  builder->diag().Record(DiagCode::kTruncated, size, detail);
}

// What became of a syntax error the exact scan found.
struct DamageOutcome {
  enum Kind : uint8_t { kError, kResume, kReachedEnd, kCancelled } kind = kError;
  uint64_t resume_at = 0;  // kResume: a proven event boundary after the damage
};

// simdjson's on-demand parser does not validate what it skips (values of
// keys the tokenizer ignores, nested arg values), so a speculative chunk that
// holds such damage parses, while the byte-exact scan stops at it; and the
// scan only looks at a chunk that failed for some other reason (a cut tail
// in the same chunk). So that the result does not depend on where chunks
// were cut (fuzz findings, tests/fuzz/regressions/chrome_json), the damage
// gets the reading a chunk of its own would give it: the events before the
// damaged one are imported exactly, then the damaged event is parsed with
// the input cut at successive split candidates after the error, and at the
// end of the input last. The first that parses is taken; none is a syntax
// error at the scan's offset.
DamageOutcome RetryPastDamage(ChunkPipeline* pipeline, std::string_view text, const ScanReport& scan,
                              const ScanStart& from) {
  constexpr int kCandidates = 8;
  const uint64_t damaged = scan.error_event_begin;
  if (damaged == ScanReport::kNone) return {};
  const auto run = [&](const std::vector<ChunkSpec>& plan) {
    const ChunkPipeline::Outcome outcome = pipeline->Run(plan, /*speculative=*/false);
    if (outcome.cancelled) return DamageOutcome::kCancelled;
    return outcome.failed_chunk == SIZE_MAX ? DamageOutcome::kResume : DamageOutcome::kError;
  };
  ScanReport before = scan;  // exact up to the damaged event
  before.status = ScanReport::Status::kComplete;
  before.valid_end = before.stopped_at = damaged;
  if (const DamageOutcome::Kind k = run(PlanExactChunks(before, from)); k != DamageOutcome::kResume) return {k};
  uint64_t after = scan.error_offset + 1;
  for (int attempt = 0; attempt <= kCandidates; ++attempt) {
    const uint64_t candidate = attempt < kCandidates ? NextSplitCandidate(text, after) : UINT64_MAX;
    const uint64_t end = std::min<uint64_t>(candidate, text.size());
    const DamageOutcome::Kind k = run({ChunkFromBoundary(text, damaged, end, scan.object_form)});
    if (k == DamageOutcome::kCancelled) return {k};
    if (k == DamageOutcome::kResume) {
      return end == text.size() ? DamageOutcome{DamageOutcome::kReachedEnd} : DamageOutcome{k, end};
    }
    if (end == text.size()) break;
    after = end + 1;
  }
  return {};
}

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] Entry point
//-----------------------------------------------------------------------------

Result<Trace, LoadError> LoadChromeJson(const DecodedInput& input, const std::string& path, const LoadOptions& options,
                                        LoadProgress* progress) {
  return LoadChromeJson(input, path, options, progress, ChromeJsonTuning{});
}

namespace {

// False when the text holds only whitespace (or is a lone byte order mark);
// waits for the first bytes that say.
bool HasContent(TextFeed* feed) {
  bool final = false;
  std::string_view head = feed->Next(1, &final);
  for (;;) {
    const size_t at = head.find_first_not_of(" \t\r\n");
    if (final) return at != std::string_view::npos && head != "\xEF\xBB\xBF";
    if (at != std::string_view::npos && head.size() > 3) return true;
    head = feed->Next(head.size() + 1, &final);
  }
}

Result<Trace, LoadError> LoadFromFeed(TextFeed* feed, const std::string& path, const LoadOptions& options,
                                      LoadProgress* progress, const ChromeJsonTuning& tuning) {
  if (!HasContent(feed)) {
    // A stream that failed (the bomb limit, a cancel) says so, not "empty".
    if (auto all = feed->All(); !all) return MakeUnexpected(all.error());
    return MakeUnexpected(MakeLoadError(LoadErrorCode::kEmpty, path, 0, "the JSON input holds only whitespace"));
  }
  const int threads = options.threads > 0 ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  const uint64_t size_hint = feed->size_hint();  // exact unless streamed
  const uint64_t chunk_bytes = ChooseChunkBytes(size_hint, threads, tuning.chunk_bytes);
  if (progress != nullptr) progress->bytes_total.store(size_hint, std::memory_order_relaxed);

  TraceBuilder builder("chrome-json");
  EventImporter importer(&builder, options);
  importer.set_input_bytes(size_hint);
  ChunkPipeline pipeline(feed, options, threads, progress, &importer);
  auto cancelled = [&] {
    return MakeUnexpected(MakeLoadError(LoadErrorCode::kCancelled, path, LoadError::kNoOffset, "load cancelled"));
  };
  // The first speculative plan is made as the text arrives. When a chunk
  // fails, the rest needs the whole text: scan exactly from its start
  // (proven by the chunks before it) to the first event boundary after it,
  // import those exact chunks, and speculate again from there. Damage or a
  // truncated tail stops the scan only at the end of the input.
  SpeculativePlanner first_planner(chunk_bytes, ScanStart{});
  bool streamed_pass = true;
  std::string_view text;
  ScanStart start;
  ScanReport report;  // of the scan that reached the end of the input, if any
  for (;;) {
    ChunkPipeline::Outcome outcome;
    if (streamed_pass) {
      outcome = pipeline.RunStreamed(&first_planner);
      streamed_pass = false;
    } else {
      outcome = pipeline.Run(PlanSpeculativeChunks(text, chunk_bytes, start), /*speculative=*/true);
    }
    if (outcome.cancelled) return cancelled();
    if (outcome.failed_chunk == SIZE_MAX) break;
    if (text.data() == nullptr) {
      auto all = feed->All();
      if (!all) return MakeUnexpected(all.error());
      text = (*all)->bytes.view();
    }
    const ChunkSpec& failed = outcome.failed_spec;
    ScanStart from = failed.starts_document ? ScanStart{} : ScanStart{failed.begin, false, failed.object_form};
    if (!failed.ends_document) from.stop_at = failed.end;
    const ScanReport scan = ScanTraceJson(text, from, chunk_bytes);
    if (scan.status == ScanReport::Status::kSyntaxError) {
      const DamageOutcome damage = RetryPastDamage(&pipeline, text, scan, from);
      if (damage.kind == DamageOutcome::kCancelled) return cancelled();
      if (damage.kind == DamageOutcome::kReachedEnd) break;
      if (damage.kind == DamageOutcome::kResume) {
        start = ScanStart{damage.resume_at, false, scan.object_form};
        continue;
      }
      return MakeUnexpected(MakeLoadError(LoadErrorCode::kJsonSyntax, path, scan.error_offset, scan.message));
    }
    if (scan.status == ScanReport::Status::kSchemaError) {
      return MakeUnexpected(MakeLoadError(LoadErrorCode::kJsonSchema, path, scan.error_offset, scan.message));
    }
    const std::vector<ChunkSpec> exact = PlanExactChunks(scan, from);
    for (const ChunkSpec& c : exact) {
      if (c.end - c.begin >= kParserLimitBytes) {
        return MakeUnexpected(MakeLoadError(
            LoadErrorCode::kTooLarge, path, c.begin,
            "a single event of " + std::to_string(c.end - c.begin) + " bytes exceeds the 4 GB JSON parser limit"));
      }
    }
    outcome = pipeline.Run(exact, /*speculative=*/false);
    if (outcome.cancelled) return cancelled();
    if (outcome.failed_chunk != SIZE_MAX) {
      // The exact scan accepted what simdjson rejects: report simdjson's view.
      return MakeUnexpected(
          MakeLoadError(LoadErrorCode::kJsonSyntax, path, outcome.failure.failure_offset, outcome.failure.failure));
    }
    if (scan.stopped_at == ScanReport::kNone) {
      report = scan;
      break;
    }
    start = ScanStart{scan.stopped_at, false, scan.object_form};
  }
  // A stream that failed (the bomb limit, a cancel) fails the load even when
  // the bytes before the failure parsed.
  auto all = feed->All();
  if (!all) return MakeUnexpected(all.error());
  const DecodedInput& input = **all;
  pipeline.DropBuffers();
  importer.Finish();
  NoteXlaEventCap(importer.complete_tally(), &builder);
  const bool json_truncated = report.status == ScanReport::Status::kTruncated;
  if (json_truncated || input.truncated) RecordTruncation(&builder, input, json_truncated ? &report : nullptr);
  Trace trace = builder.Finish();
  trace.mutable_info().format = "chrome-json";
  return trace;
}

}  // namespace

Result<Trace, LoadError> LoadChromeJson(const DecodedInput& input, const std::string& path, const LoadOptions& options,
                                        LoadProgress* progress, const ChromeJsonTuning& tuning) {
  TextFeed feed(input);
  return LoadFromFeed(&feed, path, options, progress, tuning);
}

Result<Trace, LoadError> LoadChromeJsonStreamed(DecodeStream* stream, DecodedInput* finished, const std::string& path,
                                                const LoadOptions& options, LoadProgress* progress,
                                                const ChromeJsonTuning& tuning) {
  TextFeed feed(stream, finished);
  return LoadFromFeed(&feed, path, options, progress, tuning);
}

}  // namespace stepline::loaders
