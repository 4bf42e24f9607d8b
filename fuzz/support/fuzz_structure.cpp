// The structured targets' custom mutators: the shared structure-aware mutators of
// voxrig/testing/mutate.h (also used by `voxrig fuzz-reader`), with libFuzzer's byte mutator.
#include "fuzz_common.h"
#include "voxrig/testing/mutate.h"

namespace voxrig::fuzz {

namespace {
const testing::ByteMutator& libfuzzer_bytes() {
  static const testing::ByteMutator m = LLVMFuzzerMutate;
  return m;
}
}  // namespace

size_t mutate_vfp(uint8_t* data, size_t size, size_t max_size, unsigned seed) {
  return testing::mutate_vfp(data, size, max_size, seed, libfuzzer_bytes());
}
size_t mutate_rkc(uint8_t* data, size_t size, size_t max_size, unsigned seed) {
  return testing::mutate_rkc(data, size, max_size, seed, libfuzzer_bytes());
}
size_t mutate_rvc(uint8_t* data, size_t size, size_t max_size, unsigned seed) {
  return testing::mutate_rvc(data, size, max_size, seed, libfuzzer_bytes());
}

}  // namespace voxrig::fuzz
