// Capability protocol plumbing (capability_io.h).
#include "capability_io.h"

#include <charconv>
#include <cmath>
#include <iostream>

#include "voxrig/any_format.h"
#include "voxrig/rkc.h"
#include "voxrig/vfp.h"

namespace voxrig::cli {

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
  return error_at(ErrorCode::FileUnknownFormat, 0, "",
                  std::string("a ") + std::string(to_string(f)) + " file under profile " +
                      std::string(to_string(profile)));
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

std::string quads_json(std::span<const Quad> quads) {
  std::string out = "{\"quads\": [";
  for (size_t i = 0; i < quads.size(); ++i) {
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
  return out;
}

}  // namespace voxrig::cli

#include <nlohmann/json.hpp>

namespace voxrig::cli {

namespace {
uint32_t le32(std::span<const uint8_t> b, size_t at) {
  return uint32_t(b[at]) | uint32_t(b[at + 1]) << 8 | uint32_t(b[at + 2]) << 16 |
         uint32_t(b[at + 3]) << 24;
}

std::string base64(std::span<const uint8_t> b) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((b.size() + 2) / 3 * 4);
  for (size_t i = 0; i < b.size(); i += 3) {
    const uint32_t n = uint32_t(b[i]) << 16 | (i + 1 < b.size() ? uint32_t(b[i + 1]) << 8 : 0) |
                       (i + 2 < b.size() ? uint32_t(b[i + 2]) : 0);
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
    out += i + 1 < b.size() ? kAlphabet[(n >> 6) & 63] : '=';
    out += i + 2 < b.size() ? kAlphabet[n & 63] : '=';
  }
  return out;
}
}  // namespace

std::optional<std::string> glb_to_gltf_json(std::span<const uint8_t> glb) {
  if (glb.size() < 20 || le32(glb, 0) != 0x46546C67u || le32(glb, 8) != glb.size())
    return std::nullopt;
  const uint32_t json_len = le32(glb, 12);
  if (le32(glb, 16) != 0x4E4F534Au || 20 + uint64_t(json_len) > glb.size()) return std::nullopt;
  std::span<const uint8_t> bin;
  const size_t at = 20 + json_len;
  if (at + 8 <= glb.size()) {
    const uint32_t bin_len = le32(glb, at);
    if (le32(glb, at + 4) != 0x004E4942u || at + 8 + uint64_t(bin_len) > glb.size())
      return std::nullopt;
    bin = glb.subspan(at + 8, bin_len);
  }
  try {
    auto doc = nlohmann::ordered_json::parse(glb.begin() + 20, glb.begin() + 20 + json_len);
    if (doc.contains("buffers") && doc["buffers"].is_array() && !doc["buffers"].empty())
      doc["buffers"][0]["uri"] = "data:application/octet-stream;base64," + base64(bin);
    return doc.dump() + "\n";
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::string format_of_extension(const std::string& path) {
  const size_t dot = path.rfind('.');
  if (dot == std::string::npos || path.find('/', dot) != std::string::npos) return "";
  std::string ext = path.substr(dot + 1);
  for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
  if (ext == "gltf" || ext == "glb" || ext == "obj" || ext == "json") return ext;
  return "";
}

}  // namespace voxrig::cli

#include <algorithm>

#include "voxrig/rkc_eval.h"

namespace voxrig::cli {
namespace {

bool whole_number(const std::string& text, double& v) {
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  return ec == std::errc() && p == text.data() + text.size() && std::isfinite(v);
}

Result<std::vector<Mat4d>> pose_vfp(const VfpFile& f, const PoseQuery& q) {
  const Anim* anim = f.skel() && f.vskn() ? f.anim() : nullptr;
  std::optional<size_t> clip;
  if (anim) {
    double id = 0;
    if (whole_number(q.clip, id))
      for (size_t i = 0; i < anim->clips.size() && !clip; ++i)
        if (double(anim->clips[i].id) == id) clip = i;
    for (size_t i = 0; i < anim->clips.size() && !clip; ++i)
      if (anim->clips[i].name == q.clip) clip = i;
  }
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

Result<std::vector<Quad>> kv6_quads(const Kv6& kv6, std::string_view mesher) {
  std::vector<Quad> quads;
  MeshScratch scratch;
  VOXRIG_TRY(mesher == "naive" ? mesh_kv6_naive(kv6, quads) : mesh_kv6_greedy(kv6, quads, scratch));
  return quads;
}

}  // namespace

Result<std::vector<Mat4d>> pose_models(const CapabilityModel& model, const PoseQuery& q) {
  if (auto* f = std::get_if<VfpFile>(&model)) return pose_vfp(*f, q);
  if (auto* c = std::get_if<Character>(&model)) return pose_rkc(*c, q);
  return error_at(ErrorCode::EvalBadClip, 0, "", "a KV6 file has no clips");
}

Result<std::vector<Quad>> mesh_quads(const CapabilityModel& model, std::string_view mesher) {
  if (auto* f = std::get_if<VfpFile>(&model)) {
    std::vector<Quad> quads;
    MeshScratch scratch;
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
  if (auto* k = std::get_if<Kv6>(&model)) return kv6_quads(*k, mesher);
  const Character& c = std::get<Character>(model);
  if (c.meshes.empty()) return error_at(ErrorCode::EvalBadArgument, 0, "MSHS", "no meshes");
  std::vector<Quad> all;
  for (size_t m = 0; m < c.meshes.size() && m <= UINT16_MAX; ++m) {
    VOXRIG_ASSIGN_OR_RETURN(std::vector<Quad> quads, kv6_quads(c.meshes[m], mesher));
    for (Quad& q : quads) q.joint = uint16_t(m);
    all.insert(all.end(), quads.begin(), quads.end());
  }
  return all;
}

}  // namespace voxrig::cli
