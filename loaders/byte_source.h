// ByteSource: gets a file's content into memory, decompressed, followed by
// zero padding (simdjson reads up to 64 bytes past the end). Plain files are
// memory-mapped, not copied. gzip (all members) and zstd (all frames,
// skippable frames skipped) are detected by magic bytes and inflated; a
// truncated or corrupt compressed tail keeps every byte decoded before it and
// says so, so the format loader can still load the prefix. LoadFile parses
// compressed Chrome JSON while it decompresses instead (decode_stream.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "loaders/load.h"
#include "loaders/load_error.h"
#include "model/result.h"

namespace stepline::loaders {

// The path that names standard input.
inline constexpr std::string_view kStandardInput = "-";

// Bytes followed by at least kPadding zero bytes. Move-only.
class ByteBuffer {
 public:
  static constexpr size_t kPadding = 64;
  // A growing buffer takes at least this much more each time (reads and
  // decoders grow by doubling, so small inputs do not grow byte by byte).
  static constexpr size_t kMinGrowth = size_t{1} << 20;

  ByteBuffer() = default;
  ByteBuffer(ByteBuffer&&) noexcept;
  ByteBuffer& operator=(ByteBuffer&&) noexcept;
  ~ByteBuffer();

  // Heap buffer with size() == capacity, every byte zero. On allocation
  // failure the buffer is empty and data() is null.
  static ByteBuffer Allocate(size_t capacity);
  // A read-only private mapping of a file. A FIFO or pipe, and `-`
  // (kStandardInput) when it is one, is read to its end instead, however
  // late its writer comes; `progress` then counts the bytes read and its
  // cancel ends the wait.
  static Result<ByteBuffer, LoadError> MapFile(const std::string& path, LoadProgress* progress = nullptr);
  // size() 0, capacity() `capacity`: address space reserved (MAP_NORESERVE)
  // and committed page by page as it is written, so it never moves and a
  // reader on another thread may read the bytes already written (DecodeStream).
  // Empty (data() null) when the reservation fails.
  static ByteBuffer ReserveAddressSpace(size_t capacity);

  const char* data() const { return data_; }
  char* mutable_data() { return data_; }  // heap buffers only
  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  void Resize(size_t n);    // heap/reserved buffers only; n <= capacity; re-zeroes the padding
  void Reserve(size_t n);   // heap buffers only (reserved: no-op); grows capacity, keeps content (unchanged on failure)
  std::string_view view() const { return {data_, size_}; }
  // Drops this process's resident pages of [begin, end), so a loader that
  // reads the input front to back keeps a window of it resident rather than
  // all of it. A mapped file: from the page holding `begin` to the last whole
  // page before `end`; the content is unchanged (a later read faults the
  // pages back in from the file). A heap buffer: only once
  // MarkSingleReader() was called, and only the whole pages inside
  // [begin, end), which then read as zero; otherwise a no-op, since its
  // pages are the only copy.
  void ReleasePages(uint64_t begin, uint64_t end) const;
  // The one load that reads this buffer reads it once, front to back, and
  // nothing reads it after: its heap pages may be discarded behind that load
  // (LoadFile and LoadBytes own their decoded input; a caller's DecodedInput
  // may be loaded again and is never marked).
  void MarkSingleReader() { single_reader_ = true; }

 private:
  char* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
  size_t mapped_bytes_ = 0;  // != 0: data_ is an mmap of this many bytes
  bool writable_ = false;    // a ReserveAddressSpace() mapping
  bool single_reader_ = false;
};

struct DecodedInput {
  ByteBuffer bytes;                 // decompressed content + padding
  std::string compression;          // "", "gzip", "zstd"
  uint64_t file_bytes = 0;          // size on disk / of the given buffer
  bool truncated = false;           // the compressed stream ended early or broke
  uint64_t truncated_at = 0;        // compressed offset where decoding stopped
  std::string truncation_detail;    // e.g. "gzip stream ends inside a member"
};

// Decompressed content beyond this is refused with kTooLarge (decompression
// bombs): min(64 GiB, physical RAM, MemAvailable at the time of the call;
// never below 256 MiB).
uint64_t DefaultMaxDecodedBytes();

// Reads and decompresses a file. Never writes to it. `max_decoded_bytes` 0
// means DefaultMaxDecodedBytes() (tests pass a small limit).
Result<DecodedInput, LoadError> OpenInput(const std::string& path, LoadProgress* progress,
                                          uint64_t max_decoded_bytes = 0);
// The same for a file already mapped (ByteBuffer::MapFile).
Result<DecodedInput, LoadError> DecodeFile(ByteBuffer file, const std::string& path, LoadProgress* progress,
                                           uint64_t max_decoded_bytes = 0);
// The same for bytes already in memory (copied once).
Result<DecodedInput, LoadError> DecodeBytes(std::string_view bytes, const std::string& name, LoadProgress* progress,
                                            uint64_t max_decoded_bytes = 0);

}  // namespace stepline::loaders
