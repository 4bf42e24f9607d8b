// The counting global operator new/delete behind voxrig/testing/alloc_counter.h. Kept out of
// testing/src/*.cpp (the voxrig::testing archive) on purpose: see the header. It only counts and
// forwards to malloc / aligned_alloc / free, so it is harmless to every other test in a binary
// (and to ASan, which intercepts malloc itself). zlib allocates through operator new (the
// codec sets z_stream.zalloc), so it is counted here too; OpenSSL is once a binary calls
// count_openssl_allocations().
#include <malloc.h>
#include <openssl/crypto.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "voxrig/testing/alloc_counter.h"

namespace {

// The call count and the armed failure are per thread (see the header): a count is read, and a
// failure armed, by the thread whose allocations it is about, so they need no atomics. A locked
// add per allocation would be a cost no user program pays, inside every decode benchmark's time.
thread_local uint64_t t_calls = 0;
thread_local uint64_t t_fail_at = 0;  // the call number (t_calls after the increment); 0 = none
thread_local bool t_failed = false;
// Bytes are kept only after the first heap_reset_peak(); in_use is relative to that moment and
// may go below zero when older blocks are freed, which is why it is signed.
std::atomic<bool> g_keep_bytes{false};
std::atomic<int64_t> g_in_use{0};
std::atomic<int64_t> g_peak{0};
std::atomic<int64_t> g_base{0};

// Counts one allocation call of this thread; true when it is the armed failure (then disarmed).
bool next_call_fails() {
  if (++t_calls != t_fail_at) return false;
  t_fail_at = 0;
  t_failed = true;
  return true;
}

void* counted(void* p) {
  if (p == nullptr || !g_keep_bytes.load(std::memory_order_relaxed)) return p;
  const auto n = static_cast<int64_t>(malloc_usable_size(p));
  const int64_t now = g_in_use.fetch_add(n, std::memory_order_relaxed) + n;
  int64_t peak = g_peak.load(std::memory_order_relaxed);
  while (now > peak && !g_peak.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
  }
  return p;
}

void uncounted(void* p) {
  if (p == nullptr) return;
  if (g_keep_bytes.load(std::memory_order_relaxed))
    g_in_use.fetch_sub(static_cast<int64_t>(malloc_usable_size(p)), std::memory_order_relaxed);
  std::free(p);
}

void* allocate(size_t n, size_t align) {
  if (next_call_fails()) return nullptr;
  if (n == 0) n = 1;
  void* p = align <= alignof(std::max_align_t)
                ? std::malloc(n)
                : std::aligned_alloc(align, (n + align - 1) / align * align);
  return counted(p);
}

// OpenSSL's allocator hooks (CRYPTO_set_mem_functions): the same counting and the same failure
// injection as operator new, so a failed OpenSSL allocation is tested like any other.
void* crypto_malloc(size_t n, const char*, int) { return allocate(n, 0); }

void* crypto_realloc(void* p, size_t n, const char* file, int line) {
  if (p == nullptr) return crypto_malloc(n, file, line);
  if (n == 0) {  // CRYPTO_realloc's contract: free and return NULL
    uncounted(p);
    return nullptr;
  }
  if (next_call_fails()) return nullptr;  // the old block stays valid, as realloc's does
  const bool keep = g_keep_bytes.load(std::memory_order_relaxed);
  const auto before = keep ? static_cast<int64_t>(malloc_usable_size(p)) : 0;
  void* q = std::realloc(p, n);
  if (q == nullptr) return nullptr;
  if (keep) g_in_use.fetch_sub(before, std::memory_order_relaxed);
  return counted(q);
}

void crypto_free(void* p, const char*, int) { uncounted(p); }

void* allocate_or_throw(size_t n, size_t align) {
  if (void* p = allocate(n, align)) return p;
  throw std::bad_alloc();
}

}  // namespace

namespace voxrig::testing {

uint64_t allocation_count() { return t_calls; }

void heap_reset_peak() {
  g_keep_bytes.store(true, std::memory_order_relaxed);
  const int64_t now = g_in_use.load(std::memory_order_relaxed);
  g_base.store(now, std::memory_order_relaxed);
  g_peak.store(now, std::memory_order_relaxed);
}

size_t heap_peak_growth() {
  const int64_t growth =
      g_peak.load(std::memory_order_relaxed) - g_base.load(std::memory_order_relaxed);
  return growth > 0 ? static_cast<size_t>(growth) : 0;
}

void fail_nth_allocation(uint64_t n) {
  t_failed = false;
  t_fail_at = n == 0 ? 0 : t_calls + n;
}

bool injected_failure_happened() { return t_failed; }

bool count_openssl_allocations() {
  return CRYPTO_set_mem_functions(crypto_malloc, crypto_realloc, crypto_free) == 1;
}

}  // namespace voxrig::testing

void* operator new(size_t n) { return allocate_or_throw(n, 0); }
void* operator new[](size_t n) { return allocate_or_throw(n, 0); }
void* operator new(size_t n, const std::nothrow_t&) noexcept { return allocate(n, 0); }
void* operator new[](size_t n, const std::nothrow_t&) noexcept { return allocate(n, 0); }
void* operator new(size_t n, std::align_val_t a) { return allocate_or_throw(n, size_t(a)); }
void* operator new[](size_t n, std::align_val_t a) { return allocate_or_throw(n, size_t(a)); }
void* operator new(size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return allocate(n, size_t(a));
}
void* operator new[](size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return allocate(n, size_t(a));
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
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { uncounted(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { uncounted(p); }
