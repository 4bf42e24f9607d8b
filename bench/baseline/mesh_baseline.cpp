// bench/baseline/mesh_baseline.cpp — a frozen copy of the library's binary greedy mesher as it
// was before issue 15 (reference/src/mesh at commit 0d3ba6a: mesh_internal.h, mesh_binary.cpp,
// the scratch/grouping parts of mesh_grid.cpp, mesh_greedy.cpp and mesh_bone_aware.cpp), kept
// as the in-run baseline the meshing targets are stated against. Only names changed (namespace
// voxrig::bench_baseline, Scratch -> Scratch, the KV6/naive parts dropped). Do not tune it:
// its speed is the yardstick.
#include "mesh_baseline.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <memory>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace voxrig::bench_baseline {
/// Tile edge: one 64-bit mask covers a tile row.
inline constexpr uint32_t kTile = 64;
/// Row-mask arrays cover rows -1..64 on the two row axes: index (zz + 1) * kRowStride + (yy + 1).
inline constexpr uint32_t kRowStride = kTile + 2;
inline constexpr size_t kRowCount = size_t{kRowStride} * kRowStride;

struct Scratch::Impl {
  // Per-tile row masks (bit i = voxel x0 + i of row (y0 + yy, z0 + zz)).
  std::vector<uint64_t> occ;     // solid
  std::vector<uint8_t> border;   // bit 0: voxel x0-1 solid; bit 1: voxel x0+cx solid
  std::vector<uint64_t> pcx;     // palette(x) != palette(x+1)
  std::vector<uint64_t> pcy;     // palette(x, y) != palette(x, y+1)
  std::vector<uint64_t> pcz;     // palette(x, z) != palette(x, z+1)
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
  // their tile, to a chain of fixed-size blocks (emission order; one tile per block), and the
  // chains are expanded into `out` in joint order at the end. Packing keeps the hot loop's
  // stores and the final pass's reads small (a quad is 28 bytes unpacked). Blocks come from a
  // pool that only grows; chains and the used-joint list are reset by flush_grouped().
  static constexpr uint32_t kBlockQuads = 512;
  struct QuadBlock {
    QuadBlock* next;
    uint32_t count;
    uint32_t tile;        // tile sequence number of every quad in the block
    uint32_t x0, y0, z0;  // that tile's origin
    uint64_t q[kBlockQuads];
  };
  struct Chain {
    QuadBlock* head;
    QuadBlock* tail;
  };
  std::vector<std::unique_ptr<QuadBlock>> pool;
  size_t pool_used = 0;
  std::vector<Chain> chains;  // 65536 entries, all empty between calls
  std::vector<uint16_t> joints_used;
  // The tile being meshed (set by the binary mesher before emitting).
  uint32_t tile_seq = 0, tile_x0 = 0, tile_y0 = 0, tile_z0 = 0;

  /// Packs a quad of the current tile: local x, y, z (0..64, 7 bits each), w-1, h-1 (6 bits
  /// each), axis (2), positive (1), palette index (8).
  static uint64_t pack(uint32_t lx, uint32_t ly, uint32_t lz, uint32_t w, uint32_t h, uint32_t axis,
                       uint32_t positive, uint32_t material) {
    return uint64_t{lx} | uint64_t{ly} << 7 | uint64_t{lz} << 14 | uint64_t{w - 1} << 21 |
           uint64_t{h - 1} << 27 | uint64_t{axis} << 33 | uint64_t{positive} << 35 |
           uint64_t{material & 0xFF} << 36;
  }
  /// Appends a packed quad of the current tile to `joint`'s chain.
  void emit_packed(uint16_t joint, uint64_t packed) {
    Chain& c = chains[joint];
    QuadBlock* b = c.tail;
    if (b == nullptr || b->count == kBlockQuads || b->tile != tile_seq) b = append_block(c, joint);
    b->q[b->count++] = packed;
  }
  /// Writes every chain into out (resized), joints ascending; resets the chains.
  void flush_grouped(std::vector<Quad>& out);

  void ensure();  // sizes every buffer once (allocates on the first call only)

