// The deterministic generators behind voxrig/testing/perf_inputs.h. Seeds are fixed constants;
// std::mt19937_64 and the arithmetic below are fully specified by the standard, so every
// machine generates the same inputs (std::*_distribution is avoided: its algorithm is not).
#include "voxrig/testing/perf_inputs.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <utility>

#include "voxrig/enum_names.h"
#include "voxrig/vfp.h"

namespace voxrig::perf {

namespace {

using Rng = std::mt19937_64;

// Uniform in [0, 1) from the top 53 bits (exactly reproducible).
double unit(Rng& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }
float uniform(Rng& rng, float lo, float hi) {
  return lo + static_cast<float>(unit(rng)) * (hi - lo);
}
uint32_t below(Rng& rng, uint32_t n) { return static_cast<uint32_t>(unit(rng) * n); }

Quat random_unit_quat(Rng& rng) {
  for (;;) {
    const float x = uniform(rng, -1, 1), y = uniform(rng, -1, 1), z = uniform(rng, -1, 1),
                w = uniform(rng, -1, 1);
    const float len = std::sqrt(x * x + y * y + z * z + w * w);
    if (len > 0.1f && len <= 1) return Quat{x / len, y / len, z / len, w / len};
  }
}

Trs random_trs(Rng& rng) {
  Trs t;
  t.t = {uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1)};
  t.r = random_unit_quat(rng);
  t.s = {uniform(rng, 0.8f, 1.2f), uniform(rng, 0.8f, 1.2f), uniform(rng, 0.8f, 1.2f)};
  return t;
}

Vox0 make_grid(GridKind kind, uint32_t n) {
  Vox0 g;
  g.size_x = g.size_y = g.size_z = static_cast<uint16_t>(n);
  g.voxels.assign(size_t{n} * n * n, 0);
  Rng rng(0x5EED0000u + n);
  const double c = n / 2.0, r = n / 2.0 - 1;
  const double pi = 3.14159265358979323846;
  std::vector<uint32_t> height(size_t{n} * n);
  for (uint32_t y = 0; y < n; ++y)
    for (uint32_t x = 0; x < n; ++x) {
      const double u = double(x) / n, v = double(y) / n;
      const double h = 0.45 + 0.18 * std::sin(2 * pi * 1.5 * u) + 0.12 * std::cos(2 * pi * 2 * v) +
                       0.08 * std::sin(2 * pi * 3 * (u + v)) + 0.04 * std::sin(2 * pi * 7 * u);
      height[x + size_t{n} * y] = static_cast<uint32_t>(std::max(1.0, h * n));
    }
  for (uint32_t z = 0; z < n; ++z)
    for (uint32_t y = 0; y < n; ++y)
      for (uint32_t x = 0; x < n; ++x) {
        uint8_t v = 0;
        switch (kind) {
          case GridKind::Random50: {
            const uint64_t bits = rng();
            if (bits & 1) v = static_cast<uint8_t>(1 + (bits >> 1) % 8);
            break;
          }
          case GridKind::Sphere: {
            const double dx = x + 0.5 - c, dy = y + 0.5 - c, dz = z + 0.5 - c;
            if (dx * dx + dy * dy + dz * dz <= r * r) v = 1;
            break;
          }
          case GridKind::Terrain:
            if (z < height[x + size_t{n} * y])
              v = static_cast<uint8_t>(1 + std::min(3u, 4 * z / n));
            break;
        }
        g.voxels[g.index(x, y, z)] = v;
      }
  const uint32_t colours = kind == GridKind::Random50 ? 9 : kind == GridKind::Sphere ? 2 : 5;
  g.palette.push_back(Rgba{0, 0, 0, 0});
  for (uint32_t i = 1; i < colours; ++i)
    g.palette.push_back(Rgba{uint8_t(40 * i), uint8_t(255 - 30 * i), uint8_t(17 * i), 255});
  return g;
}

// A bone named `name` with mesh `mesh` attached statically: every perf character's bone.
Bone bone_with_mesh(std::string name, uint32_t mesh) {
  Bone b;
  b.name = std::move(name);
  Attachment a;
  a.kind = AttachmentKind::Static;
  a.index = mesh;
  b.attachments.push_back(a);
  return b;
}

}  // namespace

void require(bool ok, const std::string& what) {
  if (ok) return;
  std::fprintf(stderr, "voxrig_bench: input generation failed: %s\n", what.c_str());
  std::abort();
}

