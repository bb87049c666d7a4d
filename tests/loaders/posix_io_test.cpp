// loaders/posix_io.h: whole transfers at and past the ends of a file, across
// a pipe, and the errno of a failure.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <thread>

#include "loaders/posix_io.h"

namespace stepline::loaders {
namespace {

class PosixIoTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = ::testing::TempDir() + "posix_io_" + std::to_string(getpid());
    fd_ = open(path_.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0600);
    ASSERT_GE(fd_, 0);
  }
  void TearDown() override {
    if (fd_ >= 0) close(fd_);
    unlink(path_.c_str());
  }
  std::string path_;
  int fd_ = -1;
};

TEST_F(PosixIoTest, WritesAndReadsBackAtOffsets) {
  ASSERT_TRUE(WriteAll(fd_, "hello, "));
  ASSERT_TRUE(WriteAllAt(fd_, "world", 5, 7));
  ASSERT_TRUE(WriteAllAt(fd_, "W", 1, 7));  // over what is there
  std::string back(12, '\0');
  ASSERT_TRUE(ReadAllAt(fd_, back.data(), back.size(), 0));
  EXPECT_EQ(back, "hello, World");
  std::string tail(5, '\0');
  ASSERT_TRUE(ReadAllAt(fd_, tail.data(), tail.size(), 7));
  EXPECT_EQ(tail, "World");
}

TEST_F(PosixIoTest, ReadingPastTheEndFailsWithEio) {
  ASSERT_TRUE(WriteAll(fd_, "short"));
  std::string buf(10, '\0');
  errno = 0;
  EXPECT_FALSE(ReadAllAt(fd_, buf.data(), buf.size(), 0));
  EXPECT_EQ(errno, EIO);
  EXPECT_TRUE(ReadAllAt(fd_, buf.data(), 0, 100)) << "nothing to read is not a failure";
}

TEST_F(PosixIoTest, AClosedDescriptorFailsWithItsErrno) {
  close(fd_);
  const int closed = fd_;
  fd_ = -1;
  errno = 0;
  EXPECT_FALSE(WriteAll(closed, "x"));
  EXPECT_EQ(errno, EBADF);
  char c = 0;
  EXPECT_FALSE(ReadAllAt(closed, &c, 1, 0));
  EXPECT_EQ(errno, EBADF);
  EXPECT_FALSE(WriteAllAt(closed, &c, 1, 0));
  EXPECT_EQ(ReadSome(closed, &c, 1), -1);
  EXPECT_EQ(errno, EBADF);
}

// More than a pipe holds (64 KiB): the writer blocks and the transfers come
// in pieces, which ReadSome hands over as they arrive and WriteAll finishes.
TEST(PosixIoPipeTest, LargeWriteArrivesWholeThenEndOfInput) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  std::string sent(1 << 20, '\0');
  for (size_t i = 0; i < sent.size(); ++i) sent[i] = static_cast<char>(i * 7 + i / 4096);
  bool written = false;
  std::thread writer([&] {
    written = WriteAll(fds[1], sent);
    close(fds[1]);
  });
  std::string received;
  char chunk[10000];
  for (;;) {
    const ssize_t n = ReadSome(fds[0], chunk, sizeof chunk);
    ASSERT_GE(n, 0);
    if (n == 0) break;
    received.append(chunk, static_cast<size_t>(n));
  }
  writer.join();
  close(fds[0]);
  EXPECT_TRUE(written);
  EXPECT_EQ(received.size(), sent.size());
  EXPECT_TRUE(received == sent);
}

}  // namespace
}  // namespace stepline::loaders
