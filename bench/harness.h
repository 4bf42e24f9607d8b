// bench/harness.h — what every voxrig benchmark shares: the allocation counter, the measured
// loop (allocations per iteration, the injected slowdown used to prove the regression gate) and
// the failure flag main() turns into the exit status.
//
// Every benchmark body is written as
//     for (auto _ : bench::measure(state, bench::Alloc::None)) { ...work... }
// instead of `for (auto _ : state)`. The wrapper:
//  - reports the counter "allocs/iter" (operator new calls in the timed loop / iterations), and
//    "baseline" = 1 on in-run baselines (compare.sh reads it);
//  - with Alloc::None, marks the benchmark as failed (SkipWithError, exit status 1) when the
//    loop allocated at all: the zero-allocation contracts of per-frame evaluation and of meshing
//    into a reused buffer are checked on every run, including the bench-smoke CTest;
//  - when VOXRIG_BENCH_INJECT_SLOWDOWN=F (F > 1) is set, runs the body F times per counted
//    iteration (on average, for a fractional F), so every library benchmark takes F times the CPU
//    and wall time per iteration, as a regression in the library would (baselines do not: see
//    Role). No clock is read: the factor is exact. bench/compare.sh is proven against exactly
//    this (bench/README.md).
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "voxrig/testing/alloc_counter.h"
#include "voxrig/testing/perf_inputs.h"

namespace voxrig::bench {

// The benchmarks' inputs are the perf corpus of voxrig::testing (grid, rig_file, character, ...).
using namespace voxrig::perf;

/// operator new / new[] calls (every variant) made by the calling thread so far (the benchmark's
/// own thread: a count costs no locked instruction inside the timed loop).
using testing::allocation_count;

/// The factor from VOXRIG_BENCH_INJECT_SLOWDOWN (1 when unset or invalid), read once.
double injected_slowdown();

/// Called when a benchmark breaks a contract (allocates where it must not, or its work fails):
/// the run continues, and main() returns 1 at the end.
void report_failure(benchmark::State& state, const std::string& why);
/// True when report_failure was called at least once.
bool any_failure();

/// Whether the timed loop may allocate.
enum class Alloc { Any, None };

/// Library code under test, or an in-run baseline written in the benchmark (memcpy, grid scan,
/// per-voxel greedy, plain sampler). The injected slowdown applies to Library loops only: it
/// stands for a regression in the library, which the baselines must not share (compare.sh
/// --normalize divides by them to cancel machine drift).
enum class Role { Library, Baseline };

/// The range `for (auto _ : measure(state, ...))` iterates over; see the header comment.
class Measured {
 public:
  Measured(benchmark::State& state, Alloc alloc, Role role)
      : state_(state),
        alloc_(alloc),
        role_(role),
        slowdown_(role == Role::Library ? injected_slowdown() : 1) {}

  class Iterator {
   public:
    Iterator(benchmark::State::StateIterator it, Measured* owner) : it_(it), owner_(owner) {}
    bool operator!=(const Iterator& end) {
      const uint64_t allocs = allocation_count();
      if (it_ != end.it_) return true;
      owner_->finish(allocs);
      return false;
    }
    void operator++() {
      // An injected slowdown repeats the body inside the same benchmark iteration.
      if (owner_->repeats_left_ > 0) {
        --owner_->repeats_left_;
        return;
      }
      ++it_;
      owner_->plan_repeats();
    }
    benchmark::State::StateIterator::Value operator*() { return *it_; }

   private:
    benchmark::State::StateIterator it_;
    Measured* owner_;
  };

  Iterator begin() {
    plan_repeats();
    return Iterator(state_.begin(), this);
  }
  // A range-for calls begin() then end(); State::end() starts the timer, so the allocation
  // count is taken after it.
  Iterator end() {
    Iterator it(state_.end(), this);
    start_allocs_ = allocation_count();
    return it;
  }

 private:
  // How many extra times the next iteration runs its body: on average slowdown - 1.
  void plan_repeats() {
    if (slowdown_ <= 1) return;
    credit_ += slowdown_ - 1;
    repeats_left_ = static_cast<uint32_t>(credit_);
    credit_ -= repeats_left_;
  }
  void finish(uint64_t allocs_now);

  benchmark::State& state_;
  Alloc alloc_;
  Role role_;
  double slowdown_;
  uint64_t start_allocs_ = 0;
  double credit_ = 0;
  uint32_t repeats_left_ = 0;
};

inline Measured measure(benchmark::State& state, Alloc alloc = Alloc::Any,
                        Role role = Role::Library) {
  return Measured(state, alloc, role);
}

/// The timed loop of one library call (allocation allowed): fn() once per iteration, its result
/// kept alive with DoNotOptimize so the call cannot be dropped.
template <class Fn>
void time_call(benchmark::State& state, Fn fn) {
  for (auto _ : measure(state)) {
    auto r = fn();
    benchmark::DoNotOptimize(r);
  }
}

/// Sets bytes_per_second (unless `bytes` is 0) and items_per_second from per-iteration amounts.
inline void rates(benchmark::State& state, uint64_t bytes, uint64_t items) {
  if (bytes != 0) state.SetBytesProcessed(static_cast<int64_t>(bytes * state.iterations()));
  state.SetItemsProcessed(static_cast<int64_t>(items * state.iterations()));
}

/// A lazily built input shared by every run (repetition, iteration-count probe) of one
/// registered benchmark: built on first use, outside the timed loop, never for a filtered-out one.
template <class T>
using Lazy = std::shared_ptr<std::optional<T>>;
template <class T>
Lazy<T> lazy() {
  return std::make_shared<std::optional<T>>();
}

/// Registers "memcpy/<name>": memcpy of size() bytes into a preallocated buffer, the bandwidth
/// baseline read next to every decoder of the same byte count.
void register_memcpy(const std::string& name, std::function<size_t()> size);

}  // namespace voxrig::bench
