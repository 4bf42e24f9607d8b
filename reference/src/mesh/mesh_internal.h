// The meshers' shared layer (not installed): the scratch layout, the grid, the 64-lane mask
// primitives and the binary mesher's entry. Defined in mesh_grid.cpp (scratch, grid, grouping)
// and mesh_binary.cpp (mesh_binary, over the kernel of mesh_binary_kernel.h); the naive oracle
// (mesh_naive.cpp), the greedy and bone-aware entry points and the KV6 mesher use this layer and
// never each other.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

#include "voxrig/mesh.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace voxrig {

/// Tile edge: one 64-bit mask covers a tile row.
inline constexpr uint32_t kTile = 64;
/// Row-mask arrays cover rows -1..64 on the two row axes: index (zz + 1) * kRowStride + (yy + 1).
inline constexpr uint32_t kRowStride = kTile + 2;
inline constexpr size_t kRowCount = size_t{kRowStride} * kRowStride;

struct MeshScratch::Impl {
  // Per-tile row masks (bit i = voxel x0 + i of row (y0 + yy, z0 + zz)).
  std::vector<uint64_t> occ;     // solid
  std::vector<uint8_t> border;   // bit 0: voxel x0-1 solid; bit 1: voxel x0+cx solid
  // One-joint tiles: s.border less the voxels bound to another joint (tile_one_joint swaps it in).
  std::vector<uint8_t> border_one;
  std::vector<uint64_t> pcx;     // palette(x) != palette(x+1)
  std::vector<uint64_t> pcy;     // palette(x, y) != palette(x, y+1)
  std::vector<uint64_t> pcz;     // palette(x, z) != palette(x, z+1)
  std::vector<uint8_t> puni;     // inner rows: the one palette index of all solid voxels, 0: mixed
  // The one palette index every solid voxel of the tile holds (pc* then not written: all zero),
  // every quad's material; 0 when they hold several (or the tile is empty: empty_tile).
  uint8_t tile_colour = 0;
  // Several palette indices, but no change along x or y anywhere in the tile (pcx and pcy all
  // zero; pcz is not): strata, such as a terrain's colour bands.
  bool layered = false;
  // Tiles without a face, which the mesher skips (set by build_palette_rows): empty_tile, no
  // solid voxel; sealed, every voxel solid and so is every voxel beside the tile (the inside of
  // a large solid; found for one-colour tiles; with joints, the mesher also asks that they all
  // hold the tile's one joint).
  bool empty_tile = false;
  bool sealed = false;
  std::vector<uint64_t> jdx;     // joint(x) != joint(x+1)
  std::vector<uint8_t> jborder;  // bit 0: joint(x0-1) != joint(x0)
  std::vector<uint64_t> jdy;     // joint(x, y) != joint(x, y+1), rows yy in -1..cy-1
  std::vector<uint64_t> jdz;     // joint(x, z) != joint(x, z+1), rows zz in -1..cz-1
  // x-face planes, [direction][x][z]: bit y = face present; xchange marks faces whose material
  // differs from the face at y + 1, xdown those that differ from the face at z + 1.
  std::vector<uint64_t> xface;
  std::vector<uint64_t> xchange;
  std::vector<uint64_t> xdown;
  // Grouping by joint (binary mesher): each joint's quads go, packed into 8 bytes relative to
  // their tile, to a chain of blocks (emission order; one tile per block), and the chains are
  // expanded into `out` in joint order at the end. Packing keeps the hot loop's stores and the
  // final pass's reads small (a quad is 28 bytes unpacked). A (tile, joint) chain starts with a
  // small block and goes on in large ones: a joint with a few faces in a tile costs ~160 bytes
  // there, not 4 KiB (a grid of lone voxels bound to 16,384 joints made 330,000 such chains:
  // 1.4 GB of 4 KiB blocks from a 7.7 MB file). Blocks come from two pools that only grow;
  // chains and the used-joint list are reset by flush_grouped().
  static constexpr uint32_t kBlockQuads = 512, kSmallBlockQuads = 16;
  struct QuadBlock {
    QuadBlock* next;
    uint32_t count, capacity;
    uint32_t tile;        // tile sequence number of every quad in the block
    uint32_t x0, y0, z0;  // that tile's origin
    /// The packed quads: `capacity` words right after the header, in the same allocation.
    uint64_t* q() { return reinterpret_cast<uint64_t*>(this + 1); }
    const uint64_t* q() const { return reinterpret_cast<const uint64_t*>(this + 1); }
  };
  static_assert(sizeof(QuadBlock) % sizeof(uint64_t) == 0);
  // An empty chain's tail: a full block (never written), so emit_packed tests no null pointer.
  static inline QuadBlock no_block{nullptr, 0, 0, 0, 0, 0, 0};
  // One pool per block size; a block's storage is its header and its words (not zero-filled).
  struct BlockPool {
    std::vector<std::unique_ptr<uint64_t[]>> blocks;
    size_t used = 0;
    QuadBlock* at(size_t i) const { return reinterpret_cast<QuadBlock*>(blocks[i].get()); }
  };
  BlockPool small_blocks, large_blocks;
  /// Where the pools stand (past_quad_limit counts the quads of the blocks taken since).
  struct BlockMark {
    size_t small, large;
  };
  BlockMark block_mark() const { return {small_blocks.used, large_blocks.used}; }
  // Per joint, 65536 entries each, all empty between calls: the chain's first block (nullptr:
  // empty) and its last (&no_block when empty). Separate arrays: the hot path reads tails only.
  std::vector<QuadBlock*> heads, tails;
  std::vector<uint16_t> joints_used;
  // The tile being meshed (set by the binary mesher before emitting).
  uint32_t tile_seq = 0, tile_x0 = 0, tile_y0 = 0, tile_z0 = 0;

