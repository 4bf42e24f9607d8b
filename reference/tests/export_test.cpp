// OBJ and glTF export: text structure, winding, posed transforms, GLB framing and the glTF JSON
// (node / mesh / animation / channel counts, D23 axes, normalised quaternions, seconds, COLOR_0,
// alphaMode, min/max). Set VOXRIG_EXPORT_DIR to also write the .glb/.obj files there, then run
// `NODE_PATH=/tmp/gv/node_modules node reference/tests/gltf_validate.js $VOXRIG_EXPORT_DIR/*.glb`.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "voxrig/export.h"
#include "voxrig/testing/le_bytes.h"

namespace voxrig {
namespace {

using nlohmann::json;
constexpr float kS45 = 0.70710678f;

void maybe_write(const std::string& name, const void* data, size_t size) {
  const char* dir = std::getenv("VOXRIG_EXPORT_DIR");
  if (dir == nullptr) return;
  std::ofstream f(std::string(dir) + "/" + name, std::ios::binary);
  f.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
}

// A small rig: 4x2x2 grid, x < 2 bound to joint 10 (root), x >= 2 to joint 20 (child of 10,
// bind translation (2,0,0)). SKEL lists the child first. Palette 1 opaque red, 2 half-transparent.
struct SmallRig {
  Vox0 vox;
  Skel skel;
  Vskn vskn;
  Anim anim;
  SmallRig() {
    vox.size_x = 4;
    vox.size_y = 2;
    vox.size_z = 2;
    vox.palette = {Rgba{0, 0, 0, 0}, Rgba{255, 0, 0, 255}, Rgba{0, 128, 255, 128}};
    vox.voxels.assign(16, 1);
    vox.voxels[vox.index(3, 1, 1)] = 2;
    SkelJoint child;
    child.id = 20;
    child.parent = 10;
    child.name = "arm";
    child.bind.t = {2, 0, 0};
    SkelJoint root;
    root.id = 10;
    root.parent = -1;
    root.name = "body";
    skel.joints = {child, root};
    vskn.default_joint = 10;
    for (uint32_t z = 0; z < 2; ++z)
      for (uint32_t y = 0; y < 2; ++y)
        for (uint32_t x = 2; x < 4; ++x)
          vskn.bindings.push_back({static_cast<uint32_t>(vox.index(x, y, z)), 20});
    AnimClip wave;
    wave.id = 0;
    wave.name = "wave";
    wave.duration_ms = 1000;
    AnimTrack tr;
    tr.joint = 20;
    AnimKey k0;
    k0.time_ms = 0;
    k0.trs.t = {2, 0, 0};
    AnimKey k1 = k0;
    k1.time_ms = 1000;
    k1.trs.r = {0, 0, kS45, kS45};  // 90 deg about +z
    AnimKey k2 = k0;
    k2.time_ms = 250;
    k2.trs.t = {2, 3, 0};
    tr.keys = {k0, k2, k1};
    wave.tracks = {tr};
    AnimClip idle;
    idle.id = 1;
    idle.name = "idle";
    AnimTrack tr2;
    tr2.joint = 10;
    AnimKey i0;
    i0.time_ms = 0;
    i0.trs.r = {0, 0, 0, 1.0004f};  // slightly long: exported normalised
    tr2.keys = {i0};
    idle.tracks = {tr2};
    AnimClip empty;  // no tracks: no glTF animation (glTF needs a channel)
    empty.id = 2;
    anim.clips = {wave, idle, empty};
  }
};

json glb_json(const std::vector<uint8_t>& glb) {
  EXPECT_GE(glb.size(), 20u);
  EXPECT_EQ(testing::le_u32(glb, 0), 0x46546C67u);
  EXPECT_EQ(testing::le_u32(glb, 4), 2u);
  EXPECT_EQ(testing::le_u32(glb, 8), glb.size());
  const uint32_t json_len = testing::le_u32(glb, 12);
  EXPECT_EQ(testing::le_u32(glb, 16), 0x4E4F534Au);
  EXPECT_EQ(json_len % 4, 0u);
  const size_t bin_at = 20 + json_len;
  if (bin_at < glb.size()) {
    EXPECT_EQ(testing::le_u32(glb, bin_at + 4), 0x004E4942u);
    EXPECT_EQ(bin_at + 8 + testing::le_u32(glb, bin_at), glb.size());
  }
  return json::parse(glb.begin() + 20, glb.begin() + 20 + json_len);
}

TEST(ExportGltf, RigParsesAsGlbWithNodesMeshesAnimations) {
  SmallRig rig;
  auto glb = export_gltf(rig.vox, &rig.skel, &rig.vskn, &rig.anim);
  ASSERT_TRUE(glb.ok()) << glb.error().to_text();
  maybe_write("small_rig.glb", glb->data(), glb->size());
  const json doc = glb_json(*glb);
  EXPECT_EQ(doc["asset"]["version"], "2.0");
  // Nodes: one per joint, in SKEL order; the root (index 1) is the scene root, the arm its child.
  ASSERT_EQ(doc["nodes"].size(), 2u);
  EXPECT_EQ(doc["nodes"][0]["name"], "arm");
  EXPECT_EQ(doc["nodes"][1]["children"], json::array({0}));
  EXPECT_EQ(doc["scenes"][0]["nodes"], json::array({1}));
  // D23: the arm's bind translation (2, 0, 0) stays (2, 0, 0); a y offset would become -z.
  EXPECT_EQ(doc["nodes"][0]["translation"], json::array({2.0, 0.0, -0.0}));
  EXPECT_EQ(doc["meshes"].size(), 2u);
  EXPECT_TRUE(doc["nodes"][0].contains("mesh"));
  EXPECT_TRUE(doc["nodes"][1].contains("mesh"));
  // Half-transparent palette entry in use -> BLEND.
  EXPECT_EQ(doc["materials"][0]["alphaMode"], "BLEND");
  // Animations: "wave" (1 track) and "idle" (1 track); the empty clip is skipped.
  ASSERT_EQ(doc["animations"].size(), 2u);
  EXPECT_EQ(doc["animations"][0]["name"], "wave");
  EXPECT_EQ(doc["animations"][0]["channels"].size(), 3u);
  EXPECT_EQ(doc["animations"][0]["samplers"].size(), 3u);
  EXPECT_EQ(doc["animations"][0]["samplers"][0]["interpolation"], "LINEAR");
  EXPECT_EQ(doc["animations"][0]["channels"][0]["target"]["node"], 0);
  EXPECT_EQ(doc["animations"][0]["channels"][1]["target"]["path"], "rotation");
  // Inputs: seconds as binary32 (0, 0.25, 1.0) with min/max.
  const int input = doc["animations"][0]["samplers"][0]["input"];
  EXPECT_EQ(doc["accessors"][input]["count"], 3);
  EXPECT_EQ(doc["accessors"][input]["min"][0], 0.0);
  EXPECT_EQ(doc["accessors"][input]["max"][0], 1.0);
  // POSITION accessors carry min/max: the arm's mesh is in its bind-local frame, so its x runs
  // 0..2 (grid x 2..4 minus the bind translation); grid z 0..2 becomes glTF y 0..2, grid y 0..2
  // becomes glTF z -2..0.
  const int arm_mesh = doc["nodes"][0]["mesh"];
  const int pos = doc["meshes"][arm_mesh]["primitives"][0]["attributes"]["POSITION"];
  EXPECT_EQ(doc["accessors"][pos]["min"], json::array({0.0, 0.0, -2.0}));
  EXPECT_EQ(doc["accessors"][pos]["max"], json::array({2.0, 2.0, 0.0}));
  EXPECT_TRUE(doc["meshes"][arm_mesh]["primitives"][0]["attributes"].contains("COLOR_0"));

  // The rotation output of "idle" is normalised: read it back from the BIN chunk.
  const int rot_sampler = doc["animations"][1]["channels"][1]["sampler"];
  const int rot = doc["animations"][1]["samplers"][rot_sampler]["output"];
  const int view = doc["accessors"][rot]["bufferView"];
  const size_t bin_at = 20 + testing::le_u32(*glb, 12) + 8;
  const size_t off = bin_at + doc["bufferViews"][view]["byteOffset"].get<size_t>();
  float q[4];
  std::memcpy(q, glb->data() + off, sizeof q);
  EXPECT_EQ(q[3], 1.0f);

  // STEP samplers on request.
  auto step =
      export_gltf(rig.vox, &rig.skel, &rig.vskn, &rig.anim, GltfOptions{GltfInterpolation::Step});
  ASSERT_TRUE(step.ok());
  maybe_write("small_rig_step.glb", step->data(), step->size());
  EXPECT_EQ(glb_json(*step)["animations"][0]["samplers"][2]["interpolation"], "STEP");
}

TEST(ExportGltf, StaticModelAndColours) {
  SmallRig rig;
  rig.vox.voxels[rig.vox.index(3, 1, 1)] = 1;  // only the opaque colour in use
  auto glb = export_gltf(rig.vox, nullptr, nullptr, nullptr);
  ASSERT_TRUE(glb.ok());
  maybe_write("small_static.glb", glb->data(), glb->size());
  const json doc = glb_json(*glb);
  EXPECT_EQ(doc["nodes"].size(), 1u);
  EXPECT_EQ(doc["materials"][0]["alphaMode"], "OPAQUE");
  EXPECT_FALSE(doc.contains("animations"));
  // A solid 4x2x2 box: greedy gives one quad per side = 24 vertices, grid x 0..4, glTF
  // y (grid z) 0..2, glTF z (-grid y) -2..0.
  const int pos = doc["meshes"][0]["primitives"][0]["attributes"]["POSITION"];
  EXPECT_EQ(doc["accessors"][pos]["count"], 24);
  EXPECT_EQ(doc["accessors"][pos]["min"], json::array({0.0, 0.0, -2.0}));
  EXPECT_EQ(doc["accessors"][pos]["max"], json::array({4.0, 2.0, 0.0}));
  // COLOR_0 is linear: sRGB 255 -> 1.0, 0 -> 0.0 (red).
  const int colour = doc["meshes"][0]["primitives"][0]["attributes"]["COLOR_0"];
  const int view = doc["accessors"][colour]["bufferView"];
  const size_t off =
      20 + testing::le_u32(*glb, 12) + 8 + doc["bufferViews"][view]["byteOffset"].get<size_t>();
  float c[4];
  std::memcpy(c, glb->data() + off, sizeof c);
  EXPECT_EQ(c[0], 1.0f);
  EXPECT_EQ(c[1], 0.0f);
  EXPECT_EQ(c[3], 1.0f);
}

// The .gltf text is the GLB's JSON with buffers[0].uri added: a data URI whose base64 is the
// BIN chunk's bytes. A joint name that is not UTF-8 (a hand-built model) is repaired, so both
// documents stay JSON.
TEST(ExportGltf, TextFormEmbedsTheBufferAndNamesStayUtf8) {
  SmallRig rig;
  rig.skel.joints[0].name = "arm\xff";
  auto parts = export_gltf_parts(rig.vox, &rig.skel, &rig.vskn, &rig.anim);
  ASSERT_TRUE(parts.ok()) << parts.error().to_text();
  std::string text;
  ASSERT_TRUE(write_gltf_json(*parts, UINT64_MAX, [&](std::string_view p) { text += p; }).ok());
  ASSERT_EQ(text.back(), '\n');
  const json doc = json::parse(text);  // throws on invalid JSON or UTF-8
  EXPECT_EQ(doc["nodes"][0]["name"], "arm\xef\xbf\xbd");
  EXPECT_EQ(doc["buffers"].size(), 1u);
  EXPECT_EQ(doc["buffers"][0]["byteLength"], parts->bin.size());
  const std::string uri = doc["buffers"][0]["uri"];
  const std::string prefix = "data:application/octet-stream;base64,";
  ASSERT_EQ(uri.substr(0, prefix.size()), prefix);
  // Decode the base64 by hand: it must give the buffer back.
  static const std::string kAlphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::vector<uint8_t> decoded;
  uint32_t acc = 0;
  int bits = 0;
  for (char c : uri.substr(prefix.size())) {
    if (c == '=') break;
    acc = acc << 6 | static_cast<uint32_t>(kAlphabet.find(c));
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      decoded.push_back(static_cast<uint8_t>(acc >> bits));
    }
  }
  EXPECT_EQ(decoded, parts->bin);
  // Without the uri, the text's JSON is the GLB's.
  json glb_doc = doc;
  glb_doc["buffers"][0].erase("uri");
  const auto glb = export_gltf(rig.vox, &rig.skel, &rig.vskn, &rig.anim);
  ASSERT_TRUE(glb.ok());
  EXPECT_EQ(glb_json(*glb), glb_doc);
  // The size is known before the first byte: one byte short is limit.output, nothing written.
  bool wrote = false;
  const Status over =
      write_gltf_json(*parts, text.size() - 1, [&](std::string_view) { wrote = true; });
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.error().code, ErrorCode::LimitOutput);
  EXPECT_FALSE(wrote);
}

