// Counts heap allocations made through operator new (the replacement lives in
// alloc_counter_test.cpp). Tests use it to prove that a job's run() does not allocate.
#pragma once

#include <cstddef>

namespace voxrig::testing {

/// Number of operator new calls made by this thread so far.
size_t allocation_count();

/// Counts allocations between construction and count().
class AllocationProbe {
 public:
  AllocationProbe() : start_(allocation_count()) {}
  size_t count() const { return allocation_count() - start_; }

 private:
  size_t start_;
};

}  // namespace voxrig::testing
