// glTF 2.0 binary (.glb) export of a static model or a rig (see voxrig/export.h).
//
// GLB layout (glTF 2.0 §4.4): header {magic "glTF" u32 0x46546C67, version u32 = 2, length u32},
// then chunk 0 {length u32, type "JSON" 0x4E4F534A, UTF-8 JSON padded with spaces to 4 bytes},
// then chunk 1 {length u32, type "BIN\0" 0x004E4942, the buffer padded with zeros to 4 bytes}.
// One buffer; one bufferView per accessor, each 4-byte aligned. Mesh data is written straight into
// the buffer (no per-mesh copies), and its size is checked against GltfOptions::max_bytes from the
// quad and key counts before the buffer grows, so memory follows the output allowed.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "voxrig/export.h"
#include "voxrig/json_out.h"
#include "voxrig/utf8.h"
#include "voxrig/version.h"

namespace voxrig {
namespace {

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

// The document's parts as plain values, written out in one pass by write_document(); building
// them never allocates inside a destructor, so a failed allocation stays an error (result.h).
struct Accessor {
  size_t view = 0;
  int component_type = kFloat;
  size_t count = 0;
  const char* type = "SCALAR";
  int bounds = 0;  // components that carry min / max (0: none)
  double min[4] = {}, max[4] = {};
};
struct BufferView {
  size_t offset = 0, length = 0;
  int target = 0;  // 0: none
};
struct MeshEntry {
  std::string name;
  int position = 0, color = 0, indices = 0;
};
struct NodeEntry {
  std::string name;
  int mesh = -1;  // -1: none
  std::vector<size_t> children;
  bool has_trs = false;
  Vec3 translation{}, scale{};
  Quat rotation{};
};
struct ChannelEntry {
  int input = 0, output = 0;  // accessors of the channel's own sampler
  size_t node = 0;
  const char* path = "";
};
struct AnimationEntry {
  std::string name;
  std::vector<ChannelEntry> channels;
};

// Accumulates the binary buffer and the accessors and views that index into it.
class GltfBuilder {
 public:
  std::vector<Accessor> accessors;
  std::vector<BufferView> buffer_views;
  std::vector<uint8_t> bin;

  // Appends `count` elements of `components` floats each; returns the accessor index.
  int add_floats(const std::vector<float>& data, int components, const char* type, int target,
                 bool with_min_max) {
    Accessor acc;
    acc.view = add_view(data.data(), data.size() * sizeof(float), target);
    acc.count = data.size() / size_t(components);
    acc.type = type;
    if (with_min_max) {
      acc.bounds = components;
      for (int c = 0; c < components; ++c) {
        acc.min[c] = std::numeric_limits<double>::infinity();
        acc.max[c] = -std::numeric_limits<double>::infinity();
      }
      for (size_t i = 0; i < data.size(); ++i) {
        acc.min[i % components] = std::min<double>(acc.min[i % components], data[i]);
        acc.max[i % components] = std::max<double>(acc.max[i % components], data[i]);
      }
    }
    return add_accessor(acc);
  }

  int add_accessor(const Accessor& acc) {
    accessors.push_back(acc);
    return static_cast<int>(accessors.size() - 1);
  }

  // A view of `bytes` zero bytes at the end of the buffer (4-byte aligned); returns its index.
  // view_data() gives its bytes until the buffer grows again.
  size_t add_view(size_t bytes, int target) {
    while (bin.size() % 4 != 0) bin.push_back(0);
    const size_t offset = bin.size();
    bin.resize(offset + bytes);
    buffer_views.push_back({offset, bytes, target});
    return buffer_views.size() - 1;
  }
  uint8_t* view_data(size_t view) { return bin.data() + buffer_views[view].offset; }