TEST(ExportGltf, Errors) {
  SmallRig rig;
  EXPECT_EQ(export_gltf(rig.vox, &rig.skel, nullptr, nullptr).error().code,
            ErrorCode::RigIncomplete);
  EXPECT_EQ(export_gltf(rig.vox, nullptr, nullptr, &rig.anim).error().code,
            ErrorCode::RigIncomplete);
  rig.vskn.bindings[0].joint = 99;
  EXPECT_EQ(export_gltf(rig.vox, &rig.skel, &rig.vskn, nullptr).error().code,
            ErrorCode::VsknJointMissing);
}

TEST(ExportGltf, SingularBindJointStaysAtBind) {
  SmallRig rig;
  rig.skel.joints[0].bind.s = {0, 1, 1};
  auto glb = export_gltf(rig.vox, &rig.skel, &rig.vskn, &rig.anim);
  ASSERT_TRUE(glb.ok());
  maybe_write("singular_bind.glb", glb->data(), glb->size());
  const json doc = glb_json(*glb);
  ASSERT_EQ(doc["nodes"].size(), 3u);
  EXPECT_EQ(doc["nodes"][2]["name"], "arm.bind");
  EXPECT_FALSE(doc["nodes"][0].contains("mesh"));
  EXPECT_EQ(doc["scenes"][0]["nodes"], json::array({1, 2}));
}

