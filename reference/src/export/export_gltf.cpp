// glTF 2.0 binary (.glb) export of a static model or a rig (see voxrig/export.h).
//
// GLB layout (glTF 2.0 §4.4): header {magic "glTF" u32 0x46546C67, version u32 = 2, length u32},
// then chunk 0 {length u32, type "JSON" 0x4E4F534A, UTF-8 JSON padded with spaces to 4 bytes},
// then chunk 1 {length u32, type "BIN\0" 0x004E4942, the buffer padded with zeros to 4 bytes}.
// One buffer; one bufferView per accessor, each 4-byte aligned. Mesh data is written straight into
// the buffer (no per-mesh copies), and its size is checked against GltfOptions::max_bytes from the
// quad and key counts before the buffer grows, so memory follows the output allowed.
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

  // A view of `bytes` zero bytes at the end of the buffer (4-byte aligned); returns its index.
  // view_data() gives its bytes until the buffer grows again.
  size_t add_view(size_t bytes, int target) {
    while (bin.size() % 4 != 0) bin.push_back(0);
    const size_t offset = bin.size();
    bin.resize(offset + bytes);
    view_offsets.push_back(offset);
    json v = {{"buffer", 0}, {"byteOffset", offset}, {"byteLength", bytes}};
    if (target != 0) v["target"] = target;
    buffer_views.push_back(v);
    return buffer_views.size() - 1;
  }
  uint8_t* view_data(size_t view) { return bin.data() + view_offsets[view]; }

 private:
  size_t add_view(const void* data, size_t bytes, int target) {
    const size_t view = add_view(bytes, target);
    if (bytes != 0) std::memcpy(view_data(view), data, bytes);
    return view;
  }
  std::vector<size_t> view_offsets;
};

// One mesh primitive from quads; `to_output` maps a grid corner to the mesh's frame (already in
// glTF axes). Positions, colours and indices are written into the buffer in place. Returns the
// mesh index in `meshes`.
template <class ToOutput>
int add_mesh(GltfBuilder& b, json& meshes, std::span<const Quad> quads, const Vox0& vox0,
             const std::string& name, bool& uses_alpha, ToOutput&& to_output) {
  const size_t n = quads.size();
  const size_t pos_view = b.add_view(n * 4 * 3 * sizeof(float), kArrayBuffer);
  const size_t col_view = b.add_view(n * 4 * 4 * sizeof(float), kArrayBuffer);
  const size_t idx_view = b.add_view(n * 6 * sizeof(uint32_t), kElementArrayBuffer);
  uint8_t* pos = b.view_data(pos_view);
  uint8_t* col = b.view_data(col_view);
  uint8_t* idx = b.view_data(idx_view);
  double mn[3], mx[3];
  for (int i = 0; i < 3; ++i) {
    mn[i] = std::numeric_limits<double>::infinity();
    mx[i] = -std::numeric_limits<double>::infinity();
  }
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
      const float xyz[3] = {out.x, out.y, out.z};
      for (int i = 0; i < 3; ++i) {
        mn[i] = std::min<double>(mn[i], xyz[i]);
        mx[i] = std::max<double>(mx[i], xyz[i]);
      }
      std::memcpy(pos, xyz, sizeof xyz);
      pos += sizeof xyz;
      std::memcpy(col, lin, sizeof lin);
      col += sizeof lin;
    }
    const uint32_t tri[6] = {base, base + 1, base + 2, base, base + 2, base + 3};
    std::memcpy(idx, tri, sizeof tri);
    idx += sizeof tri;
    base += 4;
  }
  json position = {{"bufferView", pos_view},
                   {"componentType", kFloat},
                   {"count", n * 4},
                   {"type", "VEC3"},
                   {"min", {mn[0], mn[1], mn[2]}},
                   {"max", {mx[0], mx[1], mx[2]}}};
  b.accessors.push_back(position);
  const int position_acc = static_cast<int>(b.accessors.size() - 1);
  b.accessors.push_back(
      {{"bufferView", col_view}, {"componentType", kFloat}, {"count", n * 4}, {"type", "VEC4"}});
  const int color_acc = static_cast<int>(b.accessors.size() - 1);
  b.accessors.push_back({{"bufferView", idx_view},
                         {"componentType", kUnsignedInt},
                         {"count", n * 6},
                         {"type", "SCALAR"}});
  const int index_acc = static_cast<int>(b.accessors.size() - 1);
  meshes.push_back(
      {{"name", name},
       {"primitives",
        json::array({{{"attributes", {{"POSITION", position_acc}, {"COLOR_0", color_acc}}},
                      {"indices", index_acc},
                      {"material", 0},
                      {"mode", 4}}})}});
  return static_cast<int>(meshes.size() - 1);
}

