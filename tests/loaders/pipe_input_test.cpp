// Input that is not a regular file: a FIFO is read to its end whenever its
// writer comes (before or after the reader opened it), `-` is standard input,
// compressed content through a pipe decodes as from a file, the progress
// counts the bytes read, and a cancel ends the wait for a writer that never
// comes.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "loaders/byte_source.h"
#include "loaders/load.h"
#include "tests/loaders/gzip_for_test.h"

namespace stepline::loaders {
namespace {

std::string MakePipeText(size_t approx_bytes) {
  std::string s = "{\"traceEvents\":[\n";
  uint32_t x = 1;
  while (s.size() < approx_bytes) {
    x = x * 1664525u + 1013904223u;
    s += "{\"ph\":\"X\",\"name\":\"op" + std::to_string(x % 977) + "\",\"ts\":" + std::to_string(x % 100000007) +
         ",\"dur\":" + std::to_string((x >> 8) % 5000) + ",\"pid\":1,\"tid\":" + std::to_string(x % 7) + "},\n";
  }
  return s + "{}]}\n";
}

class PipeInputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (std::filesystem::temp_directory_path() / "stepline_pipe_XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
    fifo_ = dir_ + "/pipe";
    ASSERT_EQ(::mkfifo(fifo_.c_str(), 0600), 0);
    old_sigpipe_ = std::signal(SIGPIPE, SIG_IGN);
  }
  void TearDown() override {
    std::signal(SIGPIPE, old_sigpipe_);
    std::filesystem::remove_all(dir_);
  }
  // Writes `bytes` into the FIFO after `delay` (the reader is waiting by then).
  std::thread LateWriter(std::string bytes, std::chrono::milliseconds delay) {
    return std::thread([this, bytes = std::move(bytes), delay] {
      std::this_thread::sleep_for(delay);
      std::ofstream out(fifo_, std::ios::binary);
      // Two writes with a pause: the reader must not stop at the first one.
      const size_t half = bytes.size() / 2;
      out.write(bytes.data(), static_cast<std::streamsize>(half)).flush();
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      out.write(bytes.data() + half, static_cast<std::streamsize>(bytes.size() - half)).flush();
    });
  }

  std::string dir_, fifo_;
  void (*old_sigpipe_)(int) = nullptr;
};

TEST_F(PipeInputTest, FifoWhoseWriterComesLateIsReadToTheEnd) {
  const std::string text = MakePipeText(300000);
  std::thread writer = LateWriter(text, std::chrono::milliseconds(300));
  LoadProgress progress;
  // A pipe's size is unknown: while it is read, the progress counts bytes.
  std::atomic<bool> reading{true};
  uint64_t seen = 0;
  std::thread sampler([&] {
    while (reading) {
      seen = std::max<uint64_t>(seen, progress.bytes_done.load());
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  });
  auto in = OpenInput(fifo_, &progress);  // opened before the writer: waits for it, never "empty"
  reading = false;
  sampler.join();
  writer.join();
  ASSERT_TRUE(in.ok()) << in.error().ToString();
  EXPECT_EQ(in->bytes.view(), text);
  EXPECT_GE(seen, text.size() / 2) << "the first write, read while the writer pauses";
}

TEST_F(PipeInputTest, GzipThroughAFifoLoadsAsFromAFile) {
  const std::string text = MakePipeText(200000);
  const std::string file = dir_ + "/trace.json.gz";
  std::ofstream(file, std::ios::binary) << Gzip(text);
  auto from_file = LoadFile(file);
  ASSERT_TRUE(from_file.ok()) << from_file.error().ToString();
  std::thread writer = LateWriter(Gzip(text), std::chrono::milliseconds(200));
  auto from_pipe = LoadFile(fifo_);
  writer.join();
  ASSERT_TRUE(from_pipe.ok()) << from_pipe.error().ToString();
  EXPECT_EQ(from_pipe->info().compression, "gzip");
  EXPECT_EQ(from_pipe->slices().size(), from_file->slices().size());
  EXPECT_GT(from_pipe->slices().size(), 1000u);
}

TEST_F(PipeInputTest, CancelEndsTheWaitForAWriterThatNeverComes) {
  LoadProgress progress;
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    progress.cancel = true;
  });
  auto in = OpenInput(fifo_, &progress);
  canceller.join();
  ASSERT_FALSE(in.ok());
  EXPECT_EQ(in.error().code, LoadErrorCode::kCancelled);
}

TEST_F(PipeInputTest, DashIsStandardInput) {
  const std::string text = MakePipeText(100000);
  std::thread writer = LateWriter(text, std::chrono::milliseconds(100));
  // Standard input becomes the FIFO for the read, then is put back.
  const int saved = ::dup(STDIN_FILENO);
  const int fd = ::open(fifo_.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(fd, 0);
  ::dup2(fd, STDIN_FILENO);
  ::close(fd);
  auto in = OpenInput(std::string(kStandardInput), nullptr);
  ::dup2(saved, STDIN_FILENO);
  ::close(saved);
  writer.join();
  ASSERT_TRUE(in.ok()) << in.error().ToString();
  EXPECT_EQ(in->bytes.view(), text);
}

}  // namespace
}  // namespace stepline::loaders
