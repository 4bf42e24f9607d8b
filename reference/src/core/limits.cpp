// Limits as JSON (`voxrig limits`).
#include "voxrig/limits.h"

#include "voxrig/json_out.h"

namespace voxrig {

std::string Limits::to_json() const {
  JsonOut j;
  j.begin_object();
  j.field_u64("vfp_sections", vfp_sections);
  j.field_u64("vox0_voxels", vox0_voxels);
  j.field_u64("skel_joints", skel_joints);
  j.field_u64("anim_clips", anim_clips);
  j.field_u64("anim_keys_per_track", anim_keys_per_track);
  j.field_u64("anim_keys_total", anim_keys_total);
  j.field_u64("rkc_meshes", rkc_meshes);
  j.field_u64("rkc_bones", rkc_bones);
  j.field_u64("rkc_attachments_per_bone", rkc_attachments_per_bone);
  j.field_u64("rkc_clips", rkc_clips);
  j.field_u64("rkc_voxel_clips", rkc_voxel_clips);
  j.field_u64("rkc_frame_cells", rkc_frame_cells);
  j.field_u64("rkc_seq", rkc_seq);
  j.field_u64("kv6_voxels", kv6_voxels);
  j.field_u64("kv6_columns", kv6_columns);
  j.field_u64("rvc_inflated_per_chunk", rvc_inflated_per_chunk);
  j.field_u64("rvc_inflated_total", rvc_inflated_total);
  j.field_u64("rvc_dim", rvc_dim);
  j.field_u64("rvc_working_set", rvc_working_set);
  j.field_u64("rvc_frames", rvc_frames);
  j.field_u64("kfa_hinges", kfa_hinges);
  j.field_u64("kfa_frame_cells", kfa_frame_cells);
  j.field_u64("kfa_seq", kfa_seq);
  j.field_u64("output_bytes", output_bytes);
  j.field_u64("json_values", json_values);
  j.end_object();
  return j.take();
}

}  // namespace voxrig
