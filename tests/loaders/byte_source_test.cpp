// Tests for ByteBuffer, file mapping and gzip/zstd decoding (byte_source.h):
// padding, wrappers, truncation at many cut points, corruption, limits,
// cancellation, and that the input file is never modified.
#include "loaders/byte_source.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/loaders/gzip_for_test.h"
#include "tests/loaders/zstd_for_test.h"
#include "tests/loaders/mapping_rss.h"
#include "tests/support/test_traces.h"

namespace stepline::loaders {
namespace {

// ---------------------------------------------------------------------------
// Helpers: deterministic content, compressors, temp files.

// Chrome-JSON-looking text with varying numbers, so it compresses like a real
// trace (several deflate blocks / zstd blocks per MB) rather than to nothing.
std::string MakeText(size_t approx_bytes, uint32_t seed = 1) {
  std::string s = "{\"traceEvents\":[\n";
  uint32_t x = seed;
  while (s.size() < approx_bytes) {
    x = x * 1664525u + 1013904223u;
    s += "{\"ph\":\"X\",\"name\":\"op" + std::to_string(x % 977) + "\",\"ts\":" + std::to_string(x % 100000007) +
         ",\"dur\":" + std::to_string((x >> 8) % 5000) + ",\"pid\":1,\"tid\":" + std::to_string(x % 7) + "},\n";
  }
  return s;
}

std::string SkippableFrame(std::string_view payload, uint8_t variant = 0) {
  std::string f(8, '\0');
  const uint32_t magic = 0x184D2A50u | variant;
  const auto size = static_cast<uint32_t>(payload.size());
  for (int i = 0; i < 4; ++i) {
    f[i] = static_cast<char>((magic >> (8 * i)) & 0xFF);
    f[4 + i] = static_cast<char>((size >> (8 * i)) & 0xFF);
  }
  return f + std::string(payload);
}

class TempDir {
 public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "stepline_bytes_XXXXXX").string();
    dir_ = ::mkdtemp(tmpl.data()) ? tmpl : std::string();
  }
  ~TempDir() { std::filesystem::remove_all(dir_); }
  std::string Write(const std::string& name, std::string_view content) const {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path, std::ios::binary).write(content.data(), static_cast<std::streamsize>(content.size()));
    return path;
  }
  const std::string& dir() const { return dir_; }

 private:
  std::string dir_;
};

DecodedInput MustDecode(std::string_view bytes, uint64_t limit = 0) {
  auto r = DecodeBytes(bytes, "mem", nullptr, limit);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().ToString());
  return r.ok() ? std::move(r).value() : DecodedInput{};
}

void ExpectZeroPadding(const ByteBuffer& b) {
  ASSERT_NE(b.data(), nullptr);
  for (size_t i = 0; i < ByteBuffer::kPadding; ++i) {
    ASSERT_EQ(b.data()[b.size() + i], 0) << "padding byte " << i << " after " << b.size() << " bytes";
  }
}

// ---------------------------------------------------------------------------
// ByteBuffer

TEST(ByteBufferTest, AllocateIsZeroedWithPadding) {
  ByteBuffer b = ByteBuffer::Allocate(1000);
  ASSERT_EQ(b.size(), 1000u);
  ASSERT_EQ(b.capacity(), 1000u);
  for (size_t i = 0; i < 1000; ++i) ASSERT_EQ(b.data()[i], 0);
  ExpectZeroPadding(b);
}

TEST(ByteBufferTest, ResizeRezeroesPaddingAndReserveKeepsContent) {
  ByteBuffer b = ByteBuffer::Allocate(200);
  std::memset(b.mutable_data(), 'x', 200);
  b.Resize(100);  // bytes 100..163 were 'x'
  ExpectZeroPadding(b);
  b.Reserve(1 << 20);
  ASSERT_EQ(b.size(), 100u);
  ASSERT_GE(b.capacity(), size_t{1} << 20);
  EXPECT_EQ(std::string(b.data(), 100), std::string(100, 'x'));
  ExpectZeroPadding(b);
  b.Resize(b.capacity());
  ExpectZeroPadding(b);  // padding beyond the new capacity
}

