// Test helpers for the RKCH-family tests: a hand byte builder (expectations are spelled out
// byte by byte, never produced by the encoder under test) and the seed's synthetic character.
#pragma once

#include <gtest/gtest.h>

#include <bit>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "voxrig/decode_options.h"
#include "voxrig/kfa.h"
#include "voxrig/kv6.h"
#include "voxrig/rkc.h"
#include "voxrig/rkc_model.h"
#include "voxrig/rvc.h"
#include "voxrig/testing/le_bytes.h"

namespace voxrig::test {

/// Little-endian byte builder for hand-written files (on voxrig::ByteWriter).
using Bytes = testing::LeBytes;

inline DecodeOptions strict() {
  DecodeOptions o;
  o.profile = Profile::RkcStrict;
  return o;
}
inline DecodeOptions compat() {
  DecodeOptions o;
  o.profile = Profile::RkcCompat;
  return o;
}

inline uint32_t bits(float f) { return std::bit_cast<uint32_t>(f); }
inline float from_bits(uint32_t u) { return std::bit_cast<float>(u); }

/// The seed's unit_kv6(fill): 1x1x1, pivot 0.5, one voxel {fill, z 0, vis 0x3f, dir 0}.
inline Kv6 unit_kv6(uint32_t fill) {
  Kv6 m;
  m.xsiz = m.ysiz = m.zsiz = 1;
  m.pivot = {0.5f, 0.5f, 0.5f};
  m.voxels = {Kv6Voxel{fill, 0, 0x3f, 0}};
  m.xlen = {1};
  m.ylen = {1};
  return m;
}

/// Hand bytes of unit_kv6(fill) (46 bytes).
inline Bytes unit_kv6_bytes(uint32_t fill) {
  Bytes k;
  k.str("Kvxl").u32(1).u32(1).u32(1).f32bits(0x3F000000).f32bits(0x3F000000).f32bits(0x3F000000);
  k.u32(1).u32(fill).u16(0).u8(0x3f).u8(0).u32(1).u16(1);
  return k;
}

/// The seed's hinge(parent): p zero, v (0,0,1) twice, vmin/vmax 0, htype 0, filler 0.
inline Hinge seed_hinge(int32_t parent) {
  Hinge h;
  h.parent = parent;
  h.v = {{{0, 0, 1}, {0, 0, 1}}};
  return h;
}

inline Bytes seed_hinge_bytes(int32_t parent) {
  Bytes h;
  h.i32(parent).zeros(24);
  h.f32(0).f32(0).f32(1).f32(0).f32(0).f32(1);
  h.i16(0).i16(0).u8(0).zeros(7);
  return h;
}

/// The seed's synthetic_character(): "anasaur", two unit meshes, body/arm bones, clip "wave"
/// built from Q15 angles via from_hinge_angle about +z.
inline Character synthetic_character() {
  Character c;
  c.name = "anasaur";
  c.root = {70.0f, -75.0f, 50.0f};
  c.meshes = {unit_kv6(0x00ff8040), unit_kv6(0x00102030)};
  Attachment a0;
  a0.kind = AttachmentKind::Static;
  a0.index = 0;
  Attachment a1 = a0;
  a1.index = 1;
  c.bones = {Bone{"body", {a0}, seed_hinge(-1)}, Bone{"arm", {a1}, seed_hinge(0)}};
  SkeletalClip s;
  const std::array<float, 3> z{0, 0, 1};
  const int16_t angles[4][2] = {{0, 0}, {0, 16000}, {0, 0}, {0, -16000}};
  for (const auto& row : angles)
    for (int16_t v : row) s.frames.push_back(from_hinge_angle(z, v));
  s.frame_count = 4;
  s.numhin = 2;
  s.seq = {{0, 0}, {500, 1}, {1000, 2}, {1500, 3}, {2000, -1}};
  c.clips = {Clip{"wave", s}};
  return c;
}

/// from_hinge_angle((0,0,1), v) for the three angles the synthetic character uses, as bit
/// patterns worked out by hand (binary32: rad = v * f32(2π/65536); sin/cos of -rad/2; k = s/1;
/// x = 0*k and y = 0*k keep the sign of k, so angle 0 gives -0.0 components).
inline Bytes xform_bytes_for_angle(int16_t v) {
  Bytes x;
  x.zeros(12);  // t
  if (v == 0) {
    x.f32bits(0x80000000).f32bits(0x80000000).f32bits(0x80000000).f32bits(0x3F800000);
  } else if (v == 16000) {
    x.f32bits(0x80000000).f32bits(0x80000000).f32bits(0xBF31A81D).f32bits(0x3F385215);
  } else {  // -16000
    x.f32bits(0x00000000).f32bits(0x00000000).f32bits(0x3F31A81D).f32bits(0x3F385215);
  }
  x.f32(1).f32(1).f32(1);  // s
  return x;
}

/// One Static attachment record (54 bytes) at the identity offset, default playback.
inline Bytes static_attachment_bytes(uint32_t index) {
  Bytes a;
  a.u16(0).u32(index);
  a.zeros(12).f32(0).f32(0).f32(0).f32(1).f32(1).f32(1).f32(1);
  a.i32(256).u32(0);
  return a;
}

/// The canonical bytes of synthetic_character(), written out field by field.
inline Bytes synthetic_character_bytes() {
  Bytes meta;
  meta.name("anasaur").f32(70.0f).f32(-75.0f).f32(50.0f);
  Bytes mshs;
  mshs.u32(2);
  mshs.u32(46).raw(unit_kv6_bytes(0x00ff8040).bytes());
  mshs.u32(46).raw(unit_kv6_bytes(0x00102030).bytes());
  Bytes bons;
  bons.u32(2);
  bons.name("body")
      .u32(1)
      .raw(static_attachment_bytes(0).bytes())
      .raw(seed_hinge_bytes(-1).bytes());
  bons.name("arm").u32(1).raw(static_attachment_bytes(1).bytes()).raw(seed_hinge_bytes(0).bytes());
  Bytes body;
  body.u32(4).u32(2);
  const int16_t angles[4][2] = {{0, 0}, {0, 16000}, {0, 0}, {0, -16000}};
  for (const auto& row : angles)
    for (int16_t v : row) body.raw(xform_bytes_for_angle(v).bytes());
  body.u32(5);
  body.i32(0).i32(0).i32(500).i32(1).i32(1000).i32(2).i32(1500).i32(3).i32(2000).i32(-1);
  Bytes clps;
  clps.u32(1).name("wave").u16(0).u32(static_cast<uint32_t>(body.size())).raw(body.bytes());
  Bytes vclp;
  vclp.u32(0);
  Bytes f;
  f.str("RKCH").u16(3);
  f.chunk("META", meta).chunk("MSHS", mshs).chunk("BONS", bons).chunk("CLPS", clps);
  f.chunk("VCLP", vclp);
  return f;
}

/// The seed test's voxel clip (D24): dims 1x1x4, one key frame, no TIME, 33 ms, interval 0.
inline RvcClip seed_voxel_clip() {
  RvcVoxelFrame frame;
  frame.occupancy = {1u};
  frame.colors = {0x80112233u};
  frame.color_offsets = {0u, 1u};
  return rvc_from_frames({1, 1, 4}, {0.5f, 0.5f, 2.0f}, 1.0f, RvcLoopMode::Loop,
                         std::span<const RvcVoxelFrame>(&frame, 1), {}, 33, 0);
}

/// Offset of the first top-level chunk tagged `tag` (walks the chunk list from offset 6).
inline size_t find_tag(const std::vector<uint8_t>& bytes, std::string_view tag) {
  size_t pos = 6;
  while (pos + 8 <= bytes.size()) {
    const uint32_t len = testing::le_u32(bytes, pos + 4);
    if (std::string_view(reinterpret_cast<const char*>(bytes.data() + pos), 4) == tag) return pos;
    pos += 8 + len;
  }
  ADD_FAILURE() << "tag " << tag << " not found";
  return 0;
}

/// Time budgets are stated for the optimised `ci` build; sanitizer and unoptimised builds run the
/// same code several times slower, so their budgets are scaled.
#if defined(__SANITIZE_ADDRESS__) || !defined(NDEBUG)
inline constexpr double kTimeScale = 20.0;
#else
inline constexpr double kTimeScale = 1.0;
#endif

/// Runs fn and returns the CPU seconds this thread spent in it, divided by kTimeScale (so a test
/// can compare it with its ci budget in every build). CPU time, not wall time: the budgets catch
/// work that grows with a declared count, and a busy CI host must not fail them.
template <class Fn>
double seconds(Fn&& fn) {
  timespec t0{}, t1{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
  fn();
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
  return (double(t1.tv_sec - t0.tv_sec) + double(t1.tv_nsec - t0.tv_nsec) * 1e-9) / kTimeScale;
}

}  // namespace voxrig::test
