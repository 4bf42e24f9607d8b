// voxrig/limits.h — every resource limit, in one struct, passed explicitly (no global state).
//
// Defaults are docs/spec/limits.md's table, plus the output and JSON-value caps of docs/robustness.md;
// every one is configurable and printed by `voxrig limits`. Decoders check a declared count
// against these before reserving memory; writers check the bytes they would produce.
#pragma once

#include <cstdint>
#include <string>

namespace voxrig {

/// Resource limits for decoding and for the outputs built from a model. Plain data; copy and
/// edit freely.
struct Limits {
  // VFP
  uint64_t vfp_sections = 4096;
  uint64_t vox0_voxels = uint64_t{1} << 28;
  uint64_t skel_joints = 16384;
  uint64_t anim_clips = 65535;
  uint64_t anim_keys_per_track = uint64_t{1} << 20;
  uint64_t anim_keys_total = uint64_t{1} << 24;
  // RKCH
  uint64_t rkc_meshes = 65536;
  uint64_t rkc_bones = 65536;
  uint64_t rkc_attachments_per_bone = 1024;
  uint64_t rkc_clips = 65536;
  uint64_t rkc_voxel_clips = 65536;
  uint64_t rkc_frame_cells = uint64_t{1} << 24;  ///< frames x bones; a 0-bone row counts as 1
  uint64_t rkc_seq = uint64_t{1} << 20;
  // KV6
  uint64_t kv6_voxels = uint64_t{1} << 26;
  uint64_t kv6_columns = uint64_t{1} << 24;  ///< xsiz * ysiz
  // RVC
  uint64_t rvc_inflated_per_chunk = uint64_t{64} << 20;  ///< the seed's cap; over it is `bad`
  /// Per file, shared by every RVC clip of an RKCH: inflated payloads plus the parsed frame and
  /// TIME tables (so the clips' decoded bytes, not only their inflation, stay within it).
  uint64_t rvc_inflated_total = uint64_t{256} << 20;
  uint64_t rvc_dim = 4096;                         ///< per axis
  uint64_t rvc_working_set = uint64_t{256} << 20;  ///< decoded bytes held at once
  uint64_t rvc_frames = uint64_t{1} << 20;         ///< META frame_count
  // KFA (same shape as RKCH's skeletal tables)
  uint64_t kfa_hinges = 65536;
  uint64_t kfa_frame_cells = uint64_t{1} << 24;
  uint64_t kfa_seq = uint64_t{1} << 20;
  // Outputs and the JSON compile input
  /// The largest mesh (JSON, OBJ, glTF), pose, glTF export or compiled VFP the library builds
  /// or writes: over it is limit.output (the CLI's --max-output raises it).
  uint64_t output_bytes = uint64_t{256} << 20;
  /// JSON values in the compile input, counted while parsing: over it is json.limit.
  uint64_t json_values = uint64_t{1} << 23;

  /// The limits as a JSON object, one key per field, in declaration order.
  std::string to_json() const;
};

}  // namespace voxrig
