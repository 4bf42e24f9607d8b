// BoneXform / Hinge / Character equality (bit patterns, D5) and the seed's hinge-angle helpers
// (docs/spec/rkc-evaluation.md#interpolation, docs/spec/rkc-evaluation.md#D18).
//
// The hinge-angle arithmetic is binary32 throughout, in the seed's operation order, because the
// synthetic character's golden bytes are these floats: rad = f32(val) * f32(2π/65536), half
// angle sin/cos via sinf/cosf, k = s / len. -ffp-contract=off (top-level CMake) keeps the
// compiler from fusing any of it into FMAs, which the seed's compiler does not do either.
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "rkc/rkc_detail.h"
#include "voxrig/float_text.h"
#include "voxrig/rkc_model.h"

namespace voxrig {

namespace {

// 2π/65536 evaluated in binary32 the way the seed's constant expression `PI * 2.0 / 65536.0`
// on f32 is: PI rounded to binary32, doubled (exact), divided by 2^16 (exact).
constexpr float kQ15ToRad = static_cast<float>(3.14159265358979323846) * 2.0f / 65536.0f;
constexpr float kRadToQ15 = 65536.0f / (static_cast<float>(3.14159265358979323846) * 2.0f);

}  // namespace

bool BoneXform::operator==(const BoneXform& o) const {
  return same_bits(t, o.t) && same_bits(r, o.r) && same_bits(s, o.s);
}

bool Hinge::operator==(const Hinge& o) const {
  return parent == o.parent && same_bits(p[0], o.p[0]) && same_bits(p[1], o.p[1]) &&
         same_bits(v[0], o.v[0]) && same_bits(v[1], o.v[1]) && vmin == o.vmin && vmax == o.vmax &&
         htype == o.htype && filler == o.filler;
}

bool Character::operator==(const Character& o) const {
  return name == o.name && same_bits(root, o.root) && meshes == o.meshes && bones == o.bones &&
         clips == o.clips && voxel_clips == o.voxel_clips && extra_chunks == o.extra_chunks;
}

std::array<float, 4> quat_from_axis_angle(const std::array<float, 3>& axis, float rad) {
  const float len = std::sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
  if (len < 1e-12f) return {0, 0, 0, 1};
  const float half = rad * 0.5f;
  const float s = std::sin(half);  // float overloads: binary32 sinf/cosf, as the seed
  const float c = std::cos(half);
  const float k = s / len;
  return {axis[0] * k, axis[1] * k, axis[2] * k, c};
}

BoneXform from_hinge_angle(const std::array<float, 3>& axis, int16_t val) {
  const float rad = static_cast<float>(val) * kQ15ToRad;
  BoneXform x;
  x.r = quat_from_axis_angle(axis, -rad);
  return x;
}

int16_t hinge_angle(const BoneXform& x, const std::array<float, 3>& axis) {
  const float len = std::sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
  if (len < 1e-12f) return 0;
  const float s = (x.r[0] * axis[0] + x.r[1] * axis[1] + x.r[2] * axis[2]) / len;
  const float phi = 2.0f * std::atan2(s, x.r[3]);
  const float val = std::round(-phi * kRadToQ15);  // half away from zero, like Rust's round()
  // float -> i32 saturating with NaN -> 0 (Rust `as i32`), then i32 -> i16 wrapping (`as i16`).
  int32_t i = 0;
  if (std::isnan(val)) {
    i = 0;
  } else if (val >= 2147483648.0f) {
    i = std::numeric_limits<int32_t>::max();
  } else if (val < -2147483648.0f) {
    i = std::numeric_limits<int32_t>::min();
  } else {
    i = static_cast<int32_t>(val);
  }
  return static_cast<int16_t>(static_cast<uint16_t>(static_cast<uint32_t>(i) & 0xFFFFu));
}

}  // namespace voxrig

// ---- on-disk records shared by BONS, CLPS and KFA ----
namespace voxrig::detail {

namespace {
void write3(ByteWriter& w, const std::array<float, 3>& v) {
  for (float f : v) w.f32(f);
}
}  // namespace

// The layouts are voxrig/wire/rkch.h's; the loaders are rkc_detail.h's in-place ones.
BoneXform load_bone_xform(const uint8_t* p) {
  BoneXform x;
  load_bone_xform_into(x, p);
  return x;
}

Hinge load_hinge(const uint8_t* p) {
  Hinge h;
  load_hinge_into(h, p);
  return h;
}

void write_bone_xform(ByteWriter& w, const BoneXform& x) {
  write3(w, x.t);
  for (float f : x.r) w.f32(f);
  write3(w, x.s);
}

void write_hinge(ByteWriter& w, const Hinge& h) {
  w.i32(h.parent);
  write3(w, h.p[0]);
  write3(w, h.p[1]);
  write3(w, h.v[0]);
  write3(w, h.v[1]);
  w.i16(h.vmin);
  w.i16(h.vmax);
  w.u8(h.htype);
  w.bytes(std::span<const uint8_t>(h.filler));
}

}  // namespace voxrig::detail