  // Naive grouping: quads staged in voxel order, then a stable counting sort by joint.
  std::vector<Quad> staged;
  std::vector<uint32_t> joint_start;  // 65536 entries, all zero between calls

  /// Packs a quad of the current tile (local x, y, z 0..64, w, h 1..64) so that flush_grouped
  /// rebuilds the 28-byte Quad with three masked adds and a byte load: bits 0-6 lx, 8-14 lz,
  /// 16-21 h-1, 24-31 palette index (byte 3: one load), 32-38 ly, 40-45 w-1, 48-49 axis, 56
  /// positive. Read as little-endian words, Quad's x|y, z|w and h|axis|positive|joint are then
  /// (p & kPackXY), (p >> 8 & kPackZW) and (p >> 16 & kPackHAP) plus per-block constants.
  /// Every field lies in its own bits, so the packed word is a plain sum of the fields shifted
  /// into place: the merge loops add a per-plane base (plane_base, with the plane's own
  /// coordinate) and the per-quad terms, and the -1 of w and h is folded into the base.
  static constexpr int kShiftX = 0, kShiftZ = 8, kShiftH = 16, kShiftMat = 24, kShiftY = 32,
                       kShiftW = 40, kShiftAxis = 48, kShiftPos = 56;
  static constexpr uint64_t kPackXY = 0x0000007F0000007Full;
  static constexpr uint64_t kPackZW = 0x0000003F0000007Full;
  static constexpr uint64_t kPackHAP = 0x000001030000003Full;
  /// pack() of a quad at local (0, 0, 0) with w = h = 0 (wraps: the w and h terms restore it).
  static constexpr uint64_t plane_base(uint32_t axis, uint32_t positive) {
    return (uint64_t{axis} << kShiftAxis | uint64_t{positive} << kShiftPos) -
           (uint64_t{1} << kShiftW) - (uint64_t{1} << kShiftH);
  }
  static constexpr uint64_t pack(uint32_t lx, uint32_t ly, uint32_t lz, uint32_t w, uint32_t h,
                                 uint32_t axis, uint32_t positive, uint32_t material) {
    return plane_base(axis, positive) + (uint64_t{lx} << kShiftX) + (uint64_t{ly} << kShiftY) +
           (uint64_t{lz} << kShiftZ) + (uint64_t{w} << kShiftW) + (uint64_t{h} << kShiftH) +
           (uint64_t{material & 0xFF} << kShiftMat);
  }
  /// Appends a packed quad of the current tile to `joint`'s chain.
  void emit_packed(uint16_t joint, uint64_t packed) {
    QuadBlock* b = tails[joint];
    if (b->count == b->capacity || b->tile != tile_seq) b = append_block(joint);
    b->q()[b->count++] = packed;
  }
  /// Writes every chain into out (resized), joints ascending; resets the chains.
  void flush_grouped(std::vector<Quad>& out);
  /// Resets the chains without writing them (a run stopped by the quad cap).
  void discard_grouped();

  // The quad cap (MeshScratch::set_quad_limit) and the binary mesher's count against it: the
  // quads in `out` plus those in the chains (counted per tile from the tile's new blocks).
  size_t max_quads = SIZE_MAX;
  size_t chained_quads = 0;
  bool over_quad_limit = false;
  /// Adds the quads of the blocks taken since `before` and says whether out's quads and the
  /// chained ones are now past the cap (then sets over_quad_limit).
  bool past_quad_limit(BlockMark before, size_t out_quads) {
    for (size_t k = before.small; k < small_blocks.used; ++k)
      chained_quads += small_blocks.at(k)->count;
    for (size_t k = before.large; k < large_blocks.used; ++k)
      chained_quads += large_blocks.at(k)->count;
    over_quad_limit = out_quads + chained_quads > max_quads;
    return over_quad_limit;
  }

