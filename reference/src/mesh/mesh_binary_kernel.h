// The binary greedy mesher's kernel, the engine of mesh_greedy and mesh_bone_aware (shared
// layer: both entry points call detail::mesh_binary, neither calls the other).
//
// Compiled twice from this one source (mesh.h MeshKernels): mesh_binary.cpp builds it for the
// SSE2 baseline every x86-64 has (namespace detail::sse2) and holds the run-time dispatch;
// mesh_binary_avx2.cpp builds the same code for AVX2 + BMI1/BMI2 + POPCNT (namespace
// detail::avx2), chosen when the CPU has them. The source is the same, so the two give the same
// quads in the same order (mesh_test runs every Mesh test on both); the second build gains the
// encodings (three-operand SSE, andn/blsr/tzcnt, shifts by a register without the cl dance,
// popcnt) and, where VOXRIG_MESH_WIDE is defined, 256-bit forms of the row compares and of the
// packed quads' expansion. Only the including file's translation unit sees this; it defines
// VOXRIG_MESH_ISA (the namespace) and includes every header below first, so that headers'
// inline functions stay baseline code and only the kernel's own functions (internal linkage,
// or in the ISA's namespace) are compiled for the wider target.
//
// Per 64^3 tile, every row (y, z) of the tile, plus one row of margin on each side in y and z,
// becomes a 64-bit occupancy mask over x. Face masks come from shifts and and-nots against the
// neighbouring row (y and z faces) or the row itself shifted by one (x faces). A face is
// exposed when its neighbour is empty, or, bone-aware, bound to another joint: the joint
// difference masks (jd*) clear the neighbour's "covers me" bit.
//
// Merging works on 64-bit rows of one plane. Two masks per row carry the material (palette, and
// joint when bone-aware) without looking at voxels: C (across: bit i set when face i and face
// i+1 differ) and V (down: bit i set when face i differs from face i in the next row). A run
// starts at the lowest set bit (ctz) and extends over set bits up to the first C bit; the quad
// then grows over following rows while the next row holds the whole span and V of the current
// row is clear over the span. That is the classic greedy (first face in scan order, widest run,
// then as many rows as match), computed a row at a time.
//
// Per-voxel work is a few SIMD compares per 16 voxels (32 in the AVX2 build); the rest is per
// face or per quad. x faces need rows over y: a z layer with many x faces is transposed (64x64
// bit transposes), a sparse one is scattered face by face.
#pragma once

#include <algorithm>
#include <bit>
#include <type_traits>

#include "mesh/mesh_internal.h"

#if !defined(VOXRIG_MESH_ISA)
#error "mesh_binary_kernel.h: define VOXRIG_MESH_ISA (sse2 or avx2) before including it"
#endif

// The per-quad lambdas must be inlined into the merge loops (a call per quad costs more than
// the quad's own work on a random grid); GCC and Clang stop inlining them once they grow.
#if defined(__GNUC__)
#define VOXRIG_MESH_INLINE __attribute__((always_inline))
#else
#define VOXRIG_MESH_INLINE
#endif

namespace voxrig {
namespace detail {
namespace VOXRIG_MESH_ISA {
namespace {

// Rows of a tile lie sx (voxels) or 2 * sx (joint ids) bytes apart, so a pass over a tile's rows
// is a strided stream that the hardware prefetcher loses at page boundaries; on large grids the
// passes wait on memory. Each pass asks for the row kAhead rows on in its own direction:
// prefetch_row(p, delta, ok, wide) fetches the 64 bytes at p + delta when `ok` (the row lies in
// the grid and the tile is full-width), and with `wide` the 64 after them too: a joint row's
// second half, or the next x-tile's voxels, which that tile then reads from the L2 cache
// (cheaper than a second stream of prefetches for that tile). Grids under kPrefetchVoxels (1 MB of
// voxels, 2 MB of joint ids) stay in the L2 cache between passes: no prefetching (streams()).
inline constexpr uint32_t kAhead = 4;
inline constexpr size_t kPrefetchVoxels = size_t{1} << 20;
inline bool streams(const Grid& g, const Tile& t) {
  return t.cx == kTile && g.count >= kPrefetchVoxels;
}
template <class T>
inline void prefetch_row([[maybe_unused]] const T* p, [[maybe_unused]] int64_t delta,
                         [[maybe_unused]] bool ok, [[maybe_unused]] bool wide) {
#if defined(__SSE2__)
  if (!ok) return;
  const char* q = reinterpret_cast<const char*>(p + delta);
  _mm_prefetch(q, _MM_HINT_T0);
  _mm_prefetch(q + 63, _MM_HINT_T0);
  if (wide) {
    _mm_prefetch(q + 64, _MM_HINT_T0);
    _mm_prefetch(q + 127, _MM_HINT_T0);
  }
#endif
}

#if defined(VOXRIG_MESH_WIDE)
// The AVX2 build's 256-bit forms of the row compares (32 voxels or 16 joint ids per compare):
// the same masks as the SSE2 code beside them, in half the instructions.
inline __m256i load256(const void* p) { return _mm256_loadu_si256(static_cast<const __m256i*>(p)); }
// Bit i = byte lane i of v is all ones, i < 32.
inline uint64_t lanes8(__m256i v) { return static_cast<uint32_t>(_mm256_movemask_epi8(v)); }
// Bit i = 16-bit lane i of (lo, hi) is all ones, i < 32 (packs works per 128-bit half: the
// permute puts the halves back in lane order).
inline uint64_t lanes16(__m256i lo, __m256i hi) {
  return lanes8(_mm256_permute4x64_epi64(_mm256_packs_epi16(lo, hi), 0xD8));
}
// Bit i = (a[i] == b[i]) over 64 bytes.
inline uint64_t equal_bytes64(const uint8_t* a, const uint8_t* b) {
  return lanes8(_mm256_cmpeq_epi8(load256(a), load256(b))) |
         lanes8(_mm256_cmpeq_epi8(load256(a + 32), load256(b + 32))) << 32;
}
// Bit i = (a[i] == lane i of the blocks `block(k)` gives (16 ids each, k = 0, 16, 32, 48)).
template <class Block>
inline uint64_t equal_ids64(const uint16_t* a, Block block) {
  const auto eq = [&](int k) { return _mm256_cmpeq_epi16(load256(a + k), block(k)); };
  return lanes16(eq(0), eq(16)) | lanes16(eq(32), eq(48)) << 32;
}
#endif

// Bit i = (a[i] != b[i]), i < 64, joint ids: diff_mask16, in 256-bit compares in the AVX2 build.
inline uint64_t joint_diffs(const uint16_t* a, const uint16_t* b) {
#if defined(VOXRIG_MESH_WIDE)
  return ~equal_ids64(a, [b](int k) { return load256(b + k); });
#else
  return diff_mask16(a, b);
#endif
}

// A row's three palette-difference masks over 64 lanes: dx bit i = (p[i+1] != p[i]), dy =
// (ry[i] != p[i]), dz the same for rz; dy/dz are 0 when ry/rz is null. build_palette_rows ands
// them with the neighbour's occupancy: a change toward an empty neighbour is never read
// (merge_plane compares two faces, and a face needs a solid voxel), and leaving it out keeps the
// masks of a one-colour model zero. 80 bytes from p and 64 from ry and rz must be readable. One
// pass: each 16-byte block of p is loaded once, one compare and one movemask per direction.
struct RowMasks8 {
  uint64_t dx, dy, dz;
};
inline RowMasks8 row_diffs8(const uint8_t* p, const uint8_t* ry, const uint8_t* rz) {
  const uint8_t* qy = ry != nullptr ? ry : p;  // against itself: no difference
  const uint8_t* qz = rz != nullptr ? rz : p;
#if defined(VOXRIG_MESH_WIDE)
  return RowMasks8{~equal_bytes64(p, p + 1), ~equal_bytes64(p, qy), ~equal_bytes64(p, qz)};
#elif defined(__SSE2__)
  uint64_t ex = 0, ey = 0, ez = 0;  // equal lanes
  for (int i = 0; i < 4; ++i) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * i));
    const auto eq = [&](const uint8_t* q) {
      const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(q + 16 * i));
      return uint64_t{static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(a, b)))} << (16 * i);
    };
    ex |= eq(p + 1);
    ey |= eq(qy);
    ez |= eq(qz);
  }
  return RowMasks8{~ex, ~ey, ~ez};
#else
  return RowMasks8{diff_mask_scalar(p, p + 1), diff_mask_scalar(p, qy), diff_mask_scalar(p, qz)};
#endif
}