 private:
  QuadBlock* append_block(Chain& c, uint16_t joint);
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

/// Checks the grid shape; eval.buffer_size when voxels (or a non-empty joint map) do not hold
/// exactly sx * sy * sz entries.
Status make_grid(const Vox0& vox0, std::span<const uint16_t> joints, Grid& grid);

/// The binary greedy mesher. joints == nullptr in `grid`: plain greedy (joint field = joint0),
/// appended to out. Otherwise bone-aware (faces between joints exposed, merges within one
/// joint), emitted into the scratch's joint chains (out untouched; call flush_grouped).
void mesh_binary(const Grid& grid, uint16_t joint0, Scratch::Impl& s, std::vector<Quad>& out);

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

namespace {

// Fills s.jdx, s.jborder, s.jdy, s.jdz for tile t (grid.joints must be set).
void build_joint_rows(const Grid& g, const Tile& t, Scratch::Impl& s) {
  const uint16_t* end = g.joints + g.count;
  alignas(16) uint16_t buf[72];
  alignas(16) uint16_t buf2[72];
  const uint64_t live = low_bits(t.cx);
  const size_t plane = size_t{g.sx} * g.sy;
  auto row_ptr = [&](uint32_t y, uint32_t z) { return g.joints + g.index(t.x0, y, z); };
  for (uint32_t zz = 0; zz < t.cz; ++zz) {
    const uint32_t z = t.z0 + zz;
    for (uint32_t yy = 0; yy < t.cy; ++yy) {
      const uint32_t y = t.y0 + yy;
      const size_t r = row_index(int(zz), int(yy));
      const uint16_t* p = row_ptr(y, z);
      const uint16_t* rp = readable72(p, end, buf);
      // Bit cx-1 compares with voxel x0+cx: a real neighbour when it is inside the grid; when
      // it is not, the right border bit is 0 and this bit is never used.
      s.jdx[r] = diff_mask16(rp, rp + 1) & live;
      s.jborder[r] = t.x0 > 0 && p[-1] != p[0] ? 1 : 0;
      s.jdy[r] = y + 1 < g.sy ? diff_mask16(rp, readable72(p + g.sx, end, buf2)) & live : 0;
      s.jdz[r] = z + 1 < g.sz ? diff_mask16(rp, readable72(p + plane, end, buf2)) & live : 0;
    }
    // Row pair (y0 - 1, y0): the -y faces of the tile's first row.
    s.jdy[row_index(int(zz), -1)] = t.y0 > 0
                                        ? diff_mask16(readable72(row_ptr(t.y0 - 1, z), end, buf),
                                                      readable72(row_ptr(t.y0, z), end, buf2)) &
                                              live
                                        : 0;
  }
  // Row pair (z0 - 1, z0): the -z faces of the tile's first slice.
  for (uint32_t yy = 0; yy < t.cy; ++yy) {
    const uint32_t y = t.y0 + yy;
    s.jdz[row_index(-1, int(yy))] = t.z0 > 0
                                        ? diff_mask16(readable72(row_ptr(y, t.z0 - 1), end, buf),
                                                      readable72(row_ptr(y, t.z0), end, buf2)) &
                                              live
                                        : 0;
  }
}

void build_palette_rows(const Grid& g, const Tile& t, Scratch::Impl& s) {
  const uint8_t* end = g.vox + g.count;
  alignas(16) uint8_t buf[80];
  alignas(16) uint8_t buf2[80];
  const uint64_t live = low_bits(t.cx);
  const uint64_t live_pairs = low_bits(t.cx - 1);  // pairs (i, i+1) inside the tile
  const size_t plane = size_t{g.sx} * g.sy;
  for (int zz = -1; zz <= int(t.cz); ++zz) {
    const int64_t z = int64_t{t.z0} + zz;
    const bool z_in = z >= 0 && z < int64_t{g.sz};
    for (int yy = -1; yy <= int(t.cy); ++yy) {
      const int64_t y = int64_t{t.y0} + yy;
      const size_t r = row_index(zz, yy);
      if (!z_in || y < 0 || y >= int64_t{g.sy}) {
        s.occ[r] = 0;
        continue;
      }
      const uint8_t* p = g.vox + g.index(t.x0, uint32_t(y), uint32_t(z));
      const uint8_t* rp = readable80(p, end, buf);
      s.occ[r] = nonzero_mask(rp) & live;
      if (zz < 0 || zz >= int(t.cz) || yy < 0 || yy >= int(t.cy)) continue;
      uint8_t b = 0;
      if (t.x0 > 0 && p[-1] != 0) b |= 1;
      if (t.x0 + t.cx < g.sx && p[t.cx] != 0) b |= 2;
      s.border[r] = b;
      s.pcx[r] = diff_mask8(rp, rp + 1) & live_pairs;
      s.pcy[r] = yy + 1 < int(t.cy) ? diff_mask8(rp, readable80(p + g.sx, end, buf2)) & live : 0;
      s.pcz[r] = zz + 1 < int(t.cz) ? diff_mask8(rp, readable80(p + plane, end, buf2)) & live : 0;
    }
  }
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

// Population count without relying on the POPCNT instruction (the baseline x86-64 target).
inline uint32_t popcount64(uint64_t v) {
  v = v - ((v >> 1) & 0x5555555555555555ull);
  v = (v & 0x3333333333333333ull) + ((v >> 2) & 0x3333333333333333ull);
  v = (v + (v >> 4)) & 0x0F0F0F0F0F0F0F0Full;
  return static_cast<uint32_t>((v * 0x0101010101010101ull) >> 56);
}

// Above this many x faces in one z layer, transposing beats scattering face by face.
constexpr uint32_t kTransposeFaces = 384;

// Greedy merge of one plane: F[0..rows) face bits, C across-changes, V down-changes (see the
// file comment). emit(row, bit, run_length, row_count) receives each quad. Consumes F.
template <class Emit>
inline void merge_plane(uint64_t* F, const uint64_t* C, const uint64_t* V, uint32_t rows,
                        Emit&& emit) {
  for (uint32_t r = 0; r < rows; ++r) {
    uint64_t f = F[r];
    while (f != 0) {
      const uint32_t b = static_cast<uint32_t>(std::countr_zero(f));
      uint32_t len = static_cast<uint32_t>(std::countr_one(f >> b));
      // The first material change at or after b ends the run (countr_zero(0) = 64: none).
      len = std::min(len, static_cast<uint32_t>(std::countr_zero(C[r] >> b)) + 1);
      const uint64_t mask = low_bits(len) << b;
      f &= ~mask;
      uint32_t h = 1;
      while (r + h < rows && (F[r + h] & mask) == mask && (V[r + h - 1] & mask) == 0) {
        F[r + h] &= ~mask;
        ++h;
      }
      emit(r, b, len, h);
    }
    F[r] = 0;
  }
}

template <bool kJoints>
void mesh_tile(const Grid& g, const Tile& t, uint16_t joint0, Scratch::Impl& s,
               std::vector<Quad>& out) {
  const uint8_t* vox = g.vox;
  const uint16_t* joints = g.joints;
  auto push = [&](uint32_t x, uint32_t y, uint32_t z, uint32_t w, uint32_t h, uint8_t axis,
                  uint8_t positive, size_t i) {
    if constexpr (kJoints) {
      s.emit_packed(joints[i], Scratch::Impl::pack(x - t.x0, y - t.y0, z - t.z0, w, h, axis,
                                                   positive, vox[i]));
    } else {
      Quad& q = out.emplace_back();
      q.x = x;
      q.y = y;
      q.z = z;
      q.w = w;
      q.h = h;
      q.axis = axis;
      q.positive = positive;
      q.joint = joint0;
      q.material = vox[i];
    }
  };
  // Across/down material-change masks of row r (bits over x), for y/z faces.
  auto across = [&](size_t r) {
    if constexpr (kJoints) {
      return s.pcx[r] | s.jdx[r];
    } else {
      return s.pcx[r];
    }
  };
  uint64_t F[kTile], C[kTile], V[kTile];
  const size_t slab = size_t{g.sx} * g.sy;  // index step of z + 1

  // ---- axis 0 (x faces): per-x planes, rows z, bits y ----
  uint64_t* xface = s.xface.data();
  uint64_t* xchange = s.xchange.data();
  uint64_t* xdown = s.xdown.data();
  constexpr size_t kPlanes = size_t{kTile} * kTile;  // words per direction
  uint64_t fpos[kTile], fneg[kTile], chg[kTile], down[kTile];
  for (uint32_t zz = 0; zz < t.cz; ++zz) {
    uint32_t faces = 0;
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
        chg[yy] = s.pcy[r] | s.jdy[r];
        down[yy] = s.pcz[r] | s.jdz[r];
      } else {
        fpos[yy] = o & ~right;
        fneg[yy] = o & ~left;
        chg[yy] = s.pcy[r];
        down[yy] = s.pcz[r];
      }
      faces += popcount64(fpos[yy] | fneg[yy]);
    }
    if (faces == 0) continue;
    if (faces >= kTransposeFaces) {
      for (uint32_t yy = t.cy; yy < kTile; ++yy) fpos[yy] = fneg[yy] = chg[yy] = down[yy] = 0;
      transpose64(fpos);
      transpose64(fneg);
      transpose64(chg);
      transpose64(down);
      for (uint32_t x = 0; x < t.cx; ++x) {
        const size_t w = size_t{x} * kTile + zz;
        xface[w] = fneg[x];
        xface[kPlanes + w] = fpos[x];
        xchange[w] = xchange[kPlanes + w] = chg[x];
        xdown[w] = xdown[kPlanes + w] = down[x];
      }
      continue;
    }
    for (uint32_t yy = 0; yy < t.cy; ++yy) {
      const uint64_t bit = uint64_t{1} << yy;
      for (size_t dir = 0; dir < 2; ++dir) {
        uint64_t f = dir ? fpos[yy] : fneg[yy];
        const size_t base = dir * kPlanes + zz;
        while (f != 0) {
          const uint32_t x = static_cast<uint32_t>(std::countr_zero(f));
          f &= f - 1;
          const size_t w = base + size_t{x} * kTile;
          xface[w] |= bit;
          xchange[w] |= ((chg[yy] >> x) & 1) << yy;
          xdown[w] |= ((down[yy] >> x) & 1) << yy;
        }
      }
    }
  }
  for (uint8_t dir = 0; dir < 2; ++dir) {
    for (uint32_t x = 0; x < t.cx; ++x) {
      const size_t base = dir * kPlanes + size_t{x} * kTile;
      const uint32_t gx = t.x0 + x;
      const size_t origin = g.index(gx, t.y0, t.z0);  // voxel of (row 0, bit 0)
      merge_plane(xface + base, xchange + base, xdown + base, t.cz,
                  [&](uint32_t r, uint32_t b, uint32_t len, uint32_t h) {
                    push(gx + dir, t.y0 + b, t.z0 + r, len, h, 0, dir,
                         origin + r * slab + b * size_t{g.sx});
                  });
      std::fill(xchange + base, xchange + base + t.cz, uint64_t{0});
      std::fill(xdown + base, xdown + base + t.cz, uint64_t{0});
    }
  }

