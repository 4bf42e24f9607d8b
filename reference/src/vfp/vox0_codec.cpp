// VOX0 payload (codec RAW8): the authoritative voxel grid (docs/spec/vfp.md#vox0-payload).
//
// | off | size     | type  | field                                 | check, in this order       |
// |-----|----------|-------|---------------------------------------|----------------------------|
// | 0   | 1        | u8    | version = 1                           | vox0.bad_version           |
// | 1   | 1        | u8    | reserved = 0                          | vox0.reserved              |
// | 2   | 2        | u16   | paletteCount (pc), 1..256             | vox0.palette_count         |
// | 4   | 2        | u16   | sizeX >= 1                            | vox0.zero_size             |
// | 6   | 2        | u16   | sizeY >= 1                            | vox0.zero_size             |
// | 8   | 2        | u16   | sizeZ >= 1                            | vox0.zero_size, then       |
// |     |          |       |   sx*sy*sz <= limit                   | vox0.limit.voxels, then    |
// |     |          |       |   payload = 12 + 4*pc + sx*sy*sz      | vox0.length                |
// | 10  | 2        | u16   | reserved = 0                          | vox0.reserved              |
// | 12  | 4*pc     | RGBA8 | palette (entry 0 = empty slot, kept)  |                            |
// | ... | sx*sy*sz | u8    | voxels, x-fastest: x + sx*(y + sy*z)  | vox0.palette_index (< pc)  |
//
// A read that runs out before offset 10 is vox0.truncated; from there on the exact-length rule
// (12 + 4*paletteCount + sx*sy*sz, in 64 bits) has already caught every short payload.
#include <algorithm>
#include <cstring>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "vfp/vfp_internal.h"
#include "voxrig/vfp.h"