#if defined(__SSE2__)
// True when a[i] equals lane i of the blocks `block(i)` gives for every i < 64: SSE2, 8 joint ids
// per block (i = 0, 8, .., 56); the AVX2 build, 16 (i = 0, 16, 32, 48). The compares are and-ed
// together, one movemask. The one home of the all-equal test of rows_equal16 (a second row) and
// all_joint16 (one joint id in every lane). 64 values of a must be readable.
template <class Block>
inline bool all_lanes_equal16(const uint16_t* a, Block block) {
#if defined(VOXRIG_MESH_WIDE)
  __m256i eq = _mm256_set1_epi8(-1);
  for (int i = 0; i < 64; i += 16)
    eq = _mm256_and_si256(eq, _mm256_cmpeq_epi16(load256(a + i), block(i)));
  return _mm256_movemask_epi8(eq) == -1;
#else
  __m128i eq = _mm_set1_epi8(-1);
  for (int i = 0; i < 64; i += 8)
    eq = _mm_and_si128(
        eq, _mm_cmpeq_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(a + i)), block(i)));
  return _mm_movemask_epi8(eq) == 0xFFFF;
#endif
}
#endif

// True when a[i] == b[i] for every i < 64 (joint ids). 64 values of each must be readable.
inline bool rows_equal16(const uint16_t* a, const uint16_t* b) {
#if defined(VOXRIG_MESH_WIDE)
  return all_lanes_equal16(a, [b](int i) { return load256(b + i); });
#elif defined(__SSE2__)
  return all_lanes_equal16(
      a, [b](int i) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + i)); });
#else
  return diff_mask_scalar(a, b) == 0;
#endif
}

// Fills s.jdx, s.jborder, s.jdy, s.jdz for tile t (grid.joints must be set; s.occ already
// built). A joint change matters only between two solid voxels (a face toward an empty voxel is
// exposed anyway), so a pair of rows with no solid voxel in common skips the compare: its mask
// is left 0. jdx/jborder are read only under this row's faces, jdy/jdz[r] only where both r and
// its +y/+z neighbour are solid.
//
// Joint maps bind regions, so a row's joint ids nearly always equal those of its +y neighbour,
// and one equality test (rows_equal16) then replaces most of the row's compares. Rows go in
// descending z, then descending y, so the +y and +z rows are done when a row is visited:
// - row r equal to its +y row on lanes 0..64 (every lane jdx reads): jdx[r] is that row's jdx
//   and jdy[r] is 0;
// - if moreover the +z row equals the +z row's +y neighbour (yeq of the slice before), the pair
//   (r, r + z) holds the same ids as the pair (r + y, r + y + z), so jdz[r] is jdz[r + y] when
//   that one is the full lane-by-lane difference (dz_full: it was compared, not skipped).
// Anything else is compared as before. A carried mask is the full lane-by-lane difference of its
// pair, so it agrees with the compare on every lane that is read (a skipped pair's 0 is never
// carried: dz_full). Tests: Mesh.BoneAwareOnRegionJointMaps (staircase maps, a boundary at x = 64
// only, nested boxes) and MeshKernel.BoneAwareMatchesTheOracleAndTheBaselineAcrossTiles.
void build_joint_rows(const Grid& g, const Tile& t, MeshScratch::Impl& s) {
  const bool pf = streams(g, t);
  const uint16_t* end = g.joints + g.count;
  alignas(16) uint16_t buf[72];
  alignas(16) uint16_t buf2[72];
  alignas(16) uint16_t buf3[72];
  const uint64_t live = low_bits(t.cx);
  const size_t plane = size_t{g.sx} * g.sy;
  const uint64_t* occ = s.occ.data();
  auto row_ptr = [&](uint32_t y, uint32_t z) { return g.joints + g.index(t.x0, y, z); };
  // yeq[k][yy]: row yy of slice zz (k = zz & 1) is solid somewhere and equals row yy + 1 on lanes
  // 0..64; dz_full[yy]: jdz of row yy in this slice is the full difference.
  bool yeq[2][kTile] = {};
  bool dz_full[kTile + 1] = {};
  for (int zz = int(t.cz) - 1; zz >= 0; --zz) {
    const uint32_t z = t.z0 + uint32_t(zz);
    bool* const yeq_cur = yeq[zz & 1];
    const bool* const yeq_up = yeq[(zz + 1) & 1];  // slice zz + 1 (valid when zz + 1 < cz)
    const bool up_valid = zz + 1 < int(t.cz);
    bool next_valid = false;  // row yy + 1 of this slice was visited and is solid
    for (int yy = int(t.cy) - 1; yy >= 0; --yy) {
      const uint32_t y = t.y0 + uint32_t(yy);
      const size_t r = row_index(zz, yy);
      const uint64_t o = occ[r];
      if (o == 0) {
        s.jdx[r] = s.jdy[r] = s.jdz[r] = 0;
        s.jborder[r] = 0;
        yeq_cur[yy] = false;
        dz_full[yy] = false;
        next_valid = false;
        continue;
      }
      const uint16_t* p = row_ptr(y, z);
      prefetch_row(p, -int64_t{kAhead} * g.sx, pf && yy >= int(kAhead), true);
      const uint16_t* rp = readable72(p, end, buf);
      s.jborder[r] = t.x0 > 0 && p[-1] != p[0] ? 1 : 0;
      // +y pair.
      bool eq64 = false;
      uint64_t dy = 0;
      if (y + 1 < g.sy) {
        const uint16_t* ry = readable72(p + g.sx, end, buf2);
        if (rows_equal16(rp, ry)) {
          eq64 = ry[64] == rp[64];
        } else if ((o & occ[row_index(zz, yy + 1)]) != 0) {
          dy = joint_diffs(rp, ry);
        }
      }
      yeq_cur[yy] = eq64;
      s.jdy[r] = dy & live;
      const size_t rn = row_index(zz, yy + 1);
      const bool carry = eq64 && next_valid;
      // Bit cx-1 compares with voxel x0+cx: a real neighbour when it is inside the grid; when
      // it is not, the right border bit is 0 and this bit is never used.
      s.jdx[r] = carry ? s.jdx[rn] : joint_diffs(rp, rp + 1) & live;
      // +z pair.
      if (carry && up_valid && yeq_up[yy] && dz_full[yy + 1]) {
        s.jdz[r] = s.jdz[rn];
        dz_full[yy] = true;
      } else if (z + 1 < g.sz && (o & occ[row_index(zz + 1, yy)]) != 0) {
        const uint16_t* rz = readable72(p + plane, end, buf3);
        s.jdz[r] = rows_equal16(rp, rz) ? 0 : joint_diffs(rp, rz) & live;
        dz_full[yy] = true;
      } else {
        s.jdz[r] = 0;
        dz_full[yy] = false;
      }
      next_valid = true;
    }
    // Row pair (y0 - 1, y0): the -y faces of the tile's first row.
    const bool y_pair = t.y0 > 0 && (occ[row_index(zz, -1)] & occ[row_index(zz, 0)]) != 0;
    s.jdy[row_index(zz, -1)] = y_pair ? joint_diffs(readable72(row_ptr(t.y0 - 1, z), end, buf),
                                                    readable72(row_ptr(t.y0, z), end, buf2)) &
                                            live
                                      : 0;
  }
  // Row pair (z0 - 1, z0): the -z faces of the tile's first slice.
  for (uint32_t yy = 0; yy < t.cy; ++yy) {
    const uint32_t y = t.y0 + yy;
    const bool z_pair = t.z0 > 0 && (occ[row_index(-1, int(yy))] & occ[row_index(0, int(yy))]) != 0;
    s.jdz[row_index(-1, int(yy))] = z_pair ? joint_diffs(readable72(row_ptr(y, t.z0 - 1), end, buf),
                                                         readable72(row_ptr(y, t.z0), end, buf2)) &
                                                 live
                                           : 0;
  }
}

// Bit i set where p[i] == j, i < 64 (joint ids). 64 values must be readable.
inline uint64_t same_joint_mask(const uint16_t* p, uint16_t j) {
#if defined(VOXRIG_MESH_WIDE)
  const __m256i jv = _mm256_set1_epi16(static_cast<short>(j));
  return equal_ids64(p, [jv](int) { return jv; });
#elif defined(__SSE2__)
  const __m128i jv = _mm_set1_epi16(static_cast<short>(j));
  uint64_t m = 0;
  for (int k = 0; k < 4; ++k) {
    const __m128i j0 =
        _mm_cmpeq_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k)), jv);
    const __m128i j1 =
        _mm_cmpeq_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k + 8)), jv);
    m |= uint64_t{static_cast<uint32_t>(_mm_movemask_epi8(_mm_packs_epi16(j0, j1)))} << (16 * k);
  }
  return m;
#else
  uint64_t m = 0;
  for (int i = 0; i < 64; ++i) m |= uint64_t{p[i] == j} << i;
  return m;
#endif
}