  void ensure();  // sizes every buffer once (allocates on the first call only)

  // KV6 meshing: every vis face as a sortable record, and the rows' runs.
  struct Kv6Face {
    uint8_t axis, positive;
    uint32_t slice, row, col;
    uint32_t material;
    bool operator<(const Kv6Face& o) const {
      if (axis != o.axis) return axis < o.axis;
      if (positive != o.positive) return positive < o.positive;
      if (slice != o.slice) return slice < o.slice;
      if (row != o.row) return row < o.row;
      if (col != o.col) return col < o.col;
      return material < o.material;
    }
  };
  struct Kv6Run {
    uint32_t start, len, material;
    uint32_t quad;  // index in out of the quad this run belongs to
  };
  std::vector<Kv6Face> kv6_faces;
  std::vector<Kv6Run> kv6_open, kv6_row;

 private:
  QuadBlock* append_block(uint16_t joint);
};

namespace detail {

/// Grid geometry shared by the meshers.
struct Grid {
  uint32_t sx, sy, sz;
  const uint8_t* vox;
  const uint16_t* joints;  // nullptr: no joint map
  size_t count;            // sx * sy * sz
  size_t index(uint32_t x, uint32_t y, uint32_t z) const {
    return x + size_t{sx} * (y + size_t{sy} * z);
  }
};

/// One tile: origin and extent (each extent 1..64).
struct Tile {
  uint32_t x0, y0, z0, cx, cy, cz;
};

/// Index of row (zz, yy) (tile-relative, each in -1..64) in the row-mask arrays.
inline size_t row_index(int zz, int yy) {
  return static_cast<size_t>(zz + 1) * kRowStride + static_cast<size_t>(yy + 1);
}

// ---- mesh_grid.cpp ----

/// Stable counting sort of `in` by joint id into `out` (resized).
void group_by_joint(const std::vector<Quad>& in, std::vector<Quad>& out, MeshScratch::Impl& s);

/// Checks the grid shape; eval.buffer_size when voxels (or a non-empty joint map) do not hold
/// exactly sx * sy * sz entries.
Status make_grid(const Vox0& vox0, std::span<const uint16_t> joints, Grid& grid);

/// The limit.output error of a mesher stopped by the quad cap.
Error quad_limit_error(size_t max_quads);

// ---- mesh_binary.cpp ----

/// The origin and joint that a run of packed quads (MeshScratch::Impl::pack) shares.
struct PackedTile {
  uint32_t x0, y0, z0;
  uint16_t joint;
};

/// Quad's layout as the word-wise expansion of packed quads needs it: little-endian, packed as
/// x, y, z, w, h (4 bytes each), axis, positive (1), joint (2), material (4); elsewhere
/// expand_packed falls back to field-wise stores.
inline constexpr bool kQuadWords =
    std::endian::native == std::endian::little && sizeof(Quad) == 28 && offsetof(Quad, y) == 4 &&
    offsetof(Quad, z) == 8 && offsetof(Quad, w) == 12 && offsetof(Quad, h) == 16 &&
    offsetof(Quad, axis) == 20 && offsetof(Quad, positive) == 21 && offsetof(Quad, joint) == 22 &&
    offsetof(Quad, material) == 24;

/// Writes n >= 1 packed quads of `tile` as Quads from dst on (dst + n <= dst_end, the end of the
/// output array: no byte at or past dst_end is written) and returns dst + n. Runs the kernel
/// build mesh_binary runs.
Quad* expand_packed(const uint64_t* q, size_t n, const PackedTile& tile, Quad* dst,
                    const Quad* dst_end);

/// The start of the first block of 64 ids at or after `i` holding an id other than j0 (n when
/// none does), so every id before the returned index equals j0: how mesh_bone_aware proves a
/// map of one joint without reading the voxels. Runs the kernel build mesh_binary runs.
size_t uniform_prefix(const uint16_t* joints, size_t i, size_t n, uint16_t j0);

/// The binary greedy mesher. joints == nullptr in `grid`: plain greedy (joint field = joint0),
/// appended to out. Otherwise bone-aware (faces between joints exposed, merges within one
/// joint), emitted into the scratch's joint chains (out untouched; call flush_grouped). Runs
/// the build of the kernel that set_mesh_kernels and the CPU allow (mesh.h MeshKernels).
void mesh_binary(const Grid& grid, uint16_t joint0, MeshScratch::Impl& s, std::vector<Quad>& out);

// The kernel's builds (mesh_binary_kernel.h), the same contract as mesh_binary: sse2 runs on
// every x86-64 (and, without SSE2, is the portable code); avx2 exists where VOXRIG_MESH_AVX2 is
// defined and may run only on a CPU with AVX2, BMI1, BMI2 and POPCNT.
#if defined(__x86_64__) && defined(__GNUC__)
#define VOXRIG_MESH_AVX2 1
#endif
namespace sse2 {
void mesh_binary_kernel(const Grid& grid, uint16_t joint0, MeshScratch::Impl& s,
                        std::vector<Quad>& out);
Quad* expand_packed(const uint64_t* q, size_t n, const PackedTile& tile, Quad* dst,
                    const Quad* dst_end);
size_t uniform_prefix(const uint16_t* joints, size_t i, size_t n, uint16_t j0);
}  // namespace sse2
#if defined(VOXRIG_MESH_AVX2)
namespace avx2 {
void mesh_binary_kernel(const Grid& grid, uint16_t joint0, MeshScratch::Impl& s,
                        std::vector<Quad>& out);
Quad* expand_packed(const uint64_t* q, size_t n, const PackedTile& tile, Quad* dst,
                    const Quad* dst_end);
size_t uniform_prefix(const uint16_t* joints, size_t i, size_t n, uint16_t j0);
}  // namespace avx2
#endif

/// Mask with the low n bits set (n <= 64).
inline uint64_t low_bits(uint32_t n) { return n >= 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1; }

/// Returns p when 80 bytes from p are readable before `end`, else a zero-padded copy in buf.
inline const uint8_t* readable80(const uint8_t* p, const uint8_t* end, uint8_t* buf) {
  if (end - p >= 80) return p;
  std::memset(buf, 0, 80);
  std::memcpy(buf, p, static_cast<size_t>(end - p));
  return buf;
}
/// Returns p when 72 uint16 from p are readable before `end`, else a zero-padded copy in buf.
inline const uint16_t* readable72(const uint16_t* p, const uint16_t* end, uint16_t* buf) {
  if (end - p >= 72) return p;
  std::memset(buf, 0, 72 * sizeof(uint16_t));
  std::memcpy(buf, p, static_cast<size_t>(end - p) * sizeof(uint16_t));
  return buf;
}

/// Bit i = (a[i] != b[i]), i < 64: the portable form of diff_mask8/diff_mask16 (their fallback
/// without SSE2). 64 elements of each must be readable.
template <class T>
inline uint64_t diff_mask_scalar(const T* a, const T* b) {
  uint64_t m = 0;
  for (int i = 0; i < 64; ++i) m |= uint64_t{a[i] != b[i]} << i;
  return m;
}

/// Bit i = (a[i] != b[i]), i < 64. 64 bytes of each must be readable.
inline uint64_t diff_mask8(const uint8_t* a, const uint8_t* b) {
#if defined(__SSE2__)
  uint64_t m = 0;
  for (int i = 0; i < 4; ++i) {
    const __m128i va = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a + 16 * i));
    const __m128i vb = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + 16 * i));
    const uint32_t eq = static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(va, vb)));
    m |= uint64_t{~eq & 0xFFFFu} << (16 * i);
  }
  return m;