  // F, C, V of one y or z plane (rows k < `rows`, bits over x), the rule both axes share: a face
  // where the voxel is set and its neighbour in direction `dir` is empty or (with joints) across
  // a joint change; C is the across mask, V the palette (| joint) change along the rows.
  // `at(k, d)` is the row index of row k in the slice d away; `jd_axis` the joint-change masks
  // along the plane's own axis (entry of slice s: s vs s + 1), `pc_rows`/`jd_rows` the change
  // masks along the rows' axis. Returns the OR of the face masks (0: nothing to merge).
  auto plane_masks = [&](uint32_t rows, uint8_t dir, const auto& at,
                         [[maybe_unused]] const std::vector<uint64_t>& jd_axis,
                         const std::vector<uint64_t>& pc_rows,
                         [[maybe_unused]] const std::vector<uint64_t>& jd_rows) {
    uint64_t any = 0;
    for (uint32_t k = 0; k < rows; ++k) {
      const size_t r = at(k, 0);
      const uint64_t nb = s.occ[at(k, dir ? 1 : -1)];
      if constexpr (kJoints) {
        const uint64_t jd = jd_axis[at(k, dir ? 0 : -1)];
        F[k] = s.occ[r] & ~(nb & ~jd);
        V[k] = pc_rows[r] | jd_rows[r];
      } else {
        F[k] = s.occ[r] & ~nb;
        V[k] = pc_rows[r];
      }
      C[k] = across(r);
      any |= F[k];
    }
    return any;
  };

