// bench/harness.cpp — the measured loop and main() of voxrig_bench.
//
// The counting operator new is voxrig::alloc_counter (voxrig/testing/alloc_counter.h), linked
// into this binary only: it counts every allocation the library makes through C++ containers,
// and zlib's (RVC inflate: the codec routes them through operator new). OpenSSL's (SHA-256) go
// to malloc directly and are not counted (this binary does not call count_openssl_allocations);
// neither runs in a zero-allocation path.
#include "harness.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <new>
#include <string>
#include <vector>

namespace {

bool g_failed = false;

}  // namespace

namespace voxrig::bench {

double injected_slowdown() {
  static const double factor = [] {
    const char* s = std::getenv("VOXRIG_BENCH_INJECT_SLOWDOWN");
    if (s == nullptr) return 1.0;
    char* end = nullptr;
    const double f = std::strtod(s, &end);
    return (end != s && f > 1 && f < 1000) ? f : 1.0;
  }();
  return factor;
}

void report_failure(benchmark::State& state, const std::string& why) {
  g_failed = true;
  if (!state.error_occurred()) state.SkipWithError(why.c_str());
}

bool any_failure() { return g_failed; }

void Measured::finish(uint64_t allocs_now) {
  const uint64_t allocs = allocs_now - start_allocs_;
  state_.counters["allocs/iter"] =
      benchmark::Counter(static_cast<double>(allocs), benchmark::Counter::kAvgIterations);
  if (role_ == Role::Baseline) state_.counters["baseline"] = 1;
  if (alloc_ == Alloc::None && allocs != 0)
    report_failure(state_, std::to_string(allocs) +
                               " heap allocation(s) in a loop that must "
                               "not allocate");
}

void register_memcpy(const std::string& name, std::function<size_t()> size) {
  benchmark::RegisterBenchmark(("memcpy/" + name).c_str(), [size](benchmark::State& state) {
    const size_t bytes = size();
    // Both buffers 64-byte aligned: glibc's `rep movsb` copy is many times slower on some AMD
    // CPUs for some (dst - src) mod 64 (see vox0_codec.cpp), and the baseline must be the fast
    // case, not a heap-layout lottery.
    std::vector<uint8_t> src_buf(bytes + 64, 0x5A), dst_buf(bytes + 64, 0);
    const auto align = [](std::vector<uint8_t>& v) {
      return v.data() + (64 - reinterpret_cast<uintptr_t>(v.data()) % 64) % 64;
    };
    uint8_t* const src = align(src_buf);
    uint8_t* const dst = align(dst_buf);
    for (size_t i = 0; i < bytes; i += 4096) src[i] = static_cast<uint8_t>(i >> 12);
    for (auto _ : measure(state, Alloc::None, Role::Baseline)) {
      std::memcpy(dst, src, bytes);
      benchmark::DoNotOptimize(dst);
      benchmark::ClobberMemory();
    }
    rates(state, bytes, bytes);
  });
}

}  // namespace voxrig::bench

int main(int argc, char** argv) {
#if defined(__GLIBC__)
  // Keep freed memory in the heap (no mmap per large allocation, no trimming): a decoder that
  // returns a fresh 256 KiB vector then costs the same on every call instead of paying page
  // faults whenever glibc's adaptive mmap threshold happens to sit below the size, which makes a
  // benchmark's time depend on what ran before it. 32 MiB is glibc's maximum.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 512 << 20);
#endif
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
#if defined(__GLIBC__)
  benchmark::AddCustomContext("voxrig_malloc", "mmap_threshold=32MiB trim_threshold=512MiB");
#endif
  benchmark::AddCustomContext("voxrig_inject_slowdown",
                              std::to_string(voxrig::bench::injected_slowdown()));
#ifdef VOXRIG_BENCH_BUILD_TYPE
  benchmark::AddCustomContext("voxrig_build_type", VOXRIG_BENCH_BUILD_TYPE);
#endif
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (voxrig::bench::any_failure()) {
    std::fprintf(stderr, "voxrig_bench: at least one benchmark failed its contract\n");
    return 1;
  }
  return 0;
}
