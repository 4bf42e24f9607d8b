// RKCH cross-reference validation (QE.6b, docs/spec/rkch.md#cross-reference-validation,
// docs/spec/rkch.md#DIFF-1); the hierarchy rules themselves are voxrig/validate.h's.
//
// Order (the hardened seed's): for each bone in order, every attachment index (a Static index
// must be < meshes, a Clip index < voxel clips; a Clip attachment in a file without VCLP always
// fails), then that bone's parent (-1 or an index); only after every bone passes, cycles. The
// seed walks up to n hops from every bone (O(n²) for a long chain: 4·10⁹ hops at the bone
// limit); first_cycle_start gives the same answer in O(n).
#include <string>

#include "rkc/rkc_detail.h"
#include "voxrig/validate.h"

namespace voxrig::detail {

Status check_cross_references(const Character& c, const CrossRefOffsets& refs) {
  const uint64_t n = c.bones.size();
  std::vector<int32_t> parents(c.bones.size());
  for (size_t i = 0; i < c.bones.size(); ++i) parents[i] = c.bones[i].hinge.parent;
  // The first bone with a bad parent, reported when the loop reaches it (after its
  // attachments, the order above).
  const std::optional<size_t> bad_parent = first_parent_out_of_range(parents);
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
    if (bad_parent == i)
      return error_at(
          ErrorCode::RkcParentRange, refs.hinge_at[i], bp.child("hinge"),
          "parent " + std::to_string(b.hinge.parent) + " of " + std::to_string(n) + " bone(s)");
  }
  if (auto start = first_cycle_start(parents)) {
    const Path bp = Path("BONS").child("bone", static_cast<int64_t>(*start));
    return error_at(ErrorCode::RkcParentCycle, refs.hinge_at[*start], bp.child("hinge"),
                    "the parent chain never reaches a root");
  }
  return {};
}

}  // namespace voxrig::detail
