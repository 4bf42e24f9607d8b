// voxrig/export.h — meshes and rigs to interchange formats: Wavefront OBJ text and glTF 2.0
// binary (.glb). The library returns bytes; writing files is the caller's business.
//
// Outputs are bounded: the streaming writers (write_obj, write_posed_obj, write_glb) take a byte
// cap and refuse, with limit.output and before writing anything, an output that would exceed
// it; the meshing behind them is capped at the quads that cap allows (MeshScratch::
// set_quad_limit), so their memory follows the output allowed, not the model.
//
// OBJ: positions in VOX0 grid units and axes (z up, no axis change), four vertices and one quad
// face per Quad, wound counter-clockwise seen from the side the face looks at; one `g joint_<id>`
// group per run of quads with the same joint (bone-aware output is grouped per joint, so one
// group per joint); with a palette, each vertex carries the quad's sRGB colour as the common
// `v x y z r g b` extension (0..1). Floats are written with the shortest round-trip text.
//
// glTF (D23): VOX0 axes (x, y, z), z up, map to glTF (x, z, -y); one voxel = one unit. One node
// per SKEL joint with its bind-pose local TRS (rotation normalised), children per the joint
// hierarchy; each joint's bone-aware quads are a mesh on its node, with vertices in the joint's
// bind-local frame (inverse bind model * grid position), so animating the node moves them
// rigidly (exactly model(t) * inverse(model(bind)), docs/spec/evaluation.md#gltf-export). A joint whose
// bind model is singular (D20) cannot carry a local-frame mesh: its quads go on an extra
// un-animated root node named "<joint name>.bind" in grid coordinates, so they stay at the bind
// pose. Every ANIM clip becomes one animation (name = clip name) with translation / rotation /
// scale channels per track; sampler input = key times in seconds as binary32 (ms / 1000),
// interpolation LINEAR (glTF viewers slerp rotations: close to, not equal to, the `linear`
// policy) or STEP. Vertex colours: COLOR_0 (VEC4 float), the sRGB palette converted to linear;
// the material uses alphaMode BLEND when any used colour has alpha < 255, else OPAQUE.
// Accessors carry min/max where glTF requires them (POSITION, animation inputs).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "voxrig/limits.h"
#include "voxrig/mesh.h"
#include "voxrig/pose.h"
#include "voxrig/result.h"
#include "voxrig/text_stream.h"
#include "voxrig/vfp_model.h"

