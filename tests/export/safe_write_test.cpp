// Safe writes: a new file appears whole, an existing one is kept unless
// overwriting is asked for, an input trace is never written, and no
// temporary file is left behind either way.
#include "export/safe_write.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace stepline::exports {
namespace {
namespace fs = std::filesystem;

class SafeWriteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("stepline-safe-write-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }
  static std::string Read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }
  size_t FilesInDir() const {
    size_t n = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir_)) ++n;
    return n;
  }
  fs::path dir_;
};

TEST_F(SafeWriteTest, WritesANewFile) {
  std::string error;
  ASSERT_TRUE(exports::WriteFileSafely(Path("a.csv"), "x,y\n1,2\n", {}, &error)) << error;
  EXPECT_EQ(Read(Path("a.csv")), "x,y\n1,2\n");
  EXPECT_EQ(FilesInDir(), 1u) << "a temporary file was left behind";
}

TEST_F(SafeWriteTest, KeepsAnExistingFileUnlessOverwriteIsAsked) {
  std::string error;
  ASSERT_TRUE(exports::WriteFileSafely(Path("a.png"), "old", {}, &error));
  EXPECT_FALSE(exports::WriteFileSafely(Path("a.png"), "new", {}, &error));
  EXPECT_NE(error.find("already exists"), std::string::npos) << error;
  EXPECT_EQ(Read(Path("a.png")), "old");
  exports::SafeWriteOptions force;
  force.overwrite = true;
  ASSERT_TRUE(exports::WriteFileSafely(Path("a.png"), "new", force, &error)) << error;
  EXPECT_EQ(Read(Path("a.png")), "new");
  EXPECT_EQ(FilesInDir(), 1u);
}

TEST_F(SafeWriteTest, NeverWritesOverAnInputEvenWithForce) {
  std::string error;
  ASSERT_TRUE(exports::WriteFileSafely(Path("trace.json"), "{}", {}, &error));
  fs::create_directories(dir_ / "sub");
  fs::create_symlink(dir_ / "trace.json", dir_ / "link.json");
  exports::SafeWriteOptions options;
  options.overwrite = true;
  options.inputs = {Path("trace.json")};
  // The same file under three spellings.
  for (const std::string& target : {Path("trace.json"), Path("sub/../trace.json"), Path("link.json")}) {
    EXPECT_FALSE(exports::WriteFileSafely(target, "png bytes", options, &error)) << target;
    EXPECT_NE(error.find("input"), std::string::npos) << error;
  }
  EXPECT_EQ(Read(Path("trace.json")), "{}");
  EXPECT_TRUE(exports::WriteFileSafely(Path("other.png"), "png bytes", options, &error)) << error;
}

TEST_F(SafeWriteTest, FailsCleanlyInAMissingFolder) {
  std::string error;
  EXPECT_FALSE(exports::WriteFileSafely(Path("no/such/dir/a.csv"), "x", {}, &error));
  EXPECT_NE(error.find("no/such/dir/a.csv"), std::string::npos) << error;
  EXPECT_FALSE(exports::WriteFileSafely(dir_.string(), "x", {}, &error)) << "wrote over a folder";
  EXPECT_EQ(FilesInDir(), 0u);
}

TEST_F(SafeWriteTest, SameFileComparesFilesNotSpellings) {
  std::string error;
  ASSERT_TRUE(exports::WriteFileSafely(Path("f"), "1", {}, &error));
  EXPECT_TRUE(exports::SameFile(Path("f"), Path("./f")));
  EXPECT_TRUE(exports::SameFile(Path("missing"), Path("x/../missing")));
  EXPECT_FALSE(exports::SameFile(Path("f"), Path("g")));
}

}  // namespace
}  // namespace stepline::exports
