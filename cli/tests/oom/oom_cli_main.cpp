// voxrig_oom_cli: the voxrig CLI linked with the counting operator new of voxrig::alloc_counter,
// for the command-level out-of-memory sweep (cli/tests/oom_cli_sweep.py, docs/robustness.md).
// Environment:
//   VOXRIG_FAIL_ALLOCATION=N    the N-th allocation of the main thread, counted from main(),
//                               fails (operator new throws std::bad_alloc, zlib and OpenSSL get
//                               NULL), the way a full heap would fail it
//   VOXRIG_COUNT_ALLOCATIONS=1  prints "voxrig-oom: allocations A injected I" to stderr at the end
// Otherwise it is the `voxrig` command (run_command: the same dispatch main.cpp uses).
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "commands.h"
#include "voxrig/testing/alloc_counter.h"

int main(int argc, char** argv) {
  // Before OpenSSL's first allocation, so its blocks are counted (and failed) too.
  voxrig::testing::count_openssl_allocations();
  const char* fail = std::getenv("VOXRIG_FAIL_ALLOCATION");
  const bool count = std::getenv("VOXRIG_COUNT_ALLOCATIONS") != nullptr;
  const uint64_t start = voxrig::testing::allocation_count();
  if (fail) voxrig::testing::fail_nth_allocation(std::strtoull(fail, nullptr, 10));
  int rc = voxrig::cli::run_command(argc, argv);
  std::cout.flush();
  if (!std::cout) rc = voxrig::cli::kExitIo;
  if (count)
    std::fprintf(stderr, "voxrig-oom: allocations %llu injected %d\n",
                 static_cast<unsigned long long>(voxrig::testing::allocation_count() - start),
                 voxrig::testing::injected_failure_happened() ? 1 : 0);
  return rc;
}
