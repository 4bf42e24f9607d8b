// voxrig/testing/alloc_counter.h — counting replacements of the global operator new/delete,
// shared by the codec unit tests (a job's run() must not allocate), the robustness properties
// (the heap a decoder reaches on hostile input) and the benchmarks (allocs/iter).
//
// The replacement lives in its own CMake object library, voxrig::alloc_counter, not in the
// voxrig::testing archive: the linker would pull an archived operator new into every binary that
// links the archive (the CLI included). A binary gets the counter by linking
// voxrig::alloc_counter directly (an object library is not passed on through another library),
// and then has exactly one replacement. Every operator new / new[] variant is counted. Of the C
// libraries, zlib allocates through operator new (the codec sets z_stream.zalloc / zfree, zlib's
// hook), so it is counted and failed like C++ allocations; OpenSSL is too, through its hook
// CRYPTO_set_mem_functions, in a binary that calls count_openssl_allocations() first.
#pragma once

#include <cstddef>
#include <cstdint>

namespace voxrig::testing {

/// operator new / new[] calls (every variant) made by the calling thread so far. Per thread on
/// purpose: a probe sees only the allocations of the code it watches (not a library's or a test
/// runner's other threads), and counting needs no locked instruction, whose cost would sit in
/// every benchmark that allocates.
uint64_t allocation_count();

/// Counts allocations between construction and count().
class AllocationProbe {
 public:
  AllocationProbe() : start_(allocation_count()) {}
  uint64_t count() const { return allocation_count() - start_; }

 private:
  uint64_t start_;
};

/// Starts a heap window: from the first call on, operator new/delete also keep the bytes in use
/// (malloc_usable_size), and the peak is reset to the current use. Byte keeping costs a call
/// per allocation, so binaries that never open a window (benchmarks) do not pay for it.
void heap_reset_peak();

/// The peak bytes in use since the last heap_reset_peak(), minus the use at that moment (0 when
/// no window was opened). Blocks freed in the window that were allocated before it count as
/// freed, so the figure is the window's own growth.
size_t heap_peak_growth();

/// Failure injection for out-of-memory tests (scripts/oom-sweep.sh): from this call on, the n-th
/// operator new / new[] call (n >= 1) of the calling thread fails as if the heap were exhausted
/// — the throwing forms throw std::bad_alloc, the nothrow forms return nullptr — and every other
/// call (other threads' too) succeeds. n == 0 disarms. Only one failure per arming (the
/// allocator "recovers"), so the error path itself can allocate. zlib's allocations are among
/// the calls (operator new), and OpenSSL's after count_openssl_allocations() (its malloc /
/// realloc return NULL).
void fail_nth_allocation(uint64_t n);

/// Routes OpenSSL's allocations (CRYPTO_set_mem_functions: malloc, realloc, free) through the
/// same counter and failure injection. Must run before OpenSSL's first allocation (first thing in
/// main); returns false when it is too late (OpenSSL then keeps its own allocator). Process-wide.
bool count_openssl_allocations();

/// True when the failure the calling thread armed last (fail_nth_allocation) has happened.
bool injected_failure_happened();

}  // namespace voxrig::testing