TEST(ByteBufferTest, MoveTransfersOwnership) {
  ByteBuffer a = ByteBuffer::Allocate(10);
  const char* p = a.data();
  ByteBuffer b = std::move(a);
  EXPECT_EQ(b.data(), p);
  EXPECT_EQ(a.data(), nullptr);  // NOLINT(bugprone-use-after-move): moved-from state is specified
  a = std::move(b);
  EXPECT_EQ(a.data(), p);
}

// Sizes around page boundaries: the padding comes from the file's last page
// (zero past EOF) or, for an exact page multiple, from the anonymous pages.
TEST(ByteBufferTest, MapFilePaddingIsZeroAtPageBoundaries) {
  TempDir tmp;
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  for (size_t size : {size_t{1}, page - 64, page - 1, page, page + 1, 3 * page, 3 * page + 100}) {
    const std::string content(size, 'a');
    const std::string path = tmp.Write("f" + std::to_string(size), content);
    auto mapped = ByteBuffer::MapFile(path);
    ASSERT_TRUE(mapped.ok()) << mapped.error().ToString();
    ASSERT_EQ(mapped->size(), size);
    EXPECT_EQ(mapped->view(), content);
    ExpectZeroPadding(*mapped);
  }
}

// A loader reading a mapped file front to back drops the pages behind it:
// they leave this process's resident set, and reading them again gives the
// same bytes. A heap buffer's pages are its only copy: left alone.
TEST(ByteBufferTest, ReleasePagesDropsMappedPagesAndKeepsTheContent) {
  TempDir tmp;
  const std::string content = MakeText(8 << 20);
  auto mapped = ByteBuffer::MapFile(tmp.Write("big.json", content));
  ASSERT_TRUE(mapped.ok()) << mapped.error().ToString();
  ASSERT_EQ(mapped->view(), content);  // every page touched
  const auto before = ::stepline::testing::MappingRssBytes(mapped->data());
  ASSERT_TRUE(before.has_value());
  EXPECT_GE(*before, content.size() * 9 / 10);
  mapped->ReleasePages(0, content.size() / 2);
  mapped->ReleasePages(content.size() / 2 - 100, content.size());  // overlapping, unaligned
  EXPECT_LT(*::stepline::testing::MappingRssBytes(mapped->data()), content.size() / 10);
  EXPECT_EQ(mapped->view(), content);
  ExpectZeroPadding(*mapped);

  ByteBuffer heap = ByteBuffer::Allocate(content.size());
  std::memcpy(heap.mutable_data(), content.data(), content.size());
  heap.ReleasePages(0, content.size());
  EXPECT_EQ(heap.view(), content);
}

// A decompressed input that one load reads once (MarkSingleReader) gives its
// pages back behind the reader: whole pages inside the range only, so the
// bytes around it and the padding are untouched.
TEST(ByteBufferTest, SingleReaderHeapBufferDiscardsWholePagesInsideTheRange) {
  const std::string content = MakeText(1 << 20);
  ByteBuffer heap = ByteBuffer::Allocate(content.size());
  std::memcpy(heap.mutable_data(), content.data(), content.size());
  heap.MarkSingleReader();
  ByteBuffer moved = std::move(heap);  // the mark moves with the buffer
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  const uint64_t begin = 1000, end = content.size() - 1000;
  moved.ReleasePages(begin, end);
  const auto address = [&](uint64_t offset) { return reinterpret_cast<uintptr_t>(moved.data()) + offset; };
  size_t zeroed = 0;
  for (uint64_t i = 0; i < content.size(); ++i) {
    const bool inside_a_whole_page = address(i) / page * page >= address(begin) &&
                                     (address(i) / page + 1) * page <= address(end);
    if (inside_a_whole_page) {
      zeroed += moved.data()[i] == 0;
    } else {
      ASSERT_EQ(moved.data()[i], content[i]) << "byte " << i << " outside the released pages changed";
    }
  }
  EXPECT_GE(zeroed, content.size() - 2000 - 2 * page);
  ExpectZeroPadding(moved);
}

