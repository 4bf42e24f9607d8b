// bench/harness.h — what every voxrig benchmark shares: the allocation counter, the measured
// loop (allocations per iteration, the injected slowdown used to prove the regression gate) and
// the failure flag main() turns into the exit status.
//
// Every benchmark body is written as
//     for (auto _ : bench::measure(state, bench::Alloc::None)) { ...work... }
// instead of `for (auto _ : state)`. The wrapper:
//  - reports the counter "allocs/iter" (operator new calls in the timed loop / iterations);
//  - with Alloc::None, marks the benchmark as failed (SkipWithError, exit status 1) when the
//    loop allocated at all: the zero-allocation contracts of per-frame evaluation and of meshing
//    into a reused buffer are checked on every run, including the bench-smoke CTest;
//  - when VOXRIG_BENCH_INJECT_SLOWDOWN=F (F > 1) is set, busy-waits (F - 1) times the measured
//    duration of each iteration inside the timed region, so every benchmark runs F times slower.
//    bench/compare.sh is proven against exactly this (bench/README.md).
#pragma once

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace voxrig::bench {

/// operator new / new[] calls (every variant) made by this process so far, all threads.
uint64_t allocation_count();

/// The factor from VOXRIG_BENCH_INJECT_SLOWDOWN (1 when unset or invalid), read once.
double injected_slowdown();

/// Called when a benchmark breaks a contract (allocates where it must not, or its work fails):
/// the run continues, and main() returns 1 at the end.
void report_failure(benchmark::State& state, const std::string& why);
/// True when report_failure was called at least once.
bool any_failure();

/// Whether the timed loop may allocate.
enum class Alloc { Any, None };

/// The range `for (auto _ : measure(state, ...))` iterates over; see the header comment.
class Measured {
 public:
  Measured(benchmark::State& state, Alloc alloc)
      : state_(state), alloc_(alloc), slowdown_(injected_slowdown()) {}

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
      if (owner_->slowdown_ > 1) owner_->pad();
      ++it_;
    }
    benchmark::State::StateIterator::Value operator*() {
      if (owner_->slowdown_ > 1) owner_->start_ = Clock::now();
      return *it_;
    }

   private:
    benchmark::State::StateIterator it_;
    Measured* owner_;
  };

  Iterator begin() { return Iterator(state_.begin(), this); }
  // A range-for calls begin() then end(); State::end() starts the timer, so the allocation
  // count is taken after it.
  Iterator end() {
    Iterator it(state_.end(), this);
    start_allocs_ = allocation_count();
    return it;
  }

 private:
  using Clock = std::chrono::steady_clock;
  void pad();
  void finish(uint64_t allocs_now);

  benchmark::State& state_;
  Alloc alloc_;
  double slowdown_;
  uint64_t start_allocs_ = 0;
  Clock::time_point start_{};
};

inline Measured measure(benchmark::State& state, Alloc alloc = Alloc::Any) {
  return Measured(state, alloc);
}

/// Sets bytes_per_second and items_per_second from per-iteration amounts.
inline void rates(benchmark::State& state, uint64_t bytes, uint64_t items) {
  state.SetBytesProcessed(static_cast<int64_t>(bytes * state.iterations()));
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