namespace voxrig {

namespace {

using detail::num;

static_assert(sizeof(Rgba) == 4 && std::is_trivially_copyable_v<Rgba>,
              "the palette is copied with memcpy");

// Copies src[0..n) to dst and returns the largest byte: the copy and the whole per-voxel cost
// of validation in one pass. SSE2 (every x86-64): 64-byte blocks, four independent PMAXUB
// accumulators, one horizontal reduction at the end.
// Not memcpy + a separate scan: glibc 2.36 copies blocks of this size with `rep movsb`, which on
// some AMD CPUs (Zen 4) runs many times slower for some (dst - src) mod 64 — and a VOX0 payload
// starts 12 + 4 * paletteCount bytes into the file, so half the palette sizes hit it. This loop
// is as fast whatever the alignment.
uint8_t copy_max_byte(uint8_t* dst, const uint8_t* src, size_t n) {
  size_t i = 0;
  uint8_t m = 0;
#if defined(__SSE2__)
  __m128i m0 = _mm_setzero_si128(), m1 = m0, m2 = m0, m3 = m0;
  for (; i + 64 <= n; i += 64) {
    const auto* v = reinterpret_cast<const __m128i*>(src + i);
    auto* d = reinterpret_cast<__m128i*>(dst + i);
    const __m128i a = _mm_loadu_si128(v), b = _mm_loadu_si128(v + 1), c = _mm_loadu_si128(v + 2),
                  e = _mm_loadu_si128(v + 3);
    _mm_storeu_si128(d, a);
    _mm_storeu_si128(d + 1, b);
    _mm_storeu_si128(d + 2, c);
    _mm_storeu_si128(d + 3, e);
    m0 = _mm_max_epu8(m0, a);
    m1 = _mm_max_epu8(m1, b);
    m2 = _mm_max_epu8(m2, c);
    m3 = _mm_max_epu8(m3, e);
  }
  m0 = _mm_max_epu8(_mm_max_epu8(m0, m1), _mm_max_epu8(m2, m3));
  m0 = _mm_max_epu8(m0, _mm_srli_si128(m0, 8));
  m0 = _mm_max_epu8(m0, _mm_srli_si128(m0, 4));
  m0 = _mm_max_epu8(m0, _mm_srli_si128(m0, 2));
  m0 = _mm_max_epu8(m0, _mm_srli_si128(m0, 1));
  m = static_cast<uint8_t>(_mm_cvtsi128_si32(m0));
#else
  // 32 independent lane maxima: GCC turns this into two PMAXUB per 32 bytes even at -O2.
  std::memcpy(dst, src, n);
  constexpr size_t kLanes = 32;
  uint8_t lanes[kLanes] = {};
  for (; i + kLanes <= n; i += kLanes)
    for (size_t j = 0; j < kLanes; ++j) lanes[j] = src[i + j] > lanes[j] ? src[i + j] : lanes[j];
  for (size_t j = 0; j < kLanes; ++j) m = lanes[j] > m ? lanes[j] : m;
#endif
  for (; i < n; ++i) {
    dst[i] = src[i];
    m = src[i] > m ? src[i] : m;
  }
  return m;
}

[[gnu::cold]] Error palette_index_error(const uint8_t* voxels, size_t n, uint16_t palette_count,
                                        uint64_t voxels_at, const Vox0& dims) {
  size_t i = 0;
  while (i < n && voxels[i] < palette_count) ++i;
  const uint64_t x = i % dims.size_x, y = (i / dims.size_x) % dims.size_y,
                 z = i / (uint64_t{dims.size_x} * dims.size_y);
  return error_at(ErrorCode::Vox0PaletteIndex, voxels_at + i,
                  Path("VOX0").child("voxel", static_cast<int64_t>(i)),
                  "voxel (" + num(x) + "," + num(y) + "," + num(z) + ") = " + num(voxels[i]) +
                      ", paletteCount " + num(palette_count));
}

}  // namespace

Result<Vox0> decode_vox0(std::span<const uint8_t> payload, uint64_t base, const Limits& limits) {
  ByteReader r(payload, base, ErrorCode::Vox0Truncated);
  const Path root("VOX0");

  VOXRIG_TRY(detail::read_version_1(r, root, ErrorCode::Vox0BadVersion));
  VOXRIG_ASSIGN_OR_RETURN(const uint8_t reserved8, r.u8(root));
  if (reserved8 != 0)
    return error_at(ErrorCode::Vox0Reserved, base + 1, root, "reserved byte at 1");
  VOXRIG_ASSIGN_OR_RETURN(const uint16_t palette_count, r.u16(root));
  if (palette_count < 1 || palette_count > 256)
    return error_at(ErrorCode::Vox0PaletteCount, base + 2, root,
                    "paletteCount " + num(palette_count));

  Vox0 out;
  uint16_t* const dims[3] = {&out.size_x, &out.size_y, &out.size_z};
  for (int axis = 0; axis < 3; ++axis) {
    const uint64_t at = r.offset();
    VOXRIG_ASSIGN_OR_RETURN(*dims[axis], r.u16(root));
    if (*dims[axis] == 0)
      return error_at(ErrorCode::Vox0ZeroSize, at, root,
                      std::string("size") + "XYZ"[axis] + " is 0");
  }
  // At most 65535^3 < 2^48: no overflow in 64 bits.
  const uint64_t voxel_count = uint64_t{out.size_x} * out.size_y * out.size_z;
  if (voxel_count > limits.vox0_voxels)
    return error_at(ErrorCode::Vox0LimitVoxels, base + 4, root,
                    num(voxel_count) + " voxels, limit " + num(limits.vox0_voxels));
  const uint64_t expected = 12 + 4 * uint64_t{palette_count} + voxel_count;
  if (payload.size() != expected)
    return error_at(ErrorCode::Vox0Length, base + std::min<uint64_t>(payload.size(), expected),
                    root,
                    "payload is " + num(payload.size()) + " bytes, header needs " + num(expected));
  // From here every byte is present: the exact length was checked above.
  const uint8_t* const p = payload.data();
  if (load_u16(p + 10) != 0)
    return error_at(ErrorCode::Vox0Reserved, base + 10, root, "reserved u16 at 10");

  const uint8_t* const voxels = p + 12 + 4 * size_t{palette_count};
  const size_t n = static_cast<size_t>(voxel_count);
  // The voxels are copied and checked in one pass (the allocation is bounded by the payload,
  // which is present). Index 0 (empty) is always < paletteCount, so "every voxel <
  // paletteCount" is the whole rule.
  out.voxels.resize(n);
  if (copy_max_byte(out.voxels.data(), voxels, n) >= palette_count && palette_count < 256)
    return palette_index_error(voxels, n, palette_count, base + 12 + 4 * uint64_t{palette_count},
                               out);

  out.palette.resize(palette_count);
  std::memcpy(out.palette.data(), p + 12, 4 * size_t{palette_count});
  return out;
}

std::array<uint8_t, detail::kVox0HeaderBytes> detail::vox0_header(const Vox0& vox0) {
  std::array<uint8_t, kVox0HeaderBytes> p{};
  const uint16_t head[6] = {0,  // version and reserved byte, patched below
                            static_cast<uint16_t>(vox0.palette.size()),
                            vox0.size_x,
                            vox0.size_y,
                            vox0.size_z,
                            0};
  for (int i = 0; i < 6; ++i) store_u16(p.data() + 2 * i, head[i]);
  p[0] = 1;  // version
  p[1] = 0;  // reserved
  return p;
}

uint64_t detail::vox0_payload_size(const Vox0& vox0) {
  return kVox0HeaderBytes + 4 * uint64_t{vox0.palette.size()} + vox0.voxels.size();
}

Sha256 detail::vox0_hash(const Vox0& vox0) {
  Sha256Stream h;
  const auto head = vox0_header(vox0);
  h.update(head);
  h.update({reinterpret_cast<const uint8_t*>(vox0.palette.data()), 4 * vox0.palette.size()});
  h.update(vox0.voxels);
  return h.finish();
}

std::vector<uint8_t> encode_vox0(const Vox0& vox0) {
  const size_t palette_bytes = 4 * vox0.palette.size();
  std::vector<uint8_t> out(detail::vox0_payload_size(vox0));
  uint8_t* p = out.data();
  const auto head = detail::vox0_header(vox0);
  std::memcpy(p, head.data(), head.size());
  if (palette_bytes) std::memcpy(p + head.size(), vox0.palette.data(), palette_bytes);
  if (!vox0.voxels.empty())
    std::memcpy(p + head.size() + palette_bytes, vox0.voxels.data(), vox0.voxels.size());
  return out;
}

}  // namespace voxrig
