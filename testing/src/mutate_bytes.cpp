// The plain byte mutator of voxrig/testing/mutate.h: what `voxrig fuzz-reader` uses where the
// fuzz targets have libFuzzer's LLVMFuzzerMutate. Choices come from a splitmix64 stream so a
// seed reproduces the same edit everywhere.
#include <algorithm>
#include <cstring>
#include <memory>

#include "voxrig/testing/gen.h"
#include "voxrig/testing/mutate.h"

namespace voxrig::testing {

namespace {

struct Stream {
  uint64_t state;
  uint64_t next() { return gen::splitmix64(state); }
  size_t below(size_t n) { return n == 0 ? 0 : size_t(next() % n); }
};

/// Values that sit on the edges parsers test: 0, 1, sign bits, all ones, small counts.
constexpr uint32_t kInteresting[] = {0,          1,          2,          3,         4,      7,
                                     8,          16,         32,         64,        0x7F,   0x80,
                                     0xFF,       0x100,      0x7FFF,     0x8000,    0xFFFF, 0x10000,
                                     0x7FFFFFFF, 0x80000000, 0xFFFFFFFE, 0xFFFFFFFF};

void put_le(uint8_t* p, uint32_t v, size_t n) {
  for (size_t i = 0; i < n; ++i) p[i] = uint8_t(v >> (8 * i));
}

}  // namespace

size_t mutate_plain_bytes(uint8_t* data, size_t size, size_t max_size, uint64_t seed) {
  Stream r{seed};
  if (max_size == 0) return 0;
  if (size == 0) {
    data[0] = uint8_t(r.next());
    return 1;
  }
  size = std::min(size, max_size);
  const size_t steps = 1 + r.below(4);
  for (size_t step = 0; step < steps; ++step) {
    const size_t at = r.below(size);
    switch (r.below(8)) {
      case 0:
        data[at] ^= uint8_t(1u << r.below(8));
        break;
      case 1:
        data[at] = uint8_t(r.next());
        break;
      case 2: {
        const size_t width = size_t{1} << r.below(3);  // 1, 2 or 4 bytes
        if (at + width > size) break;
        put_le(data + at, kInteresting[r.below(std::size(kInteresting))], width);
        break;
      }
      case 3: {  // insert 1..8 random bytes
        const size_t n = std::min<size_t>(1 + r.below(8), max_size - size);
        if (n == 0) break;
        std::memmove(data + at + n, data + at, size - at);
        for (size_t i = 0; i < n; ++i) data[at + i] = uint8_t(r.next());
        size += n;
        break;
      }
      case 4: {  // erase 1..16 bytes (keep at least one)
        const size_t n = std::min<size_t>(1 + r.below(16), size - at);
        if (n >= size) break;
        std::memmove(data + at, data + at + n, size - at - n);
        size -= n;
        break;
      }
      case 5: {  // duplicate a run of up to 32 bytes at another place
        const size_t n = std::min({size_t(1 + r.below(32)), size - at, max_size - size});
        if (n == 0) break;
        const size_t to = r.below(size + 1);
        uint8_t run[32];
        std::memcpy(run, data + at, n);
        std::memmove(data + to + n, data + to, size - to);
        std::memcpy(data + to, run, n);
        size += n;
        break;
      }
      case 6:  // cut the tail
        size = std::max<size_t>(1, at);
        break;
      default: {  // add or subtract a small delta from a byte (counts, lengths, enums)
        const int delta = int(r.below(35)) - 17;
        data[at] = uint8_t(int(data[at]) + delta);
      }
    }
  }
  return size;
}

ByteMutator plain_byte_mutator(uint64_t seed) {
  auto state = std::make_shared<uint64_t>(seed);
  return [state](uint8_t* data, size_t size, size_t max_size) {
    return mutate_plain_bytes(data, size, max_size, gen::splitmix64(*state));
  };
}

}  // namespace voxrig::testing