namespace voxrig {

/// The fewest OBJ bytes one quad takes (four `v x y z` lines and one `f` line): a mesh written
/// as OBJ within N bytes has at most N / kObjMinQuadBytes quads.
inline constexpr uint64_t kObjMinQuadBytes = 42;

/// OBJ text for `quads` (see the header for conventions). `palette` empty: no vertex colours;
/// otherwise a quad whose material is past the palette gets no colour either. Groups: one `g`
/// line whenever the joint changes, named after the SKEL joint of that id when `skel` has one
/// with a non-empty name (whitespace and control characters become '_'), else `joint_<id>`.
/// Never fails; allocates the string.
std::string export_obj(std::span<const Quad> quads, std::span<const Rgba> palette = {},
                       const Skel* skel = nullptr);

/// export_obj's text, streamed to `sink`. The text is measured first (formatted and dropped, in
/// a 64 KiB buffer): over `max_bytes` it is limit.output and `sink` is never called. Memory: the
/// buffer, whatever the size of the text.
Status write_obj(std::span<const Quad> quads, std::span<const Rgba> palette, const Skel* skel,
                 uint64_t max_bytes, const OutputSink& sink);

/// The pose a posed export shows.
struct PoseRequest {
  size_t clip = 0;  ///< clip position in the runtime
  double time_ms = 0;
  SamplePolicy policy = SamplePolicy::Linear;
  TimeMode mode = TimeMode::Clamp;
};

/// OBJ of the bone-aware mesh of a rig posed at (clip, time): each joint's quads move rigidly by
/// that joint's skinning matrix. `joints` is the per-voxel joint map (joint_map()). Errors: the
/// meshing and sampling codes (eval.buffer_size, eval.bad_clip, eval.bad_time, ...), and
/// vskn.joint_missing when the joint map names a joint the runtime does not have.
/// Groups are named as in export_obj when `skel` is given.
Result<std::string> export_posed_obj(const Vox0& vox0, std::span<const uint16_t> joints,
                                     const RigRuntime& runtime, const PoseRequest& pose,
                                     const Skel* skel = nullptr);

/// export_posed_obj's text streamed as write_obj streams (limit.output over `max_bytes`, nothing
/// written then); the bone-aware meshing stops past max_bytes / kObjMinQuadBytes quads (also
/// limit.output). The other errors are export_posed_obj's.
Status write_posed_obj(const Vox0& vox0, std::span<const uint16_t> joints,
                       const RigRuntime& runtime, const PoseRequest& pose, const Skel* skel,
                       uint64_t max_bytes, const OutputSink& sink);

/// glTF sampler interpolation for exported clips.
enum class GltfInterpolation : uint8_t { Linear, Step };

/// Options for export_gltf.
struct GltfOptions {
  GltfInterpolation interpolation = GltfInterpolation::Linear;
  /// The largest binary buffer (the GLB's BIN chunk) an export builds: limit.output past it,
  /// found from the quad and key counts before the buffer grows (the meshing stops past
  /// max_bytes / kGltfQuadBytes quads).
  uint64_t max_bytes = Limits{}.output_bytes;
};

/// The buffer bytes of one exported quad: four positions (VEC3 float), four colours (VEC4
/// float) and six u32 indices.
inline constexpr uint64_t kGltfQuadBytes = 4 * 12 + 4 * 16 + 6 * 4;

/// A glTF export in its two parts: the JSON document (compact; buffers[0].byteLength =
/// bin.size(), no uri) and the binary buffer it indexes, padded with zeros to 4 bytes.
struct GltfParts {
  std::string json;
  std::vector<uint8_t> bin;
  /// Where in `json` the .gltf form inserts buffers[0]'s "uri" member (right after its
  /// byteLength); npos when there is no buffer.
  size_t uri_at = std::string::npos;
};

/// A .glb of the model. `skel` and `vskn` both null: a static model (one node, greedy mesh);
/// both set: the rig (see the header); `anim` optional (needs a rig). Errors: rig.incomplete
/// (only one of skel / vskn, or anim without skel), the RigRuntime::build codes, vskn.offset_range
/// and vskn.joint_missing for a joint map that does not fit, eval.buffer_size for a malformed
/// grid. Allocates the result.
Result<std::vector<uint8_t>> export_gltf(const Vox0& vox0, const Skel* skel, const Vskn* vskn,
                                         const Anim* anim, const GltfOptions& options = {});

/// export_gltf's JSON document and buffer, not yet joined into a GLB (what a streaming writer
/// takes: write_glb, or a .gltf with the buffer as a data URI). Same errors; limit.output when
/// the buffer would exceed options.max_bytes. Memory: the mesh's quads, then the buffer.
Result<GltfParts> export_gltf_parts(const Vox0& vox0, const Skel* skel, const Vskn* vskn,
                                    const Anim* anim, const GltfOptions& options = {});

/// The size of the GLB of `parts` (12-byte header, JSON chunk padded with spaces to 4 bytes, BIN
/// chunk when the buffer is not empty).
uint64_t glb_size(const GltfParts& parts);

/// Streams the GLB of `parts` to `sink`: header, JSON chunk, BIN chunk (export_gltf's bytes).
/// Never fails; copies nothing larger than a chunk header.
void write_glb(const GltfParts& parts, const OutputSink& sink);

/// Streams the .gltf (JSON) form of an export to `sink`: the JSON document with the buffer
/// embedded as a base64 data URI in buffers[0], then a newline. Its size is known before the
/// first byte: over `max_bytes` it is limit.output and `sink` is never called. Memory: the JSON
/// document and a 256 KiB piece of base64, whatever the buffer's size.
Status write_gltf_json(const GltfParts& parts, uint64_t max_bytes, const OutputSink& sink);

}  // namespace voxrig
