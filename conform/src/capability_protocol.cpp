// The reference's answers to the capability protocols (voxrig/conform/capability_protocol.h).
#include "voxrig/conform/capability_protocol.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>
#include <tuple>

#include "voxrig/any_format.h"
#include "voxrig/rkc.h"
#include "voxrig/rkc_eval.h"
#include "voxrig/vfp.h"

namespace voxrig::conform {

Result<CapabilityModel> decode_for_capability(std::span<const uint8_t> bytes, Profile profile) {
  const Format f = detect_format(bytes);
  const DecodeOptions options{profile, Limits{}};
  const bool vfp_profile = profile == Profile::VfpStatic || profile == Profile::VfpRig;
  if (vfp_profile && f == Format::Vfp) {
    auto r = decode_vfp(bytes, options);
    if (!r.ok()) return std::move(r).error();
    return CapabilityModel{std::move(r).value()};
  }
  if (!vfp_profile && f == Format::Rkc) {
    auto r = decode_rkc(bytes, options);
    if (!r.ok()) return std::move(r).error();
    return CapabilityModel{std::move(r).value()};
  }
  if (!vfp_profile && f == Format::Kv6) {
    auto r = decode_kv6(bytes, 0, options);
    if (!r.ok()) return std::move(r).error();
    return CapabilityModel{std::move(r).value()};
  }
  if (f == Format::Unknown)  // the words dump, validate and export-gltf use for the same file
    return error_at(ErrorCode::FileUnknownFormat, 0, "",
                    bytes.size() < 4 ? "fewer than 4 bytes" : "magic matches no known format");
  return error_at(ErrorCode::FileUnknownFormat, 0, "",
                  std::string(to_string(f)) + " file under profile " +
                      std::string(to_string(profile)) + " (a profile of the other family)");
}

std::string model_matrices_json(std::span<const Mat4d> models) {
  std::string out = "{\"model\": [";
  for (size_t j = 0; j < models.size(); ++j) {
    out += j ? ",\n  [" : "\n  [";
    for (int e = 0; e < 16; ++e) {
      if (e) out += ", ";
      const double v = models[j][e];
      if (!std::isfinite(v)) {
        out += "null";
        continue;
      }
      char buf[32];
      auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v + 0.0);  // -0.0 prints as 0
      out.append(buf, end);
    }
    out += "]";
  }
  out += models.empty() ? "]}\n" : "\n]}\n";
  return out;
}

bool quads_json_text(std::span<const Quad> quads, TextStream& text) {
  std::string& out = text.buf();
  out += "{\"quads\": [";
  for (size_t i = 0; i < quads.size(); ++i) {
    if (!text.step()) return false;
    const Quad& q = quads[i];
    const int a = q.axis, u = (a + 1) % 3, v = (a + 2) % 3;
    uint64_t lo[3] = {q.x, q.y, q.z};
    if (q.positive) lo[a] -= 1;  // the plane of a +axis face is one past its voxel
    uint64_t hi[3] = {lo[0], lo[1], lo[2]};
    hi[u] += q.w - 1;
    hi[v] += q.h - 1;
    static constexpr const char* kAxis[3] = {"x", "y", "z"};
    out += i ? ",\n  " : "\n  ";
    out += "{\"normal\": \"" + std::string(q.positive ? "+" : "-") + kAxis[a] +
           "\", \"voxels\": [" + std::to_string(lo[0]) + ", " + std::to_string(lo[1]) + ", " +
           std::to_string(lo[2]) + ", " + std::to_string(hi[0]) + ", " + std::to_string(hi[1]) +
           ", " + std::to_string(hi[2]) + "], \"joint\": " + std::to_string(q.joint) +
           ", \"color\": " + std::to_string(q.material) + "}";
  }
  out += quads.empty() ? "]}\n" : "\n]}\n";
  return text.step();
}

std::string quads_json(std::span<const Quad> quads) {
  std::string out;
  const OutputSink append = [&](std::string_view piece) { out += piece; };
  TextStream text(UINT64_MAX, &append);
  quads_json_text(quads, text);
  text.flush();
  return out;
}