TEST(ExportGltf, LargerRandomRig) {
  // 16^3, ~60% filled, 4 palette entries; 8 joints (a chain of x-slabs, listed in reverse);
  // two clips rotating every joint. Counts: one node per joint, one mesh per joint with quads,
  // 3 channels per track.
  std::mt19937 rng(5);
  Vox0 vox;
  vox.size_x = vox.size_y = vox.size_z = 16;
  vox.palette = {Rgba{}, Rgba{200, 30, 30, 255}, Rgba{30, 200, 30, 255}, Rgba{30, 30, 200, 255},
                 Rgba{240, 240, 240, 255}};
  vox.voxels.resize(4096);
  for (auto& v : vox.voxels) v = rng() % 10 < 6 ? uint8_t(1 + rng() % 4) : 0;
  Skel skel;
  Vskn vskn;
  vskn.default_joint = 0;
  for (int j = 7; j >= 0; --j) {
    SkelJoint sj;
    sj.id = uint16_t(j);
    sj.parent = int16_t(j - 1);
    sj.name = "slab" + std::to_string(j);
    sj.bind.t = {j == 0 ? 0.0f : 2.0f, 0, 0};
    skel.joints.push_back(sj);
  }
  for (uint32_t i = 0; i < 4096; ++i) {
    const uint16_t j = uint16_t((i % 16) / 2);
    if (vox.voxels[i] != 0 && j != 0) vskn.bindings.push_back({i, j});
  }
  Anim anim;
  for (uint16_t c = 0; c < 2; ++c) {
    AnimClip clip;
    clip.id = c;
    clip.name = c == 0 ? "bend" : "twist";
    clip.duration_ms = 2000;
    for (uint16_t j = 0; j < 8; ++j) {
      AnimTrack tr;
      tr.joint = j;
      for (uint32_t k = 0; k < 5; ++k) {
        AnimKey key;
        key.time_ms = k * 500;
        key.trs.t = {j == 0 ? 0.0f : 2.0f, 0, 0};
        const float a = 0.2f * float(k) * (c == 0 ? 1.0f : -1.0f);
        key.trs.r =
            c == 0 ? Quat{0, std::sin(a), 0, std::cos(a)} : Quat{std::sin(a), 0, 0, std::cos(a)};
        tr.keys.push_back(key);
      }
      clip.tracks.push_back(tr);
    }
    anim.clips.push_back(clip);
  }
  auto glb = export_gltf(vox, &skel, &vskn, &anim);
  ASSERT_TRUE(glb.ok()) << glb.error().to_text();
  maybe_write("random_rig.glb", glb->data(), glb->size());
  const json doc = glb_json(*glb);
  EXPECT_EQ(doc["nodes"].size(), 8u);
  EXPECT_EQ(doc["meshes"].size(), 8u);
  ASSERT_EQ(doc["animations"].size(), 2u);
  EXPECT_EQ(doc["animations"][1]["name"], "twist");
  EXPECT_EQ(doc["animations"][1]["channels"].size(), 24u);
}