// ---------------------------------------------------------------------------
// Files: plain, empty, missing, directory, unmodified input (pipes: pipe_input_test.cpp)

TEST(OpenInputTest, PlainFileIsMappedAsIs) {
  TempDir tmp;
  const std::string text = MakeText(50000);
  const std::string path = tmp.Write("t.json", text);
  auto in = OpenInput(path, nullptr);
  ASSERT_TRUE(in.ok()) << in.error().ToString();
  EXPECT_EQ(in->bytes.view(), text);
  EXPECT_EQ(in->compression, "");
  EXPECT_EQ(in->file_bytes, text.size());
  EXPECT_FALSE(in->truncated);
  ExpectZeroPadding(in->bytes);
}

TEST(OpenInputTest, EmptyFileGivesEmptyPaddedBuffer) {
  TempDir tmp;
  auto in = OpenInput(tmp.Write("empty.json", ""), nullptr);
  ASSERT_TRUE(in.ok()) << in.error().ToString();
  EXPECT_EQ(in->bytes.size(), 0u);
  EXPECT_EQ(in->file_bytes, 0u);
  ExpectZeroPadding(in->bytes);
}

TEST(OpenInputTest, MissingFileIsIoErrorNamingThePath) {
  const std::string path = "/nonexistent/dir/trace.json.gz";
  auto in = OpenInput(path, nullptr);
  ASSERT_FALSE(in.ok());
  EXPECT_EQ(in.error().code, LoadErrorCode::kIoError);
  EXPECT_EQ(in.error().path, path);
  EXPECT_NE(in.error().ToString().find(path), std::string::npos);
  EXPECT_NE(in.error().message.find(std::strerror(ENOENT)), std::string::npos) << in.error().message;
}

TEST(OpenInputTest, DirectoryIsAClearError) {
  TempDir tmp;
  auto in = OpenInput(tmp.dir(), nullptr);
  ASSERT_FALSE(in.ok());
  EXPECT_EQ(in.error().code, LoadErrorCode::kIoError);
  EXPECT_NE(in.error().message.find("directory"), std::string::npos) << in.error().message;
}

TEST(OpenInputTest, InputFileIsNotModified) {
  TempDir tmp;
  const std::string gz = Gzip(MakeText(200000));
  for (const std::string& content : {gz, gz.substr(0, gz.size() / 2), MakeText(10000)}) {
    const std::string path = tmp.Write("in", content);
    struct stat before {};
    ASSERT_EQ(::stat(path.c_str(), &before), 0);
    {
      auto in = OpenInput(path, nullptr);
      ASSERT_TRUE(in.ok()) << in.error().ToString();
      size_t sum = 0;  // touch every byte
      for (char c : in->bytes.view()) sum += static_cast<unsigned char>(c);
      EXPECT_GT(sum, 0u);
    }
    struct stat after {};
    ASSERT_EQ(::stat(path.c_str(), &after), 0);
    EXPECT_EQ(after.st_size, before.st_size);
    EXPECT_EQ(after.st_mtim.tv_sec, before.st_mtim.tv_sec);
    EXPECT_EQ(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec);
    std::stringstream read_back;
    read_back << std::ifstream(path, std::ios::binary).rdbuf();
    EXPECT_EQ(read_back.str(), content);
  }
}

// ---------------------------------------------------------------------------
// gzip

