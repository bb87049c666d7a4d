// Line decoding without the model: an XLine's header fields and its events
// (metadata id, time, raw stats) in chunks of at most kChunkEvents, and the
// LinePipeline that runs this decoding on a worker thread ahead of the
// single-threaded TraceBuilder.
//
// Why a pipeline and not a thread per plane: real profiles put most events
// in one or two planes (the host, the busiest GPU), so plane-level
// parallelism does not pay; decoding is ~25% of a load and the builder's
// interning and table appends must stay in event order on one thread. So one
// worker walks every plane's lines in file order and hands decoded chunks
// through a small bounded queue; the builder thread consumes them in the same
// order. Text stays as views into the input bytes, which outlive the load.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <string_view>
#include <thread>
#include <vector>

#include "loaders/proto_wire/wire_reader.h"
#include "loaders/xspace/xspace_framing.h"
#include "loaders/xspace/xspace_stats.h"

namespace stepline::loaders::xspace {

inline constexpr size_t kChunkEvents = 4096;  // about 1 MB of decoded events and stats, reused

struct LineHeader {
  int64_t id = 0, display_id = 0, timestamp_ns = 0;
  std::string_view name, display_name;
  uint64_t offset = 0;       // absolute offset of the XLine payload
  uint64_t event_count = 0;  // XLine.events entries
};

struct DecodedEvent {
  int64_t metadata_id = 0;
  int64_t offset_ps = 0;
  int64_t duration_ps = 0;
  bool has_time = true;      // false when num_occurrences was set instead of offset_ps
  uint64_t offset = 0;       // absolute offset of the XEvent payload
  uint32_t stat_begin = 0, stat_end = 0;  // into LineChunk::stats
};

// Consecutive events of one line. Every line yields at least one chunk (an
// empty line one empty chunk), so the consumer sees every header.
struct LineChunk {
  size_t plane_index = 0, line_index = 0;
  LineHeader header;
  bool last = true;             // the line's last chunk
  uint64_t first_event = 0;     // index in the line of events[0]
  uint64_t end_offset = 0;      // absolute offset just past the chunk's bytes (progress)
  std::vector<DecodedEvent> events;
  std::vector<RawStat> stats;
  bool failed = false;          // malformed bytes: `error`, at event `failed_event` (or the header / plane)
  WireError error;
  uint64_t failed_event = UINT64_MAX;
};

// Walks one XPlane's fields and returns its line payloads, in order.
struct LineSpan {
  const char* data;
  uint64_t size;
};
bool CollectLineSpans(const char* input, PlaneSpan plane, std::vector<LineSpan>* lines, WireError* error);

// Decodes the chunks of one line, in order.
class LineDecoder {
 public:
  LineDecoder(const char* input, LineSpan line, size_t plane_index, size_t line_index);
  // Fills `chunk` with the next events; false when the line has no more chunks.
  bool Next(LineChunk* chunk);

 private:
  bool ReadHeader(LineChunk* chunk);
  bool DecodeEvent(const WireField& f, LineChunk* chunk);

  const char* input_;
  LineSpan line_;
  size_t plane_index_, line_index_;
  LineHeader header_;
  bool header_done_ = false, finished_ = false;
  uint64_t next_event_ = 0;
  WireReader events_;  // cursor over the line's fields, at the next unread event
};

// Produces every line chunk of every plane, in file order; threaded or not.
class LinePipeline {
 public:
  LinePipeline(const char* input, const std::vector<PlaneSpan>& planes, bool threaded);
  ~LinePipeline();  // stops and joins the worker
  LinePipeline(const LinePipeline&) = delete;
  LinePipeline& operator=(const LinePipeline&) = delete;

  // The next chunk (owned by the pipeline until Release), or null after the
  // last one. After a chunk with `failed`, nothing follows.
  LineChunk* Next();
  void Release(LineChunk* chunk);

 private:
  static constexpr size_t kQueueChunks = 24;  // ~100k events of slack: the worker may be descheduled
  void Produce();  // worker body
  bool ProduceOne(LineChunk* chunk);  // the serial core: fills the next chunk; false when done
  std::unique_ptr<LineChunk> TakeFree();

  const char* input_;
  std::vector<PlaneSpan> planes_;
  // Serial cursor (worker thread, or the caller when not threaded).
  size_t plane_ = 0, line_ = 0;
  std::vector<LineSpan> lines_;
  bool lines_ready_ = false;
  std::unique_ptr<LineDecoder> decoder_;
  bool done_ = false;

  bool threaded_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::unique_ptr<LineChunk>> ready_;
  std::vector<std::unique_ptr<LineChunk>> free_;
  std::unique_ptr<LineChunk> current_;  // handed out by Next()
  bool producer_done_ = false, stop_ = false;
  std::exception_ptr producer_error_;  // what decoding threw on the producer thread
  std::thread worker_;
};

}  // namespace stepline::loaders::xspace
