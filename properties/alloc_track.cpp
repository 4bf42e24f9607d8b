// Counting replacements of the global operator new/delete (alloc_track.h). Sizes are taken
// from malloc_usable_size, so deletes need no size header; single counters with relaxed
// atomics (the properties run on one thread).
#include "alloc_track.h"

#include <malloc.h>

#include <atomic>
#include <cstdlib>
#include <new>

namespace {

std::atomic<size_t> g_in_use{0};
std::atomic<size_t> g_peak{0};
std::atomic<size_t> g_base{0};

void* counted(void* p) {
  if (p == nullptr) return nullptr;
  const size_t now =
      g_in_use.fetch_add(malloc_usable_size(p), std::memory_order_relaxed) + malloc_usable_size(p);
  size_t peak = g_peak.load(std::memory_order_relaxed);
  while (now > peak && !g_peak.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
  }
  return p;
}

void uncounted(void* p) {
  if (p == nullptr) return;
  g_in_use.fetch_sub(malloc_usable_size(p), std::memory_order_relaxed);
  std::free(p);
}

void* allocate(size_t n, size_t align) {
  if (n == 0) n = 1;
  void* p = align <= alignof(std::max_align_t)
                ? std::malloc(n)
                : std::aligned_alloc(align, (n + align - 1) / align * align);
  return counted(p);
}

}  // namespace

namespace voxrig::props {

size_t heap_in_use() { return g_in_use.load(std::memory_order_relaxed); }

void heap_reset_peak() {
  g_base.store(heap_in_use(), std::memory_order_relaxed);
  g_peak.store(heap_in_use(), std::memory_order_relaxed);
}

size_t heap_peak_growth() {
  const size_t peak = g_peak.load(std::memory_order_relaxed);
  const size_t base = g_base.load(std::memory_order_relaxed);
  return peak > base ? peak - base : 0;
}

}  // namespace voxrig::props

void* operator new(size_t n) {
  if (void* p = allocate(n, 0)) return p;
  throw std::bad_alloc();
}
void* operator new[](size_t n) {
  if (void* p = allocate(n, 0)) return p;
  throw std::bad_alloc();
}
void* operator new(size_t n, const std::nothrow_t&) noexcept { return allocate(n, 0); }
void* operator new[](size_t n, const std::nothrow_t&) noexcept { return allocate(n, 0); }
void* operator new(size_t n, std::align_val_t a) {
  if (void* p = allocate(n, size_t(a))) return p;
  throw std::bad_alloc();
}
void* operator new[](size_t n, std::align_val_t a) {
  if (void* p = allocate(n, size_t(a))) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { uncounted(p); }
void operator delete[](void* p) noexcept { uncounted(p); }
void operator delete(void* p, size_t) noexcept { uncounted(p); }
void operator delete[](void* p, size_t) noexcept { uncounted(p); }
void operator delete(void* p, std::align_val_t) noexcept { uncounted(p); }
void operator delete[](void* p, std::align_val_t) noexcept { uncounted(p); }
void operator delete(void* p, size_t, std::align_val_t) noexcept { uncounted(p); }
void operator delete[](void* p, size_t, std::align_val_t) noexcept { uncounted(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { uncounted(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { uncounted(p); }