TEST(GzipTest, SingleMember) {
  const std::string text = MakeText(500000);
  const std::string gz = Gzip(text);
  DecodedInput in = MustDecode(gz);
  EXPECT_EQ(in.bytes.view(), text);
  EXPECT_EQ(in.compression, "gzip");
  EXPECT_EQ(in.file_bytes, gz.size());
  EXPECT_FALSE(in.truncated);
  ExpectZeroPadding(in.bytes);
}

// The last member is the smallest, so the ISIZE presize is far too short and
// the decoder must grow between members.
TEST(GzipTest, MultiMemberConcatenation) {
  const std::string a = MakeText(400000, 1), b = MakeText(250000, 2), c = "{}";
  DecodedInput in = MustDecode(Gzip(a) + Gzip(b, 1) + Gzip(c, 9));
  EXPECT_EQ(in.bytes.view(), a + b + c);
  EXPECT_FALSE(in.truncated);
}

TEST(GzipTest, EmptyMemberDecodesToNothing) {
  DecodedInput in = MustDecode(Gzip(""));
  EXPECT_EQ(in.bytes.size(), 0u);
  EXPECT_FALSE(in.truncated);
}

TEST(GzipTest, GzipOfGzipIsUnwrappedTwice) {
  const std::string text = MakeText(10000);
  DecodedInput in = MustDecode(Gzip(Gzip(text)));
  EXPECT_EQ(in.bytes.view(), text);
  EXPECT_EQ(in.compression, "gzip+gzip");
}

TEST(GzipTest, TruncatedAtSeveralCutsKeepsAPrefix) {
  const std::string text = MakeText(2000000);
  const std::string gz = Gzip(text);
  for (size_t cut : {gz.size() / 10, gz.size() / 2, gz.size() * 9 / 10, gz.size() - 9, gz.size() - 4,
                     gz.size() - 1}) {
    SCOPED_TRACE("cut at " + std::to_string(cut) + " of " + std::to_string(gz.size()));
    DecodedInput in = MustDecode(std::string_view(gz).substr(0, cut));
    EXPECT_TRUE(in.truncated);
    EXPECT_GT(in.bytes.size(), 0u);
    EXPECT_EQ(in.truncated_at, cut);
    EXPECT_NE(in.truncation_detail.find("gzip stream ends inside a member after " + std::to_string(cut)),
              std::string::npos)
        << in.truncation_detail;
    EXPECT_EQ(text.substr(0, in.bytes.size()), in.bytes.view()) << "decoded bytes must be a prefix";
    ExpectZeroPadding(in.bytes);
  }
}

// A long member cut near the end: the zlib fallback must cross several output
// windows (64 MiB) and buffer growths and still return the whole prefix.
TEST(GzipTest, TruncatedLargeMemberKeepsEverythingBeforeTheCut) {
  const std::string text(80u << 20, 'x');  // compresses ~1000:1, cheap to make
  std::string gz = Gzip(text, 1);
  gz.resize(gz.size() - 100);
  DecodedInput in = MustDecode(gz);
  EXPECT_TRUE(in.truncated);
  EXPECT_GT(in.bytes.size(), size_t{79} << 20);
  EXPECT_EQ(in.bytes.view().find_first_not_of('x'), std::string_view::npos);
}

TEST(GzipTest, SecondMemberTruncatedKeepsTheFirst) {
  const std::string a = MakeText(100000, 1), b = MakeText(500000, 2);
  const std::string gz_a = Gzip(a), gz_b = Gzip(b);
  const std::string input = gz_a + gz_b.substr(0, gz_b.size() / 2);
  DecodedInput in = MustDecode(input);
  EXPECT_TRUE(in.truncated);
  EXPECT_EQ(in.truncated_at, input.size());
  ASSERT_GT(in.bytes.size(), a.size());
  EXPECT_EQ(in.bytes.view().substr(0, a.size()), a);
  EXPECT_EQ((a + b).substr(0, in.bytes.size()), in.bytes.view());
}