std::vector<std::string> lines_starting(const std::string& text, const std::string& prefix) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(prefix, 0) == 0) out.push_back(line);
  return out;
}

TEST(ExportObj, QuadsGroupsAndWinding) {
  // One +z quad at z=1 covering x 0..2, y 0..1: CCW seen from +z.
  std::vector<Quad> quads = {Quad{0, 0, 1, 2, 1, 2, 1, 5, 1}, Quad{0, 0, 0, 2, 1, 2, 0, 7, 9}};
  const std::vector<Rgba> palette = {Rgba{}, Rgba{255, 0, 51, 255}};
  const std::string obj = export_obj(quads, palette);
  maybe_write("two_quads.obj", obj.data(), obj.size());
  const auto v = lines_starting(obj, "v ");
  ASSERT_EQ(v.size(), 8u);
  EXPECT_EQ(v[0], "v 0 0 1 1 0 0.2");
  EXPECT_EQ(v[1], "v 2 0 1 1 0 0.2");
  EXPECT_EQ(v[2], "v 2 1 1 1 0 0.2");
  EXPECT_EQ(v[3], "v 0 1 1 1 0 0.2");
  // The -z quad runs the other way round (and material 9 has no palette entry: no colour).
  EXPECT_EQ(v[4], "v 0 0 0");
  EXPECT_EQ(v[5], "v 0 1 0");
  EXPECT_EQ(lines_starting(obj, "f "), (std::vector<std::string>{"f 1 2 3 4", "f 5 6 7 8"}));
  EXPECT_EQ(lines_starting(obj, "g "), (std::vector<std::string>{"g joint_5", "g joint_7"}));
}

