// Line decoding and the decode pipeline (see xline_decoder.h).
#include "loaders/xspace/xline_decoder.h"
#include "model/worker_thread.h"

namespace stepline::loaders::xspace {

bool CollectLineSpans(const char* input, PlaneSpan plane, std::vector<LineSpan>* lines, WireError* error) {
  const char* begin = input + plane.offset;
  WireReader reader(begin, begin + plane.size, plane.offset);
  WireField f;
  while (!reader.done()) {
    if (!reader.Next(&f)) {
      *error = reader.error();
      return false;
    }
    if (f.number == 3 && f.type == WireType::kLen) lines->push_back(LineSpan{f.payload, f.payload_size});
  }
  return true;
}

//-----------------------------------------------------------------------------
// LineDecoder
//-----------------------------------------------------------------------------

LineDecoder::LineDecoder(const char* input, LineSpan line, size_t plane_index, size_t line_index)
    : input_(input),
      line_(line),
      plane_index_(plane_index),
      line_index_(line_index),
      events_(line.data, line.data + line.size, static_cast<uint64_t>(line.data - input)) {}

// Header fields may follow the events on the wire (C++ writers put
// display_id / display_name, fields 10 and 11, after them), so the header is
// a first pass that skips event payloads.
bool LineDecoder::ReadHeader(LineChunk* chunk) {
  header_ = LineHeader{};
  header_.offset = static_cast<uint64_t>(line_.data - input_);
  WireReader reader(line_.data, line_.data + line_.size, header_.offset);
  WireField f;
  while (!reader.done()) {
    if (!reader.Next(&f)) {
      chunk->failed = true;
      chunk->error = reader.error();
      return false;
    }
    if (f.type == WireType::kVarint) {
      if (f.number == 1) header_.id = static_cast<int64_t>(f.value);
      if (f.number == 3) header_.timestamp_ns = static_cast<int64_t>(f.value);
      if (f.number == 10) header_.display_id = static_cast<int64_t>(f.value);
    } else if (f.type == WireType::kLen) {
      if (f.number == 2) header_.name = PayloadView(f);
      if (f.number == 4) ++header_.event_count;
      if (f.number == 11) header_.display_name = PayloadView(f);
    }
  }
  return true;
}

bool LineDecoder::DecodeEvent(const WireField& field, LineChunk* chunk) {
  DecodedEvent& event = chunk->events.emplace_back();
  event.offset = events_.OffsetOf(field.payload);
  event.stat_begin = static_cast<uint32_t>(chunk->stats.size());
  WireReader reader(field.payload, field.payload + field.payload_size, event.offset);
  WireField f;
  while (!reader.done()) {
    if (!reader.Next(&f)) {
      chunk->error = reader.error();
      return false;
    }
    if (f.type == WireType::kVarint) {
      switch (f.number) {
        case 1: event.metadata_id = static_cast<int64_t>(f.value); break;
        case 2: event.offset_ps = static_cast<int64_t>(f.value), event.has_time = true; break;
        case 3: event.duration_ps = static_cast<int64_t>(f.value); break;
        case 5: event.has_time = false; break;  // num_occurrences: an aggregate with no start time
        default: break;
      }
    } else if (f.type == WireType::kLen && f.number == 4) {
      RawStat& stat = chunk->stats.emplace_back();
      if (!DecodeStat(f.payload, f.payload_size, reader.OffsetOf(f.payload), &stat, &chunk->error)) return false;
    }
  }
  event.stat_end = static_cast<uint32_t>(chunk->stats.size());
  return true;
}

bool LineDecoder::Next(LineChunk* chunk) {
  if (finished_) return false;
  chunk->plane_index = plane_index_;
  chunk->line_index = line_index_;
  chunk->events.clear();
  chunk->stats.clear();
  chunk->failed = false;
  chunk->failed_event = UINT64_MAX;
  chunk->last = false;
  if (!header_done_) {
    header_done_ = true;
    if (!ReadHeader(chunk)) {
      chunk->header = header_;
      chunk->last = finished_ = true;
      return true;
    }
  }
  chunk->header = header_;
  chunk->first_event = next_event_;
  WireField f;
  while (chunk->events.size() < kChunkEvents && next_event_ < header_.event_count) {
    if (!events_.Next(&f)) {  // cannot happen after a clean header pass; kept for safety
      chunk->failed = true;
      chunk->error = events_.error();
      chunk->last = finished_ = true;
      return true;
    }
    if (f.number != 4 || f.type != WireType::kLen) continue;
    if (!DecodeEvent(f, chunk)) {
      chunk->failed = true;
      chunk->failed_event = next_event_;
      chunk->last = finished_ = true;
      return true;
    }
    ++next_event_;
  }
  chunk->end_offset = events_.offset();
  chunk->last = finished_ = next_event_ == header_.event_count;
  return true;
}

//-----------------------------------------------------------------------------
// LinePipeline
//-----------------------------------------------------------------------------

LinePipeline::LinePipeline(const char* input, const std::vector<PlaneSpan>& planes, bool threaded)
    : input_(input), planes_(planes), threaded_(threaded) {
  if (threaded_) worker_ = StartThread([this] { Produce(); });
}

LinePipeline::~LinePipeline() {
  if (!threaded_) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  worker_.join();
}

bool LinePipeline::ProduceOne(LineChunk* chunk) {
  if (done_) return false;
  for (;;) {
    if (decoder_) {
      if (decoder_->Next(chunk)) {
        if (chunk->last) decoder_.reset();
        if (chunk->failed) done_ = true;
        return true;
      }
      decoder_.reset();
    }
    if (plane_ >= planes_.size()) {
      done_ = true;
      return false;
    }
    if (!lines_ready_) {
      lines_.clear();
      line_ = 0;
      WireError error;
      if (!CollectLineSpans(input_, planes_[plane_], &lines_, &error)) {
        *chunk = LineChunk{};
        chunk->plane_index = plane_;
        chunk->failed = true;
        chunk->error = error;
        done_ = true;
        return true;
      }
      lines_ready_ = true;
    }
    if (line_ >= lines_.size()) {
      ++plane_;
      lines_ready_ = false;
      continue;
    }
    decoder_ = std::make_unique<LineDecoder>(input_, lines_[line_], plane_, line_);
    ++line_;
  }
}

std::unique_ptr<LineChunk> LinePipeline::TakeFree() {
  if (free_.empty()) return std::make_unique<LineChunk>();
  std::unique_ptr<LineChunk> chunk = std::move(free_.back());
  free_.pop_back();
  return chunk;
}

void LinePipeline::Produce() {
  for (;;) {
    std::unique_ptr<LineChunk> chunk;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [this] { return stop_ || ready_.size() < kQueueChunks; });
      if (stop_) return;
      chunk = TakeFree();
    }
    bool produced = false;
    std::exception_ptr error;
    try {
      produced = ProduceOne(chunk.get());  // the decoding, outside the lock
    } catch (...) {
      error = std::current_exception();  // escaping this thread would be std::terminate: Next() rethrows it
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      producer_error_ = error;
      if (produced) {
        ready_.push_back(std::move(chunk));
      } else {
        producer_done_ = true;
      }
    }
    changed_.notify_all();
    if (!produced) return;
  }
}

LineChunk* LinePipeline::Next() {
  if (!threaded_) {
    if (!current_) current_ = std::make_unique<LineChunk>();
    return ProduceOne(current_.get()) ? current_.get() : nullptr;
  }
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [this] { return !ready_.empty() || producer_done_; });
  if (ready_.empty() && producer_error_) std::rethrow_exception(producer_error_);
  if (ready_.empty()) return nullptr;
  current_ = std::move(ready_.front());
  ready_.pop_front();
  lock.unlock();
  changed_.notify_all();
  return current_.get();
}

void LinePipeline::Release(LineChunk* chunk) {
  if (!threaded_ || !current_ || chunk != current_.get()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    free_.push_back(std::move(current_));
  }
}

}  // namespace stepline::loaders::xspace
