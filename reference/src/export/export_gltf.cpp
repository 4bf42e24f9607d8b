// glTF 2.0 binary (.glb) export of a static model or a rig (see voxrig/export.h).
//
// GLB layout (glTF 2.0 §4.4): header {magic "glTF" u32 0x46546C67, version u32 = 2, length u32},
// then chunk 0 {length u32, type "JSON" 0x4E4F534A, UTF-8 JSON padded with spaces to 4 bytes},
// then chunk 1 {length u32, type "BIN\0" 0x004E4942, the buffer padded with zeros to 4 bytes}.
// One buffer; one bufferView per accessor, each 4-byte aligned.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "voxrig/export.h"

namespace voxrig {
namespace {

using nlohmann::json;

constexpr int kFloat = 5126;
constexpr int kUnsignedInt = 5125;
constexpr int kArrayBuffer = 34962;
constexpr int kElementArrayBuffer = 34963;

// D23: VOX0 (x, y, z), z up -> glTF (x, z, -y). A proper rotation, so rotations conjugate to
// (M qv, w) and per-axis scales permute to (sx, sz, sy).
Vec3 to_gltf(const Vec3& p) { return Vec3{p.x, p.z, -p.y}; }
Quat to_gltf(const Quat& q) { return Quat{q.x, q.z, -q.y, q.w}; }
Vec3 scale_to_gltf(const Vec3& s) { return Vec3{s.x, s.z, s.y}; }

float srgb_to_linear(uint8_t c) {
  const double v = c / 255.0;
  return static_cast<float>(v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4));
}

// Accumulates the binary buffer and the JSON arrays that index into it.
class GltfBuilder {
 public:
  json buffer_views = json::array();
  json accessors = json::array();
  std::vector<uint8_t> bin;

  // Appends `count` elements of `components` floats each; returns the accessor index.
  int add_floats(const std::vector<float>& data, int components, const char* type, int target,
                 bool with_min_max) {
    const size_t view = add_view(data.data(), data.size() * sizeof(float), target);
    json acc = {{"bufferView", view},
                {"componentType", kFloat},
                {"count", data.size() / size_t(components)},
                {"type", type}};
    if (with_min_max) {
      std::vector<double> mn(components, std::numeric_limits<double>::infinity());
      std::vector<double> mx(components, -std::numeric_limits<double>::infinity());
      for (size_t i = 0; i < data.size(); ++i) {
        mn[i % components] = std::min<double>(mn[i % components], data[i]);
        mx[i % components] = std::max<double>(mx[i % components], data[i]);
      }
      acc["min"] = mn;
      acc["max"] = mx;
    }
    accessors.push_back(acc);
    return static_cast<int>(accessors.size() - 1);
  }

  int add_indices(const std::vector<uint32_t>& data) {
    const size_t view = add_view(data.data(), data.size() * sizeof(uint32_t), kElementArrayBuffer);
    accessors.push_back({{"bufferView", view},
                         {"componentType", kUnsignedInt},
                         {"count", data.size()},
                         {"type", "SCALAR"}});
    return static_cast<int>(accessors.size() - 1);
  }

