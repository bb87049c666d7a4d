// BackgroundRelease: what is dropped is freed on another thread (or at once,
// for a single-threaded load), the owners are left empty, and nothing is
// still being freed once the releaser is gone.
#include "loaders/background_release.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include "model/grow_array.h"

namespace stepline::loaders {
namespace {

// Notes the thread that destroys the last owner of its storage.
struct Witness {
  std::thread::id freed_on;
  std::atomic<int> frees{0};
};

class Owner {
 public:
  Owner() = default;
  explicit Owner(Witness* w) : witness_(w) {}
  Owner(Owner&& o) noexcept : witness_(o.witness_) { o.witness_ = nullptr; }
  Owner& operator=(Owner&& o) noexcept {
    Free();
    witness_ = o.witness_;
    o.witness_ = nullptr;
    return *this;
  }
  ~Owner() { Free(); }
  bool empty() const { return witness_ == nullptr; }

 private:
  void Free() {
    if (witness_ == nullptr) return;
    witness_->freed_on = std::this_thread::get_id();
    witness_->frees.fetch_add(1);
    witness_ = nullptr;
  }
  Witness* witness_ = nullptr;
};

TEST(BackgroundReleaseTest, DroppedStorageIsFreedOnAnotherThreadBeforeTheReleaserGoes) {
  Witness a, b;
  GrowArray<int> big;
  big.resize(1 << 20);
  {
    BackgroundRelease release(/*parallel=*/true);
    Owner first(&a), second(&b);
    release.Drop(first, second, big);
    EXPECT_TRUE(first.empty());
    EXPECT_TRUE(second.empty());
    EXPECT_TRUE(big.empty());
  }
  EXPECT_EQ(a.frees.load(), 1);
  EXPECT_EQ(b.frees.load(), 1);
  EXPECT_NE(a.freed_on, std::this_thread::get_id());
  EXPECT_NE(b.freed_on, std::this_thread::get_id());
}

TEST(BackgroundReleaseTest, ASingleThreadedLoadFreesAtOnce) {
  Witness w;
  BackgroundRelease release(/*parallel=*/false);
  Owner owner(&w);
  release.Drop(owner);
  EXPECT_TRUE(owner.empty());
  EXPECT_EQ(w.frees.load(), 1);
  EXPECT_EQ(w.freed_on, std::this_thread::get_id());
}

}  // namespace
}  // namespace stepline::loaders