// True when p[i] == j for every i < 64 (joint ids): the common case of a joint row inside a
// region, answered by all_lanes_equal16 where same_joint_mask needs four packs, four movemasks
// and the shifts. 64 values must be readable.
inline bool all_joint16(const uint16_t* p, uint16_t j) {
#if defined(VOXRIG_MESH_WIDE)
  const __m256i jv = _mm256_set1_epi16(static_cast<short>(j));
  return all_lanes_equal16(p, [jv](int) { return jv; });
#elif defined(__SSE2__)
  const __m128i jv = _mm_set1_epi16(static_cast<short>(j));
  return all_lanes_equal16(p, [jv](int) { return jv; });
#else
  return same_joint_mask(p, j) == ~uint64_t{0};
#endif
}

// True when every solid voxel of tile t is bound to one joint, returned in `joint` (a tile with
// no solid voxel: true, joint 0); s.occ and s.border must be built. Such a tile meshes with the
// plain masks once its shell is masked: inside it no joint change can expose a face or split a
// run. Joint maps bind regions, so at 128^3 and up most tiles lie inside one joint, and a tile
// that does not usually fails within its first rows.
//
// The x half of the shell is masked here, in the same pass: a voxel beside the tile in x (a
// s.border bit) bound to another joint exposes the tile's face toward it exactly as an empty
// voxel would, so its bit is cleared. The masked bits go to s.border_one for every inner row and
// replace s.border (a swap) only when the tile is one joint: a tile that is not keeps s.border,
// which the joint-change masks need as it is. mask_shell does the y and z halves.
bool tile_one_joint(const Grid& g, const Tile& t, MeshScratch::Impl& s, uint16_t& joint) {
  const bool pf = streams(g, t);
  const uint16_t* jend = g.joints + g.count;
  alignas(16) uint16_t jbuf[72];
  bool found = false;
  uint16_t j = 0;
  for (uint32_t zz = 0; zz < t.cz; ++zz) {
    for (uint32_t yy = 0; yy < t.cy; ++yy) {
      const size_t r = row_index(int(zz), int(yy));
      const uint64_t solid = s.occ[r];
      const uint16_t* jr = g.joints + g.index(t.x0, t.y0 + yy, t.z0 + zz);
      // At 256^3 this pass is what reads the joint map from memory.
      prefetch_row(jr, int64_t{kAhead} * g.sx, pf && yy + kAhead < t.cy, true);
      if (solid == 0) {
        s.border_one[r] = 0;  // an empty row's border is 0 (build_palette_rows)
        continue;
      }
      if (!found) {
        j = jr[std::countr_zero(solid)];
        found = true;
      }
      const uint16_t* rp = readable72(jr, jend, jbuf);
      // Lanes past a narrower tile may fail all_joint16; the mask then asks lane by lane.
      if (!all_joint16(rp, j) && (solid & ~same_joint_mask(rp, j)) != 0) return false;
      uint8_t b = s.border[r];
      if ((b & 1) != 0 && jr[-1] != j) b &= ~uint8_t{1};
      if ((b & 2) != 0 && jr[t.cx] != j) b &= ~uint8_t{2};
      s.border_one[r] = b;
    }
  }
  s.border.swap(s.border_one);
  joint = j;
  return true;
}

// For a one-joint tile (tile_one_joint, which masked the x borders): a solid voxel of the
// margin rows around the tile (rows y0-1, y0+cy, z0-1, z0+cz) bound to another joint exposes
// the tile's face toward it, exactly as an empty voxel would, and nothing else reads the shell
// (merges compare faces of the tile's own voxels). So clearing such voxels from s.occ makes the
// plain masks give the bone-aware faces.
void mask_shell(const Grid& g, const Tile& t, uint16_t j, MeshScratch::Impl& s) {
  const uint16_t* jend = g.joints + g.count;
  alignas(16) uint16_t jbuf[72];
  const auto mask_row = [&](int zz, int yy) {
    uint64_t& o = s.occ[row_index(zz, yy)];
    if (o == 0) return;  // also every row outside the grid
    const uint16_t* jr =
        g.joints + g.index(t.x0, uint32_t(int64_t{t.y0} + yy), uint32_t(int64_t{t.z0} + zz));
    o &= same_joint_mask(readable72(jr, jend, jbuf), j);
  };
  for (int zz = 0; zz < int(t.cz); ++zz) {
    mask_row(zz, -1);
    mask_row(zz, int(t.cy));
  }
  for (int yy = 0; yy < int(t.cy); ++yy) {
    mask_row(-1, yy);
    mask_row(int(t.cz), yy);
  }
}

// The occupancy of a row's 64 lanes (masked by `live`) and, in `uniform`, the palette index
// every solid lane holds when they all hold one (0: the row is empty or mixed). A uniform row
// has no change inside it, and two uniform rows differ everywhere or nowhere, so most rows of a
// model painted in regions need no per-lane change compares at all. 64 bytes must be readable.
inline uint64_t row_occupancy(const uint8_t* p, uint64_t live, uint8_t& uniform) {
#if defined(VOXRIG_MESH_WIDE)
  const __m256i zero = _mm256_setzero_si256();
  const __m256i a0 = load256(p), a1 = load256(p + 32);
  const uint64_t o =
      ~(lanes8(_mm256_cmpeq_epi8(a0, zero)) | lanes8(_mm256_cmpeq_epi8(a1, zero)) << 32) & live;
  uniform = 0;
  if (o == 0) return 0;
  const uint8_t u = p[std::countr_zero(o)];
  const __m256i uv = _mm256_set1_epi8(static_cast<char>(u));
  const uint64_t same = lanes8(_mm256_cmpeq_epi8(a0, uv)) | lanes8(_mm256_cmpeq_epi8(a1, uv)) << 32;
  if ((o & ~same) == 0) uniform = u;
  return o;
#elif defined(__SSE2__)
  const __m128i zero = _mm_setzero_si128();
  __m128i a[4];
  uint64_t empty = 0;
  for (int i = 0; i < 4; ++i) {
    a[i] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * i));
    empty |= uint64_t{static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(a[i], zero)))}
             << (16 * i);
  }
  const uint64_t o = ~empty & live;
  uniform = 0;
  if (o == 0) return 0;
  const uint8_t u = p[std::countr_zero(o)];
  const __m128i uv = _mm_set1_epi8(static_cast<char>(u));
  uint64_t same = 0;
  for (int i = 0; i < 4; ++i) {
    same |= uint64_t{static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(a[i], uv)))}
            << (16 * i);
  }
  if ((o & ~same) == 0) uniform = u;
  return o;
#else
  uint64_t o = 0;
  for (int i = 0; i < 64; ++i) o |= uint64_t{p[i] != 0} << i;
  o &= live;
  uniform = 0;
  if (o == 0) return 0;
  const uint8_t u = p[std::countr_zero(o)];
  for (uint64_t m = o; m != 0; m &= m - 1)
    if (p[std::countr_zero(m)] != u) return o;
  uniform = u;
  return o;
#endif
}

// The occupancy of a row's 64 lanes (masked by `live`), and in `all_u` whether every solid lane
// inside the tile holds palette index u. The test of a tile painted in one colour (see
// build_palette_rows): per 16 lanes two compares, and one movemask for the whole row's verdict;
// a tile narrower than 64 lanes whose verdict fails asks again lane by lane, since a lane past
// the tile may be what failed. 64 bytes must be readable.
inline uint64_t row_occupancy_of(const uint8_t* p, uint64_t live, uint8_t u, bool& all_u) {
#if defined(VOXRIG_MESH_WIDE)
  const __m256i zero = _mm256_setzero_si256();
  const __m256i uv = _mm256_set1_epi8(static_cast<char>(u));
  const __m256i a0 = load256(p), a1 = load256(p + 32);
  const __m256i e0 = _mm256_cmpeq_epi8(a0, zero), e1 = _mm256_cmpeq_epi8(a1, zero);
  const uint64_t o = ~(lanes8(e0) | lanes8(e1) << 32) & live;
  // Every lane empty or u: one movemask for the verdict.
  const __m256i ok = _mm256_and_si256(_mm256_or_si256(e0, _mm256_cmpeq_epi8(a0, uv)),
                                      _mm256_or_si256(e1, _mm256_cmpeq_epi8(a1, uv)));
  all_u = _mm256_movemask_epi8(ok) == -1;
  if (!all_u && live != ~uint64_t{0}) {
    // A narrower tile: a lane past it may be what failed, so ask lane by lane.
    const uint64_t same = lanes8(_mm256_cmpeq_epi8(a0, uv)) | lanes8(_mm256_cmpeq_epi8(a1, uv))
                                                                  << 32;
    all_u = (o & ~same) == 0;
  }
  return o;
#elif defined(__SSE2__)
  const __m128i zero = _mm_setzero_si128();
  const __m128i uv = _mm_set1_epi8(static_cast<char>(u));
  __m128i ok = _mm_set1_epi8(-1);
  __m128i blocks[4];
  uint64_t empty = 0;
  for (int i = 0; i < 4; ++i) {
    blocks[i] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * i));
    const __m128i e = _mm_cmpeq_epi8(blocks[i], zero);
    empty |= uint64_t{static_cast<uint32_t>(_mm_movemask_epi8(e))} << (16 * i);
    ok = _mm_and_si128(ok, _mm_or_si128(e, _mm_cmpeq_epi8(blocks[i], uv)));
  }
  const uint64_t o = ~empty & live;
  all_u = _mm_movemask_epi8(ok) == 0xFFFF;
  if (!all_u && live != ~uint64_t{0}) {
    // A narrower tile: a lane past it may be what failed, so ask lane by lane.
    uint64_t same = 0;
    for (int i = 0; i < 4; ++i) {
      same |= uint64_t{static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(blocks[i], uv)))}
              << (16 * i);
    }
    all_u = (o & ~same) == 0;
  }
  return o;
