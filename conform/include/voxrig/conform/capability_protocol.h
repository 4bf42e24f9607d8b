// voxrig/conform/capability_protocol.h — the reference's side of the capability protocols
// (docs/spec/protocols.md): a file decoded for pose or mesh under a
// profile, the reference's answer to a pose or mesh request, and the protocol JSON of both. The
// `voxrig pose` and `voxrig mesh` commands print these; the golden builder stores them as the
// expectations of the pose and mesh cases.
#pragma once

#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "voxrig/conform/conform.h"
#include "voxrig/kv6.h"
#include "voxrig/mesh.h"
#include "voxrig/pose_f64.h"
#include "voxrig/rkc_model.h"
#include "voxrig/text_stream.h"
#include "voxrig/vfp_model.h"

namespace voxrig::conform {

/// A file decoded for a capability: VFP (either VFP profile), an RKCH character or a KV6.
using CapabilityModel = std::variant<VfpFile, Character, Kv6>;

/// Decodes `bytes` under `profile`: the VFP profiles read VFP, the RKCH profiles read RKCH and
/// KV6 (by magic). A file of the other family, or of a format the capability cannot use (RVC,
/// KFA, unknown), is file.unknown_format (the same code `dump` gives). Safe on any bytes.
Result<CapabilityModel> decode_for_capability(std::span<const uint8_t> bytes, Profile profile);

/// One pose request of the protocol, as text the way the command line gives it.
struct PoseQuery {
  std::string clip;  ///< VFP: clip id or name; RKCH: clip index
  double t = 0;      ///< parsed --t (may be non-finite: eval.bad_time)
  SamplePolicy policy = SamplePolicy::Linear;
  TimeMode mode = TimeMode::Clamp;
};

/// The index of the VFP clip `--clip` names: the first clip whose id equals it as a number
/// ("2", "2.0"), else the first whose name equals it; nullopt when none does.
std::optional<size_t> find_clip(const Anim& anim, const std::string& clip);

/// The protocol answer for a decoded model: VFP model matrices in double (evaluate_models_f64)
/// or the RKCH solved bone transforms (clock from 0 advanced by floor(t), in two steps past
/// INT32_MAX so the i32 clock wraps, D21; placement p = the character's META root). Errors:
/// eval.bad_clip (no such clip; the detail lists the clips), eval.bad_time (non-finite, or for
/// RKCH outside -2^31 .. 2^32-1), and the evaluation codes. Allocates the result.
Result<std::vector<Mat4d>> pose_models(const CapabilityModel& model, const PoseQuery& q);

/// The reference's protocol mesh of a decoded model: bone-aware (VFP with a rig under vfp-rig),
/// greedy (static VFP), kv6 greedy (KV6); for an RKCH character every MSHS mesh, joint = mesh
/// index. `mesher` is "bone-aware", "greedy" or "naive". More than `max_quads` quads is
/// limit.output (MeshScratch::set_quad_limit; an RKCH character's meshes count together).
Result<std::vector<Quad>> mesh_quads(const CapabilityModel& model, std::string_view mesher,
                                     size_t max_quads = SIZE_MAX);

/// The names mesh_quads' joints take in an OBJ of an RKCH character (`voxrig mesh --format obj`):
/// one joint per MSHS mesh (ids 0.., at most 65,536), named after the first named bone that
/// attaches it statically, else "mesh_M". One pass over the attachments in bone order, so its
/// time is meshes + attachments. Allocates the names.
Skel mesh_group_names(const Character& character);

/// {"model": [[16 numbers], ...]}: one column-major matrix per entry, each element as the
/// shortest decimal that round-trips the double; a non-finite element is written as null.
std::string model_matrices_json(std::span<const Mat4d> models);

/// {"quads": [{"normal": "+x", "voxels": [x0, y0, z0, x1, y1, z1], "joint": J, "color": C},
/// ...]}: the protocol form of reference quads (mesh.h coordinates turned into the inclusive
/// box of the voxels whose `normal` face the quad covers).
std::string quads_json(std::span<const Quad> quads);
/// quads_json's text written to `text` (voxrig/text_stream.h): false when it stopped at the
/// stream's limit.
bool quads_json_text(std::span<const Quad> quads, TextStream& text);

/// The reference mesh of a mesh case as the manifest stores it (docs/manifest-schema.md, MESH):
/// {"size": [x, y, z], "quads": [...]}, the grid size and quads_json()'s quads.
std::string reference_mesh_json(const uint32_t size[3], std::span<const Quad> quads);

/// The exposed faces a mesh case expects, rebuilt from its stored reference mesh
/// (reference_mesh_json): every face the reference quads cover, with their joint and colour, in
/// MeshFaces' scan order. nullopt with `*problem` set when `text` is not such a document or a
/// quad leaves the grid (a corpus bug). The golden builder checks the reference mesh with
/// judge_mesh() against mesh_faces() of the decoded file, so this is the same face set.
std::optional<MeshFaces> mesh_faces_from_reference(std::string_view text, std::string* problem);

}  // namespace voxrig::conform