const char* grid_name(GridKind kind) {
  // string_view of a literal: data() is the literal, so NUL-terminated.
  static constexpr EnumName<GridKind> kNames[] = {{GridKind::Random50, "random50"},
                                                  {GridKind::Sphere, "sphere"},
                                                  {GridKind::Terrain, "terrain"}};
  return name_of(kNames, kind, "?").data();
}

const Vox0& grid(GridKind kind, uint32_t n) {
  static std::map<std::pair<int, uint32_t>, std::unique_ptr<Vox0>> cache;
  auto& slot = cache[{static_cast<int>(kind), n}];
  if (!slot) slot = std::make_unique<Vox0>(make_grid(kind, n));
  return *slot;
}

const std::vector<uint16_t>& joint_map(uint32_t joints, uint32_t n) {
  static std::map<std::pair<uint32_t, uint32_t>, std::unique_ptr<std::vector<uint16_t>>> cache;
  auto& slot = cache[{joints, n}];
  if (slot) return *slot;
  require(joints == 1 || joints == 8 || joints == 64, "joint maps have 1, 8 or 64 joints");
  slot = std::make_unique<std::vector<uint16_t>>(size_t{n} * n * n, 0);
  std::vector<uint16_t>& m = *slot;
  for (uint32_t z = 0; z < n; ++z)
    for (uint32_t y = 0; y < n; ++y)
      for (uint32_t x = 0; x < n; ++x) {
        uint16_t j = 0;
        if (joints == 8) j = static_cast<uint16_t>(8 * x / n);
        if (joints == 64) j = static_cast<uint16_t>(4 * x / n + 4 * (4 * y / n) + 16 * (4 * z / n));
        m[x + size_t{n} * (y + size_t{n} * z)] = j;
      }
  return m;
}

Skel forest_skel(uint32_t joints, uint64_t seed) {
  Rng rng(seed);
  Skel s;
  s.joints.reserve(joints);
  for (uint32_t i = 0; i < joints; ++i) {
    SkelJoint j;
    j.id = static_cast<uint16_t>(i);
    j.parent = (i == 0 || below(rng, 32) == 0) ? int16_t{-1} : static_cast<int16_t>(below(rng, i));
    j.bind = random_trs(rng);
    j.name = "joint_" + std::to_string(i);
    s.joints.push_back(std::move(j));
  }
  return s;
}

Anim pose_anim(const Skel& skel, uint32_t keys, uint64_t seed) {
  Rng rng(seed);
  Anim a;
  AnimClip clip;
  clip.id = 0;
  clip.duration_ms = 1000;
  clip.name = "loop";
  for (const SkelJoint& j : skel.joints) {
    AnimTrack t;
    t.joint = j.id;
    for (uint32_t k = 0; k < keys; ++k) {
      AnimKey key;
      key.time_ms =
          keys == 1 ? 0 : static_cast<uint32_t>((uint64_t{k} * 1000 + (keys - 1) / 2) / (keys - 1));
      key.trs = random_trs(rng);
      t.keys.push_back(key);
    }
    clip.tracks.push_back(std::move(t));
  }
  a.clips.push_back(std::move(clip));
  return a;
}

Anim pose_anim_distinct_times(const Skel& skel, uint32_t keys, uint64_t seed) {
  Anim a = pose_anim(skel, keys, seed);
  std::vector<AnimTrack>& tracks = a.clips[0].tracks;
  for (size_t i = 0; i < tracks.size(); ++i)
    for (size_t k = 1; k + 1 < tracks[i].keys.size(); ++k)
      tracks[i].keys[k].time_ms += static_cast<uint32_t>(1 + i % 15);
  return a;
}

Anim anim_with_keys(uint32_t total_keys, Skel& skel_out) {
  const uint32_t tracks = (total_keys + 29) / 30;
  skel_out = forest_skel(tracks, 0xA11Eu);
  Anim a = pose_anim(skel_out, 30, 0xA11Fu);
  std::vector<AnimKey>& last = a.clips[0].tracks.back().keys;
  last.resize(total_keys - 30 * (tracks - 1));
  return a;
}

Vskn vskn_from_map(const Vox0& vox0, const std::vector<uint16_t>& joints) {
  Vskn v;
  v.default_joint = 0;
  for (size_t i = 0; i < vox0.voxels.size(); ++i)
    if (vox0.voxels[i] != 0 && joints[i] != 0)
      v.bindings.push_back(VsknBinding{static_cast<uint32_t>(i), joints[i]});
  return v;
}

