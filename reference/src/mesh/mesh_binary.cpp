// Binary greedy meshing, the engine of mesh_greedy and mesh_bone_aware (shared layer: both entry
// points call mesh_binary, neither calls the other).
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
// Per-voxel work is a few SIMD compares per 16 voxels; the rest is per face or per quad. x faces
// need rows over y: a z layer with many x faces is transposed (64x64 bit transposes), a sparse
// one is scattered face by face.
#include <algorithm>
#include <bit>

#include "mesh/mesh_internal.h"

namespace voxrig {
namespace detail {
namespace {

// Fills s.jdx, s.jborder, s.jdy, s.jdz for tile t (grid.joints must be set).
void build_joint_rows(const Grid& g, const Tile& t, MeshScratch::Impl& s) {
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

void build_palette_rows(const Grid& g, const Tile& t, MeshScratch::Impl& s) {
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
void mesh_tile(const Grid& g, const Tile& t, uint16_t joint0, MeshScratch::Impl& s,
               std::vector<Quad>& out) {
  const uint8_t* vox = g.vox;
  const uint16_t* joints = g.joints;
  auto push = [&](uint32_t x, uint32_t y, uint32_t z, uint32_t w, uint32_t h, uint8_t axis,
                  uint8_t positive, size_t i) {
    if constexpr (kJoints) {
      s.emit_packed(joints[i], MeshScratch::Impl::pack(x - t.x0, y - t.y0, z - t.z0, w, h, axis,
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

void mesh_binary(const Grid& g, uint16_t joint0, MeshScratch::Impl& s, std::vector<Quad>& out) {
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

}  // namespace voxrig
