// RKCH cross-reference validation (QE.6b, rkc-family.md §2.4-2.5; formats.md "where the
// reference differs" item 1) and the parent-cycle search shared with KFA.
//
// Order (the hardened seed's): for each bone in order, every attachment index (a Static index
// must be < meshes, a Clip index < voxel clips; a Clip attachment in a file without VCLP always
// fails), then that bone's parent (-1 or an index); only after every bone passes, cycles. The
// seed walks up to n hops from every bone (O(n²) for a long chain: 4·10⁹ hops at the bone
// limit); first_cycle_start gives the same answer in O(n).
#include <string>

#include "rkc/rkc_detail.h"

namespace voxrig::detail {

std::optional<size_t> first_cycle_start(std::span<const int32_t> parents) {
  // stamp[i] = 1 + the start of the walk that first reached i. Every earlier walk ended at a
  // root (otherwise we returned), so meeting an older stamp means "reaches a root"; meeting the
  // current walk's stamp means the chain loops without ever reaching one.
  std::vector<size_t> stamp(parents.size(), 0);
  for (size_t start = 0; start < parents.size(); ++start) {
    if (stamp[start] != 0) continue;
    const size_t mark = start + 1;
    size_t cur = start;
    stamp[cur] = mark;
    while (parents[cur] >= 0) {
      cur = static_cast<size_t>(parents[cur]);
      if (stamp[cur] == mark) return start;
      if (stamp[cur] != 0) break;
      stamp[cur] = mark;
    }
  }
  return std::nullopt;
}

Status check_cross_references(const Character& c, const CrossRefOffsets& refs) {
  const uint64_t n = c.bones.size();
  size_t flat = 0;
  for (size_t i = 0; i < c.bones.size(); ++i) {
    const Bone& b = c.bones[i];
    const Path bp = Path("BONS").child("bone", static_cast<int64_t>(i));
    for (size_t j = 0; j < b.attachments.size(); ++j, ++flat) {
      const Attachment& a = b.attachments[j];
      const bool is_static = a.kind == AttachmentKind::Static;
      const uint64_t table = is_static ? c.meshes.size() : c.voxel_clips.size();
      if (a.index >= table)
        return error_at(ErrorCode::RkcAttachmentIndex, refs.attachment_index_at[flat],
                        bp.child("attachment", static_cast<int64_t>(j)),
                        std::string(is_static ? "mesh" : "voxel clip") + " index " +
                            std::to_string(a.index) + " >= " + std::to_string(table));
    }
    const int32_t parent = b.hinge.parent;
    if (parent != -1 && (parent < 0 || static_cast<uint64_t>(parent) >= n))
      return error_at(ErrorCode::RkcParentRange, refs.hinge_at[i], bp.child("hinge"),
                      "parent " + std::to_string(parent) + " of " + std::to_string(n) + " bone(s)");
  }
  std::vector<int32_t> parents(c.bones.size());
  for (size_t i = 0; i < c.bones.size(); ++i) parents[i] = c.bones[i].hinge.parent;
  if (auto start = first_cycle_start(parents)) {
    const Path bp = Path("BONS").child("bone", static_cast<int64_t>(*start));
    return error_at(ErrorCode::RkcParentCycle, refs.hinge_at[*start], bp.child("hinge"),
                    "the parent chain never reaches a root");
  }
  return {};
}

}  // namespace voxrig::detail