TEST(ExportObj, PosedMovesEachJointRigidly) {
  SmallRig rig;
  auto rt = RigRuntime::build(rig.skel, &rig.anim);
  ASSERT_TRUE(rt.ok());
  auto jm = joint_map(rig.vox, rig.vskn);
  ASSERT_TRUE(jm.ok());
  // Clip "wave" at 1000 ms: the arm (bind T(2,0,0)) is rotated 90 deg about +z at (2,0,0).
  // Grid point (4, 0, 0) (the arm's far corner) -> local (2,0,0) -> rotated (0,2,0) -> (2,2,0).
  auto obj = export_posed_obj(rig.vox, *jm, *rt,
                              PoseRequest{0, 1000, SamplePolicy::Linear, TimeMode::Clamp});
  ASSERT_TRUE(obj.ok());
  maybe_write("small_rig_posed.obj", obj->data(), obj->size());
  const auto groups = lines_starting(*obj, "g ");
  EXPECT_EQ(groups, (std::vector<std::string>{"g joint_10", "g joint_20"}));
  const auto verts = lines_starting(*obj, "v ");
  bool found_far_corner = false, found_unmoved_body = false;
  for (const std::string& line : verts) {
    float x, y, z;
    ASSERT_EQ(std::sscanf(line.c_str(), "v %f %f %f", &x, &y, &z), 3);
    if (std::fabs(x - 2) < 1e-5f && std::fabs(y - 2) < 1e-5f && std::fabs(z) < 1e-5f)
      found_far_corner = true;
    if (x == 0 && y == 2 && z == 2) found_unmoved_body = true;
    EXPECT_GE(y, -1e-5f);  // nothing swings below y = 0
  }
  EXPECT_TRUE(found_far_corner);
  EXPECT_TRUE(found_unmoved_body);
  EXPECT_EQ(
      export_posed_obj(rig.vox, *jm, *rt, PoseRequest{7, 0, SamplePolicy::Linear, TimeMode::Clamp})
          .error()
          .code,
      ErrorCode::EvalBadClip);
}

}  // namespace
}  // namespace voxrig