#else
  uint64_t o = 0;
  all_u = true;
  for (int i = 0; i < 64; ++i) {
    const bool solid = p[i] != 0 && ((live >> i) & 1) != 0;
    o |= uint64_t{solid} << i;
    if (solid && p[i] != u) all_u = false;
  }
  return o;
#endif
}

// Whether every voxel beside the tile's faces is solid, as s.occ and s.border (after
// mask_shell: and bound to the tile's joint) say: the four margin rows of every layer and
// column, and both border bits of every inner row. A tile on the grid's surface has an empty
// neighbour (margin rows outside the grid are 0; no border bit on that x side). With its own
// voxels all solid, such a tile has no face.
bool shell_solid(const Grid& g, const Tile& t, const MeshScratch::Impl& s) {
  if (t.x0 == 0 || t.x0 + t.cx >= g.sx) return false;
  const uint64_t live = low_bits(t.cx);
  uint64_t all = live;
  uint8_t borders = 3;
  for (int zz = 0; zz < int(t.cz); ++zz) {
    all &= s.occ[row_index(zz, -1)] & s.occ[row_index(zz, int(t.cy))];
    for (int yy = 0; yy < int(t.cy); ++yy) borders &= s.border[row_index(zz, yy)];
  }
  for (int yy = 0; yy < int(t.cy); ++yy)
    all &= s.occ[row_index(-1, yy)] & s.occ[row_index(int(t.cz), yy)];
  return all == live && borders == 3;
}

// Fills s.occ (rows -1..c of the tile), s.border, s.pcx, s.pcy, s.pcz and s.puni (inner rows),
// or, for a tile whose solid voxels all hold one palette index, only s.occ and s.border, with
// s.tile_colour set (the change masks are then all zero; mesh_tile<.., Colours::One> reads
// none); and s.layered, s.empty_tile, s.sealed.
// Rows go in descending z, then descending y, so a row's +y and +z neighbours are already done:
// their `puni` decides whether the pair needs the per-lane compare, and their `occ` is the
// "neighbour is solid" half of every change mask. Margin rows (the one-row shell around the
// tile) only need their occupancy; inner rows lie inside the grid, so their loop has no bounds
// tests.
void build_palette_rows(const Grid& g, const Tile& t, MeshScratch::Impl& s) {
  const bool pf = streams(g, t), wide = t.x0 + 2 * kTile <= g.sx;
  const uint8_t* end = g.vox + g.count;
  alignas(16) uint8_t buf[80];
  alignas(16) uint8_t buf2[80];
  alignas(16) uint8_t buf3[80];
  const uint64_t live = low_bits(t.cx);
  const uint64_t live_pairs = low_bits(t.cx - 1);  // pairs (i, i+1) inside the tile
  const size_t plane = size_t{g.sx} * g.sy;
  const bool left = t.x0 > 0, right = t.x0 + t.cx < g.sx;
  uint64_t* occ = s.occ.data();
  uint8_t* puni = s.puni.data();
  // s.border of a solid row at p when the tile has a neighbour in x (`left || right`; a tile
  // that fills the grid's width has none, and its rows store 0): bit 0 the voxel left of the
  // tile is solid, bit 1 the one right of it.
  const auto border_bits = [left, right, cx = t.cx](const uint8_t* p) {
    return uint8_t((left && p[-1] != 0) | (right && p[cx] != 0) << 1);
  };
  // A row's occupancy while every solid voxel met so far holds index `idx` (0: none seen yet;
  // the row's own uniform index then becomes `idx`); all_u is cleared when the row disagrees.
  const auto agreeing_row = [live](const uint8_t* rp, uint8_t& idx, bool& all_u) {
    uint8_t u0 = 0;
    const uint64_t o =
        idx != 0 ? row_occupancy_of(rp, live, idx, all_u) : row_occupancy(rp, live, u0);
    if (idx == 0 && o != 0) {
      all_u = u0 != 0;
      idx = u0;
    }
    return o;
  };
  uint64_t inner_and = ~uint64_t{0};  // the one-colour loop's rows' occupancy, for s.sealed
  uint64_t xy_changes = 0;            // the OR of every s.pcx and s.pcy written, for s.layered
  const auto margin_row = [&](int zz, int yy) {
    const int64_t z = int64_t{t.z0} + zz, y = int64_t{t.y0} + yy;
    const size_t r = row_index(zz, yy);
    if (z < 0 || z >= int64_t{g.sz} || y < 0 || y >= int64_t{g.sy}) {
      occ[r] = 0;
      return;
    }
    const uint8_t* p = g.vox + g.index(t.x0, uint32_t(y), uint32_t(z));
    prefetch_row(p, -int64_t{kAhead} * g.sx, pf && yy >= int(kAhead), wide);
    occ[r] = nonzero_mask(readable80(p, end, buf)) & live;
  };
  // One colour: while every solid voxel met holds one palette index `tu`, the change masks are
  // all zero and not written (s.tile_colour: mesh_tile<.., Colours::One> reads none). The first
  // row that disagrees gives the inner rows already visited what the general path would have
  // written for them (each is empty or uniform in `tu`: no change inside or between them) and
  // continues on the general path.
  bool one = true;
  uint8_t tu = 0;
  const auto leave_one_colour = [&](int zz, int yy) {
    one = false;
    const auto give = [&](int z2, int y2) {
      const size_t r2 = row_index(z2, y2);
      puni[r2] = occ[r2] != 0 ? tu : 0;
      s.pcx[r2] = s.pcy[r2] = s.pcz[r2] = 0;
    };
    for (int z2 = int(t.cz) - 1; z2 > zz; --z2)
      for (int y2 = 0; y2 < int(t.cy); ++y2) give(z2, y2);
    for (int y2 = yy + 1; y2 < int(t.cy); ++y2) give(zz, y2);
  };
  // A solid row's change mask toward its neighbour row q (occupancy n_occ, uniform index n_uni)
  // when the row itself is uniform in index u: a uniform pair differs on all common solid lanes
  // or on none; otherwise the per-lane compare decides.
  const auto uniform_pair = [&](uint64_t o, uint8_t u, const uint8_t* rp, uint64_t n_occ,
                                uint8_t n_uni, const uint8_t* q, uint8_t* qbuf) -> uint64_t {
    const uint64_t both = o & n_occ;
    if (both == 0) return 0;
    if (n_uni != 0) return n_uni != u ? both : 0;
    return diff_mask8(rp, readable80(q, end, qbuf)) & both;
  };
  // The one index of every solid voxel of layer zz + 1 when it held one (0: mixed, empty, or
  // outside the tile). With the layer below also of one index, a row's z change mask is "both
  // solid" or nothing, with no per-row test of the neighbour.
  uint8_t upper_lu = 0;
  for (int zz = int(t.cz); zz >= -1; --zz) {
    if (zz < 0 || zz == int(t.cz)) {
      for (int yy = int(t.cy); yy >= -1; --yy) margin_row(zz, yy);
      continue;
    }
    margin_row(zz, int(t.cy));
    const bool has_z = zz + 1 < int(t.cz);
    const uint8_t* p = g.vox + g.index(t.x0, t.y0 + t.cy - 1, t.z0 + uint32_t(zz));
    // The +y row's occupancy and uniform index, carried from the previous iteration (0 for the
    // tile's last row: its +y pair lies outside the tile and is never read).
    uint64_t yo = 0;
    uint8_t yu = 0;
    int yy = int(t.cy) - 1;
    bool layer_solid = false;  // a solid row of this layer met by the one-colour loop
    // One-colour rows (a loop of its own: sharing the general loop's body slowed that down).
    for (; one && yy >= 0; --yy, p -= g.sx) {
      const size_t r = row_index(zz, yy);
      prefetch_row(p, -int64_t{kAhead} * g.sx, pf && yy >= int(kAhead), wide);
      // Every solid voxel so far holds index `tu`: only occupancy and border, while this row
      // agrees.
      bool all_u = true;
      const uint64_t o = agreeing_row(readable80(p, end, buf), tu, all_u);
      if (!all_u) {
        leave_one_colour(zz, yy);  // clears `one`: the layer loop below takes this row
        break;
      }
      occ[r] = o;
      inner_and &= o;
      s.border[r] = o != 0 && (left || right) ? border_bits(p) : uint8_t{0};
      layer_solid |= o != 0;
      yo = o;
      yu = o != 0 ? tu : 0;
    }
    // One-colour layer: while every solid voxel of this layer holds index `lu` (0: none seen
    // yet; the rows the loop above visited hold `tu`), a row writes what the general loop would,
    // without its tests: no change inside the row or toward the +y row, and toward the +z row
    // all common solid lanes or none when that layer had one index too. (Strata, such as the
    // colour bands of a terrain, make every layer one of these.) The first row that disagrees
    // goes on in the general loop, which needs nothing from here but yo / yu.
    uint8_t lu = layer_solid ? tu : 0;
    bool layer_one = true;
    for (; yy >= 0; --yy, p -= g.sx) {
      const size_t r = row_index(zz, yy);
      prefetch_row(p, -int64_t{kAhead} * g.sx, pf && yy >= int(kAhead), wide);
      const uint8_t* rp = readable80(p, end, buf);
      bool all_u = true;
      const uint64_t o = agreeing_row(rp, lu, all_u);
      if (!all_u) {
        layer_one = false;
        break;
      }
      occ[r] = o;
      puni[r] = o != 0 ? lu : 0;
      s.border[r] = o != 0 && (left || right) ? border_bits(p) : uint8_t{0};
      s.pcx[r] = s.pcy[r] = 0;
      const size_t nz = row_index(zz + 1, yy);
      const uint64_t zo = has_z ? occ[nz] : 0;
      s.pcz[r] = upper_lu != 0 ? (upper_lu != lu ? o & zo : 0)
                               : uniform_pair(o, lu, rp, zo, puni[nz], p + plane, buf3);
      yo = o;
      yu = o != 0 ? lu : 0;
    }
    upper_lu = layer_one ? lu : 0;
    for (; yy >= 0; --yy, p -= g.sx) {
      const size_t r = row_index(zz, yy);
      prefetch_row(p, -int64_t{kAhead} * g.sx, pf && yy >= int(kAhead), wide);
      const uint8_t* rp = readable80(p, end, buf);
      // The change masks matter only under this row's own faces (see merge_plane): an empty
      // row needs none of them.
      uint8_t u = 0;
      const uint64_t o = row_occupancy(rp, live, u);
      occ[r] = o;
      puni[r] = u;
      if (o == 0) {
        s.border[r] = 0;
        s.pcx[r] = s.pcy[r] = s.pcz[r] = 0;
      } else {
        s.border[r] = left || right ? border_bits(p) : uint8_t{0};  // one predicted branch
        const size_t nz = row_index(zz + 1, yy);
        const uint64_t zo = has_z ? occ[nz] : 0;
        if (u == 0) {
          const RowMasks8 m = row_diffs8(rp, yo != 0 ? readable80(p + g.sx, end, buf2) : nullptr,
                                         zo != 0 ? readable80(p + plane, end, buf3) : nullptr);
          const uint64_t cx = m.dx & o & (o >> 1) & live_pairs, cy = m.dy & o & yo;
          s.pcx[r] = cx;
          s.pcy[r] = cy;
          s.pcz[r] = m.dz & o & zo;
          xy_changes |= cx | cy;
        } else {
          const uint64_t cy = uniform_pair(o, u, rp, yo, yu, p + g.sx, buf2);
          s.pcx[r] = 0;  // uniform: no change inside
          s.pcy[r] = cy;
          xy_changes |= cy;
          s.pcz[r] = uniform_pair(o, u, rp, zo, puni[nz], p + plane, buf3);
        }
      }
      yo = o;
      yu = u;
    }
    margin_row(zz, -1);
  }
  s.tile_colour = one ? tu : 0;
  s.layered = !one && xy_changes == 0;
  // Only a one-colour tile (every inner row went through its loop) is tested: an empty tile is
  // one, and a full tile of several colours, not skipped, is only slower.
  s.empty_tile = one && tu == 0;
  s.sealed = one && inner_and == live && shell_solid(g, t, s);
}

