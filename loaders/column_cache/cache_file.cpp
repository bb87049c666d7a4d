// Writing and mapping column cache files (layout in cache_file.h).
//
// [SECTION] Hash and on-disk structs
// [SECTION] Writer: a Trace::VisitStorage visitor that streams columns out
// [SECTION] Reader: a visitor that hands out borrowed columns, after checks
#include "loaders/column_cache/cache_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <memory>
#include <thread>
#include <type_traits>
#include <vector>

#include "loaders/posix_io.h"
#include "model/hash_mix.h"
#include "model/worker_thread.h"

namespace stepline::column_cache {

//-----------------------------------------------------------------------------
// [SECTION] Hash and on-disk structs
//-----------------------------------------------------------------------------
namespace {

constexpr char kMagic[8] = {'S', 'T', 'E', 'P', 'L', 'C', 'C', '\0'};
constexpr size_t kMaxEntries = 128;
constexpr size_t kAlign = 64;
// Checksums are computed per chunk (so that a cached open verifies a big
// column on several threads) and then over the chunks' hashes.
constexpr size_t kChunkBytes = size_t{8} << 20;

struct FileHeader {
  char magic[8];
  uint32_t format_version;
  uint32_t header_bytes;  // sizeof(FileHeader), a second guard against layout drift
  char stepline_version[32];
  TraceKey key;
  uint64_t file_bytes;   // the whole cache file; a shorter file was cut
  uint64_t entry_count;  // used slots of the index, meta included
  uint64_t checksum;     // over this header (with checksum = 0) and the index
  char reserved[256 - 8 - 4 - 4 - 32 - sizeof(TraceKey) - 3 * 8];
};
static_assert(sizeof(FileHeader) == 256);

struct IndexEntry {
  char name[40];  // NUL-terminated column name ("slices.start_ns")
  uint32_t elem_size;
  uint32_t reserved;
  uint64_t offset;
  uint64_t bytes;
  uint64_t checksum;
};
static_assert(sizeof(IndexEntry) == 72);

constexpr size_t kDataStart = (sizeof(FileHeader) + kMaxEntries * sizeof(IndexEntry) + kAlign - 1) / kAlign * kAlign;

uint64_t AlignUp(uint64_t v) { return (v + kAlign - 1) / kAlign * kAlign; }

uint64_t ChunkHash(const char* data, uint64_t bytes, uint64_t chunk) {
  const uint64_t begin = chunk * kChunkBytes;
  return HashBytes(data + begin, std::min<uint64_t>(kChunkBytes, bytes - begin), chunk);
}

uint64_t CombineChunks(const std::vector<uint64_t>& chunk_hashes, uint64_t bytes) {
  return HashBytes(chunk_hashes.data(), chunk_hashes.size() * sizeof(uint64_t), bytes);
}

uint64_t ChunkCount(uint64_t bytes) { return (bytes + kChunkBytes - 1) / kChunkBytes; }

uint64_t EntryChecksum(const char* data, uint64_t bytes) {
  std::vector<uint64_t> chunks(ChunkCount(bytes));
  for (uint64_t c = 0; c < chunks.size(); ++c) chunks[c] = ChunkHash(data, bytes, c);
  return CombineChunks(chunks, bytes);
}

uint64_t HeaderChecksum(FileHeader header, const IndexEntry* index) {
  header.checksum = 0;
  const uint64_t h = HashBytes(&header, sizeof header, 1);
  return HashBytes(index, kMaxEntries * sizeof(IndexEntry), h);
}

void CopyName(char* dst, size_t cap, std::string_view name) {
  std::memset(dst, 0, cap);
  std::memcpy(dst, name.data(), std::min(name.size(), cap - 1));
}

}  // namespace

uint64_t HashBytes(const void* data, size_t bytes, uint64_t seed) {
  constexpr uint64_t kP0 = 0xa0761d6478bd642full, kP1 = 0xe7037ed1a0b428dbull, kP2 = 0x8ebc6af09c88c6e3ull;
  const auto* p = static_cast<const char*>(data);
  uint64_t h[4] = {seed ^ kP0, seed ^ kP1, seed ^ kP2, seed ^ bytes};
  size_t n = bytes;
  while (n >= 32) {
    uint64_t w[4];
    std::memcpy(w, p, 32);
    for (int i = 0; i < 4; ++i) h[i] = MultiplyFold(h[i] ^ w[i], kP1 + static_cast<uint64_t>(i) * 2);
    p += 32;
    n -= 32;
  }
  uint64_t out = MultiplyFold(h[0] ^ h[2], kP0) ^ MultiplyFold(h[1] ^ h[3], kP2);
  while (n >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    out = MultiplyFold(out ^ w, kP1);
    p += 8;
    n -= 8;
  }
  uint64_t tail = 0;
  if (n > 0) std::memcpy(&tail, p, n);  // p may be null for an empty column
  return MultiplyFold(out ^ tail ^ bytes, kP0 ^ kP1);
}

//-----------------------------------------------------------------------------
// [SECTION] Writer
//-----------------------------------------------------------------------------
namespace {

class Writer {
 public:
  explicit Writer(int fd) : fd_(fd), offset_(kDataStart) { entries_.emplace_back(); }  // slot 0: meta