  // ---- axis 1 (y faces): slice y, rows z, bits x ----
  for (uint8_t dir = 0; dir < 2; ++dir) {
    for (uint32_t yy = 0; yy < t.cy; ++yy) {
      const auto at = [&](uint32_t zz, int dy) { return row_index(int(zz), int(yy) + dy); };
      if (plane_masks(t.cz, dir, at, s.jdy, s.pcz, s.jdz) == 0) continue;
      const uint32_t gy = t.y0 + yy;
      const size_t origin = g.index(t.x0, gy, t.z0);
      merge_plane(F, C, V, t.cz, [&](uint32_t r, uint32_t b, uint32_t len, uint32_t h) {
        push(t.x0 + b, gy + dir, t.z0 + r, h, len, 1, dir, origin + r * slab + b);
      });
    }
  }

  // ---- axis 2 (z faces): slice z, rows y, bits x ----
  for (uint8_t dir = 0; dir < 2; ++dir) {
    for (uint32_t zz = 0; zz < t.cz; ++zz) {
      const auto at = [&](uint32_t yy, int dz) { return row_index(int(zz) + dz, int(yy)); };
      if (plane_masks(t.cy, dir, at, s.jdz, s.pcy, s.jdy) == 0) continue;
      const uint32_t gz = t.z0 + zz;
      const size_t origin = g.index(t.x0, t.y0, gz);
      merge_plane(F, C, V, t.cy, [&](uint32_t r, uint32_t b, uint32_t len, uint32_t h) {
        push(t.x0 + b, t.y0 + r, gz + dir, len, h, 2, dir, origin + r * size_t{g.sx} + b);
      });
    }
  }
}

}  // namespace

