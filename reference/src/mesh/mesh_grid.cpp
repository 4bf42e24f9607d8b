// The shared layer of the meshers (mesh_internal.h): the scratch object's lifecycle and
// buffers, the grid check, grouping quads by joint and the joint map from VSKN. The naive
// oracle, the binary mesher and the public entry points all build on this file and on nothing
// of each other's.
#include <algorithm>
#include <bit>
#include <cstddef>
#include <string>

#include "mesh/mesh_internal.h"
#include "voxrig/path.h"

namespace voxrig {

MeshScratch::MeshScratch() : impl_(new Impl) {}
MeshScratch::~MeshScratch() { delete impl_; }
MeshScratch::MeshScratch(MeshScratch&& o) noexcept : impl_(o.impl_) { o.impl_ = nullptr; }
MeshScratch& MeshScratch::operator=(MeshScratch&& o) noexcept {
  if (this != &o) {
    delete impl_;
    impl_ = o.impl_;
    o.impl_ = nullptr;
  }
  return *this;
}

void MeshScratch::set_quad_limit(size_t max_quads) { impl_->max_quads = max_quads; }

void MeshScratch::Impl::discard_grouped() {
  for (uint16_t j : joints_used) {
    heads[j] = nullptr;
    tails[j] = &no_block;
  }
  joints_used.clear();
  small_blocks.used = large_blocks.used = 0;
}

void MeshScratch::Impl::ensure() {
  if (!occ.empty()) return;
  occ.assign(kRowCount, 0);
  border.assign(kRowCount, 0);
  border_one.assign(kRowCount, 0);
  pcx.assign(kRowCount, 0);
  pcy.assign(kRowCount, 0);
  pcz.assign(kRowCount, 0);
  puni.assign(kRowCount, 0);
  jdx.assign(kRowCount, 0);
  jborder.assign(kRowCount, 0);
  jdy.assign(kRowCount, 0);
  jdz.assign(kRowCount, 0);
  xface.assign(2 * size_t{kTile} * kTile, 0);
  xchange.assign(2 * size_t{kTile} * kTile, 0);
  xdown.assign(2 * size_t{kTile} * kTile, 0);
  heads.assign(65536, nullptr);
  tails.assign(65536, &no_block);
  joints_used.reserve(1024);
  joint_start.assign(65536, 0);
}

MeshScratch::Impl::QuadBlock* MeshScratch::Impl::append_block(uint16_t joint) {
  // The chain's tail is this tile's and full: go on in a large block; else start small.
  const QuadBlock* tail = tails[joint];
  const bool more = tail != &no_block && tail->tile == tile_seq;
  BlockPool& p = more ? large_blocks : small_blocks;
  const uint32_t capacity = more ? kBlockQuads : kSmallBlockQuads;
  if (p.used == p.blocks.size())
    p.blocks.emplace_back(new uint64_t[sizeof(QuadBlock) / sizeof(uint64_t) + capacity]);
  QuadBlock* b = new (p.blocks[p.used++].get())
      QuadBlock{nullptr, 0, capacity, tile_seq, tile_x0, tile_y0, tile_z0};
  if (heads[joint] == nullptr) {
    heads[joint] = b;
    joints_used.push_back(joint);
  } else {
    tails[joint]->next = b;
  }
  tails[joint] = b;
  return b;
}

void MeshScratch::Impl::flush_grouped(std::vector<Quad>& out) {
  std::sort(joints_used.begin(), joints_used.end());
  size_t total = 0;
  for (size_t i = 0; i < small_blocks.used; ++i) total += small_blocks.at(i)->count;
  for (size_t i = 0; i < large_blocks.used; ++i) total += large_blocks.at(i)->count;
  // resize() without clear(): a buffer reused for the same grid keeps its elements and is only
  // overwritten below (no value-initialisation pass).
  out.resize(total);
  Quad* dst = out.data();
  const Quad* const dst_end = dst + total;
  for (uint16_t j : joints_used) {
    for (const QuadBlock* b = heads[j]; b != nullptr; b = b->next) {
      if (b->count != 0)
        dst = detail::expand_packed(b->q(), b->count, detail::PackedTile{b->x0, b->y0, b->z0, j},
                                    dst, dst_end);
    }
    heads[j] = nullptr;
    tails[j] = &no_block;
  }
  joints_used.clear();
  small_blocks.used = large_blocks.used = 0;
}

namespace detail {

Error quad_limit_error(size_t max_quads) {
  return model_error(ErrorCode::LimitOutput, "VOX0",
                     "the mesh has more than " + std::to_string(max_quads) +
                         " quads, more than the output limit allows");
}

Status make_grid(const Vox0& vox0, std::span<const uint16_t> joints, Grid& grid) {
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

void group_by_joint(const std::vector<Quad>& in, std::vector<Quad>& out, MeshScratch::Impl& s) {
  uint32_t* start = s.joint_start.data();  // all zero on entry and on exit
  s.joints_used.clear();
  for (const Quad& q : in) {
    if (start[q.joint]++ == 0) s.joints_used.push_back(q.joint);
  }
  std::sort(s.joints_used.begin(), s.joints_used.end());
  uint32_t offset = 0;
  for (uint16_t j : s.joints_used) {
    const uint32_t count = start[j];
    start[j] = offset;
    offset += count;
  }
  out.resize(in.size());
  for (const Quad& q : in) out[start[q.joint]++] = q;
  for (uint16_t j : s.joints_used) start[j] = 0;
  s.joints_used.clear();
}

}  // namespace detail

Result<std::vector<uint16_t>> joint_map(const Vox0& vox0, const Vskn& vskn) {
  std::vector<uint16_t> map(vox0.voxels.size(), vskn.default_joint);
  for (size_t i = 0; i < vskn.bindings.size(); ++i) {
    const VsknBinding& b = vskn.bindings[i];
    if (b.voxel_offset >= map.size()) {
      return model_error(ErrorCode::VsknOffsetRange,
                         Path("VSKN").child("binding", int64_t(i)).str(),
                         "voxel offset " + std::to_string(b.voxel_offset) + " is outside the grid");
    }
    map[b.voxel_offset] = b.joint;
  }
  return map;
}

}  // namespace voxrig
