// Raw DEFLATE through zlib (deflate.h has the contract).
#include "voxrig/testing/deflate.h"

#include <zlib.h>

namespace voxrig::testing {

static_assert(kDefaultDeflateStrategy == Z_DEFAULT_STRATEGY);

std::vector<uint8_t> raw_deflate(std::span<const uint8_t> raw, int level, int strategy) {
  z_stream z{};
  deflateInit2(&z, level, Z_DEFLATED, -15, 8, strategy);
  std::vector<uint8_t> out(deflateBound(&z, uLong(raw.size())) + 16);
  uint8_t dummy = 0;  // zlib wants a non-null next_in even for no input
  z.next_in = raw.empty() ? &dummy : const_cast<uint8_t*>(raw.data());
  z.avail_in = uInt(raw.size());
  z.next_out = out.data();
  z.avail_out = uInt(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

}  // namespace voxrig::testing