void mesh_binary(const Grid& g, uint16_t joint0, Scratch::Impl& s, std::vector<Quad>& out) {
  s.ensure();
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
        if (g.joints != nullptr) {
          build_joint_rows(g, t, s);
          mesh_tile<true>(g, t, joint0, s, out);
        } else {
          mesh_tile<false>(g, t, joint0, s, out);
        }
      }
    }
  }
}

}  // namespace detail

Scratch::Scratch() : impl_(new Impl) {}
Scratch::~Scratch() { delete impl_; }

void Scratch::Impl::ensure() {
  if (!occ.empty()) return;
  occ.assign(kRowCount, 0);
  border.assign(kRowCount, 0);
  pcx.assign(kRowCount, 0);
  pcy.assign(kRowCount, 0);
  pcz.assign(kRowCount, 0);
  jdx.assign(kRowCount, 0);
  jborder.assign(kRowCount, 0);
  jdy.assign(kRowCount, 0);
  jdz.assign(kRowCount, 0);
  xface.assign(2 * size_t{kTile} * kTile, 0);
  xchange.assign(2 * size_t{kTile} * kTile, 0);
  xdown.assign(2 * size_t{kTile} * kTile, 0);
  chains.assign(65536, Chain{nullptr, nullptr});
  joints_used.reserve(1024);
}

Scratch::Impl::QuadBlock* Scratch::Impl::append_block(Chain& c, uint16_t joint) {
  if (pool_used == pool.size()) pool.push_back(std::make_unique<QuadBlock>());
  QuadBlock* b = pool[pool_used++].get();
  b->next = nullptr;
  b->count = 0;
  b->tile = tile_seq;
  b->x0 = tile_x0;
  b->y0 = tile_y0;
  b->z0 = tile_z0;
  if (c.tail == nullptr) {
    c.head = b;
    joints_used.push_back(joint);
  } else {
    c.tail->next = b;
  }
  c.tail = b;
  return b;
}

void Scratch::Impl::flush_grouped(std::vector<Quad>& out) {
  std::sort(joints_used.begin(), joints_used.end());
  size_t total = 0;
  for (size_t i = 0; i < pool_used; ++i) total += pool[i]->count;
  // resize() without clear(): a buffer reused for the same grid keeps its elements and is only
  // overwritten below (no value-initialisation pass).
  out.resize(total);
  Quad* dst = out.data();
  for (uint16_t j : joints_used) {
    for (const QuadBlock* b = chains[j].head; b != nullptr; b = b->next) {
      for (uint32_t k = 0; k < b->count; ++k, ++dst) {
        const uint64_t p = b->q[k];
        dst->x = b->x0 + static_cast<uint32_t>(p & 0x7F);
        dst->y = b->y0 + static_cast<uint32_t>(p >> 7 & 0x7F);
        dst->z = b->z0 + static_cast<uint32_t>(p >> 14 & 0x7F);
        dst->w = static_cast<uint32_t>(p >> 21 & 0x3F) + 1;
        dst->h = static_cast<uint32_t>(p >> 27 & 0x3F) + 1;
        dst->axis = static_cast<uint8_t>(p >> 33 & 3);
        dst->positive = static_cast<uint8_t>(p >> 35 & 1);
        dst->joint = j;
        dst->material = static_cast<uint32_t>(p >> 36 & 0xFF);
      }
    }
    chains[j] = Chain{nullptr, nullptr};
  }
  joints_used.clear();
  pool_used = 0;
}

