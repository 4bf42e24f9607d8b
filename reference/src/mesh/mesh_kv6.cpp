// KV6 meshing (docs/spec/kv6.md#D22): faces from the stored vis bits, merged per plane by col.
//
// KV6 voxel record (8 bytes): col u32 (0x80RRGGBB), z u16 (z-down), vis u8 (face bits 0x01 -x,
// 0x02 +x, 0x04 -y, 0x08 +y, 0x10 -z, 0x20 +z), dir u8. Voxels are x-major, then y, then
// ascending z; column (x, y) owns the next ylen[x * ysiz + y] voxels in file order.
#include <algorithm>

#include "mesh/mesh_internal.h"

namespace voxrig {
namespace {

Error shape_error(const char* detail) {
  return model_error(ErrorCode::EvalBufferSize, "kv6", detail);
}

// Calls fn(x, y, voxel) for every voxel reachable through the run table.
template <class Fn>
Status for_each_voxel(const Kv6& kv6, Fn&& fn) {
  const uint64_t columns = uint64_t{kv6.xsiz} * kv6.ysiz;  // both u32: no overflow in u64
  if (kv6.ylen.size() != columns) return shape_error("ylen does not hold xsiz * ysiz entries");
  size_t next = 0;
  for (uint32_t x = 0; x < kv6.xsiz; ++x) {
    for (uint32_t y = 0; y < kv6.ysiz; ++y) {
      const uint32_t n = kv6.ylen[size_t{x} * kv6.ysiz + y];
      if (n > kv6.voxels.size() - next) {
        return shape_error("the run table claims more voxels than are stored");
      }
      for (uint32_t k = 0; k < n; ++k) fn(x, y, kv6.voxels[next + k]);
      next += n;
    }
  }
  return ok_status();
}

// The quad of one unit face at (axis, positive, slice, row, col), per the row/run convention.
Quad face_quad(uint8_t axis, uint8_t positive, uint32_t slice, uint32_t row, uint32_t col,
               uint32_t material) {
  Quad q;
  q.axis = axis;
  q.positive = positive;
  q.material = material;
  q.w = q.h = 1;
  switch (axis) {
    case 0:  // slice x, rows z, runs y
      q.x = slice + positive;
      q.y = col;
      q.z = row;
      break;
    case 1:  // slice y, rows z, runs x
      q.x = col;
      q.y = slice + positive;
      q.z = row;
      break;
    default:  // slice z, rows y, runs x
      q.x = col;
      q.y = row;
      q.z = slice + positive;
      break;
  }
  return q;
}

}  // namespace

static Status mesh_kv6_naive_unguarded(const Kv6& kv6, std::vector<Quad>& out) {
  out.clear();
  return for_each_voxel(kv6, [&](uint32_t x, uint32_t y, const Kv6Voxel& v) {
    const uint32_t c[3] = {x, y, v.z};
    for (uint8_t bit = 0; bit < 6; ++bit) {
      if ((v.vis >> bit & 1) == 0) continue;
      const uint8_t axis = bit / 2, positive = bit % 2;
      Quad q;
      uint32_t corner[3] = {c[0], c[1], c[2]};
      corner[axis] += positive;
      q.x = corner[0];
      q.y = corner[1];
      q.z = corner[2];
      q.axis = axis;
      q.positive = positive;
      q.material = v.col;
      out.push_back(q);
    }
  });
}

// The public entry point: allocation failure becomes internal.out_of_memory (result.h).
Status mesh_kv6_naive(const Kv6& kv6, std::vector<Quad>& out) {
  return guard_out_of_memory([&] { return mesh_kv6_naive_unguarded(kv6, out); });
}

static Status mesh_kv6_greedy_unguarded(const Kv6& kv6, std::vector<Quad>& out,
                                        MeshScratch& scratch);

// The public entry point: allocation failure becomes internal.out_of_memory (result.h).
Status mesh_kv6_greedy(const Kv6& kv6, std::vector<Quad>& out, MeshScratch& scratch) {
  return guard_out_of_memory([&]() -> Status {
    VOXRIG_TRY(mesh_kv6_greedy_unguarded(kv6, out, scratch));
    if (out.size() > scratch.impl().max_quads)
      return detail::quad_limit_error(scratch.impl().max_quads);
    return ok_status();
  });
}

static Status mesh_kv6_greedy_unguarded(const Kv6& kv6, std::vector<Quad>& out,
                                        MeshScratch& scratch) {
  MeshScratch::Impl& s = scratch.impl();
  std::vector<MeshScratch::Impl::Kv6Face>& faces = s.kv6_faces;
  faces.clear();
  VOXRIG_TRY(for_each_voxel(kv6, [&](uint32_t x, uint32_t y, const Kv6Voxel& v) {
    for (uint8_t bit = 0; bit < 6; ++bit) {
      if ((v.vis >> bit & 1) == 0) continue;
      const uint8_t axis = bit / 2, positive = bit % 2;
      // (slice, row, col) per axis: x faces (x, z, y), y faces (y, z, x), z faces (z, y, x).
      const uint32_t slice = axis == 0 ? x : axis == 1 ? y : v.z;
      const uint32_t row = axis == 2 ? y : v.z;
      const uint32_t col = axis == 0 ? y : x;
      faces.push_back({axis, positive, slice, row, col, v.col});
    }
  }));
  std::sort(faces.begin(), faces.end());
  out.clear();
  std::vector<MeshScratch::Impl::Kv6Run>& open = s.kv6_open;
  std::vector<MeshScratch::Impl::Kv6Run>& runs = s.kv6_row;
  size_t i = 0;
  while (i < faces.size()) {
    const auto& first = faces[i];
    open.clear();
    bool have_prev = false;
    uint32_t prev_row = 0;
    // One plane: same axis, direction and slice.
    while (i < faces.size() && faces[i].axis == first.axis && faces[i].positive == first.positive &&
           faces[i].slice == first.slice) {
      const uint32_t row = faces[i].row;
      // Runs of this row: consecutive columns with one col.
      runs.clear();
      while (i < faces.size() && faces[i].axis == first.axis &&
             faces[i].positive == first.positive && faces[i].slice == first.slice &&
             faces[i].row == row) {
        const uint32_t start = faces[i].col, material = faces[i].material;
        uint32_t len = 1;
        ++i;
        while (i < faces.size() && faces[i].axis == first.axis &&
               faces[i].positive == first.positive && faces[i].slice == first.slice &&
               faces[i].row == row && faces[i].col == start + len &&
               faces[i].material == material) {
          ++len;
          ++i;
        }
        runs.push_back({start, len, material, 0});
      }
      if (!have_prev || prev_row + 1 != row) open.clear();
      // Continue a quad of the row above when start, length and col agree (both lists are
      // sorted by start).
      size_t j = 0;
      for (auto& run : runs) {
        while (j < open.size() && open[j].start < run.start) ++j;
        if (j < open.size() && open[j].start == run.start && open[j].len == run.len &&
            open[j].material == run.material) {
          run.quad = open[j].quad;
          Quad& q = out[run.quad];
          if (first.axis == 1) {
            ++q.w;  // y faces: rows run along u = z
          } else {
            ++q.h;
          }
          ++j;
          continue;
        }
        Quad q = face_quad(first.axis, first.positive, first.slice, row, run.start, run.material);
        if (first.axis == 1) {
          q.h = run.len;  // runs along v = x
        } else {
          q.w = run.len;
        }
        run.quad = static_cast<uint32_t>(out.size());
        out.push_back(q);
      }
      std::swap(open, runs);
      have_prev = true;
      prev_row = row;
    }
  }
  return ok_status();
}

}  // namespace voxrig