TEST(GzipTest, CutInsideTheHeaderIsDecompressFailed) {
  const std::string gz = Gzip(MakeText(10000));
  auto r = DecodeBytes(std::string_view(gz).substr(0, 6), "cut.gz", nullptr);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, LoadErrorCode::kDecompressFailed);
  EXPECT_EQ(r.error().compressed_offset, 6u);
  EXPECT_EQ(r.error().path, "cut.gz");
}

TEST(GzipTest, CorruptDataKeepsWhatCameBeforeAndSaysCorrupt) {
  const std::string text = MakeText(1000000);
  std::string gz = Gzip(text);
  const size_t at = gz.size() / 2;
  for (size_t i = at; i < at + 64; ++i) gz[i] = static_cast<char>(0xFF);
  DecodedInput in = MustDecode(gz);
  EXPECT_TRUE(in.truncated);
  // Deflate blocks before the damage decode intact; after it, zlib may emit
  // some garbage before it notices, so only the early part is compared.
  ASSERT_GT(in.bytes.size(), text.size() / 4);
  EXPECT_EQ(in.bytes.view().substr(0, text.size() / 4), std::string_view(text).substr(0, text.size() / 4));
  EXPECT_GE(in.truncated_at, at);
  EXPECT_LT(in.truncated_at, gz.size());
  EXPECT_NE(in.truncation_detail.find("gzip data corrupt at compressed byte " + std::to_string(in.truncated_at)),
            std::string::npos)
      << in.truncation_detail;
}

TEST(GzipTest, CorruptFromTheStartIsDecompressFailed) {
  std::string gz = Gzip(MakeText(100000));
  for (size_t i = 10; i < gz.size(); ++i) gz[i] = static_cast<char>(0xFF);
  auto r = DecodeBytes(gz, "bad.gz", nullptr);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, LoadErrorCode::kDecompressFailed);
  EXPECT_NE(r.error().compressed_offset, LoadError::kNoOffset);
  EXPECT_NE(r.error().message.find("corrupt"), std::string::npos) << r.error().message;
}

TEST(GzipTest, TrailingZerosAreIgnoredOtherGarbageIsReported) {
  const std::string text = MakeText(20000);
  const std::string gz = Gzip(text);
  DecodedInput zeros = MustDecode(gz + std::string(512, '\0'));
  EXPECT_EQ(zeros.bytes.view(), text);
  EXPECT_FALSE(zeros.truncated);

  DecodedInput garbage = MustDecode(gz + "garbage");
  EXPECT_EQ(garbage.bytes.view(), text);
  EXPECT_TRUE(garbage.truncated);
  EXPECT_EQ(garbage.truncated_at, gz.size());
  EXPECT_NE(garbage.truncation_detail.find("not gzip data"), std::string::npos) << garbage.truncation_detail;
}

TEST(GzipTest, BombIsRefusedAtTheLimit) {
  const std::string gz = Gzip(std::string(8u << 20, '\0'), 9);
  ASSERT_LT(gz.size(), 100000u);
  auto r = DecodeBytes(gz, "bomb.gz", nullptr, /*max_decoded_bytes=*/1u << 20);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, LoadErrorCode::kTooLarge);
  EXPECT_NE(r.error().message.find("limit of 1 MiB"), std::string::npos) << r.error().message;
  // The same input under a limit it fits is fine.
  EXPECT_EQ(MustDecode(gz, 8u << 20).bytes.size(), size_t{8} << 20);
}

// ---------------------------------------------------------------------------
// zstd

TEST(ZstdTest, FrameWithAndWithoutContentSize) {
  const std::string text = MakeText(700000);
  for (bool with_size : {true, false}) {
    SCOPED_TRACE(with_size ? "content size in header" : "no content size");
    const std::string z = Zstd(text, with_size);
    ASSERT_EQ(ZSTD_getFrameContentSize(z.data(), z.size()) == ZSTD_CONTENTSIZE_UNKNOWN, !with_size);
    DecodedInput in = MustDecode(z);
    EXPECT_EQ(in.bytes.view(), text);
    EXPECT_EQ(in.compression, "zstd");
    EXPECT_EQ(in.file_bytes, z.size());
    EXPECT_FALSE(in.truncated);
    ExpectZeroPadding(in.bytes);
  }
}