  template <typename T>
  void Col(const char* name, const Column<T>& column) {
    AddEntry(name, sizeof(T), reinterpret_cast<const char*>(column.data()), column.size() * sizeof(T));
  }
  template <typename T>
  void Scalar(const char*, const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto* p = reinterpret_cast<const char*>(&value);
    meta_.insert(meta_.end(), p, p + sizeof(T));
  }
  void Text(const char* name, const std::string& s) {
    Scalar(name, static_cast<uint64_t>(s.size()));
    meta_.insert(meta_.end(), s.begin(), s.end());
  }
  bool ok() const { return error_.empty(); }
  void Fail(std::string_view why) {
    if (error_.empty()) error_ = std::string(why);
  }

  // Writes the meta blob, then the header and index at the front.
  bool Finish(const TraceKey& key, std::string_view version, std::string* error) {
    AddEntry("meta", 1, meta_.data(), meta_.size(), /*slot=*/0);
    if (!ok()) {
      *error = error_;
      return false;
    }
    std::vector<IndexEntry> index(kMaxEntries);
    std::copy(entries_.begin(), entries_.end(), index.begin());
    FileHeader header{};
    std::memcpy(header.magic, kMagic, sizeof kMagic);
    header.format_version = kFormatVersion;
    header.header_bytes = sizeof(FileHeader);
    CopyName(header.stepline_version, sizeof header.stepline_version, version);
    header.key = key;
    header.file_bytes = offset_;
    header.entry_count = entries_.size();
    header.checksum = HeaderChecksum(header, index.data());
    if (!WriteAt(reinterpret_cast<const char*>(&header), sizeof header, 0) ||
        !WriteAt(reinterpret_cast<const char*>(index.data()), index.size() * sizeof(IndexEntry), sizeof header)) {
      *error = error_;
      return false;
    }
    if (ftruncate(fd_, static_cast<off_t>(offset_)) != 0) {
      *error = std::string("ftruncate: ") + std::strerror(errno);
      return false;
    }
    return true;
  }

 private:
  void AddEntry(std::string_view name, uint32_t elem_size, const char* data, uint64_t bytes, int slot = -1) {
    if (!ok()) return;
    if (slot < 0 && entries_.size() >= kMaxEntries) return Fail("more columns than the cache index holds");
    IndexEntry e{};
    CopyName(e.name, sizeof e.name, name);
    e.elem_size = elem_size;
    e.offset = offset_;
    e.bytes = bytes;
    e.checksum = EntryChecksum(data, bytes);
    if (!WriteAt(data, bytes, offset_)) return;
    offset_ = AlignUp(offset_ + bytes);
    if (slot < 0) {
      entries_.push_back(e);
    } else {
      entries_[static_cast<size_t>(slot)] = e;
    }
  }

  bool WriteAt(const char* data, uint64_t bytes, uint64_t at) {
    if (loaders::WriteAllAt(fd_, data, bytes, at)) return true;
    Fail(std::string("write: ") + std::strerror(errno));
    return false;
  }

  int fd_;
  uint64_t offset_;
  std::vector<IndexEntry> entries_;
  std::vector<char> meta_;
  std::string error_;
};

}  // namespace

bool WriteCacheFile(const Trace& trace, const TraceKey& key, std::string_view stepline_version,
                    const std::string& path, std::string* error) {
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    *error = path + ": " + std::strerror(errno);
    return false;
  }
  Writer writer(fd);
  Trace::VisitStorage(trace, writer);
  const bool ok = writer.Finish(key, stepline_version, error);
  if (close(fd) != 0 && ok) {
    *error = path + ": close: " + std::strerror(errno);
    return false;
  }
  if (!ok) *error = path + ": " + *error;
  return ok;
}