// In-place transpose of a 64x64 bit matrix: bit j of a[i] moves to bit i of a[j].
inline void transpose64(uint64_t* a) {
  uint64_t m = 0x00000000FFFFFFFFull;
  for (int j = 32; j != 0; j >>= 1, m ^= m << j) {
    for (int k = 0; k < 64; k = (k + j + 1) & ~j) {
      const uint64_t t = ((a[k] >> j) ^ a[k + j]) & m;
      a[k + j] ^= t;
      a[k] ^= t << j;
    }
  }
}

#if defined(__SSE2__)
// Bits 0 and 1: which of the two 64-bit lanes of v is non-zero. Both 32-bit halves of a lane are
// or-ed into each, so one 32-bit compare tests the whole lane.
inline uint32_t nonzero_lanes(__m128i v) {
  const __m128i halves = _mm_or_si128(v, _mm_shuffle_epi32(v, _MM_SHUFFLE(2, 3, 0, 1)));
  return uint32_t(_mm_movemask_pd(_mm_castsi128_pd(_mm_cmpeq_epi32(halves, _mm_setzero_si128())))) ^
         3u;
}
// Rows p[0] and p[kStep] as the two lanes of one register (one load when they are adjacent).
template <size_t kStep>
inline __m128i load_pair(const uint64_t* p) {
  if constexpr (kStep == 1) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  } else {
    const __m128d lo = _mm_castsi128_pd(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)));
    return _mm_castpd_si128(_mm_loadh_pd(lo, reinterpret_cast<const double*>(p + kStep)));
  }
}
#endif

// Bit k set where (a[k] | b[k]) != 0, k < n <= 64: which rows of an x-face layer hold a
// face. Two rows per SSE2 compare; as a separate pass it also leaves the loops that fill `a` free
// of a loop-carried bit, which GCC then vectorises.
inline uint64_t nonzero_rows(const uint64_t* a, const uint64_t* b, uint32_t n) {
  uint64_t m = 0;
  uint32_t k = 0;
#if defined(__SSE2__)
  for (; k + 2 <= n; k += 2) {
    const __m128i v = _mm_or_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(a + k)),
                                   _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + k)));
    m |= uint64_t{nonzero_lanes(v)} << k;
  }
#endif
  for (; k < n; ++k) m |= uint64_t{(a[k] | b[k]) != 0} << k;
  return m;
}

// The number of bits set in a[k] | b[k] over k < n <= 64: the faces of an x-face layer. The
// baseline x86-64 target has no POPCNT: SSE2 counts two rows at once, bit-sliced to per-byte
// counts that one `psadbw` sums (about half the scalar bit-slice's instructions per row), and
// as a pass of its own it keeps the loop that fills `a` and `b` free of the count. Not inlined:
// inlined, it takes registers that mesh_tile's merges need, and GCC spills there instead.
[[gnu::noinline]] uint32_t popcount_rows(const uint64_t* a, const uint64_t* b, uint32_t n) {
  uint32_t count = 0;
  uint32_t k = 0;
  // The AVX2 build has POPCNT: the loop at the end takes every row, one instruction each.
#if defined(__SSE2__) && !defined(VOXRIG_MESH_WIDE)
  const __m128i m1 = _mm_set1_epi8(0x55), m2 = _mm_set1_epi8(0x33), m4 = _mm_set1_epi8(0x0F);
  __m128i sum = _mm_setzero_si128();
  for (; k + 2 <= n; k += 2) {
    __m128i v = _mm_or_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(a + k)),
                             _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + k)));
    v = _mm_sub_epi8(v, _mm_and_si128(_mm_srli_epi64(v, 1), m1));
    v = _mm_add_epi8(_mm_and_si128(v, m2), _mm_and_si128(_mm_srli_epi64(v, 2), m2));
    v = _mm_and_si128(_mm_add_epi8(v, _mm_srli_epi64(v, 4)), m4);
    sum = _mm_add_epi64(sum, _mm_sad_epu8(v, _mm_setzero_si128()));
  }
  count =
      uint32_t(_mm_cvtsi128_si32(sum)) + uint32_t(_mm_cvtsi128_si32(_mm_unpackhi_epi64(sum, sum)));
#endif
  for (; k < n; ++k) count += uint32_t(std::popcount(a[k] | b[k]));
  return count;
}