VfpFile rig_file(GridKind kind, uint32_t n, uint32_t joints) {
  VfpFile f;
  const auto section = [](const char(&tag)[5], uint8_t flags, auto body) {
    Section s;
    s.header.tag = make_tag(tag);
    s.header.flags = flags;
    s.body = std::move(body);
    return s;
  };
  const Skel skel = forest_skel(joints, 0x5CE1u + joints);
  f.sections.push_back(section("VOX0", kSectionRequired, grid(kind, n)));
  f.sections.push_back(section("SKEL", 0, skel));
  f.sections.push_back(section("VSKN", 0, vskn_from_map(grid(kind, n), joint_map(joints, n))));
  f.sections.push_back(section("ANIM", 0, pose_anim(skel, 30, 0xA2u + joints)));
  rebind(f);
  return f;
}

Kv6 kv6_from_grid(const Vox0& g) {
  Kv6 k;
  k.xsiz = g.size_x;
  k.ysiz = g.size_y;
  k.zsiz = g.size_z;
  k.pivot = {g.size_x / 2.0f, g.size_y / 2.0f, g.size_z / 2.0f};
  k.xlen.assign(k.xsiz, 0);
  k.ylen.assign(size_t{k.xsiz} * k.ysiz, 0);
  const auto solid = [&](int64_t x, int64_t y, int64_t z) {
    if (x < 0 || y < 0 || z < 0 || x >= g.size_x || y >= g.size_y || z >= g.size_z) return false;
    return g.voxels[g.index(uint32_t(x), uint32_t(y), uint32_t(z))] != 0;
  };
  for (uint32_t x = 0; x < k.xsiz; ++x)
    for (uint32_t y = 0; y < k.ysiz; ++y)
      for (uint32_t z = 0; z < k.zsiz; ++z) {
        const uint8_t v = g.voxels[g.index(x, y, z)];
        if (v == 0) continue;
        uint8_t vis = 0;
        if (!solid(x - 1, y, z)) vis |= 0x01;
        if (!solid(x + 1, y, z)) vis |= 0x02;
        if (!solid(x, y - 1, z)) vis |= 0x04;
        if (!solid(x, y + 1, z)) vis |= 0x08;
        if (!solid(x, y, z - 1)) vis |= 0x10;
        if (!solid(x, y, z + 1)) vis |= 0x20;
        if (vis == 0) continue;  // KV6 keeps surface voxels only
        const Rgba c = g.palette[v];
        k.voxels.push_back(Kv6Voxel{0x80000000u | uint32_t{c.r} << 16 | uint32_t{c.g} << 8 | c.b,
                                    static_cast<uint16_t>(z), vis, 0});
        ++k.xlen[x];
        ++k.ylen[size_t{x} * k.ysiz + y];
      }
  return k;
}

RvcClip moving_ball_clip(uint32_t d, uint32_t frames) {
  const uint32_t owpc = rvc_owpc(d);
  std::vector<RvcVoxelFrame> fs(frames);
  const double r = d / 3.0;
  for (uint32_t f = 0; f < frames; ++f) {
    RvcVoxelFrame& fr = fs[f];
    fr.occupancy.assign(size_t{d} * d * owpc, 0);
    fr.color_offsets.assign(size_t{d} * d + 1, 0);
    const double cx = r + f % (d - 2 * uint32_t(r) + 1), c = d / 2.0;
    for (uint32_t y = 0; y < d; ++y)
      for (uint32_t x = 0; x < d; ++x) {
        const size_t col = x + size_t{y} * d;
        for (uint32_t z = 0; z < d; ++z) {
          const double dx = x + 0.5 - cx, dy = y + 0.5 - c, dz = z + 0.5 - c;
          if (dx * dx + dy * dy + dz * dz > r * r) continue;
          fr.occupancy[col * owpc + (z >> 5)] |= 1u << (z & 31);
          fr.colors.push_back(0x80000000u | (z * 8) << 16 | (y * 8) << 8 | (x * 8));
        }
        fr.color_offsets[col + 1] = static_cast<uint32_t>(fr.colors.size());
      }
  }
  return rvc_from_frames({d, d, d}, {d / 2.0f, d / 2.0f, 0}, 1.0f, RvcLoopMode::Loop, fs, {}, 33,
                         8);
}

