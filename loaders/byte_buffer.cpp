// ByteBuffer (see byte_source.h): zero-padded heap buffers, read-only file
// mappings with the padding as anonymous zero pages, pipes read to their end,
// and giving pages back behind a front-to-back reader.
#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "loaders/byte_source.h"
#include "loaders/memory_estimate.h"
#include "loaders/posix_io.h"
#include "model/huge_pages.h"
#include "model/sl_assert.h"
#include "model/text_format.h"

namespace stepline::loaders {
namespace {

LoadError IoError(const std::string& path, const char* what, int err) {
  if (err == ENOMEM) {  // no address space for the mapping or the buffer: say what the trace needs
    return MakeLoadError(LoadErrorCode::kOutOfMemory, path, LoadError::kNoOffset,
                         std::string(what) + ": " + OutOfMemoryMessage("reading the file", EstimateLoadMemory(path)));
  }
  return MakeLoadError(LoadErrorCode::kIoError, path, LoadError::kNoOffset,
                       std::string(what) + ": " + std::strerror(err));
}

// Large output buffers are written once, front to back, right after being
// allocated, so 4 KiB page faults cost as much as inflating: libdeflate on a
// 54 MB trace takes 35 ms CPU into fresh small pages, 19 ms with huge pages
// that are already backed (zstd: 53 -> 28 ms). AdviseHugePages
// (model/huge_pages.h) advises them only with STEPLINE_HUGE_PAGES=1: on a VM
// that hands free memory back to its host, a fresh huge page costs more.

struct FdCloser {
  int fd;
  ~FdCloser() { ::close(fd); }
};

bool Cancelled(const LoadProgress* progress) {
  return progress != nullptr && progress->cancel.load(std::memory_order_relaxed);
}

// Waits until the pipe has bytes or its writer has gone: true then, false
// when the load was cancelled first. The descriptor stays non-blocking and
// is read only after poll() says so, because a FIFO opened before any writer
// reads as end-of-file at once (a writer starting a second later made it
// "the file is empty"), whereas poll() reports nothing until a writer came
// and wrote or left (Linux raises POLLHUP on a FIFO only once a writer was
// seen). The timeout is only for noticing a cancel.
bool WaitForPipe(int fd, const LoadProgress* progress) {
  for (;;) {
    if (Cancelled(progress)) return false;
    pollfd p{fd, POLLIN, 0};
    const int r = ::poll(&p, 1, 100);
    if (r > 0 || (r < 0 && errno != EINTR)) return true;  // an error shows in the read that follows
  }
}

// Reads a pipe to its end (`-` for standard input, a FIFO, `stepline
// <(zcat trace.json.gz)`); the content cannot be mapped. Bounded by the
// decoded-size limit. Its size is unknown until the end, so the progress
// says how many bytes have arrived (bytes_total stays 0).
Result<ByteBuffer, LoadError> ReadPipe(int fd, const std::string& path, LoadProgress* progress) {
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  const uint64_t limit = DefaultMaxDecodedBytes();
  ByteBuffer buf = ByteBuffer::Allocate(0);
  size_t used = 0;
  for (;;) {
    if (used == buf.capacity()) {
      if (used >= limit) {
        return MakeUnexpected(MakeLoadError(LoadErrorCode::kTooLarge, path, LoadError::kNoOffset,
                                            "pipe delivers more than the limit of " + text::FormatBytes(limit)));
      }
      buf.Resize(used);
      buf.Reserve(std::min<uint64_t>(limit, std::max<uint64_t>(ByteBuffer::kMinGrowth, uint64_t{used} * 2)));
      if (buf.capacity() == used) return MakeUnexpected(IoError(path, "read", ENOMEM));
    }
    if (!WaitForPipe(fd, progress)) {
      return MakeUnexpected(MakeLoadError(LoadErrorCode::kCancelled, path, used, "cancelled while reading the pipe"));
    }
    const ssize_t n = ReadSome(fd, buf.mutable_data() + used, buf.capacity() - used);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) continue;
    if (n < 0) return MakeUnexpected(IoError(path, "read", errno));
    if (n == 0) break;
    used += static_cast<size_t>(n);
    if (progress != nullptr) progress->bytes_done.store(used, std::memory_order_relaxed);
  }
  buf.Resize(used);
  return buf;
}

}  // namespace