// The face rows of one y or z plane: F[k] = a[k * kStep] & ~(nb[k * kStep] & ~jd[k * kStep]) for
// k < rows (a: the plane's own rows, nb: the neighbouring slice's, jd: the joint changes between
// them, read only with kJoints: a joint change exposes a face as an empty neighbour does), and
// F[rows] = 0. Returns the mask of rows k with F[k] != 0. Two rows per SSE2 operation: z planes
// (kStep 1) load a pair at once, y planes (rows kRowStride words apart) its halves apart; the
// scalar loop this replaces spent a third of its instructions on the loop-carried mask bit.
template <bool kJoints, size_t kStep>
inline uint64_t face_rows(const uint64_t* a, const uint64_t* nb,
                          [[maybe_unused]] const uint64_t* jd, uint32_t rows, uint64_t* F) {
  uint64_t m = 0;
  uint32_t k = 0;
#if defined(__SSE2__)
  for (; k + 2 <= rows; k += 2) {
    const size_t i = size_t{k} * kStep;
    __m128i covered = load_pair<kStep>(nb + i);
    if constexpr (kJoints) covered = _mm_andnot_si128(load_pair<kStep>(jd + i), covered);
    const __m128i f = _mm_andnot_si128(covered, load_pair<kStep>(a + i));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(F + k), f);
    m |= uint64_t{nonzero_lanes(f)} << k;
  }
#endif
  for (; k < rows; ++k) {
    const size_t i = size_t{k} * kStep;
    uint64_t covered = nb[i];
    if constexpr (kJoints) covered &= ~jd[i];
    F[k] = a[i] & ~covered;
    m |= uint64_t{F[k] != 0} << k;
  }
  F[rows] = 0;
  return m;
}

// Above this many x faces in one z layer, transposing beats scattering face by face.
constexpr uint32_t kTransposeFaces = 768;

// Greedy merge of one plane: F[0..rows) face bits, C across-changes and E "extends" masks: bit i
// of E[r] is set when row r + 1 < rows holds face i and that face has the material of face i of
// row r (E[r] = F[r + 1] & ~V[r] before merging; E[rows - 1] = 0). `rows_mask` has bit r set for
// every row r with F[r] != 0, and C and E are read only in those rows (a quad extends only over
// rows holding its whole span). Empty rows cost nothing. emit(row, bit, run_length, row_count)
// receives each quad. Consumes F.
//
// E is taken from F as it was before merging, yet a quad never extends over a face an earlier
// quad took: an earlier quad that covers row r + h and started above row r covers row r too
// (quads are rectangles), and one that started in row r lies beside this one; either way its
// faces are disjoint from this quad's span. So "row r + h holds the whole span, of one
// material" is one test of one precomputed word per row, with no bounds test (E[rows - 1] = 0
// stops every quad at the last row).
template <class Emit>
VOXRIG_MESH_INLINE inline void merge_plane(uint64_t* F, const uint64_t* C, const uint64_t* E,
                                           uint64_t rows_mask, Emit&& emit) {
  while (rows_mask != 0) {
    const uint32_t r = static_cast<uint32_t>(std::countr_zero(rows_mask));
    rows_mask &= rows_mask - 1;
    uint64_t f = F[r];
    while (f != 0) {
      const uint32_t b = static_cast<uint32_t>(std::countr_zero(f));
      // The run: faces from b on, up to and including the first material change (a C bit at
      // k ends the run at k, so bit k + 1 is masked off). No std::min: GCC makes it a branch,
      // mispredicted on every other run of a random grid.
      const uint32_t len = static_cast<uint32_t>(std::countr_one((f >> b) & ~((C[r] >> b) << 1)));
      const uint64_t mask = low_bits(len) << b;
      f &= ~mask;
      uint32_t h = 1;
      while ((E[r + h - 1] & mask) == mask) {
        F[r + h] &= ~mask;
        ++h;
      }
      emit(r, b, len, h);
    }
    F[r] = 0;
  }
}

// How mesh_tile treats joints: Plain (no joint map: quads appended to out with joint0),
// OneJoint (bone-aware, but every solid voxel the tile's faces see is bound to joint0: the
// plain masks, quads into joint0's chain) and Joints (joint-change masks, per-voxel chains).
enum class TileMode { Plain, OneJoint, Joints };

// What a tile's colours let mesh_tile skip (build_palette_rows decides): One, every solid voxel
// holds s.tile_colour (no palette-change mask is read, no voxel either); Layers, no change
// along x or y anywhere in the tile (s.pcx, s.pcy all zero: strata such as a terrain's colour
// bands; only s.pcz is read); Many, anything else.
enum class Colours { One, Layers, Many };