#else
  return diff_mask_scalar(a, b);
#endif
}

/// Bit i = (p[i] != 0), i < 64. 64 bytes must be readable. (diff_mask8 against zeros: the
/// compiler folds the constant loads, so this costs what a dedicated loop would.)
inline uint64_t nonzero_mask(const uint8_t* p) {
  alignas(16) static constexpr uint8_t kZeros[64] = {};
  return diff_mask8(p, kZeros);
}

/// Bit i = (a[i] != b[i]), i < 64, for uint16 lanes. 64 values of each must be readable.
inline uint64_t diff_mask16(const uint16_t* a, const uint16_t* b) {
#if defined(__SSE2__)
  uint64_t m = 0;
  for (int i = 0; i < 4; ++i) {
    const __m128i a0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a + 16 * i));
    const __m128i a1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a + 16 * i + 8));
    const __m128i b0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + 16 * i));
    const __m128i b1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + 16 * i + 8));
    const __m128i eq = _mm_packs_epi16(_mm_cmpeq_epi16(a0, b0), _mm_cmpeq_epi16(a1, b1));
    const uint32_t bits = static_cast<uint32_t>(_mm_movemask_epi8(eq));
    m |= uint64_t{~bits & 0xFFFFu} << (16 * i);
  }
  return m;
#else
  return diff_mask_scalar(a, b);
#endif
}

}  // namespace detail
}  // namespace voxrig