// limit.output when `more` buffer bytes (plus up to 3 of padding per view) cannot fit in the
// cap next to what the buffer holds.
// Reserves them when they fit, so the buffer is allocated once and never copied as it grows.
Status check_room(GltfBuilder& b, uint64_t more, uint64_t views, const GltfOptions& o) {
  const uint64_t need = b.bin.size() + more + 3 * views;
  if (more <= o.max_bytes && need <= o.max_bytes) {
    b.bin.reserve(static_cast<size_t>(need));
    return ok_status();
  }
  return model_error(ErrorCode::LimitOutput, "",
                     "the glTF buffer would take at least " + std::to_string(need) +
                         " bytes, over the output limit of " + std::to_string(o.max_bytes));
}

void put_u32(std::string& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>(v >> (8 * i)));
}

json vec_json(const Vec3& v) { return json::array({v.x, v.y, v.z}); }

Result<GltfParts> build(const Vox0& vox0, const Skel* skel, const Vskn* vskn, const Anim* anim,
                        const GltfOptions& options) {
  GltfBuilder b;
  json nodes = json::array(), meshes = json::array(), animations = json::array();
  std::vector<int> scene_roots;
  bool uses_alpha = false;
  MeshScratch scratch;
  scratch.set_quad_limit(static_cast<size_t>(
      std::min<uint64_t>(options.max_bytes / kGltfQuadBytes, SIZE_MAX)));
  std::vector<Quad> quads;

  if (skel == nullptr) {
    VOXRIG_TRY(mesh_greedy(vox0, quads, scratch));
    VOXRIG_TRY(check_room(b, quads.size() * kGltfQuadBytes, 3, options));
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
    // Every group of quads is one mesh of three views; every track four views of 44 bytes per
    // key (time 4, translation 12, rotation 16, scale 12).
    uint64_t keys = 0, tracks = 0;
    if (anim != nullptr)
      for (const AnimClip& clip : anim->clips)
        for (const AnimTrack& track : clip.tracks) {
          keys += track.keys.size();
          ++tracks;
        }
    VOXRIG_TRY(check_room(b, quads.size() * kGltfQuadBytes + keys * 44,
                          3 * quads.size() + 4 * tracks, options));
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
    quads = {};  // the buffer holds them now
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
  GltfParts parts;
  parts.json = doc.dump(-1, ' ', false, json::error_handler_t::replace);
  b.bin.resize((b.bin.size() + 3) / 4 * 4, 0);
  parts.bin = std::move(b.bin);
  return parts;
}

// The GLB's 20-byte header and JSON chunk header, the JSON and its padding, then (with a buffer)
// the BIN chunk header; the buffer itself follows.
std::string glb_head(const GltfParts& parts) {
  const size_t json_len = (parts.json.size() + 3) / 4 * 4;
  std::string out;
  out.reserve(28 + json_len);
  put_u32(out, 0x46546C67);  // "glTF"
  put_u32(out, 2);
  put_u32(out, static_cast<uint32_t>(glb_size(parts)));
  put_u32(out, static_cast<uint32_t>(json_len));
  put_u32(out, 0x4E4F534A);  // "JSON"
  out += parts.json;
  out.resize(20 + json_len, ' ');
  if (!parts.bin.empty()) {
    put_u32(out, static_cast<uint32_t>(parts.bin.size()));
    put_u32(out, 0x004E4942);  // "BIN\0"
  }
  return out;
}

}  // namespace

uint64_t glb_size(const GltfParts& parts) {
  const uint64_t json_len = (parts.json.size() + 3) / 4 * 4;
  return 20 + json_len + (parts.bin.empty() ? 0 : 8 + parts.bin.size());
}

void write_glb(const GltfParts& parts, const OutputSink& sink) {
  sink(glb_head(parts));
  // Pieces of 1 MiB: a sink may copy what it is given.
  const std::string_view bin(reinterpret_cast<const char*>(parts.bin.data()), parts.bin.size());
  for (size_t at = 0; at < bin.size(); at += size_t{1} << 20) sink(bin.substr(at, size_t{1} << 20));
}

static Result<GltfParts> export_gltf_unguarded(const Vox0& vox0, const Skel* skel,
                                               const Vskn* vskn, const Anim* anim,
                                               const GltfOptions& options);

// The public entry points: allocation failure becomes internal.out_of_memory (result.h).
Result<GltfParts> export_gltf_parts(const Vox0& vox0, const Skel* skel, const Vskn* vskn,
                                    const Anim* anim, const GltfOptions& options) {
  return guard_out_of_memory(
      [&] { return export_gltf_unguarded(vox0, skel, vskn, anim, options); });
}

Result<std::vector<uint8_t>> export_gltf(const Vox0& vox0, const Skel* skel, const Vskn* vskn,
                                         const Anim* anim, const GltfOptions& options) {
  return guard_out_of_memory([&]() -> Result<std::vector<uint8_t>> {
    VOXRIG_ASSIGN_OR_RETURN(GltfParts parts, export_gltf_unguarded(vox0, skel, vskn, anim, options));
    std::vector<uint8_t> glb;
    glb.reserve(glb_size(parts));
    write_glb(parts, [&](std::string_view piece) { glb.insert(glb.end(), piece.begin(), piece.end()); });
    return glb;
  });
}

static Result<GltfParts> export_gltf_unguarded(const Vox0& vox0, const Skel* skel,
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
