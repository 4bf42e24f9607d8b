// ymm_state.h — whether the upper halves of the YMM registers are in use (x86-64), for the tests
// that check a kernel built for AVX/AVX2 hands back a clean state.
//
// Why it matters: while the upper halves are "dirty" (an AVX instruction wrote them and no
// vzeroupper followed), every legacy-SSE instruction — the SSE2 kernels, and any caller's SSE
// code — pays a merge with them, which makes the SSE2 kernels several times slower on AMD CPUs.
// XGETBV with ECX = 1 reads XINUSE, whose bit 2 says whether the AVX state (those halves) is in
// use: a check of the state itself, not a timing.
#pragma once

#include <cstdint>

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#endif

namespace voxrig::testing {

/// True when this CPU can report XINUSE (CPUID.(EAX=0DH, ECX=1):EAX bit 2) and has AVX.
inline bool can_read_ymm_state() {
#if defined(__x86_64__) && defined(__GNUC__)
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__builtin_cpu_supports("avx")) return false;
  if (__get_cpuid_count(0xD, 1, &a, &b, &c, &d) == 0) return false;
  return (a & 4u) != 0;
#else
  return false;
#endif
}

/// True when the upper halves of the YMM registers are in use (XINUSE bit 2). Call only when
/// can_read_ymm_state().
inline bool upper_ymm_dirty() {
#if defined(__x86_64__) && defined(__GNUC__)
  uint32_t lo = 0, hi = 0;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(1));
  return (lo & 4u) != 0;
#else
  return false;
#endif
}

}  // namespace voxrig::testing
