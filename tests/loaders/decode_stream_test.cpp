// DecodeStream and the streamed Chrome JSON load: decoding on a
// thread gives the bytes and the truncation facts of the whole-buffer decode,
// and parsing while decoding gives the model of the whole-buffer load, with
// tiny chunks and a decoder held close to the parser so that chunks wait on
// it; cut and corrupt streams, the bomb limit and cancellation.
#include "loaders/decode_stream.h"

#include <gtest/gtest.h>
#include <zstd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "loaders/chrome_json/chrome_json_loader.h"
#include "loaders/load.h"
#include "loaders/zstd_frames.h"
#include "tests/loaders/gzip_for_test.h"
#include "tests/loaders/zstd_for_test.h"
#include "tests/support/test_traces.h"

namespace stepline::loaders {
namespace {

// Chrome JSON whose events vary (so it compresses like a trace), with an
// occasional long string arg, so that speculative chunks sometimes grow.
std::string MakeJson(size_t approx_bytes, uint32_t seed = 7) {
  std::string s = "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
  uint32_t x = seed;
  for (int i = 0; s.size() < approx_bytes; ++i) {
    x = x * 1664525u + 1013904223u;
    s += "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"op" + std::to_string(x % 977) + "\",\"ts\":" + std::to_string(i * 10) +
         ",\"dur\":" + std::to_string(1 + (x >> 8) % 9) + ",\"pid\":1,\"tid\":" + std::to_string(x % 5);
    if (i % 500 == 0) s += ",\"args\":{\"note\":\"" + std::string(3000 + x % 2000, 'a' + static_cast<char>(x % 26)) + "\"}";
    s += "},\n";
  }
  s += "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"trainer\"}}]}\n";
  return s;
}

std::string SkippableZstdFrame(std::string_view payload) {
  std::string f = "\x50\x2A\x4D\x18";
  const auto size = static_cast<uint32_t>(payload.size());
  for (int i = 0; i < 4; ++i) f += static_cast<char>((size >> (8 * i)) & 0xFF);
  return f + std::string(payload);
}

// `pieces` members / frames of about equal size, as pigz/pzstd or `cat` make;
// zstd frames declare their size (then they decode in parallel) unless
// `some_unsized`.
std::string Pieces(std::string_view text, int pieces, bool zstd, bool some_unsized = false) {
  std::string out;
  const size_t step = text.size() / static_cast<size_t>(pieces) + 1;
  for (size_t at = 0; at < text.size(); at += step) {
    const std::string_view piece = text.substr(at, step);
    out += zstd ? SkippableZstdFrame("pzstd") + Zstd(piece, !some_unsized || at % 2 == 0) : Gzip(piece);
  }
  return out;
}

ByteBuffer Buffer(std::string_view bytes) {
  ByteBuffer b = ByteBuffer::Allocate(bytes.size());
  std::copy(bytes.begin(), bytes.end(), b.mutable_data());
  return b;
}

std::unique_ptr<DecodeStream> Start(std::string_view compressed, uint64_t limit = 0, bool gzip_zlib = true,
                                    LoadProgress* progress = nullptr, uint64_t ahead = uint64_t{64} << 10) {
  StreamOptions options;
  options.max_decoded_bytes = limit;
  options.gzip_zlib = gzip_zlib;
  options.ahead_bytes = ahead;
  options.zstd_threads = 3;
  auto stream = DecodeStream::Start(Buffer(compressed), "mem", progress, options);
  EXPECT_NE(stream, nullptr);
  return stream;
}

std::string DescribeDecode(const Result<DecodedInput, LoadError>& r) {
  std::ostringstream s;
  if (!r) {
    const LoadError& e = r.error();
    s << "error " << static_cast<int>(e.code) << " @" << e.byte_offset << " c@" << e.compressed_offset << " "
      << e.message;
    return s.str();
  }
  s << r->compression << " " << r->bytes.size() << " bytes, hash " << std::hash<std::string_view>{}(r->bytes.view())
    << " truncated " << r->truncated << " @" << r->truncated_at << " " << r->truncation_detail;
  return s.str();
}

// Counts, names, timestamps and diagnostics: what the model is made of.
std::string Dump(const Result<Trace, LoadError>& r) {
  if (!r) return "error " + r.error().ToString();
  const Trace& t = *r;
  std::ostringstream out;
  out << t.slices().size() << " slices, " << t.tracks().size() << " tracks, " << t.processes().size()
      << " processes, " << t.args().size() << " args\n";
  for (size_t i = 0; i < t.slices().size(); ++i) {
    out << t.slices().track()[i].index() << " " << t.slices().start_ns()[i] << "+" << t.slices().dur_ns()[i] << " "
        << t.str(t.slices().name()[i]) << " d" << t.slices().depth()[i] << "\n";
  }
  for (const Diagnostics::Entry* e : t.diagnostics().NonEmpty()) {
    out << "diag " << GetDiagCodeInfo(e->code).name << " x" << e->count << " @" << e->first_offset << "\n";
    for (const auto& inst : e->instances) out << "  @" << inst.byte_offset << " " << inst.detail << "\n";
  }
  out << "input " << t.info().input_bytes << " cut " << t.info().compressed_cut << " @" << t.info().compressed_cut_at;
  return out.str();
}

class TempFile {
 public:
  TempFile(const std::string& name, std::string_view content)
      : path_((std::filesystem::temp_directory_path() / ("stepline_stream_" + std::to_string(::getpid()) + "_" + name))
                  .string()) {
    std::ofstream(path_, std::ios::binary).write(content.data(), static_cast<std::streamsize>(content.size()));
  }
  ~TempFile() { std::filesystem::remove(path_); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// The whole-buffer load of a file: decode everything, then parse.
Result<Trace, LoadError> LoadWhole(const std::string& path) {
  auto input = OpenInput(path, nullptr);
  if (!input) return MakeUnexpected(input.error());
  return LoadDecodedInput(*input, path);
}

// ---------------------------------------------------------------------------

TEST(DecodeStreamTest, SameBytesAndTruncationFactsAsTheWholeDecode) {
  const std::string json = MakeJson(600'000);
  const std::string gz = Gzip(json);
  const std::string zst = Zstd(json);
  std::string gz_corrupt = gz;
  gz_corrupt[gz.size() / 2] ^= 0x55;
  std::string zst_corrupt = zst;
  zst_corrupt[zst.size() / 2] ^= 0x55;
  const std::string frames = Pieces(json, 6, true);
  std::string frames_corrupt = frames;
  frames_corrupt[frames.size() / 2] ^= 0x55;
  std::vector<std::pair<std::string, std::string>> cases = {
      {"gzip", gz},
      {"gzip members", Pieces(json, 5, false)},
      {"gzip corrupt", gz_corrupt},
      {"gzip garbage after", gz + "garbage"},
      {"zstd", zst},
      {"zstd no size", Zstd(json, false)},
      {"zstd frames", frames},
      {"zstd frames some unsized", Pieces(json, 6, true, true)},
      {"zstd frames one corrupt", frames_corrupt},
      {"zstd frames cut", frames.substr(0, frames.size() * 2 / 3)},
      {"zstd frames zero fill after", frames + std::string(100, '\0')},
      {"zstd corrupt", zst_corrupt},
      {"zstd garbage after", zst + "garbage"},
  };
  for (double cut : {0.001, 0.3, 0.77, 0.9999}) {
    cases.push_back({"gzip cut " + std::to_string(cut), gz.substr(0, static_cast<size_t>(gz.size() * cut))});
    cases.push_back({"zstd cut " + std::to_string(cut), zst.substr(0, static_cast<size_t>(zst.size() * cut))});
  }
  for (const auto& [what, bytes] : cases) {
    for (const uint64_t limit : {uint64_t{0}, uint64_t{200'000}}) {
      for (const bool zlib : {true, false}) {
        SCOPED_TRACE(what + " limit " + std::to_string(limit) + (zlib ? " zlib" : " libdeflate"));
        auto stream = Start(bytes, limit, zlib);
        ASSERT_NE(stream, nullptr);
        EXPECT_EQ(DescribeDecode(stream->TakeResult()), DescribeDecode(DecodeBytes(bytes, "mem", nullptr, limit)));
      }
    }
  }
}

TEST(ZstdFramesTest, SizedFramesAreMappedAndDecodedInParallelUpToADamagedOne) {
  const std::string json = MakeJson(300'000);
  const std::string z = Pieces(json, 6, true);
  const std::vector<ZstdFrame> frames = MapZstdFrames(z, UINT64_MAX);
  ASSERT_EQ(frames.size(), 6u);
  EXPECT_EQ(frames.back().out_begin + frames.back().out_size, json.size());
  EXPECT_TRUE(MapZstdFrames(Pieces(json, 6, true, true), UINT64_MAX).empty());  // a size missing
  EXPECT_TRUE(MapZstdFrames(z.substr(0, z.size() - 10), UINT64_MAX).empty());     // the last frame cut
  EXPECT_TRUE(MapZstdFrames(z + "x", UINT64_MAX).empty());                         // garbage after
  EXPECT_TRUE(MapZstdFrames(z, json.size() - 1).empty());                          // over the limit
  EXPECT_TRUE(MapZstdFrames(Zstd(json), UINT64_MAX).empty());                      // one frame

  std::string out(json.size(), '\0');
  std::vector<uint64_t> published;
  const auto publish = [&](uint64_t n, uint64_t consumed) {
    EXPECT_LE(consumed, z.size());
    published.push_back(n);
  };
  EXPECT_EQ(DecodeZstdFrames(z, frames, out.data(), 3, publish, [] { return false; }), frames.size());
  EXPECT_EQ(out, json);
  ASSERT_FALSE(published.empty());
  EXPECT_TRUE(std::is_sorted(published.begin(), published.end()));
  EXPECT_EQ(published.back(), json.size());

  std::string damaged = z;  // inside frame 3's data (the checksum catches any change)
  damaged[frames[3].in_begin + frames[3].in_size / 2] ^= 0x55;
  published.clear();
  EXPECT_EQ(DecodeZstdFrames(damaged, frames, out.data(), 3, publish, [] { return false; }), 3u);
  ASSERT_FALSE(published.empty());
  EXPECT_LE(published.back(), frames[3].out_begin);
  EXPECT_EQ(DecodeZstdFrames(z, frames, out.data(), 2, publish, [] { return true; }), 0u);  // stopped
}

// A reader that waits while the last frames come out must be woken, though
// each of those publishes is too small to wake anyone by itself: the decoder
// that stays behind, pacing, waits for that reader (found hanging in CI).
TEST(DecodeStreamTest, AReaderWaitingForTheFirstByteOfSmallFramesIsWoken) {
  const std::string json = MakeJson(240'000);  // under the 256 KiB that wake readers anyway
  const std::string bytes = Pieces(json, 4, true);
  for (int run = 0; run < 50; ++run) {
    SCOPED_TRACE("run " + std::to_string(run));
    LoadProgress progress;
    auto stream = Start(bytes, 0, true, &progress, 4096);
    ASSERT_NE(stream, nullptr);
    // Cancelling ends a hang (the pacing decoder checks it), so a failure
    // reports instead of blocking the suite.
    std::atomic<bool> returned{false};
    std::thread watchdog([&] {
      for (int i = 0; i < 500 && !returned.load(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
      if (!returned.load()) progress.cancel.store(true);
    });
    const size_t got = stream->WaitFor(1).size();  // right after the start: before the first frame is out
    returned.store(true);
    watchdog.join();
    EXPECT_FALSE(progress.cancel.load()) << "WaitFor(1) was still blocked after 5 s";
    EXPECT_GE(got, 1u);
  }
}

// A reader that checks each stretch and then releases it, as the parser
// does: the decoder writes further on over the released pages (recycled,
// not fresh), and every byte read is still the decoded text, for the
// sequential decoders and for frames decoded side by side.
TEST(DecodeStreamTest, ReleasedPagesAreWrittenAgainAndEveryByteReadIsRight) {
  const std::string json = MakeJson(24'000'000);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"zstd", Zstd(json)}, {"gzip", Gzip(json)}, {"zstd frames", Pieces(json, 24, true)}};
  for (const auto& [what, bytes] : cases) {
    SCOPED_TRACE(what);
    auto stream = Start(bytes, 0, /*gzip_zlib=*/true, nullptr, /*ahead=*/uint64_t{2} << 20);
    ASSERT_NE(stream, nullptr);
    constexpr uint64_t kStep = uint64_t{300} << 10;  // not a page multiple: releases end mid-page
    uint64_t at = 0;
    while (at < json.size()) {
      const uint64_t want = std::min<uint64_t>(json.size(), at + kStep);
      const std::string_view text = stream->WaitFor(want);
      ASSERT_GE(text.size(), want);
      ASSERT_EQ(text.substr(at, want - at), std::string_view(json).substr(at, want - at)) << "at " << at;
      stream->Release(at, want);
      at = want;
    }
    const uint64_t recycled = stream->recycled_bytes();
    auto result = stream->TakeResult();
    ASSERT_TRUE(result);
    EXPECT_EQ(result->bytes.size(), json.size());
    if (!RecycledPages::KernelCanMove()) {
      EXPECT_EQ(recycled, 0u);
      GTEST_SKIP() << "this kernel cannot move pages (MREMAP_DONTUNMAP, Linux 5.7): released pages are given back";
    }
    // The decoder runs at most 2 MB ahead, so most of 24 MB can only have
    // been written on pages the reader gave back (measured: 19-24 MB for
    // each decoder, on 2 busy cores too).
    EXPECT_GT(recycled, json.size() / 2);
    EXPECT_LE(recycled, json.size());  // a page moved twice would count twice
  }
}

TEST(DecodeStreamTest, PlainBytesAreNotStreamed) {
  EXPECT_EQ(DecodeStream::Start(Buffer("{\"traceEvents\":[]}"), "mem", nullptr), nullptr);
}

TEST(StreamedChromeJsonTest, SameModelAsTheWholeBufferLoad) {
  const std::string json = MakeJson(400'000);
  auto whole_input = DecodeBytes(json, "mem", nullptr);
  ASSERT_TRUE(whole_input.ok());
  LoadOptions options;
  options.threads = 3;
  const std::string expected = Dump(LoadChromeJson(*whole_input, "mem", options, nullptr));
  ASSERT_GT(expected.size(), 100'000u);
  const std::pair<const char*, std::string> inputs[] = {
      {"gzip", Gzip(json)},
      {"gzip members", Pieces(json, 7, false)},
      {"zstd", Zstd(json)},
      {"zstd frames", Pieces(json, 9, true)},
      {"zstd frames some unsized", Pieces(json, 9, true, true)},
  };
  for (const auto& [what, bytes] : inputs) {
    for (const uint64_t chunk : {uint64_t{700}, uint64_t{16'000}}) {
      for (const bool zlib : {true, false}) {
        SCOPED_TRACE(std::string(what) + " chunk " + std::to_string(chunk) + (zlib ? " zlib" : " libdeflate"));
        // The decoder may run only 4 KiB ahead: most chunks wait for it.
        auto stream = Start(bytes, 0, zlib, nullptr, 4096);
        DecodedInput finished;
        auto loaded = LoadChromeJsonStreamed(stream.get(), &finished, "mem", options, nullptr, ChromeJsonTuning{chunk});
        EXPECT_EQ(Dump(loaded), expected);
        EXPECT_EQ(finished.bytes.size(), json.size());
      }
    }
  }
}

TEST(StreamedChromeJsonTest, CutAndCorruptFilesLoadLikeTheWholeBufferPath) {
  const std::string json = MakeJson(300'000, 11);
  const std::string gz = Gzip(json);
  const std::string zst = Zstd(json);
  std::vector<std::pair<std::string, std::string>> cases;
  for (double cut : {0.2, 0.5, 0.95}) {
    cases.push_back({"cut.json.gz", gz.substr(0, static_cast<size_t>(gz.size() * cut))});
    cases.push_back({"cut.json.zst", zst.substr(0, static_cast<size_t>(zst.size() * cut))});
  }
  std::string gz_corrupt = gz;
  gz_corrupt[gz.size() / 2] ^= 0x20;
  std::string zst_corrupt = zst;
  zst_corrupt[zst.size() / 2] ^= 0x20;
  cases.push_back({"corrupt.json.gz", gz_corrupt});
  cases.push_back({"corrupt.json.zst", zst_corrupt});
  int loaded_prefixes = 0;
  for (const auto& [name, bytes] : cases) {
    SCOPED_TRACE(name + " of " + std::to_string(bytes.size()) + " bytes");
    TempFile file(name, bytes);
    auto streamed = LoadFile(file.path());
    // A cut inside the first zstd block leaves nothing: an error either way.
    if (streamed.ok()) {
      ++loaded_prefixes;
      EXPECT_TRUE(streamed->info().compressed_cut);
      EXPECT_GT(streamed->slices().size(), 0u);
    }
    EXPECT_EQ(Dump(streamed), Dump(LoadWhole(file.path())));
  }
  EXPECT_GE(loaded_prefixes, 6);
}

TEST(StreamedChromeJsonTest, BombLimitFailsTheLoadAsTheWholeDecodeDoes) {
  const std::string zst = Zstd(MakeJson(1'000'000));
  auto stream = Start(zst, 256 << 10);
  DecodedInput finished;
  auto loaded = LoadChromeJsonStreamed(stream.get(), &finished, "mem", LoadOptions{}, nullptr);
  ASSERT_FALSE(loaded.ok());
  auto whole = DecodeBytes(zst, "mem", nullptr, 256 << 10);
  ASSERT_FALSE(whole.ok());
  EXPECT_EQ(loaded.error().code, LoadErrorCode::kTooLarge);
  EXPECT_EQ(loaded.error().ToString(), whole.error().ToString());
}

TEST(StreamedChromeJsonTest, CancelStopsTheDecoderAndJoins) {
  const std::string gz = Gzip(MakeJson(2'000'000));
  {
    // A decoder paused by a reader that reads nothing (it waits for the
    // reader once it is 4 KiB ahead): cancel alone ends it.
    LoadProgress progress;
    auto stream = Start(gz, 0, true, &progress, 4096);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    progress.cancel = true;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!stream->done() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    EXPECT_TRUE(stream->done());
    auto result = stream->TakeResult();
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().code, LoadErrorCode::kCancelled);
  }
  {
    // A reader that goes away mid-stream: the destructor stops and joins.
    auto stream = Start(gz, 0, true, nullptr, 4096);
    EXPECT_GE(stream->WaitFor(1000).size(), 1000u);
  }
  TempFile file("cancel.json.gz", gz);
  {
    LoadProgress progress;
    progress.cancel = true;
    auto r = LoadFile(file.path(), LoadOptions{}, &progress);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, LoadErrorCode::kCancelled);
  }
  {
    // Cancel once the import has begun: the load ends cancelled, or complete
    // if it won the race; it never hangs.
    LoadProgress progress;
    std::thread canceller([&] {
      while (progress.bytes_done.load() == 0) std::this_thread::sleep_for(std::chrono::microseconds(50));
      progress.cancel = true;
    });
    LoadOptions options;
    options.threads = 2;
    auto r = LoadFile(file.path(), options, &progress);
    canceller.join();
    if (!r.ok()) {
      EXPECT_EQ(r.error().code, LoadErrorCode::kCancelled) << r.error().ToString();
    }
  }
}

TEST(StreamedChromeJsonTest, BlankEmptyAndNonJsonContentFailAsTheWholeBufferPath) {
  const std::pair<const char*, std::string> cases[] = {
      {"blank.json.gz", Gzip("  \n\t  ")},
      {"bom.json.gz", Gzip("\xEF\xBB\xBF")},
      {"empty.json.zst", Zstd("")},
      {"space_then_brace.json.zst", Zstd(std::string(300, ' ') + "{\"traceEvents\":[]}")},
      {"html.json.gz", Gzip("<!DOCTYPE html><html></html>")},
      {"nested.json.gz.gz", Gzip(Gzip(MakeJson(50'000)))},
  };
  for (const auto& [name, bytes] : cases) {
    SCOPED_TRACE(name);
    TempFile file(name, bytes);
    EXPECT_EQ(Dump(LoadFile(file.path())), Dump(LoadWhole(file.path())));
  }
  TempFile empty("empty.json.zst", Zstd(""));
  auto r = LoadFile(empty.path());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, LoadErrorCode::kEmpty);
  EXPECT_NE(r.error().message.find("zstd content is empty"), std::string::npos) << r.error().message;
}

// Every shared .json.gz / .zst trace up to 500 KB compressed (the larger
// ones are the real-trace tests' business) loads streamed exactly as whole.
TEST(StreamedChromeJsonTest, SharedCompressedTracesLoadAsTheWholeBufferPath) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  int compared = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(testing::SharedTracesDir())) {
    const std::string path = entry.path().string();
    if (!entry.is_regular_file() || entry.file_size() > 500'000) continue;
    if (!path.ends_with(".json.gz") && !path.ends_with(".json.zst")) continue;
    SCOPED_TRACE(path);
    EXPECT_EQ(Dump(LoadFile(path)), Dump(LoadWhole(path)));
    ++compared;
  }
  EXPECT_GT(compared, 20);
}

}  // namespace
}  // namespace stepline::loaders