Character character(uint32_t bones, bool voxel_clips) {
  Rng rng(0xC4A2u + bones);
  Character c;
  c.name = "bench_" + std::to_string(bones);
  c.root = {1, 2, 3};
  // Every bone gets its own copy of the mesh, so the MSHS size grows with the bone count.
  const Kv6 shell = kv6_from_grid(grid(GridKind::Sphere, 16));
  const uint32_t clips = voxel_clips ? std::max(1u, bones / 10) : 0;
  const RvcClip vclip = voxel_clips ? moving_ball_clip(16, 8) : RvcClip{};
  for (uint32_t i = 0; i < clips; ++i) c.voxel_clips.push_back(vclip);
  for (uint32_t i = 0; i < bones; ++i) {
    c.meshes.push_back(shell);
    Bone b = bone_with_mesh("bone_" + std::to_string(i), i);
    if (voxel_clips && i % 10 == 0 && i / 10 < clips) {
      Attachment v;
      v.kind = AttachmentKind::Clip;
      v.index = i / 10;
      b.attachments.push_back(v);
    }
    b.hinge.parent = i == 0 ? -1 : static_cast<int32_t>(below(rng, i));
    for (auto& p : b.hinge.p) p = {uniform(rng, -4, 4), uniform(rng, -4, 4), uniform(rng, -4, 4)};
    const std::array<float, 3> axis = {0, 0, 1};
    b.hinge.v = {axis, axis};
    b.hinge.vmin = -16384;
    b.hinge.vmax = 16384;
    c.bones.push_back(std::move(b));
  }
  SkeletalClip s;
  s.frame_count = 30;
  s.numhin = bones;
  for (uint32_t f = 0; f < 30; ++f)
    for (uint32_t i = 0; i < bones; ++i)
      s.frames.push_back(
          from_hinge_angle({0, 0, 1}, static_cast<int16_t>(int32_t(below(rng, 32768)) - 16384)));
  for (int32_t f = 0; f < 30; ++f) s.seq.push_back(Seq{f * 33, f});
  s.seq.push_back(Seq{30 * 33, -1});  // jump back to seq[0]: a 990 ms loop
  c.clips.push_back(Clip{"cycle", s});
  return c;
}

namespace {

// The seed's unit_kv6: one voxel of colour `col` in a 1x1x1 box.
Kv6 unit_kv6(uint32_t col) {
  Kv6 m;
  m.xsiz = m.ysiz = m.zsiz = 1;
  m.pivot = {0.5f, 0.5f, 0.5f};
  m.voxels = {Kv6Voxel{col, 0, 63, 0}};
  m.xlen = {1};
  m.ylen = {1};
  return m;
}

Hinge seed_hinge(int32_t parent) {
  Hinge h;
  h.parent = parent;
  h.v = {std::array<float, 3>{0, 0, 1}, std::array<float, 3>{0, 0, 1}};
  return h;
}

}  // namespace

Character seed_character(uint32_t bones, uint32_t frames) {
  Rng rng(0x5EEDu + bones * 131 + frames);
  Character c;
  c.name = "anasaur";
  c.root = {70, -75, 50};
  for (uint32_t i = 0; i < bones; ++i) {
    c.meshes.push_back(unit_kv6(0x00FF8040u + i));
    Bone b = bone_with_mesh("b" + std::to_string(i), i);
    b.hinge = seed_hinge(i == 0 ? -1 : static_cast<int32_t>(below(rng, i)));
    c.bones.push_back(std::move(b));
  }
  SkeletalClip s;
  s.frame_count = frames;
  s.numhin = bones;
  for (uint32_t f = 0; f < frames; ++f)
    for (uint32_t i = 0; i < bones; ++i)
      s.frames.push_back(
          from_hinge_angle({0, 0, 1}, static_cast<int16_t>(int32_t(below(rng, 32768)) - 16384)));
  for (uint32_t f = 0; f < frames; ++f)
    s.seq.push_back(Seq{static_cast<int32_t>(f * 500), static_cast<int32_t>(f)});
  s.seq.push_back(Seq{static_cast<int32_t>(frames * 500), -1});
  c.clips.push_back(Clip{"wave", s});
  return c;
}

Character tiny_character() {
  // 216 bytes of fixed framing (header, five chunk headers, counts, the 1-voxel KV6, the hinge,
  // the clip header): + 3 name bytes + one 40-byte frame = 259.
  Character c;
  c.name = "t";
  c.root = {70, -75, 50};
  c.meshes.push_back(unit_kv6(0x00FF8040u));
  Bone b;
  b.name = "b";
  b.hinge = seed_hinge(-1);
  c.bones.push_back(std::move(b));
  SkeletalClip s;
  s.frame_count = 1;
  s.numhin = 1;
  s.frames.push_back(from_hinge_angle({0, 0, 1}, 16000));
  c.clips.push_back(Clip{"w", s});
  return c;
}

}  // namespace voxrig::perf