TEST(ZstdTest, ConcatenatedFramesAndSkippableFrames) {
  const std::string a = MakeText(300000, 3), b = MakeText(100000, 4);
  const std::string input = SkippableFrame("metadata") + Zstd(a) + SkippableFrame("", 0xF) + Zstd(b, false) +
                            SkippableFrame(std::string(1000, 's'), 7);
  DecodedInput in = MustDecode(input);
  EXPECT_EQ(in.bytes.view(), a + b);
  EXPECT_FALSE(in.truncated);
}

TEST(ZstdTest, OnlySkippableFramesIsEmpty) {
  DecodedInput in = MustDecode(SkippableFrame("just metadata"));
  EXPECT_EQ(in.compression, "zstd");
  EXPECT_EQ(in.bytes.size(), 0u);
}

TEST(ZstdTest, TruncatedAtSeveralCutsKeepsAPrefix) {
  const std::string text = MakeText(3000000);
  for (bool with_size : {true, false}) {
    const std::string z = Zstd(text, with_size);
    for (size_t cut : {z.size() / 10, z.size() / 2, z.size() * 9 / 10, z.size() - 5, z.size() - 1}) {
      SCOPED_TRACE("cut at " + std::to_string(cut) + " of " + std::to_string(z.size()));
      DecodedInput in = MustDecode(std::string_view(z).substr(0, cut));
      EXPECT_TRUE(in.truncated);
      EXPECT_GT(in.bytes.size(), 0u);
      EXPECT_EQ(in.truncated_at, cut);
      EXPECT_NE(in.truncation_detail.find("zstd stream ends inside a frame after " + std::to_string(cut)),
                std::string::npos)
          << in.truncation_detail;
      EXPECT_EQ(text.substr(0, in.bytes.size()), in.bytes.view());
    }
  }
}

TEST(ZstdTest, CutInsideTheFirstBlockIsDecompressFailed) {
  const std::string z = Zstd(MakeText(100000));
  auto r = DecodeBytes(std::string_view(z).substr(0, 20), "cut.zst", nullptr);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, LoadErrorCode::kDecompressFailed);
  EXPECT_EQ(r.error().compressed_offset, 20u);
}

TEST(ZstdTest, CorruptDataIsReportedWithItsOffset) {
  const std::string text = MakeText(2000000);
  std::string z = Zstd(text);
  const size_t at = z.size() / 2;
  for (size_t i = at; i < at + 32; ++i) z[i] = static_cast<char>(z[i] ^ 0x5A);
  DecodedInput in = MustDecode(z);
  EXPECT_TRUE(in.truncated);
  // Blocks before the damage are kept (zstd checks each block, and the frame
  // checksum catches the rest); nothing after it is.
  ASSERT_GT(in.bytes.size(), text.size() / 4);
  EXPECT_LT(in.bytes.size(), text.size());
  EXPECT_EQ(text.substr(0, in.bytes.size()), in.bytes.view());
  EXPECT_GE(in.truncated_at, at);
  EXPECT_NE(in.truncation_detail.find("zstd data corrupt at compressed byte"), std::string::npos)
      << in.truncation_detail;
}

TEST(ZstdTest, TruncatedSkippableFrameIsReported) {
  const std::string text = MakeText(5000);
  DecodedInput in = MustDecode(Zstd(text) + SkippableFrame("0123456789").substr(0, 12));
  EXPECT_EQ(in.bytes.view(), text);
  EXPECT_TRUE(in.truncated);
  EXPECT_NE(in.truncation_detail.find("skippable"), std::string::npos);
}