namespace {

bool whole_number(const std::string& text, double& v) {
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  return ec == std::errc() && p == text.data() + text.size() && std::isfinite(v);
}

Result<std::vector<Mat4d>> pose_vfp(const VfpFile& f, const PoseQuery& q) {
  const Anim* anim = f.skel() && f.vskn() ? f.anim() : nullptr;
  const std::optional<size_t> clip = anim ? find_clip(*anim, q.clip) : std::nullopt;
  if (!clip) {
    std::string list = "clips:";
    if (!anim || anim->clips.empty())
      list = "the file has no clips (under this profile)";
    else
      for (const auto& c : anim->clips) list += " " + std::to_string(c.id) + " '" + c.name + "'";
    return error_at(ErrorCode::EvalBadClip, 0, "", "no clip '" + q.clip + "'; " + list);
  }
  if (!std::isfinite(q.t)) return error_at(ErrorCode::EvalBadTime, 0, "", "--t is not finite");
  return evaluate_models_f64(*f.skel(), *anim, *clip, q.t, q.policy, q.mode);
}

Result<std::vector<Mat4d>> pose_rkc(const Character& c, const PoseQuery& q) {
  double index = -1;
  const SkeletalClip* clip = nullptr;
  if (whole_number(q.clip, index) && index >= 0 && index == std::floor(index) &&
      index < double(c.clips.size()))
    clip = std::get_if<SkeletalClip>(&c.clips[size_t(index)].data);
  if (!clip) {
    std::string list = "skeletal clips:";
    for (size_t i = 0; i < c.clips.size(); ++i)
      if (std::holds_alternative<SkeletalClip>(c.clips[i].data))
        list += " " + std::to_string(i) + " '" + c.clips[i].name + "'";
    return error_at(ErrorCode::EvalBadClip, 0, "",
                    "no skeletal clip at index '" + q.clip + "'; " + list);
  }
  const double t = std::floor(q.t);
  if (!std::isfinite(q.t) || t < -2147483648.0 || t > 4294967295.0)
    return error_at(ErrorCode::EvalBadTime, 0, "", "--t must be finite, -2^31 .. 2^32-1 ms");
  VOXRIG_ASSIGN_OR_RETURN(RkcRig rig, RkcRig::build(c));
  std::vector<BoneXform> kfaval(c.bones.size());
  RkcClock clock;
  int64_t left = int64_t(t);
  do {
    const int32_t step = int32_t(std::min<int64_t>(left, INT32_MAX));
    VOXRIG_TRY((RkcClipJob{&rig, clip, step, &clock, kfaval}.run()));
    left -= step;
  } while (left > 0);
  std::vector<Mat4> world(c.bones.size());
  RkcPlacement placement;
  placement.p = c.root;
  VOXRIG_TRY((RkcHingeJob{&rig, kfaval, placement, world}.run()));
  std::vector<Mat4d> models(world.size());
  for (size_t i = 0; i < world.size(); ++i)
    for (int e = 0; e < 16; ++e) models[i][e] = world[i].m[e];
  return models;
}

Result<std::vector<Quad>> kv6_quads(const Kv6& kv6, std::string_view mesher, size_t max_quads) {
  std::vector<Quad> quads;
  MeshScratch scratch;
  scratch.set_quad_limit(max_quads);
  VOXRIG_TRY(mesher == "naive" ? mesh_kv6_naive(kv6, quads) : mesh_kv6_greedy(kv6, quads, scratch));
  if (quads.size() > max_quads)
    return error_at(ErrorCode::LimitOutput, 0, "MSHS",
                    "more than " + std::to_string(max_quads) + " quads");
  return quads;
}

}  // namespace

std::optional<size_t> find_clip(const Anim& anim, const std::string& clip) {
  double id = 0;
  if (whole_number(clip, id))
    for (size_t i = 0; i < anim.clips.size(); ++i)
      if (double(anim.clips[i].id) == id) return i;
  for (size_t i = 0; i < anim.clips.size(); ++i)
    if (anim.clips[i].name == clip) return i;
  return std::nullopt;
}

Result<std::vector<Mat4d>> pose_models(const CapabilityModel& model, const PoseQuery& q) {
  if (auto* f = std::get_if<VfpFile>(&model)) return pose_vfp(*f, q);
  if (auto* c = std::get_if<Character>(&model)) return pose_rkc(*c, q);
  return error_at(ErrorCode::EvalBadClip, 0, "", "a KV6 file has no clips");
}

Skel mesh_group_names(const Character& c) {
  Skel names;
  for (size_t m = 0; m < c.meshes.size() && m <= UINT16_MAX; ++m) {
    SkelJoint j;
    j.id = uint16_t(m);
    j.name = "mesh_" + std::to_string(m);
    names.joints.push_back(std::move(j));
  }
  // One pass over the attachments in bone order (not one per mesh: 65,536 meshes times 98,304
  // attachments would be a 6-billion-step loop in an 8 MB file); a named bone names the mesh
  // while its name is still a mesh_ one.
  for (const Bone& b : c.bones)
    for (const Attachment& a : b.attachments)
      if (a.kind == AttachmentKind::Static && a.index < names.joints.size() && !b.name.empty() &&
          names.joints[a.index].name.rfind("mesh_", 0) == 0)
        names.joints[a.index].name = b.name;
  return names;
}

