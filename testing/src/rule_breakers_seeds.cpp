// The deep seed files of voxrig/testing/rule_breakers.h: valid files long enough that every
// breaker position (the 5th key, the 4th joint, the 7th record, the 4th bone, the 6th clip)
// exists. Built from models with the library's writers, so they are valid by construction; each
// is still checked against the reference, and a seed it rejects is dropped (a test sees that).
#include "voxrig/any_format.h"
#include "voxrig/kfa.h"
#include "voxrig/kv6.h"
#include "voxrig/rkc.h"
#include "voxrig/rvc.h"
#include "voxrig/testing/gen.h"
#include "voxrig/testing/rule_breakers.h"
#include "voxrig/vfp.h"

namespace voxrig::testing {
namespace {

// 6x6x6 grid (voxel k empty when k % 7 == 3, so VSKN-11 has targets), joints 10, 20, ..., 100
// (a chain 10 <- 20 <- ... <- 60, then 70..100 hang off 10..40), a record on every 4th filled
// voxel, 8 clips of 6 tracks x 9 keys; 5 sections, the 3rd an unknown optional one.
std::vector<uint8_t> deep_vfp() {
  Vox0 g;
  g.size_x = g.size_y = g.size_z = 6;
  g.palette = {{0, 0, 0, 0}, {200, 40, 40, 255}, {40, 200, 40, 255}, {40, 40, 200, 255}};
  for (uint32_t k = 0; k < 216; ++k) g.voxels.push_back(k % 7 == 3 ? 0 : uint8_t(1 + k % 3));
  Skel s;
  for (uint16_t j = 0; j < 10; ++j) {
    SkelJoint jt;
    jt.id = uint16_t(10 * (j + 1));
    jt.parent = j == 0 ? int16_t(-1) : j < 6 ? int16_t(10 * j) : int16_t(10 * (j - 5));
    jt.bind.t = {float(j), 0, 0};
    jt.name = "joint" + std::to_string(j);
    s.joints.push_back(jt);
  }
  Vskn v;
  v.default_joint = 10;
  for (uint32_t k = 0; k < 216; k += 4)
    if (g.voxels[k]) v.bindings.push_back({k, uint16_t(20 + 10 * ((k / 4) % 9))});
  Anim a;
  for (uint16_t c = 0; c < 8; ++c) {
    AnimClip clip;
    clip.id = uint16_t(1 + 2 * c);
    clip.duration_ms = 1000 + 100u * c;
    clip.name = "clip" + std::to_string(c);
    for (uint16_t t = 0; t < 6; ++t) {
      AnimTrack track;
      track.joint = uint16_t(10 * (t + 1));
      for (uint32_t k = 0; k < 9; ++k) {
        AnimKey key;
        key.time_ms = 100 * k;
        key.trs.t = {float(k), float(t), 0};
        key.trs.r = {0, 0, 0.6f, 0.8f};
        track.keys.push_back(key);
      }
      clip.tracks.push_back(std::move(track));
    }
    a.clips.push_back(std::move(clip));
  }
  VfpFile f;
  f.sections.push_back({{make_tag("VOX0"), -1, 0, kSectionRequired}, std::move(g)});
  f.sections.push_back({{make_tag("SKEL"), -1, 0, 0}, std::move(s)});
  // The 3rd of 5 sections is unknown and optional: a reader keeps it (VFP-SEC-8), and the
  // section breakers strike it as their deep position.
  f.sections.push_back({{make_tag("XTRA"), 7, 3, 0}, RawPayload{{1, 2, 3, 4, 5, 6, 7, 8}}});
  f.sections.push_back({{make_tag("VSKN"), -1, 0, 0}, std::move(v)});
  f.sections.push_back({{make_tag("ANIM"), -1, 0, 0}, std::move(a)});
  rebind(f);
  auto bytes = encode_vfp(f);
  return bytes.ok() ? std::move(bytes).value() : std::vector<uint8_t>{};
}

// A 6x5x40 clip (two occupancy words per column) of 12 frames, a key every 4th and deltas between
// (the frames differ), with TIME; FRMS is deflated (D4), so the deflate breaker has a stream.
std::vector<uint8_t> deep_rvc() {
  constexpr uint32_t kX = 6, kY = 5, kZ = 40, kFrames = 12;
  const uint32_t owpc = rvc_owpc(kZ);
  std::vector<RvcVoxelFrame> frames;
  for (uint32_t f = 0; f < kFrames; ++f) {
    RvcVoxelFrame fr;
    fr.occupancy.assign(size_t{kX} * kY * owpc, 0);
    fr.color_offsets.push_back(0);
    for (uint32_t col = 0; col < kX * kY; ++col) {
      for (uint32_t z = 0; z < kZ; ++z)
        if ((col + z + f) % 5 == 0) {
          fr.occupancy[col * owpc + (z >> 5)] |= uint32_t{1} << (z & 31);
          fr.colors.push_back(0x80000000u | ((col * 0x010203u + z * 0x040000u) & 0xFFFFFFu));
        }
      fr.color_offsets.push_back(uint32_t(fr.colors.size()));
    }
    frames.push_back(std::move(fr));
  }
  const std::vector<uint32_t> durations(kFrames, 80);
  RvcClip clip = rvc_from_frames({kX, kY, kZ}, {3, 2.5f, 0}, 0.1f, RvcLoopMode::Loop, frames,
                                 durations, 80, 4);
  auto bytes = encode_rvc(clip);
  return bytes.ok() ? std::move(bytes).value() : std::vector<uint8_t>{};
}

// An 8x6x12 sprite of 96 voxels, two per column, with consistent run tables.
Kv6 deep_kv6_model() {
  Kv6 k;
  k.xsiz = 8, k.ysiz = 6, k.zsiz = 12;
  k.pivot = {4, 3, 6};
  for (uint32_t x = 0; x < k.xsiz; ++x) {
    for (uint32_t y = 0; y < k.ysiz; ++y) {
      for (uint16_t z : {uint16_t(x % 3), uint16_t(5 + y % 4)}) {
        Kv6Voxel v;
        v.col = 0x80000000u | (x * 0x200000u + y * 0x2000u + z * 0x10u);
        v.z = z;
        v.vis = 0x3F;
        k.voxels.push_back(v);
      }
      k.ylen.push_back(2);
    }
    k.xlen.push_back(2 * k.ysiz);
  }
  return k;
}

std::vector<uint8_t> deep_kv6() {
  auto bytes = encode_kv6(deep_kv6_model());
  return bytes.ok() ? std::move(bytes).value() : std::vector<uint8_t>{};
}

// 8 hinges (a chain of 5, then 3 off the root, as the RKCH seed's bones), 6 frames, 2 seq entries.
std::vector<uint8_t> deep_kfa() {
  Kfa k;
  const std::string name = "deep.kv6";
  k.kv6_name.assign(name.begin(), name.end());
  for (int32_t h = 0; h < 8; ++h) {
    Hinge hinge;
    hinge.parent = h == 0 ? -1 : h < 5 ? h - 1 : 0;
    hinge.v[0] = {0, 0, 1};
    hinge.v[1] = {0, 0, 1};
    k.hinges.push_back(hinge);
  }
  k.frame_count = 6;
  for (int16_t i = 0; i < 48; ++i) k.frames.push_back(int16_t(i * 300));
  k.seq = {{0, 0}, {100, 5}};
  auto bytes = encode_kfa(k);
  return bytes.ok() ? std::move(bytes).value() : std::vector<uint8_t>{};
}

// The meshes and voxel clips of the first medium generated character that has both, under 8
// bones (a chain of 5, then 3 off the root; a Static and a Clip attachment each) and 7 skeletal
// clips of 2 frames; VCLP holds 7 copies of deep_rvc's clip, so the 6th clip has a deep frame,
// and MSHS 4 copies of deep_kv6's sprite.
std::vector<uint8_t> deep_rkc() {
  const std::vector<uint8_t> rvc = deep_rvc();
  auto clip = decode_rvc(rvc, 0, DecodeOptions{Profile::RkcStrict, Limits{}});
  if (!clip.ok()) return {};
  for (uint64_t i = 0; i < 256; ++i) {
    const gen::GenCase gc =
        gen::generate_case(gen::GenFormat::Rkc, gen::case_seed(0xDEE9, i), gen::GenSize::Medium,
                           false);
    auto decoded = decode_rkc(gc.bytes, DecodeOptions{Profile::RkcStrict, Limits{}});
    if (!decoded.ok()) continue;
    Character c = std::move(decoded).value();
    if (c.meshes.empty() || c.voxel_clips.empty() || c.bones.empty()) continue;
    c.voxel_clips.assign(7, clip.value());
    c.meshes.assign(4, deep_kv6_model());
    const Hinge hinge = c.bones[0].hinge;
    c.bones.clear();
    for (uint32_t b = 0; b < 8; ++b) {
      Bone bone;
      bone.name = "bone" + std::to_string(b);
      bone.hinge = hinge;
      bone.hinge.parent = b == 0 ? -1 : b < 5 ? int32_t(b - 1) : 0;
      Attachment st, cl;
      st.kind = AttachmentKind::Static;
      st.index = b % uint32_t(c.meshes.size());
      cl.kind = AttachmentKind::Clip;
      cl.index = b % uint32_t(c.voxel_clips.size());
      bone.attachments = {st, cl};
      c.bones.push_back(std::move(bone));
    }
    c.clips.clear();
    for (uint32_t k = 0; k < 7; ++k) {
      SkeletalClip s;
      s.frame_count = 2;
      s.numhin = 8;
      s.frames.assign(16, BoneXform{});
      s.seq = {{0, 0}, {100, 1}};
      c.clips.push_back({"clip" + std::to_string(k), std::move(s)});
    }
    auto bytes = encode_rkc(c);
    if (bytes.ok()) return std::move(bytes).value();
  }
  return {};
}

}  // namespace

std::vector<conform::FuzzSeed> deep_seeds(Profile profile) {
  std::vector<conform::FuzzSeed> seeds;
  if (profile == Profile::VfpStatic || profile == Profile::VfpRig)
    seeds.push_back({"deep:vfp", deep_vfp()});
  else
    seeds = {{"deep:rkc", deep_rkc()},
             {"deep:rvc", deep_rvc()},
             {"deep:kv6", deep_kv6()},
             {"deep:kfa", deep_kfa()}};
  std::erase_if(seeds, [&](const conform::FuzzSeed& s) {
    return s.bytes.empty() || !conform::reference_answer(s.bytes, profile).accept;
  });
  return seeds;
}

}  // namespace voxrig::testing