template <TileMode kMode, Colours kColours>
void mesh_tile(const Grid& g, const Tile& t, uint16_t joint0, MeshScratch::Impl& s,
               std::vector<Quad>& out) {
  constexpr bool kJoints = kMode == TileMode::Joints;
  const uint8_t* vox = g.vox;
  const uint16_t* joints = g.joints;
  using Impl = MeshScratch::Impl;
  // A quad of voxel i. Plain: appended to out. Bone-aware: `packed` is its pack() word without
  // the material (a per-plane base plus the per-quad terms, summed at the call site, so no
  // field is unpacked and packed again), sent to the joint's chain. The material is voxel i's
  // palette index, or in a one-colour tile (Colours::One) the tile's colour: reading the voxel is
  // a cache miss per quad on a grid larger than the L2 cache. A template parameter, not a test
  // per quad, so a tile of many colours (random50) pays nothing for it.
  const uint8_t colour = s.tile_colour;
  auto push = [&](uint32_t x, uint32_t y, uint32_t z, uint32_t w, uint32_t h, uint8_t axis,
                  uint8_t positive, size_t i, uint64_t packed) VOXRIG_MESH_INLINE {
    const uint8_t material = kColours == Colours::One ? colour : vox[i];
    if constexpr (kMode != TileMode::Plain) {
      s.emit_packed(kJoints ? joints[i] : joint0, packed + (uint64_t{material} << Impl::kShiftMat));
    } else {
      // Built whole and pushed: emplace_back() and field stores would zero the slot first.
      out.push_back(Quad{x, y, z, w, h, axis, positive, joint0, material});
    }
  };
  // Row r of the palette-change mask along `axis` (AlongX: s.pcx, AlongY: s.pcy, AlongZ: s.pcz).
  // A mask that kColours says is zero is not read (a one-colour tile's are not even written), so
  // the compiler drops every term it would add.
  using AlongX = std::integral_constant<int, 0>;
  using AlongY = std::integral_constant<int, 1>;
  using AlongZ = std::integral_constant<int, 2>;
  const auto pc = [&s](auto axis, size_t r) -> uint64_t {
    constexpr int a = decltype(axis)::value;
    if constexpr (kColours == Colours::One || (kColours == Colours::Layers && a != 2)) {
      return 0;
    } else {
      return (a == 0 ? s.pcx : a == 1 ? s.pcy : s.pcz)[r];
    }
  };
  // Across/down material-change masks of row r (bits over x), for y/z faces.
  auto across = [&](size_t r) {
    if constexpr (kJoints) {
      return pc(AlongX{}, r) | s.jdx[r];
    } else {
      return pc(AlongX{}, r);
    }
  };
  uint64_t F[kTile + 1], C[kTile], E[kTile];  // F[rows] = 0: the row after the last
  const size_t slab = size_t{g.sx} * g.sy;    // index step of z + 1

  // ---- axis 0 (x faces): per-x planes, rows z, bits y ----
  uint64_t* xface = s.xface.data();
  uint64_t* xchange = s.xchange.data();
  uint64_t* xdown = s.xdown.data();
  constexpr size_t kPlanes = size_t{kTile} * kTile;  // words per direction
  uint64_t fpos[kTile], fneg[kTile], chg[kTile], down[kTile];
  // xrows[dir][x]: bit zz set when plane (dir, x) has a face in row zz. Invariant between
  // tiles: xface/xchange/xdown are zero; within one, only rows in xrows are non-zero.
  uint64_t xrows[2][kTile] = {};
  for (uint32_t zz = 0; zz < t.cz; ++zz) {
    uint64_t any_neg = 0, any_pos = 0, any_chg = 0, any_down = 0;
    for (uint32_t yy = 0; yy < t.cy; ++yy) {
      const size_t r = row_index(int(zz), int(yy));
      const uint64_t o = s.occ[r];
      const uint8_t b = s.border[r];
      const uint64_t right = (o >> 1) | (uint64_t{uint8_t(b >> 1)} << (t.cx - 1));
      const uint64_t left = (o << 1) | uint64_t{uint8_t(b & 1)};
      if constexpr (kJoints) {
        const uint64_t jr = s.jdx[r];
        const uint64_t jl = (jr << 1) | uint64_t{s.jborder[r]};
        fpos[yy] = o & ~(right & ~jr);
        fneg[yy] = o & ~(left & ~jl);
        chg[yy] = pc(AlongY{}, r) | s.jdy[r];
        down[yy] = pc(AlongZ{}, r) | s.jdz[r];
      } else {
        fpos[yy] = o & ~right;
        fneg[yy] = o & ~left;
        chg[yy] = pc(AlongY{}, r);
        down[yy] = pc(AlongZ{}, r);
      }
      any_neg |= fneg[yy];
      any_pos |= fpos[yy];
      any_chg |= chg[yy];
      any_down |= down[yy];
    }
    if ((any_neg | any_pos) == 0) continue;  // no x face in this layer
    const uint32_t faces = popcount_rows(fpos, fneg, t.cy);
    const uint64_t zbit = uint64_t{1} << zz;
    for (uint64_t m = any_neg; m != 0; m &= m - 1) xrows[0][std::countr_zero(m)] |= zbit;
    for (uint64_t m = any_pos; m != 0; m &= m - 1) xrows[1][std::countr_zero(m)] |= zbit;
    if (faces >= kTransposeFaces) {
      for (uint32_t yy = t.cy; yy < kTile; ++yy) fpos[yy] = fneg[yy] = chg[yy] = down[yy] = 0;
      transpose64(fpos);
      transpose64(fneg);
      // Change masks that are zero over the whole layer (one colour, no joint seam) transpose
      // to zero: skip them.
      if (any_chg != 0) {
        transpose64(chg);
      } else {
        std::fill(chg, chg + kTile, uint64_t{0});
      }
      if (any_down != 0) {
        transpose64(down);
      } else {
        std::fill(down, down + kTile, uint64_t{0});
      }
      // Only planes with a face in this row are written (the invariant above).
      for (uint64_t m = any_neg; m != 0; m &= m - 1) {
        const uint32_t x = static_cast<uint32_t>(std::countr_zero(m));
        const size_t w = size_t{x} * kTile + zz;
        xface[w] = fneg[x];
        xchange[w] = chg[x];
        xdown[w] = down[x];
      }
      for (uint64_t m = any_pos; m != 0; m &= m - 1) {
        const uint32_t x = static_cast<uint32_t>(std::countr_zero(m));
        const size_t w = kPlanes + size_t{x} * kTile + zz;
        xface[w] = fpos[x];
        xchange[w] = chg[x];
        xdown[w] = down[x];
      }
      continue;
    }
    // Sparse layer: every face of a row with faces set in its plane's word (word of x: x * kTile
    // from the layer's row zz of the direction's planes). The rows with faces are found here, not
    // in the loop above: a bit accumulated there stops GCC from vectorising it.
    const uint64_t yrows = nonzero_rows(fpos, fneg, t.cy);
    const auto scatter = [&](uint64_t* planes, const uint64_t* neg, const uint64_t* pos) {
      for (uint64_t ym = yrows; ym != 0; ym &= ym - 1) {
        const uint32_t yy = static_cast<uint32_t>(std::countr_zero(ym));
        const uint64_t bit = uint64_t{1} << yy;
        for (uint64_t m = neg[yy]; m != 0; m &= m - 1)
          planes[zz + size_t(std::countr_zero(m)) * kTile] |= bit;
        for (uint64_t m = pos[yy]; m != 0; m &= m - 1)
          planes[kPlanes + zz + size_t(std::countr_zero(m)) * kTile] |= bit;
      }
    };
    scatter(xface, fneg, fpos);
    // Change bits are sparse (a colour or joint seam): only the faces that carry one, and a layer
    // with none (one colour, no joint seam) skips the pass.
    const auto masked = [&](uint64_t any, const uint64_t* by, uint64_t* planes) {
      if (any == 0) return;
      uint64_t neg[kTile], pos[kTile];
      for (uint64_t ym = yrows; ym != 0; ym &= ym - 1) {
        const uint32_t yy = static_cast<uint32_t>(std::countr_zero(ym));
        neg[yy] = fneg[yy] & by[yy];
        pos[yy] = fpos[yy] & by[yy];
      }
      scatter(planes, neg, pos);
    };
    masked(any_chg, chg, xchange);
    masked(any_down, down, xdown);
  }
  for (uint8_t dir = 0; dir < 2; ++dir) {
    for (uint32_t x = 0; x < t.cx; ++x) {
      const uint64_t rows_mask = xrows[dir][x];
      if (rows_mask == 0) continue;
      const size_t base = dir * kPlanes + size_t{x} * kTile;
      const uint32_t gx = t.x0 + x;
      const size_t origin = g.index(gx, t.y0, t.z0);  // voxel of (row 0, bit 0)
      const uint64_t pbase = Impl::plane_base(0, dir) + (uint64_t{x + dir} << Impl::kShiftX);
      // xdown becomes the plane's E (merge_plane); a row after the tile's last one holds no face
      // (rows past cz are zero by the invariant above, and row 64 is the next plane's).
      for (uint64_t m = rows_mask; m != 0; m &= m - 1) {
        const uint32_t z = static_cast<uint32_t>(std::countr_zero(m));
        const uint64_t below = z + 1 < kTile ? xface[base + z + 1] : 0;
        xdown[base + z] = below & ~xdown[base + z];
      }
      merge_plane(xface + base, xchange + base, xdown + base, rows_mask,
                  [&](uint32_t r, uint32_t b, uint32_t len, uint32_t h) VOXRIG_MESH_INLINE {
                    push(gx + dir, t.y0 + b, t.z0 + r, len, h, 0, dir,
                         origin + r * slab + b * size_t{g.sx},
                         pbase + (uint64_t{b} << Impl::kShiftY) + (uint64_t{r} << Impl::kShiftZ) +
                             (uint64_t{len} << Impl::kShiftW) + (uint64_t{h} << Impl::kShiftH));
                  });
      for (uint64_t m = rows_mask; m != 0; m &= m - 1) {
        const size_t w = base + static_cast<size_t>(std::countr_zero(m));
        xchange[w] = xdown[w] = 0;
      }
    }
  }

  // F, C, E of one y or z plane (rows k < `rows`, bits over x; F by face_rows, `step` its row
  // stride), the rule both axes share: a face where the voxel is set and its neighbour in
  // direction `dir` is empty or (with joints) across a joint change; C is the across mask, E
  // (merge_plane) the next row's faces less the palette (| joint) changes along the rows.
  // `at(k, d)` is the row index of row k in the slice d away; `jd_axis` the joint-change masks
  // along the plane's own axis (entry of slice s: s vs s + 1), `pc_rows` (an Along* tag for pc)
  // and `jd_rows` the change masks along the rows' axis. Returns the mask of rows with a face
  // (0: nothing to merge); C and E are filled in those rows only (all merge_plane reads).
  auto plane_masks = [&](auto step, uint32_t rows, uint8_t dir, const auto& at,
                         [[maybe_unused]] const std::vector<uint64_t>& jd_axis, auto pc_rows,
                         [[maybe_unused]] const std::vector<uint64_t>& jd_rows) {
    const int d = dir ? 1 : -1;
    const uint64_t rows_mask =
        face_rows<kJoints, decltype(step)::value>(s.occ.data() + at(0, 0), s.occ.data() + at(0, d),
                                                  jd_axis.data() + at(0, dir ? 0 : -1), rows, F);
    for (uint64_t m = rows_mask; m != 0; m &= m - 1) {
      const uint32_t k = static_cast<uint32_t>(std::countr_zero(m));
      const size_t r = at(k, 0);
      if constexpr (kJoints) {
        E[k] = F[k + 1] & ~(pc(pc_rows, r) | jd_rows[r]);
      } else {
        E[k] = F[k + 1] & ~pc(pc_rows, r);
      }
      C[k] = across(r);
    }
    return rows_mask;
  };

  // ---- axis 1 (y faces): slice y, rows z, bits x ----
  for (uint8_t dir = 0; dir < 2; ++dir) {
    for (uint32_t yy = 0; yy < t.cy; ++yy) {
      const auto at = [&](uint32_t zz, int dy) { return row_index(int(zz), int(yy) + dy); };
      const uint64_t rows_mask = plane_masks(std::integral_constant<size_t, kRowStride>{}, t.cz,
                                             dir, at, s.jdy, AlongZ{}, s.jdz);
      if (rows_mask == 0) continue;
      const uint32_t gy = t.y0 + yy;
      const size_t origin = g.index(t.x0, gy, t.z0);
      const uint64_t pbase = Impl::plane_base(1, dir) + (uint64_t{yy + dir} << Impl::kShiftY);
      merge_plane(F, C, E, rows_mask,
                  [&](uint32_t r, uint32_t b, uint32_t len, uint32_t h) VOXRIG_MESH_INLINE {
                    push(t.x0 + b, gy + dir, t.z0 + r, h, len, 1, dir, origin + r * slab + b,
                         pbase + (uint64_t{b} << Impl::kShiftX) + (uint64_t{r} << Impl::kShiftZ) +
                             (uint64_t{h} << Impl::kShiftW) + (uint64_t{len} << Impl::kShiftH));
                  });
    }
  }

  // ---- axis 2 (z faces): slice z, rows y, bits x ----
  for (uint8_t dir = 0; dir < 2; ++dir) {
    for (uint32_t zz = 0; zz < t.cz; ++zz) {
      const auto at = [&](uint32_t yy, int dz) { return row_index(int(zz) + dz, int(yy)); };
      const uint64_t rows_mask =
          plane_masks(std::integral_constant<size_t, 1>{}, t.cy, dir, at, s.jdz, AlongY{}, s.jdy);
      if (rows_mask == 0) continue;
      const uint32_t gz = t.z0 + zz;
      const size_t origin = g.index(t.x0, t.y0, gz);
      const uint64_t pbase = Impl::plane_base(2, dir) + (uint64_t{zz + dir} << Impl::kShiftZ);
      merge_plane(F, C, E, rows_mask,
                  [&](uint32_t r, uint32_t b, uint32_t len, uint32_t h) VOXRIG_MESH_INLINE {
                    push(t.x0 + b, t.y0 + r, gz + dir, len, h, 2, dir,
                         origin + r * size_t{g.sx} + b,
                         pbase + (uint64_t{b} << Impl::kShiftX) + (uint64_t{r} << Impl::kShiftY) +
                             (uint64_t{len} << Impl::kShiftW) + (uint64_t{h} << Impl::kShiftH));
                  });
    }
  }
}