//-----------------------------------------------------------------------------
// [SECTION] Reader
//-----------------------------------------------------------------------------
namespace {

// The mapping a cache-loaded Trace holds (Trace::set_backing).
struct Mapping {
  void* addr = MAP_FAILED;
  size_t bytes = 0;
  ~Mapping() {
    if (addr != MAP_FAILED) munmap(addr, bytes);
  }
};

class Reader {
 public:
  Reader(const char* base, const IndexEntry* index, size_t count) : base_(base), index_(index), count_(count) {
    meta_ = base + index[0].offset;
    meta_end_ = meta_ + index[0].bytes;
  }

  template <typename T>
  void Col(const char* name, Column<T>& column) {
    if (!ok()) return;
    if (next_ >= count_) return Fail(std::string("index ends before column ") + name);
    const IndexEntry& e = index_[next_++];
    if (std::strncmp(e.name, name, sizeof e.name) != 0) {
      return Fail(std::string("column '") + std::string(e.name, strnlen(e.name, sizeof e.name)) + "' where '" +
                  name + "' was expected");
    }
    if (e.elem_size != sizeof(T) || e.bytes % sizeof(T) != 0 || e.offset % alignof(T) != 0) {
      return Fail(std::string("column ") + name + ": element size or alignment does not match");
    }
    column = Column<T>::Borrow({reinterpret_cast<const T*>(base_ + e.offset), e.bytes / sizeof(T)});
  }
  template <typename T>
  void Scalar(const char* name, T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    if (!ok()) return;
    if (static_cast<size_t>(meta_end_ - meta_) < sizeof(T)) return Fail(std::string("meta ends before ") + name);
    std::memcpy(&value, meta_, sizeof(T));
    meta_ += sizeof(T);
  }
  void Text(const char* name, std::string& s) {
    uint64_t n = 0;
    Scalar(name, n);
    if (!ok()) return;
    if (n > static_cast<uint64_t>(meta_end_ - meta_)) return Fail(std::string("meta ends inside ") + name);
    s.assign(meta_, static_cast<size_t>(n));
    meta_ += n;
  }
  bool ok() const { return error_.empty(); }
  void Fail(std::string_view why) {
    if (error_.empty()) error_ = std::string(why);
  }
  // Everything was consumed: no column or meta byte is left over.
  void CheckAllRead() {
    if (ok() && (next_ != count_ || meta_ != meta_end_)) Fail("the file holds more than the model reads");
  }
  const std::string& error() const { return error_; }

 private:
  const char* base_;
  const IndexEntry* index_;
  size_t count_;
  size_t next_ = 1;  // slot 0 is the meta blob
  const char* meta_;
  const char* meta_end_;
  std::string error_;
};

// Verifies every entry's checksum, chunks spread over up to four threads.
bool VerifyChecksums(const char* base, const IndexEntry* index, size_t count) {
  struct Job {
    size_t entry;
    uint64_t chunk;
  };
  std::vector<Job> jobs;
  std::vector<std::vector<uint64_t>> hashes(count);
  for (size_t i = 0; i < count; ++i) {
    hashes[i].resize(ChunkCount(index[i].bytes));
    for (uint64_t c = 0; c < hashes[i].size(); ++c) jobs.push_back({i, c});
  }
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t j; (j = next.fetch_add(1)) < jobs.size();) {
      const IndexEntry& e = index[jobs[j].entry];
      hashes[jobs[j].entry][jobs[j].chunk] = ChunkHash(base + e.offset, e.bytes, jobs[j].chunk);
    }
  };
  const size_t threads = std::min<size_t>({4, std::max(1u, std::thread::hardware_concurrency()), jobs.size()});
  std::vector<WorkerThread> pool;
  for (size_t t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  JoinAll(pool);
  for (size_t i = 0; i < count; ++i) {
    if (CombineChunks(hashes[i], index[i].bytes) != index[i].checksum) return false;
  }
  return true;
}