 private:
  size_t add_view(const void* data, size_t bytes, int target) {
    const size_t view = add_view(bytes, target);
    if (bytes != 0) std::memcpy(view_data(view), data, bytes);
    return view;
  }
};

// One mesh primitive from quads; `to_output` maps a grid corner to the mesh's frame (already in
// glTF axes). Positions, colours and indices are written into the buffer in place. Returns the
// mesh index in `meshes`.
template <class ToOutput>
int add_mesh(GltfBuilder& b, std::vector<MeshEntry>& meshes, std::span<const Quad> quads,
             const Vox0& vox0, const std::string& name, bool& uses_alpha, ToOutput&& to_output) {
  const size_t n = quads.size();
  const size_t pos_view = b.add_view(n * 4 * 3 * sizeof(float), kArrayBuffer);
  const size_t col_view = b.add_view(n * 4 * 4 * sizeof(float), kArrayBuffer);
  const size_t idx_view = b.add_view(n * 6 * sizeof(uint32_t), kElementArrayBuffer);
  uint8_t* pos = b.view_data(pos_view);
  uint8_t* col = b.view_data(col_view);
  uint8_t* idx = b.view_data(idx_view);
  Accessor position{pos_view, kFloat, n * 4, "VEC3", 3};
  for (int i = 0; i < 3; ++i) {
    position.min[i] = std::numeric_limits<double>::infinity();
    position.max[i] = -std::numeric_limits<double>::infinity();
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
        position.min[i] = std::min<double>(position.min[i], xyz[i]);
        position.max[i] = std::max<double>(position.max[i], xyz[i]);
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
  MeshEntry mesh;
  mesh.name = name;
  mesh.position = b.add_accessor(position);
  mesh.color = b.add_accessor({col_view, kFloat, n * 4, "VEC4"});
  mesh.indices = b.add_accessor({idx_view, kUnsignedInt, n * 6, "SCALAR"});
  meshes.push_back(std::move(mesh));
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

// A name as glTF's UTF-8 strings need it: names of a valid model pass unchanged; a hand-built
// invalid one is repaired (U+FFFD), never written as invalid JSON.
std::string utf8_name(const std::string& s) {
  return repair_utf8(std::span(reinterpret_cast<const uint8_t*>(s.data()), s.size()));
}

void write_accessor(JsonOut& out, const Accessor& a) {
  out.begin_object();
  out.field_u64("bufferView", a.view);
  out.field_i64("componentType", a.component_type);
  out.field_u64("count", a.count);
  out.field_string("type", a.type);
  if (a.bounds > 0) {
    float mn[4], mx[4];  // bounds of floats: exact as floats
    for (int i = 0; i < a.bounds; ++i) {
      mn[i] = static_cast<float>(a.min[i]);
      mx[i] = static_cast<float>(a.max[i]);
    }
    out.field_f32s("min", std::span<const float>(mn, size_t(a.bounds)));
    out.field_f32s("max", std::span<const float>(mx, size_t(a.bounds)));
  }
  out.end_object();
}

void write_node(JsonOut& out, const NodeEntry& n) {
  out.begin_object();
  out.field_string("name", utf8_name(n.name));
  if (n.mesh >= 0) out.field_i64("mesh", n.mesh);
  if (!n.children.empty()) {
    out.key("children");
    out.begin_array();
    for (size_t c : n.children) out.value_u64(c);
    out.end_array();
  }
  if (n.has_trs) {
    const float t[3] = {n.translation.x, n.translation.y, n.translation.z};
    const float r[4] = {n.rotation.x, n.rotation.y, n.rotation.z, n.rotation.w};
    const float sc[3] = {n.scale.x, n.scale.y, n.scale.z};
    out.field_f32s("translation", t);
    out.field_f32s("rotation", r);
    out.field_f32s("scale", sc);
  }
  out.end_object();
}

void write_mesh(JsonOut& out, const MeshEntry& m) {
  out.begin_object();
  out.field_string("name", utf8_name(m.name));
  out.key("primitives");
  out.begin_array();
  out.begin_object();
  out.key("attributes");
  out.begin_object();
  out.field_i64("POSITION", m.position);
  out.field_i64("COLOR_0", m.color);
  out.end_object();
  out.field_i64("indices", m.indices);
  out.field_i64("material", 0);
  out.field_i64("mode", 4);
  out.end_object();
  out.end_array();
  out.end_object();
}

void write_animation(JsonOut& out, const AnimationEntry& a, std::string_view interpolation) {
  out.begin_object();
  out.field_string("name", utf8_name(a.name));
  out.key("channels");
  out.begin_array();
  for (size_t i = 0; i < a.channels.size(); ++i) {
    out.begin_object();
    out.field_u64("sampler", i);  // one sampler per channel, in the same order
    out.key("target");
    out.begin_object();
    out.field_u64("node", a.channels[i].node);
    out.field_string("path", a.channels[i].path);
    out.end_object();
    out.end_object();
  }
  out.end_array();
  out.key("samplers");
  out.begin_array();
  for (const ChannelEntry& c : a.channels) {
    out.begin_object();
    out.field_i64("input", c.input);
    out.field_i64("output", c.output);
    out.field_string("interpolation", interpolation);
    out.end_object();
  }
  out.end_array();
  out.end_object();
}

void write_material(JsonOut& out, bool uses_alpha) {
  out.begin_object();
  out.field_string("name", "voxrig_palette");
  out.key("pbrMetallicRoughness");
  out.begin_object();
  const float white[4] = {1, 1, 1, 1};
  out.field_f32s("baseColorFactor", white);
  out.field_f32("metallicFactor", 0.0f);
  out.field_f32("roughnessFactor", 1.0f);
  out.end_object();
  out.field_string("alphaMode", uses_alpha ? "BLEND" : "OPAQUE");
  out.end_object();
}

// The whole glTF document, compact. Sets parts.uri_at to just after buffers[0]'s byteLength.
struct Document {
  std::vector<NodeEntry> nodes;
  std::vector<MeshEntry> meshes;
  std::vector<AnimationEntry> animations;
  std::vector<size_t> scene_roots;
  bool uses_alpha = false;
  std::string_view interpolation = "LINEAR";
};

void write_document(const Document& d, const GltfBuilder& b, GltfParts& parts) {
  JsonOut out(JsonOut::Layout::Compact);
  out.begin_object();
  out.key("asset");
  out.begin_object();
  out.field_string("version", "2.0");
  out.field_string("generator", std::string("voxrig ") + std::string(suite_version()));
  out.end_object();
  out.field_i64("scene", 0);
  out.key("scenes");
  out.begin_array();
  out.begin_object();
  out.key("nodes");
  out.begin_array();
  for (size_t r : d.scene_roots) out.value_u64(r);
  out.end_array();
  out.end_object();
  out.end_array();
  out.key("nodes");
  out.begin_array();
  for (const NodeEntry& n : d.nodes) write_node(out, n);
  out.end_array();
  if (!d.meshes.empty()) {
    out.key("meshes");
    out.begin_array();
    for (const MeshEntry& m : d.meshes) write_mesh(out, m);
    out.end_array();
    out.key("materials");
    out.begin_array();
    write_material(out, d.uses_alpha);
    out.end_array();
  }
  if (!d.animations.empty()) {
    out.key("animations");
    out.begin_array();
    for (const AnimationEntry& a : d.animations) write_animation(out, a, d.interpolation);
    out.end_array();
  }
  if (!b.bin.empty()) {
    out.key("accessors");
    out.begin_array();
    for (const Accessor& a : b.accessors) write_accessor(out, a);
    out.end_array();
    out.key("bufferViews");
    out.begin_array();
    for (const BufferView& v : b.buffer_views) {
      out.begin_object();
      out.field_u64("buffer", 0);
      out.field_u64("byteOffset", v.offset);
      out.field_u64("byteLength", v.length);
      if (v.target != 0) out.field_i64("target", v.target);
      out.end_object();
    }
    out.end_array();
    // Last, so the data URI of the .gltf form goes in just before the document's end.
    out.key("buffers");
    out.begin_array();
    out.begin_object();
    out.field_u64("byteLength", b.bin.size());
    out.end_object();
    out.end_array();
  }
  out.end_object();
  parts.json = out.take();
  parts.uri_at = b.bin.empty() ? std::string::npos : parts.json.size() - 3;  // before "}]}"
}

Result<GltfParts> build(const Vox0& vox0, const Skel* skel, const Vskn* vskn, const Anim* anim,
                        const GltfOptions& options) {
  GltfBuilder b;
  Document d;
  MeshScratch scratch;
  scratch.set_quad_limit(static_cast<size_t>(
      std::min<uint64_t>(options.max_bytes / kGltfQuadBytes, SIZE_MAX)));
  std::vector<Quad> quads;

  if (skel == nullptr) {
    VOXRIG_TRY(mesh_greedy(vox0, quads, scratch));
    VOXRIG_TRY(check_room(b, quads.size() * kGltfQuadBytes, 3, options));
    NodeEntry node;
    node.name = "voxrig_model";
    if (!quads.empty()) {
      node.mesh = add_mesh(b, d.meshes, quads, vox0, "voxrig_model", d.uses_alpha,
                           [](const Vec3& p) { return to_gltf(p); });
    }
    d.nodes.push_back(std::move(node));
    d.scene_roots.push_back(0);
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
    d.nodes.resize(n);
    for (size_t i = 0; i < n; ++i) {
      const Trs& bind = rt.bind_locals()[i];
      NodeEntry& node = d.nodes[i];
      node.name = skel->joints[i].name;
      node.has_trs = true;
      node.translation = to_gltf(bind.t);
      node.rotation = to_gltf(bind.r);
      node.scale = scale_to_gltf(bind.s);
    }
    for (size_t i = 0; i < n; ++i) {
      const int32_t p = rt.parents()[i];
      if (p < 0) {
        d.scene_roots.push_back(i);
      } else {
        d.nodes[static_cast<size_t>(p)].children.push_back(i);
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
        NodeEntry node;
        node.name = name + ".bind";
        node.mesh = add_mesh(b, d.meshes, group, vox0, node.name, d.uses_alpha,
                             [](const Vec3& p) { return to_gltf(p); });
        d.nodes.push_back(std::move(node));
        d.scene_roots.push_back(d.nodes.size() - 1);
      } else {
        const Mat4& inv = rt.inverse_bind_models()[size_t(j)];
        d.nodes[size_t(j)].mesh =
            add_mesh(b, d.meshes, group, vox0, name, d.uses_alpha,
                     [&](const Vec3& p) { return to_gltf(transform_point(inv, p)); });
      }
      begin = end;
    }
    quads = {};  // the buffer holds them now
    // Animations: one per clip with tracks; channels T, R, S per track.
    if (options.interpolation == GltfInterpolation::Step) d.interpolation = "STEP";
    if (anim != nullptr) {
      for (const AnimClip& clip : anim->clips) {
        if (clip.tracks.empty()) continue;  // glTF needs at least one channel
        AnimationEntry animation;
        animation.name = clip.name;
        for (const AnimTrack& track : clip.tracks) {
          const auto node = static_cast<size_t>(rt.joint_index(track.joint));
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
          animation.channels.push_back({input, b.add_floats(t, 3, "VEC3", 0, false), node,
                                        "translation"});
          animation.channels.push_back({input, b.add_floats(r, 4, "VEC4", 0, false), node,
                                        "rotation"});
          animation.channels.push_back({input, b.add_floats(s, 3, "VEC3", 0, false), node,
                                        "scale"});
        }
        d.animations.push_back(std::move(animation));
      }
    }
  }

  GltfParts parts;
  write_document(d, b, parts);
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
  return build(vox0, skel, vskn, anim, options);
}

}  // namespace voxrig
