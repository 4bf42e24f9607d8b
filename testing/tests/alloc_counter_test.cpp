// The counting operator new of voxrig::alloc_counter (alloc_counter.h): calls and heap windows.
#include "voxrig/testing/alloc_counter.h"

#include <gtest/gtest.h>

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

}  // namespace
