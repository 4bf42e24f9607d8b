// The counting operator new of voxrig::alloc_counter (alloc_counter.h): calls, heap windows and
// failure injection.
#include "voxrig/testing/alloc_counter.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <new>
#include <thread>
#include <vector>

namespace {

TEST(AllocationCounter, CountsOperatorNew) {
  voxrig::testing::AllocationProbe probe;
  std::vector<int> v(100);
  EXPECT_GE(probe.count(), 1u);
}

TEST(AllocationCounter, HeapWindowSeesThePeakNotTheEnd) {
  voxrig::testing::heap_reset_peak();
  {
    std::vector<char> big(size_t{1} << 20);
    volatile char* keep = big.data();  // the block escapes: the compiler cannot elide it
    keep[0] = 1;
  }
  EXPECT_GE(voxrig::testing::heap_peak_growth(), size_t{1} << 20);
  voxrig::testing::heap_reset_peak();
  EXPECT_LT(voxrig::testing::heap_peak_growth(), size_t{1} << 20);
}

TEST(AllocationCounter, FailsExactlyTheNthAllocationOnce) {
  using voxrig::testing::fail_nth_allocation;
  using voxrig::testing::injected_failure_happened;
  std::vector<std::unique_ptr<int>> kept;
  kept.reserve(8);
  fail_nth_allocation(3);
  kept.push_back(std::make_unique<int>(1));
  kept.push_back(std::make_unique<int>(2));
  EXPECT_FALSE(injected_failure_happened());
  EXPECT_THROW(kept.push_back(std::make_unique<int>(3)), std::bad_alloc);
  EXPECT_TRUE(injected_failure_happened());
  kept.push_back(std::make_unique<int>(4));  // one failure per arming: the heap "recovers"
  EXPECT_EQ(kept.size(), 3u);
  fail_nth_allocation(1);
  EXPECT_EQ(new (std::nothrow) int(5), nullptr);  // the nothrow form returns nullptr instead
  fail_nth_allocation(0);
  EXPECT_FALSE(injected_failure_happened());
}

// Counts and armed failures belong to the calling thread: another thread's allocations neither
// move this thread's count nor take its armed failure.
TEST(AllocationCounter, CountsAndFailuresArePerThread) {
  using voxrig::testing::allocation_count;
  using voxrig::testing::fail_nth_allocation;
  using voxrig::testing::injected_failure_happened;
  std::vector<std::unique_ptr<int>> theirs;
  theirs.reserve(64);
  uint64_t their_count = 0;
  bool threw = false;
  std::atomic<bool> go{false};
  std::thread other([&] {  // std::thread allocates its state here, before the arming
    while (!go.load()) std::this_thread::yield();
    const uint64_t start = allocation_count();
    try {
      for (int i = 0; i < 32; ++i) theirs.push_back(std::make_unique<int>(i));
    } catch (const std::bad_alloc&) {
      threw = true;
    }
    their_count = allocation_count() - start;
  });
  fail_nth_allocation(1);  // armed here; the other thread allocates first
  const uint64_t before = allocation_count();
  go.store(true);
  other.join();
  EXPECT_FALSE(threw);
  EXPECT_EQ(their_count, 32u);
  EXPECT_FALSE(injected_failure_happened());
  EXPECT_EQ(allocation_count(), before);
  EXPECT_EQ(new (std::nothrow) int(1), nullptr);  // this thread's next call takes it
  EXPECT_TRUE(injected_failure_happened());
}

}  // namespace