// The entries tile the data area in offset order, and the alignment gaps
// between them (which no checksum covers) hold the zeros the writer left: so
// every byte of the file is checked by something.
bool PaddingIsClean(const char* base, uint64_t file_bytes, const IndexEntry* index, size_t count) {
  std::vector<const IndexEntry*> order;
  for (size_t i = 0; i < count; ++i) order.push_back(&index[i]);
  std::sort(order.begin(), order.end(), [](const IndexEntry* a, const IndexEntry* b) {
    return a->offset != b->offset ? a->offset < b->offset : a->bytes < b->bytes;  // empty entries first
  });
  auto zeros = [&](uint64_t from, uint64_t to) {
    return std::all_of(base + from, base + to, [](char c) { return c == 0; });
  };
  uint64_t at = kDataStart;
  for (const IndexEntry* e : order) {
    if (e->offset < at || e->offset - at >= kAlign || !zeros(at, e->offset)) return false;
    at = e->offset + e->bytes;
  }
  return AlignUp(at) == file_bytes && zeros(at, file_bytes);
}

}  // namespace

Result<Trace, std::string> ReadCacheFile(const std::string& path, const TraceKey& key,
                                         std::string_view stepline_version) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return MakeUnexpected<std::string>(std::string("open: ") + std::strerror(errno));
  struct stat st {};
  if (fstat(fd, &st) != 0 || static_cast<uint64_t>(st.st_size) < kDataStart) {
    close(fd);
    return MakeUnexpected<std::string>("shorter than a header and index");
  }
  auto mapping = std::make_shared<Mapping>();
  mapping->bytes = static_cast<size_t>(st.st_size);
  // Populated at once: the checksum pass reads every page anyway, and one
  // call maps them faster than a fault per page.
  mapping->addr = mmap(nullptr, mapping->bytes, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
  close(fd);
  if (mapping->addr == MAP_FAILED) return MakeUnexpected<std::string>(std::string("mmap: ") + std::strerror(errno));
  const char* base = static_cast<const char*>(mapping->addr);

  FileHeader header;
  std::memcpy(&header, base, sizeof header);
  const auto* index = reinterpret_cast<const IndexEntry*>(base + sizeof(FileHeader));
  if (std::memcmp(header.magic, kMagic, sizeof kMagic) != 0) return MakeUnexpected<std::string>("not a Stepline column cache file");
  if (header.format_version != kFormatVersion || header.header_bytes != sizeof(FileHeader)) {
    return MakeUnexpected<std::string>("cache format version " + std::to_string(header.format_version) + ", this build reads " +
                  std::to_string(kFormatVersion));
  }
  if (HeaderChecksum(header, index) != header.checksum) return MakeUnexpected<std::string>("header or index checksum mismatch");
  char version[sizeof header.stepline_version + 1] = {};
  std::memcpy(version, header.stepline_version, sizeof header.stepline_version);
  if (std::string_view(version) != stepline_version) {
    return MakeUnexpected<std::string>("written by Stepline " + std::string(version) + ", this is " + std::string(stepline_version));
  }
  if (header.key != key) return MakeUnexpected<std::string>("the trace file changed since the cache was written");
  if (header.file_bytes != mapping->bytes) {
    return MakeUnexpected<std::string>("file is " + std::to_string(mapping->bytes) + " bytes, its header says " +
                  std::to_string(header.file_bytes));
  }
  if (header.entry_count < 1 || header.entry_count > kMaxEntries) return MakeUnexpected<std::string>("bad entry count");
  for (size_t i = 0; i < header.entry_count; ++i) {
    const IndexEntry& e = index[i];
    if (e.offset < kDataStart || e.offset % kAlign != 0 || e.offset > mapping->bytes ||
        e.bytes > mapping->bytes - e.offset || e.elem_size == 0 || std::memchr(e.name, 0, sizeof e.name) == nullptr) {
      return MakeUnexpected<std::string>("index entry " + std::to_string(i) + " is out of bounds");
    }
  }
  if (!PaddingIsClean(base, mapping->bytes, index, header.entry_count)) {
    return MakeUnexpected<std::string>("entries overlap, or the bytes between them are not the zeros written");
  }
  if (!VerifyChecksums(base, index, header.entry_count)) return MakeUnexpected<std::string>("column checksum mismatch");

  Trace trace;
  Reader reader(base, index, header.entry_count);
  Trace::VisitStorage(trace, reader);
  reader.CheckAllRead();
  if (!reader.ok()) return MakeUnexpected<std::string>(reader.error());
  if (!trace.finalized()) return MakeUnexpected<std::string>("the cached trace is not finalized");
  trace.set_backing(std::move(mapping));
  return trace;
}

}  // namespace stepline::column_cache
