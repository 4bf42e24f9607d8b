// The operator new replacement behind alloc_counter.h. It only counts (per thread) and forwards
// to malloc, so it is harmless to every other test in the binary (and to ASan, which intercepts
// malloc itself).
#include <gtest/gtest.h>

#include <cstdlib>
#include <new>
#include <vector>

#include "alloc_counter.h"

namespace {
thread_local size_t g_allocations = 0;

void* counted_alloc(size_t size) {
  ++g_allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
}  // namespace

void* operator new(size_t size) { return counted_alloc(size); }
void* operator new[](size_t size) { return counted_alloc(size); }
void* operator new(size_t size, const std::nothrow_t&) noexcept {
  ++g_allocations;
  return std::malloc(size == 0 ? 1 : size);
}
void* operator new[](size_t size, const std::nothrow_t&) noexcept {
  ++g_allocations;
  return std::malloc(size == 0 ? 1 : size);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }

namespace voxrig::testing {
size_t allocation_count() { return g_allocations; }
}  // namespace voxrig::testing

namespace {
TEST(AllocationCounter, CountsOperatorNew) {
  voxrig::testing::AllocationProbe probe;
  std::vector<int> v(100);
  EXPECT_GE(probe.count(), 1u);
}
}  // namespace