// Runs mesh_tile<kMode, kColours> with the Colours that build_palette_rows found for this
// (non-empty) tile: One when s.tile_colour != 0, Layers when s.layered.
template <TileMode kMode>
void mesh_tile_of(const Grid& g, const Tile& t, uint16_t joint0, MeshScratch::Impl& s,
                  std::vector<Quad>& out) {
  if (s.tile_colour != 0) {
    mesh_tile<kMode, Colours::One>(g, t, joint0, s, out);
  } else if (s.layered) {
    mesh_tile<kMode, Colours::Layers>(g, t, joint0, s, out);
  } else {
    mesh_tile<kMode, Colours::Many>(g, t, joint0, s, out);
  }
}

}  // namespace

size_t uniform_prefix(const uint16_t* joints, size_t i, size_t n, uint16_t j0) {
  // 64 ids per step, or-ing their differences from j0: one test per 128 bytes.
#if defined(VOXRIG_MESH_WIDE)
  const __m256i jv = _mm256_set1_epi16(static_cast<short>(j0));
  for (; i + 64 <= n; i += 64) {
    __m256i d = _mm256_setzero_si256();
    for (size_t k = 0; k < 64; k += 16)
      d = _mm256_or_si256(d, _mm256_xor_si256(load256(joints + i + k), jv));
    if (!_mm256_testz_si256(d, d)) {
      _mm256_zeroupper();
      return i;
    }
  }
  _mm256_zeroupper();  // the caller is baseline code
#elif defined(__SSE2__)
  const __m128i jv = _mm_set1_epi16(static_cast<short>(j0));
  for (; i + 64 <= n; i += 64) {
    __m128i d = _mm_setzero_si128();
    for (size_t k = 0; k < 64; k += 8) {
      d = _mm_or_si128(
          d, _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(joints + i + k)), jv));
    }
    if (_mm_movemask_epi8(_mm_cmpeq_epi8(d, _mm_setzero_si128())) != 0xFFFF) return i;
  }
#endif
  for (; i < n; ++i)
    if (joints[i] != j0) return i;
  return n;
}

Quad* expand_packed(const uint64_t* q, size_t n, const PackedTile& tile, Quad* dst,
                    [[maybe_unused]] const Quad* dst_end) {
  // Quad's words are x|y, z|w, h|axis|positive|joint and the material (kQuadWords): per quad
  // lane k of the packed word shifted right by 0, 8, 16, 24 bits, masked, plus the tile's
  // constant, is word k, and one 32-byte store writes the quad and the first 4 bytes of the
  // next, which the next store overwrites. So the stores stop one quad before the end of out,
  // and the rest go field by field.
  using Impl = MeshScratch::Impl;
  const uint64_t xy = tile.x0 | uint64_t{tile.y0} << 32, zw = tile.z0 | uint64_t{1} << 32,
                 hap = 1 | uint64_t{tile.joint} << 48;
  size_t k = 0;
#if defined(VOXRIG_MESH_WIDE)
  if constexpr (kQuadWords) {
    const size_t room = static_cast<size_t>(dst_end - dst);
    const size_t wide = room > n ? n : room - 1;  // room >= n >= 1
    const __m256i shifts = _mm256_setr_epi64x(0, 8, 16, Impl::kShiftMat);
    const __m256i masks = _mm256_setr_epi64x(Impl::kPackXY, Impl::kPackZW, Impl::kPackHAP, 0xFF);
    const __m256i base = _mm256_setr_epi64x(int64_t(xy), int64_t(zw), int64_t(hap), 0);
    for (; k < wide; ++k, ++dst) {
      const __m256i p = _mm256_set1_epi64x(int64_t(q[k]));
      const __m256i w =
          _mm256_add_epi64(base, _mm256_and_si256(_mm256_srlv_epi64(p, shifts), masks));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst), w);
    }
    _mm256_zeroupper();  // the caller is baseline code (see mesh_binary_kernel's end)
  }
#endif
  for (; k < n; ++k, ++dst) {
    const uint64_t p = q[k];
    if constexpr (kQuadWords) {
      const uint64_t w0 = xy + (p & Impl::kPackXY), w1 = zw + (p >> 8 & Impl::kPackZW),
                     w2 = hap + (p >> 16 & Impl::kPackHAP);
      const uint32_t material = static_cast<uint32_t>(p >> Impl::kShiftMat & 0xFF);
      unsigned char* d = reinterpret_cast<unsigned char*>(dst);
      std::memcpy(d, &w0, 8);
      std::memcpy(d + 8, &w1, 8);
      std::memcpy(d + 16, &w2, 8);
      std::memcpy(d + 24, &material, 4);
    } else {
      dst->x = tile.x0 + static_cast<uint32_t>(p & 0x7F);
      dst->y = tile.y0 + static_cast<uint32_t>(p >> 32 & 0x7F);
      dst->z = tile.z0 + static_cast<uint32_t>(p >> 8 & 0x7F);
      dst->w = static_cast<uint32_t>(p >> 40 & 0x3F) + 1;
      dst->h = static_cast<uint32_t>(p >> 16 & 0x3F) + 1;
      dst->axis = static_cast<uint8_t>(p >> 48 & 3);
      dst->positive = static_cast<uint8_t>(p >> 56 & 1);
      dst->joint = tile.joint;
      dst->material = static_cast<uint32_t>(p >> Impl::kShiftMat & 0xFF);
    }
  }
  return dst;
}

void mesh_binary_kernel(const Grid& g, uint16_t joint0, MeshScratch::Impl& s,
                        std::vector<Quad>& out) {
  s.ensure();
  s.chained_quads = 0;
  s.over_quad_limit = false;
  for (uint32_t z0 = 0; z0 < g.sz; z0 += kTile) {
    for (uint32_t y0 = 0; y0 < g.sy; y0 += kTile) {
      for (uint32_t x0 = 0; x0 < g.sx; x0 += kTile) {
        const Tile t{x0,
                     y0,
                     z0,
                     std::min(kTile, g.sx - x0),
                     std::min(kTile, g.sy - y0),
                     std::min(kTile, g.sz - z0)};
        s.tile_x0 = x0;
        s.tile_y0 = y0;
        s.tile_z0 = z0;
        ++s.tile_seq;  // blocks never mix tiles (wraps only after 2^32 tiles: far past limits)
        build_palette_rows(g, t, s);
        if (s.empty_tile) continue;  // no solid voxel: no face
        uint16_t tile_joint = 0;
        const MeshScratch::Impl::BlockMark blocks_before = s.block_mark();
        if (g.joints == nullptr) {
          if (!s.sealed) mesh_tile_of<TileMode::Plain>(g, t, joint0, s, out);
        } else if (tile_one_joint(g, t, s, tile_joint)) {
          mask_shell(g, t, tile_joint, s);
          // Sealed still unless a voxel beside the tile is bound to another joint.
          if (!(s.sealed && shell_solid(g, t, s)))
            mesh_tile_of<TileMode::OneJoint>(g, t, tile_joint, s, out);
        } else {
          build_joint_rows(g, t, s);
          mesh_tile_of<TileMode::Joints>(g, t, joint0, s, out);
        }
        if (s.past_quad_limit(blocks_before, out.size())) goto done;  // the caller reports it
      }
    }
  }
done:;
#if defined(VOXRIG_MESH_VZEROUPPER)
  // The AVX2 build hands back the upper halves of the YMM registers clean. GCC 12's own
  // vzeroupper placement left them in use after a random 64^3 grid (XINUSE; the test is
  // Mesh.LeavesTheUpperYmmStateClean), and while they are, every legacy-SSE instruction after
  // it (the SSE2 kernels, a caller's SSE code) runs several times slower on AMD CPUs.
  _mm256_zeroupper();
#endif
}

}  // namespace VOXRIG_MESH_ISA
}  // namespace detail

}  // namespace voxrig