Status detail::make_grid(const Vox0& vox0, std::span<const uint16_t> joints, Grid& grid) {
  grid.sx = vox0.size_x;
  grid.sy = vox0.size_y;
  grid.sz = vox0.size_z;
  grid.count = size_t{grid.sx} * grid.sy * grid.sz;
  if (vox0.voxels.size() != grid.count || (!joints.empty() && joints.size() != grid.count)) {
    return model_error(ErrorCode::EvalBufferSize, "VOX0",
                       "voxel or joint map size does not match the grid");
  }
  grid.vox = vox0.voxels.data();
  grid.joints = joints.empty() ? nullptr : joints.data();
  return ok_status();
}
namespace detail {
namespace {

// Index of the first non-zero voxel, or n.
size_t first_solid(const uint8_t* vox, size_t n) {
  size_t i = 0;
#if defined(__SSE2__)
  const __m128i zero = _mm_setzero_si128();
  for (; i + 16 <= n; i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(vox + i));
    if (_mm_movemask_epi8(_mm_cmpeq_epi8(v, zero)) != 0xFFFF) break;
  }
#endif
  while (i < n && vox[i] == 0) ++i;
  return i;
}

// True when some solid voxel at or after `i` is bound to a joint other than j0.
bool mixed_joints(const uint8_t* vox, const uint16_t* joints, size_t i, size_t n, uint16_t j0) {
#if defined(__SSE2__)
  const __m128i zero = _mm_setzero_si128();
  const __m128i jv = _mm_set1_epi16(static_cast<short>(j0));
  for (; i + 16 <= n; i += 16) {
    const __m128i empty =
        _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(vox + i)), zero);
    const __m128i same = _mm_packs_epi16(
        _mm_cmpeq_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(joints + i)), jv),
        _mm_cmpeq_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(joints + i + 8)), jv));
    if (_mm_movemask_epi8(_mm_or_si128(empty, same)) != 0xFFFF) return true;
  }
#endif
  for (; i < n; ++i)
    if (vox[i] != 0 && joints[i] != j0) return true;
  return false;
}

}  // namespace
}  // namespace detail
Status mesh_greedy(const Vox0& vox0, std::vector<Quad>& out, Scratch& scratch) {
  detail::Grid g{};
  VOXRIG_TRY(detail::make_grid(vox0, {}, g));
  out.clear();
  detail::mesh_binary(g, 0, scratch.impl(), out);
  return ok_status();
}
Status mesh_bone_aware(const Vox0& vox0, std::span<const uint16_t> joints, std::vector<Quad>& out,
                       Scratch& scratch) {
  detail::Grid g{};
  VOXRIG_TRY(detail::make_grid(vox0, joints, g));
  if (g.joints == nullptr) {
    return model_error(ErrorCode::EvalBufferSize, "VOX0",
                       "bone-aware meshing needs one joint per voxel");
  }
  Scratch::Impl& s = scratch.impl();
  s.ensure();
  // One joint over every solid voxel: exactly plain greedy with that joint (and no grouping).
  const size_t first = detail::first_solid(g.vox, g.count);
  if (first == g.count) {
    out.clear();
    return ok_status();
  }
  const uint16_t j0 = g.joints[first];
  if (!detail::mixed_joints(g.vox, g.joints, first, g.count, j0)) {
    detail::Grid plain = g;
    plain.joints = nullptr;
    out.clear();
    detail::mesh_binary(plain, j0, s, out);
    return ok_status();
  }
  detail::mesh_binary(g, 0, s, out);
  s.flush_grouped(out);
  return ok_status();
}
}  // namespace voxrig::bench_baseline