 private:
  size_t add_view(const void* data, size_t bytes, int target) {
    while (bin.size() % 4 != 0) bin.push_back(0);
    const size_t offset = bin.size();
    bin.resize(offset + bytes);
    std::memcpy(bin.data() + offset, data, bytes);
    json v = {{"buffer", 0}, {"byteOffset", offset}, {"byteLength", bytes}};
    if (target != 0) v["target"] = target;
    buffer_views.push_back(v);
    return buffer_views.size() - 1;
  }
};

// One mesh primitive from quads; `to_output` maps a grid corner to the mesh's frame (already in
// glTF axes). Returns the mesh index in `meshes`.
template <class ToOutput>
int add_mesh(GltfBuilder& b, json& meshes, std::span<const Quad> quads, const Vox0& vox0,
             const std::string& name, bool& uses_alpha, ToOutput&& to_output) {
  std::vector<float> pos, col;
  std::vector<uint32_t> idx;
  pos.reserve(quads.size() * 12);
  col.reserve(quads.size() * 16);
  idx.reserve(quads.size() * 6);
  uint32_t base = 0;
  for (const Quad& q : quads) {
    const int a = q.axis, u = (a + 1) % 3, v = (a + 2) % 3;
    const float c0[3] = {float(q.x), float(q.y), float(q.z)};
    const float du[4] = {0, float(q.w), float(q.w), 0};
    const float dv[4] = {0, 0, float(q.h), float(q.h)};
    Rgba rgba{255, 255, 255, 255};
    if (q.material < vox0.palette.size()) rgba = vox0.palette[q.material];
    if (rgba.a < 255) uses_alpha = true;
    const float lin[4] = {srgb_to_linear(rgba.r), srgb_to_linear(rgba.g), srgb_to_linear(rgba.b),
                          rgba.a / 255.0f};
    for (int k = 0; k < 4; ++k) {
      // Counter-clockwise seen from the face's side (e_u x e_v = e_axis); reversed for -axis.
      const int src = q.positive ? k : (4 - k) % 4;
      float p[3];
      p[a] = c0[a];
      p[u] = c0[u] + du[src];
      p[v] = c0[v] + dv[src];
      const Vec3 out = to_output(Vec3{p[0], p[1], p[2]});
      pos.insert(pos.end(), {out.x, out.y, out.z});
      col.insert(col.end(), lin, lin + 4);
    }
    idx.insert(idx.end(), {base, base + 1, base + 2, base, base + 2, base + 3});
    base += 4;
  }
  const int position = b.add_floats(pos, 3, "VEC3", kArrayBuffer, true);
  const int color = b.add_floats(col, 4, "VEC4", kArrayBuffer, false);
  const int indices = b.add_indices(idx);
  meshes.push_back(
      {{"name", name},
       {"primitives", json::array({{{"attributes", {{"POSITION", position}, {"COLOR_0", color}}},
                                    {"indices", indices},
                                    {"material", 0},
                                    {"mode", 4}}})}});
  return static_cast<int>(meshes.size() - 1);
}

void put_u32(std::vector<uint8_t>& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

std::vector<uint8_t> assemble_glb(const std::string& json_text, const std::vector<uint8_t>& bin) {
  const size_t json_len = (json_text.size() + 3) / 4 * 4;
  const size_t bin_len = (bin.size() + 3) / 4 * 4;
  const size_t total = 12 + 8 + json_len + (bin.empty() ? 0 : 8 + bin_len);
  std::vector<uint8_t> out;
  out.reserve(total);
  put_u32(out, 0x46546C67);  // "glTF"
  put_u32(out, 2);
  put_u32(out, static_cast<uint32_t>(total));
  put_u32(out, static_cast<uint32_t>(json_len));
  put_u32(out, 0x4E4F534A);  // "JSON"
  out.insert(out.end(), json_text.begin(), json_text.end());
  out.resize(20 + json_len, ' ');
  if (!bin.empty()) {
    put_u32(out, static_cast<uint32_t>(bin_len));
    put_u32(out, 0x004E4942);  // "BIN\0"
    out.insert(out.end(), bin.begin(), bin.end());
    out.resize(total, 0);
  }
  return out;
}

json vec_json(const Vec3& v) { return json::array({v.x, v.y, v.z}); }

Result<std::vector<uint8_t>> build(const Vox0& vox0, const Skel* skel, const Vskn* vskn,
                                   const Anim* anim, const GltfOptions& options) {
  GltfBuilder b;
  json nodes = json::array(), meshes = json::array(), animations = json::array();
  std::vector<int> scene_roots;
  bool uses_alpha = false;
  MeshScratch scratch;
  std::vector<Quad> quads;

  if (skel == nullptr) {
    VOXRIG_TRY(mesh_greedy(vox0, quads, scratch));
    json node = {{"name", "voxrig_model"}};
    if (!quads.empty()) {
      node["mesh"] = add_mesh(b, meshes, quads, vox0, "voxrig_model", uses_alpha,
                              [](const Vec3& p) { return to_gltf(p); });
    }
    nodes.push_back(node);
    scene_roots.push_back(0);
  } else {
    VOXRIG_ASSIGN_OR_RETURN(RigRuntime rt, RigRuntime::build(*skel, anim));
    VOXRIG_ASSIGN_OR_RETURN(std::vector<uint16_t> jm, joint_map(vox0, *vskn));
    VOXRIG_TRY(mesh_bone_aware(vox0, jm, quads, scratch));
    const size_t n = rt.joint_count();
    // Joint nodes: node i = joint index i, bind local TRS in glTF axes.
    for (size_t i = 0; i < n; ++i) {
      const Trs& bind = rt.bind_locals()[i];
      nodes.push_back({{"name", skel->joints[i].name},
                       {"translation", vec_json(to_gltf(bind.t))},
                       {"rotation", json::array({to_gltf(bind.r).x, to_gltf(bind.r).y,
                                                 to_gltf(bind.r).z, to_gltf(bind.r).w})},
                       {"scale", vec_json(scale_to_gltf(bind.s))}});
    }
    for (size_t i = 0; i < n; ++i) {
      const int32_t p = rt.parents()[i];
      if (p < 0) {
        scene_roots.push_back(static_cast<int>(i));
      } else {
        nodes[static_cast<size_t>(p)]["children"].push_back(i);
      }
    }
    // One mesh per joint (quads are grouped by joint id).
    for (size_t begin = 0; begin < quads.size();) {
      size_t end = begin;
      while (end < quads.size() && quads[end].joint == quads[begin].joint) ++end;
      const std::span<const Quad> group(quads.data() + begin, end - begin);
      const int32_t j = rt.joint_index(quads[begin].joint);
      if (j < 0) {
        return model_error(
            ErrorCode::VsknJointMissing, "VSKN",
            "joint map names joint " + std::to_string(quads[begin].joint) + ", not in SKEL");
      }
      const std::string& name = skel->joints[size_t(j)].name;
      if (rt.singular_bind()[size_t(j)]) {
        // D20: cannot express the voxels in a singular frame; keep them at the bind pose.
        const int mesh = add_mesh(b, meshes, group, vox0, name + ".bind", uses_alpha,
                                  [](const Vec3& p) { return to_gltf(p); });
        nodes.push_back({{"name", name + ".bind"}, {"mesh", mesh}});
        scene_roots.push_back(static_cast<int>(nodes.size() - 1));
      } else {
        const Mat4& inv = rt.inverse_bind_models()[size_t(j)];
        nodes[size_t(j)]["mesh"] =
            add_mesh(b, meshes, group, vox0, name, uses_alpha,
                     [&](const Vec3& p) { return to_gltf(transform_point(inv, p)); });
      }
      begin = end;
    }
    // Animations: one per clip with tracks; channels T, R, S per track.
    const std::string interpolation =
        options.interpolation == GltfInterpolation::Step ? "STEP" : "LINEAR";
    if (anim != nullptr) {
      for (const AnimClip& clip : anim->clips) {
        if (clip.tracks.empty()) continue;  // glTF needs at least one channel
        json channels = json::array(), samplers = json::array();
        for (const AnimTrack& track : clip.tracks) {
          const int32_t node = rt.joint_index(track.joint);
          std::vector<float> times, t, r, s;
          for (const AnimKey& k : track.keys) {
            times.push_back(static_cast<float>(static_cast<double>(k.time_ms) / 1000.0));
            const Vec3 tt = to_gltf(k.trs.t);
            const Quat rr = to_gltf(normalized(k.trs.r));
            const Vec3 ss = scale_to_gltf(k.trs.s);
            t.insert(t.end(), {tt.x, tt.y, tt.z});
            r.insert(r.end(), {rr.x, rr.y, rr.z, rr.w});
            s.insert(s.end(), {ss.x, ss.y, ss.z});
          }
          const int input = b.add_floats(times, 1, "SCALAR", 0, true);
          const std::pair<const char*, int> outputs[3] = {
              {"translation", b.add_floats(t, 3, "VEC3", 0, false)},
              {"rotation", b.add_floats(r, 4, "VEC4", 0, false)},
              {"scale", b.add_floats(s, 3, "VEC3", 0, false)}};
          for (const auto& [path, output] : outputs) {
            samplers.push_back(
                {{"input", input}, {"output", output}, {"interpolation", interpolation}});
            channels.push_back(
                {{"sampler", samplers.size() - 1}, {"target", {{"node", node}, {"path", path}}}});
          }
        }
        animations.push_back({{"name", clip.name}, {"channels", channels}, {"samplers", samplers}});
      }
    }
  }

  json doc = {{"asset", {{"version", "2.0"}, {"generator", "voxrig " VOXRIG_VERSION}}},
              {"scene", 0},
              {"scenes", json::array({{{"nodes", scene_roots}}})},
              {"nodes", nodes}};
  if (!meshes.empty()) {
    doc["meshes"] = meshes;
    doc["materials"] = json::array({{{"name", "voxrig_palette"},
                                     {"pbrMetallicRoughness",
                                      {{"baseColorFactor", {1.0, 1.0, 1.0, 1.0}},
                                       {"metallicFactor", 0.0},
                                       {"roughnessFactor", 1.0}}},
                                     {"alphaMode", uses_alpha ? "BLEND" : "OPAQUE"}}});
  }
  if (!animations.empty()) doc["animations"] = animations;
  if (!b.bin.empty()) {
    doc["buffers"] = json::array({{{"byteLength", b.bin.size()}}});
    doc["bufferViews"] = b.buffer_views;
    doc["accessors"] = b.accessors;
  }
  // Names are UTF-8 in a valid model; a hand-built invalid one is replaced, never thrown on.
  const std::string text = doc.dump(-1, ' ', false, json::error_handler_t::replace);
  return assemble_glb(text, b.bin);
}

}  // namespace

static Result<std::vector<uint8_t>> export_gltf_unguarded(const Vox0& vox0, const Skel* skel,
                                                          const Vskn* vskn, const Anim* anim,
                                                          const GltfOptions& options);

// The public entry point: allocation failure becomes internal.out_of_memory (result.h).
Result<std::vector<uint8_t>> export_gltf(const Vox0& vox0, const Skel* skel, const Vskn* vskn,
                                         const Anim* anim, const GltfOptions& options) {
  return guard_out_of_memory(
      [&] { return export_gltf_unguarded(vox0, skel, vskn, anim, options); });
}

static Result<std::vector<uint8_t>> export_gltf_unguarded(const Vox0& vox0, const Skel* skel,
                                                          const Vskn* vskn, const Anim* anim,
                                                          const GltfOptions& options) {
  if ((skel == nullptr) != (vskn == nullptr) || (anim != nullptr && skel == nullptr)) {
    return model_error(ErrorCode::RigIncomplete, "", "a rig needs SKEL and VSKN (ANIM optional)");
  }
  try {
    return build(vox0, skel, vskn, anim, options);
  } catch (const std::bad_alloc&) {
    throw;  // the entry-point guard above turns it into internal.out_of_memory
  } catch (const std::exception& e) {  // nlohmann::json errors: a bug here, not bad input
    return model_error(ErrorCode::InternalBug, "", e.what());
  }
}

}  // namespace voxrig