Result<std::vector<Quad>> mesh_quads(const CapabilityModel& model, std::string_view mesher,
                                     size_t max_quads) {
  if (auto* f = std::get_if<VfpFile>(&model)) {
    std::vector<Quad> quads;
    MeshScratch scratch;
    scratch.set_quad_limit(max_quads);
    const Vox0& v = *f->vox0();
    std::vector<uint16_t> joints;
    if (f->vskn()) {
      VOXRIG_ASSIGN_OR_RETURN(joints, joint_map(v, *f->vskn()));
    }
    if (mesher == "naive") {
      VOXRIG_TRY(mesh_naive(v, joints, quads, scratch));
    } else if (mesher == "greedy" || joints.empty()) {
      VOXRIG_TRY(mesh_greedy(v, quads, scratch));
    } else {
      VOXRIG_TRY(mesh_bone_aware(v, joints, quads, scratch));
    }
    return quads;
  }
  if (auto* k = std::get_if<Kv6>(&model)) return kv6_quads(*k, mesher, max_quads);
  const Character& c = std::get<Character>(model);
  if (c.meshes.empty()) return error_at(ErrorCode::EvalBadArgument, 0, "MSHS", "no meshes");
  std::vector<Quad> all;
  for (size_t m = 0; m < c.meshes.size() && m <= UINT16_MAX; ++m) {
    VOXRIG_ASSIGN_OR_RETURN(std::vector<Quad> quads,
                            kv6_quads(c.meshes[m], mesher, max_quads - all.size()));
    for (Quad& q : quads) q.joint = uint16_t(m);
    all.insert(all.end(), quads.begin(), quads.end());
  }
  return all;
}

std::string reference_mesh_json(const uint32_t size[3], std::span<const Quad> quads) {
  return "{\"size\": [" + std::to_string(size[0]) + ", " + std::to_string(size[1]) + ", " +
         std::to_string(size[2]) + "], " + quads_json(quads).substr(1);
}

namespace {

// The faces one stored reference quad covers, appended to `out`; false when it is malformed.
bool add_quad_faces(const nlohmann::json& q, const uint32_t size[3], MeshFaces& out) {
  static constexpr const char* kNormals[6] = {"-x", "+x", "-y", "+y", "-z", "+z"};
  const auto normal = q.at("normal").get<std::string>();
  const auto dir = uint8_t(std::find(kNormals, kNormals + 6, normal) - kNormals);
  const auto& v = q.at("voxels");
  if (dir == 6 || v.size() != 6) return false;
  uint32_t b[6];
  for (int k = 0; k < 6; ++k) b[k] = v[k].get<uint32_t>();
  for (int a = 0; a < 3; ++a)
    if (b[a] > b[a + 3] || b[a + 3] >= size[a]) return false;
  if (b[dir / 2] != b[dir / 2 + 3]) return false;
  const auto joint = q.at("joint").get<uint16_t>();
  const auto color = q.at("color").get<uint32_t>();
  for (uint32_t z = b[2]; z <= b[5]; ++z)
    for (uint32_t y = b[1]; y <= b[4]; ++y)
      for (uint32_t x = b[0]; x <= b[3]; ++x) out.faces.push_back({x, y, z, dir, joint, color});
  return true;
}

}  // namespace

std::optional<MeshFaces> mesh_faces_from_reference(std::string_view text, std::string* problem) {
  MeshFaces out;
  try {
    const auto doc = nlohmann::json::parse(text);
    const auto& size = doc.at("size");
    for (int a = 0; a < 3; ++a) out.size[a] = size.at(a).get<uint32_t>();
    for (const auto& q : doc.at("quads"))
      if (!add_quad_faces(q, out.size, out)) {
        if (problem) *problem = "a reference quad leaves the grid or is malformed: " + q.dump();
        return std::nullopt;
      }
  } catch (const std::exception& e) {
    if (problem) *problem = std::string("not a reference mesh: ") + e.what();
    return std::nullopt;
  }
  std::sort(out.faces.begin(), out.faces.end(), [](const auto& a, const auto& b) {
    return std::tie(a.z, a.y, a.x, a.dir) < std::tie(b.z, b.y, b.x, b.dir);
  });
  return out;
}

}  // namespace voxrig::conform
