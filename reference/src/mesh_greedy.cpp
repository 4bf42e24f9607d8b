// Binary greedy meshing (the engine of mesh_greedy and mesh_bone_aware).
//
// Per 64^3 tile, every row (y, z) of the tile, plus one row of margin on each side in y and z,
// becomes a 64-bit occupancy mask over x. Face masks come from shifts and and-nots against the
// neighbouring row (y and z faces) or the row itself shifted by one (x faces). A face is
// exposed when its neighbour is empty, or, bone-aware, bound to another joint: the joint
// difference masks (jd*) clear the neighbour's "covers me" bit. Merging runs on 64-bit rows:
// a run starts at the lowest set bit (ctz), extends over set bits until a material change (the
// change masks mark "material(i) != material(i+1)"), then over following rows while the row
// holds the whole span with no change inside and the same material at the run start. Per-voxel
// work is a handful of SIMD compares per 16 voxels; everything after that is per face or per
// quad. x faces need rows over y: each x face is scattered once into a per-x plane (bit y).
#include <algorithm>
#include <bit>

#include "mesh_internal.h"

namespace voxrig {
namespace detail {
namespace {

void build_palette_rows(const Grid& g, const Tile& t, MeshScratch::Impl& s) {
  const uint8_t* end = g.vox + g.count;
  alignas(16) uint8_t buf[80];
  alignas(16) uint8_t buf2[80];
  const uint64_t live = low_bits(t.cx);
  const uint64_t live_pairs = low_bits(t.cx - 1);  // pairs (i, i+1) inside the tile
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
      if (yy + 1 < int(t.cy)) {
        s.pcy[r] = diff_mask8(rp, readable80(p + g.sx, end, buf2)) & live;
      } else {
        s.pcy[r] = 0;
      }
    }
  }
}

// Greedy merge of one plane: rows F[0..rows) of face bits, C = change masks (bit i: the
// material of face i differs from face i + 1). mat(row, bit) gives the material of a face;
// emit(row, bit, run_length, row_count) receives each quad. Consumes F (all zero afterwards).
template <class Mat, class Emit>
inline void merge_plane(uint64_t* F, const uint64_t* C, uint32_t rows, Mat&& mat, Emit&& emit) {
  for (uint32_t r = 0; r < rows; ++r) {
    uint64_t f = F[r];
    while (f != 0) {
      const uint32_t b = static_cast<uint32_t>(std::countr_zero(f));
      uint32_t len = static_cast<uint32_t>(std::countr_one(f >> b));
      const uint64_t cm = C[r] >> b;
      if (cm != 0) len = std::min(len, static_cast<uint32_t>(std::countr_zero(cm)) + 1);
      const uint64_t mask = low_bits(len) << b;
      const uint64_t inner = mask & (mask >> 1);  // pairs (i, i+1) inside the span
      f &= ~mask;
      const uint32_t m = mat(r, b);
      uint32_t h = 1;
      while (r + h < rows && (F[r + h] & mask) == mask && (C[r + h] & inner) == 0 &&
             mat(r + h, b) == m) {
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
  auto material = [&](size_t i) -> uint32_t {
    if constexpr (kJoints) {
      return uint32_t{vox[i]} | uint32_t{joints[i]} << 8;
    } else {
      return vox[i];
    }
  };
  auto push = [&](uint32_t x, uint32_t y, uint32_t z, uint32_t w, uint32_t h, uint8_t axis,
                  uint8_t positive, size_t i) {
    Quad q;
    q.x = x;
    q.y = y;
    q.z = z;
    q.w = w;
    q.h = h;
    q.axis = axis;
    q.positive = positive;
    if constexpr (kJoints) {
      q.joint = joints[i];
    } else {
      q.joint = joint0;
    }
    q.material = vox[i];
    out.push_back(q);
  };
  uint64_t F[kTile];
  uint64_t C[kTile];

  // ---- axis 0 (x faces): scatter into per-x planes, rows z, bits y ----
  uint64_t* xface = s.xface.data();
  uint64_t* xchange = s.xchange.data();
  for (uint32_t zz = 0; zz < t.cz; ++zz) {
    for (uint32_t yy = 0; yy < t.cy; ++yy) {
      const size_t r = row_index(int(zz), int(yy));
      const uint64_t o = s.occ[r];
      if (o == 0) continue;
      const uint8_t b = s.border[r];
      const uint64_t right = (o >> 1) | (uint64_t{uint8_t(b >> 1)} << (t.cx - 1));
      const uint64_t left = (o << 1) | uint64_t{uint8_t(b & 1)};
      uint64_t fp, fn, chg;
      if constexpr (kJoints) {
        const uint64_t jr = s.jdx[r];
        const uint64_t jl = (jr << 1) | uint64_t{s.jborder[r]};
        fp = o & ~(right & ~jr);
        fn = o & ~(left & ~jl);
        chg = s.pcy[r] | s.jdy[r];
      } else {
        fp = o & ~right;
        fn = o & ~left;
        chg = s.pcy[r];
      }
      const uint64_t bit = uint64_t{1} << yy;
      for (int dir = 0; dir < 2; ++dir) {
        uint64_t f = dir ? fp : fn;
        uint64_t* plane = xface + size_t(dir) * kTile * kTile + zz;
        uint64_t* change = xchange + size_t(dir) * kTile * kTile + zz;
        while (f != 0) {
          const uint32_t x = static_cast<uint32_t>(std::countr_zero(f));
          f &= f - 1;
          plane[size_t{x} * kTile] |= bit;
          change[size_t{x} * kTile] |= ((chg >> x) & 1) << yy;
        }
      }
    }
  }
  for (uint8_t dir = 0; dir < 2; ++dir) {
    for (uint32_t x = 0; x < t.cx; ++x) {
      uint64_t* plane = xface + size_t(dir) * kTile * kTile + size_t{x} * kTile;
      uint64_t* change = xchange + size_t(dir) * kTile * kTile + size_t{x} * kTile;
      const uint32_t gx = t.x0 + x;
      merge_plane(
          plane, change, t.cz,
          [&](uint32_t r, uint32_t b) { return material(g.index(gx, t.y0 + b, t.z0 + r)); },
          [&](uint32_t r, uint32_t b, uint32_t len, uint32_t h) {
            push(gx + dir, t.y0 + b, t.z0 + r, len, h, 0, dir, g.index(gx, t.y0 + b, t.z0 + r));
          });
      std::fill(change, change + t.cz, uint64_t{0});
    }
  }

  // ---- axis 1 (y faces): slice y, rows z, bits x ----
  for (uint8_t dir = 0; dir < 2; ++dir) {
    for (uint32_t yy = 0; yy < t.cy; ++yy) {
      const int ny = dir ? int(yy) + 1 : int(yy) - 1;
      uint64_t any = 0;
      for (uint32_t zz = 0; zz < t.cz; ++zz) {
        const size_t r = row_index(int(zz), int(yy));
        const uint64_t nb = s.occ[row_index(int(zz), ny)];
        if constexpr (kJoints) {
          const uint64_t jd = s.jdy[row_index(int(zz), dir ? int(yy) : int(yy) - 1)];
          F[zz] = s.occ[r] & ~(nb & ~jd);
          C[zz] = s.pcx[r] | s.jdx[r];
        } else {
          F[zz] = s.occ[r] & ~nb;
          C[zz] = s.pcx[r];
        }
        any |= F[zz];
      }
      if (any == 0) continue;
      const uint32_t gy = t.y0 + yy;
      merge_plane(
          F, C, t.cz,
          [&](uint32_t r, uint32_t b) { return material(g.index(t.x0 + b, gy, t.z0 + r)); },
          [&](uint32_t r, uint32_t b, uint32_t len, uint32_t h) {
            push(t.x0 + b, gy + dir, t.z0 + r, h, len, 1, dir, g.index(t.x0 + b, gy, t.z0 + r));
          });
    }
  }

  // ---- axis 2 (z faces): slice z, rows y, bits x ----
  for (uint8_t dir = 0; dir < 2; ++dir) {
    for (uint32_t zz = 0; zz < t.cz; ++zz) {
      const int nz = dir ? int(zz) + 1 : int(zz) - 1;
      uint64_t any = 0;
      for (uint32_t yy = 0; yy < t.cy; ++yy) {
        const size_t r = row_index(int(zz), int(yy));
        const uint64_t nb = s.occ[row_index(nz, int(yy))];
        if constexpr (kJoints) {
          const uint64_t jd = s.jdz[row_index(dir ? int(zz) : int(zz) - 1, int(yy))];
          F[yy] = s.occ[r] & ~(nb & ~jd);
          C[yy] = s.pcx[r] | s.jdx[r];
        } else {
          F[yy] = s.occ[r] & ~nb;
          C[yy] = s.pcx[r];
        }
        any |= F[yy];
      }
      if (any == 0) continue;
      const uint32_t gz = t.z0 + zz;
      merge_plane(
          F, C, t.cy,
          [&](uint32_t r, uint32_t b) { return material(g.index(t.x0 + b, t.y0 + r, gz)); },
          [&](uint32_t r, uint32_t b, uint32_t len, uint32_t h) {
            push(t.x0 + b, t.y0 + r, gz + dir, len, h, 2, dir, g.index(t.x0 + b, t.y0 + r, gz));
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
        const Tile t{x0, y0, z0, std::min(kTile, g.sx - x0), std::min(kTile, g.sy - y0),
                     std::min(kTile, g.sz - z0)};
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

Status mesh_greedy(const Vox0& vox0, std::vector<Quad>& out, MeshScratch& scratch) {
  detail::Grid g{};
  VOXRIG_TRY(detail::make_grid(vox0, {}, g));
  out.clear();
  detail::mesh_binary(g, 0, scratch.impl(), out);
  return ok_status();
}

}  // namespace voxrig