ByteBuffer::ByteBuffer(ByteBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      capacity_(std::exchange(other.capacity_, 0)),
      mapped_bytes_(std::exchange(other.mapped_bytes_, 0)),
      writable_(std::exchange(other.writable_, false)),
      single_reader_(std::exchange(other.single_reader_, false)) {}

ByteBuffer& ByteBuffer::operator=(ByteBuffer&& other) noexcept {
  if (this != &other) {
    ByteBuffer old(std::move(*this));  // released when `old` goes out of scope
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    capacity_ = std::exchange(other.capacity_, 0);
    mapped_bytes_ = std::exchange(other.mapped_bytes_, 0);
    writable_ = std::exchange(other.writable_, false);
    single_reader_ = std::exchange(other.single_reader_, false);
  }
  return *this;
}

ByteBuffer::~ByteBuffer() {
  if (mapped_bytes_ != 0) {
    ::munmap(data_, mapped_bytes_);  // the file pages and the padding pages are one range
  } else {
    std::free(data_);
  }
}

ByteBuffer ByteBuffer::Allocate(size_t capacity) {
  ByteBuffer b;
  if (capacity > SIZE_MAX - kPadding) return b;
  // calloc of a large block is fresh zero pages from the kernel: no pass over memory.
  b.data_ = static_cast<char*>(std::calloc(capacity + kPadding, 1));
  if (b.data_ == nullptr) return b;
  b.size_ = b.capacity_ = capacity;
  AdviseHugePages(b.data_, capacity);
  return b;
}

ByteBuffer ByteBuffer::ReserveAddressSpace(size_t capacity) {
  ByteBuffer b;
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  if (capacity > SIZE_MAX - kPadding - page) return b;
  const size_t total = (capacity + kPadding + page - 1) / page * page;
  // Anonymous pages read as zero until written: the padding is free.
  void* base = ::mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (base == MAP_FAILED) return b;
  b.data_ = static_cast<char*>(base);
  b.capacity_ = capacity;
  b.mapped_bytes_ = total;
  b.writable_ = true;
  AdviseHugePages(b.data_, capacity);
  return b;
}

void ByteBuffer::Resize(size_t n) {
  SL_ASSERT((mapped_bytes_ == 0 || writable_) && "a mapped file is read-only");
  SL_ASSERT(n <= capacity_);
  size_ = n;
  if (data_ != nullptr) std::memset(data_ + n, 0, kPadding);
}

void ByteBuffer::Reserve(size_t n) {
  if (writable_) return;  // reserved at its final capacity; it never moves
  SL_ASSERT(mapped_bytes_ == 0 && "a mapped file is read-only");
  if (data_ != nullptr && n <= capacity_) return;
  if (n > SIZE_MAX - kPadding) return;
  void* grown = std::realloc(data_, n + kPadding);
  if (grown == nullptr) return;
  const bool fresh = data_ == nullptr;
  data_ = static_cast<char*>(grown);
  capacity_ = n;
  // [size_, size_ + kPadding) was already zero unless the block is new; the
  // bytes between size_ and capacity_ are scratch and stay uninitialised.
  if (fresh) std::memset(data_, 0, kPadding);
  std::memset(data_ + capacity_, 0, kPadding);
  // Only an empty buffer (a presize): growing a huge-page buffer with content
  // measured slower (realloc's mremap splits the huge pages).
  if (size_ == 0) AdviseHugePages(data_, capacity_);
}

Result<ByteBuffer, LoadError> ByteBuffer::MapFile(const std::string& path, LoadProgress* progress) {
  // `-` is standard input: a pipe is read to its end, a redirected file
  // mapped like any other. A duplicate, so closing it leaves stdin open.
  // O_NONBLOCK so that opening a FIFO with no writer cannot hang.
  const bool is_stdin = path == kStandardInput;
  int fd = is_stdin ? ::fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0) : ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return MakeUnexpected(IoError(path, "cannot open", errno));
  FdCloser closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) return MakeUnexpected(IoError(path, "cannot stat", errno));
  if (S_ISDIR(st.st_mode)) {
    return MakeUnexpected(MakeLoadError(LoadErrorCode::kIoError, path, LoadError::kNoOffset,
                                    "is a directory, not a trace file (open a file inside it, e.g. "
                                    "plugins/profile/<run>/<host>.xplane.pb)"));
  }
  if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) return ReadPipe(fd, path, progress);
  if (is_stdin && !S_ISREG(st.st_mode)) {
    return MakeUnexpected(MakeLoadError(LoadErrorCode::kIoError, path, LoadError::kNoOffset,
                                        "standard input is not a pipe or a file (pipe a trace into it: "
                                        "zcat run.json.gz | stepline info -)"));
  }
  if (!S_ISREG(st.st_mode)) {
    return MakeUnexpected(MakeLoadError(LoadErrorCode::kIoError, path, LoadError::kNoOffset, "not a regular file"));
  }
  const uint64_t file_size = static_cast<uint64_t>(st.st_size);
  if (file_size == 0) return Allocate(0);  // mmap of 0 bytes is an error
  const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  if (file_size > SIZE_MAX - kPadding - page) return MakeUnexpected(IoError(path, "cannot map", EFBIG));
  const size_t total = static_cast<size_t>((file_size + kPadding + page - 1) / page * page);

  // Reserve file + padding as zero anonymous pages, then map the file over the
  // start. Bytes past EOF in the file's last page read as zero (POSIX), and the
  // pages after it are the anonymous zeros: simdjson's padding, without a copy.
  void* base = ::mmap(nullptr, total, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (base == MAP_FAILED) return MakeUnexpected(IoError(path, "cannot map", errno));
  void* mapped = ::mmap(base, static_cast<size_t>(file_size), PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0);
  if (mapped == MAP_FAILED) {
    const int err = errno;
    ::munmap(base, total);
    return MakeUnexpected(IoError(path, "cannot map", err));
  }
  ByteBuffer b;
  b.data_ = static_cast<char*>(base);
  b.size_ = b.capacity_ = static_cast<size_t>(file_size);
  b.mapped_bytes_ = total;
  return b;
}

void ByteBuffer::ReleasePages(uint64_t begin, uint64_t end) const {
  const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  if (mapped_bytes_ == 0 || writable_) {
    if (!single_reader_ || data_ == nullptr) return;
    // Heap memory is not page-aligned: whole pages strictly inside the range
    // only, never the allocator's header before data_ or the bytes after it.
    const uintptr_t base = reinterpret_cast<uintptr_t>(data_);
    const uintptr_t first = (base + begin + page - 1) / page * page;
    const uintptr_t last = (base + std::min<uint64_t>(end, size_)) / page * page;
    if (first < last) ::madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
    return;
  }
  begin = begin / page * page;  // data_ is page-aligned: offsets and addresses agree
  end = std::min<uint64_t>(end, size_) / page * page;
  if (begin >= end) return;
  // The mapping is private and read-only, so its pages are never copies of
  // their own: dropping one only unmaps the page cache's page.
  ::madvise(data_ + begin, static_cast<size_t>(end - begin), MADV_DONTNEED);
}

}  // namespace stepline::loaders