TEST(ZstdTest, TrailingZerosAreIgnoredOtherGarbageIsReported) {
  const std::string text = MakeText(5000);
  const std::string z = Zstd(text);
  DecodedInput zeros = MustDecode(z + std::string(100, '\0'));
  EXPECT_EQ(zeros.bytes.view(), text);
  EXPECT_FALSE(zeros.truncated);

  DecodedInput garbage = MustDecode(z + "{not zstd}");
  EXPECT_EQ(garbage.bytes.view(), text);
  EXPECT_TRUE(garbage.truncated);
  EXPECT_EQ(garbage.truncated_at, z.size());
  EXPECT_NE(garbage.truncation_detail.find("after the last zstd frame"), std::string::npos)
      << garbage.truncation_detail;
}

TEST(ZstdTest, BombIsRefusedWithOrWithoutDeclaredSize) {
  const std::string zeros(8u << 20, '\0');
  for (bool with_size : {true, false}) {
    auto r = DecodeBytes(Zstd(zeros, with_size), "bomb.zst", nullptr, 1u << 20);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, LoadErrorCode::kTooLarge);
    EXPECT_NE(r.error().message.find("limit of 1 MiB"), std::string::npos);
  }
}

// ---------------------------------------------------------------------------
// Progress, cancellation, plain in-memory input, real traces

TEST(DecodeTest, ProgressEndsAtTheDecodedSize) {
  const std::string text = MakeText(300000);
  for (const std::string& input : {Gzip(text), Zstd(text, false)}) {
    LoadProgress progress;
    auto r = DecodeBytes(input, "p", &progress);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(progress.bytes_total.load(), text.size());
    EXPECT_EQ(progress.bytes_done.load(), text.size());
  }
}

TEST(DecodeTest, CancelStopsDecompression) {
  const std::string text = MakeText(100000);
  for (const std::string& input : {Gzip(text), Zstd(text)}) {
    LoadProgress progress;
    progress.cancel = true;
    auto r = DecodeBytes(input, "c", &progress);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, LoadErrorCode::kCancelled);
  }
}

TEST(DecodeTest, PlainBytesAreCopiedWithPadding) {
  const std::string text = "{\"traceEvents\":[]}";
  DecodedInput in = MustDecode(text);
  EXPECT_EQ(in.bytes.view(), text);
  EXPECT_NE(in.bytes.data(), text.data());
  EXPECT_EQ(in.compression, "");
  EXPECT_EQ(in.file_bytes, text.size());
  ExpectZeroPadding(in.bytes);
}

TEST(DecodeTest, RealGzipTraceDecodesCompletely) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  const std::string path = testing::SharedTracePath("hta/df_index_resolver_df_index_resolver.json.gz");
  auto in = OpenInput(path, nullptr);
  ASSERT_TRUE(in.ok()) << in.error().ToString();
  EXPECT_EQ(in->compression, "gzip");
  EXPECT_FALSE(in->truncated) << in->truncation_detail;
  EXPECT_EQ(in->file_bytes, 2992153u);
  EXPECT_EQ(in->bytes.size(), 53733385u);  // `zcat | wc -c`
  EXPECT_EQ(in->bytes.view().substr(0, 2), "\n{");
  ExpectZeroPadding(in->bytes);
}

TEST(DecodeTest, RealPlainTraceIsMappedWithoutCopy) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  const std::string path = testing::SharedTracePath("xprof/GPU-multi-worker_34.83.195.179_6003.xplane.pb");
  auto in = OpenInput(path, nullptr);
  ASSERT_TRUE(in.ok()) << in.error().ToString();
  EXPECT_EQ(in->compression, "");
  EXPECT_EQ(in->bytes.size(), 3039638u);
  EXPECT_EQ(in->file_bytes, 3039638u);
  EXPECT_EQ(static_cast<unsigned char>(in->bytes.data()[0]), 0x0Au);
  ExpectZeroPadding(in->bytes);
}

}  // namespace
}  // namespace stepline::loaders
