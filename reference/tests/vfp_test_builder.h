// Hand-written VFP byte builder for the VFP tests. It assembles payloads field by field from the
// layouts in docs/spec/, independently of the codec under test, so every expectation in the tests
// is declared by hand. Count/length fields default to the content but can be overridden to build
// broken files. Only SHA-256 (the core's OpenSSL wrapper) is shared with the library.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "voxrig/sha256.h"
#include "voxrig/testing/le_bytes.h"
#include "voxrig/vfp.h"

namespace voxrig::vt {

using Bytes = std::vector<uint8_t>;

/// Little-endian appender (on voxrig::ByteWriter).
using B = testing::LeBytes;

inline float f32_bits(uint32_t u) { return std::bit_cast<float>(u); }
inline const float kNaN = f32_bits(0x7FC00000u);
inline const float kInf = f32_bits(0x7F800000u);

// ---- VOX0 ------------------------------------------------------------------------------------
struct Vox0Spec {
  uint8_t version = 1, reserved = 0;
  std::optional<uint16_t> palette_count;  ///< default: palette.size()
  uint16_t sx = 4, sy = 1, sz = 1;
  uint16_t reserved2 = 0;
  std::vector<std::array<uint8_t, 4>> palette = {{0, 0, 0, 0}, {255, 0, 0, 255}, {0, 255, 0, 255}};
  Bytes voxels = {1, 0, 2, 1};
  Bytes bytes() const {
    B w;
    w.u8(version).u8(reserved).u16(palette_count.value_or(uint16_t(palette.size())));
    w.u16(sx).u16(sy).u16(sz).u16(reserved2);
    for (const auto& c : palette) w.u8(c[0]).u8(c[1]).u8(c[2]).u8(c[3]);
    return w.raw(voxels).bytes();
  }
};

// ---- SKEL ------------------------------------------------------------------------------------
struct JointSpec {
  uint16_t id = 0;
  int16_t parent = -1;
  std::array<float, 3> t{0, 0, 0};
  std::array<float, 4> r{0, 0, 0, 1};
  std::array<float, 3> s{1, 1, 1};
  std::optional<uint8_t> name_len;  ///< default: name.size()
  std::array<uint8_t, 3> pad{0, 0, 0};
  std::string name;
};
struct SkelSpec {
  uint8_t version = 1, reserved = 0;
  std::optional<uint16_t> count;  ///< default: joints.size()
  std::optional<Sha256> base;     ///< default: bound by the fixture (zeros when built alone)
  std::vector<JointSpec> joints = {{0, -1, {0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}, {}, {}, "Root"},
                                   {1, 0, {1, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}, {}, {}, "Arm"}};
  Bytes trailing;
  Bytes bytes() const {
    B w;
    w.u8(version).u8(reserved).u16(count.value_or(uint16_t(joints.size())));
    w.raw(base.value_or(Sha256{}));
    for (const JointSpec& j : joints) {
      w.u16(j.id).i16(j.parent);
      for (float f : j.t) w.f32(f);
      for (float f : j.r) w.f32(f);
      for (float f : j.s) w.f32(f);
      w.u8(j.name_len.value_or(uint8_t(j.name.size())));
      w.u8(j.pad[0]).u8(j.pad[1]).u8(j.pad[2]).str(j.name);
    }
    return w.raw(trailing).bytes();
  }
};

// ---- VSKN ------------------------------------------------------------------------------------
struct VsknSpec {
  uint8_t version = 1, encoding = 1;
  uint16_t default_joint = 0, reserved = 0;
  std::optional<uint32_t> count;  ///< default: records.size()
  std::optional<Sha256> base, skel;
  std::vector<std::pair<uint32_t, uint16_t>> records = {{3, 1}};
  Bytes trailing;
  Bytes bytes() const {
    B w;
    w.u8(version).u8(encoding).u16(default_joint).u16(reserved);
    w.u32(count.value_or(uint32_t(records.size())));
    w.raw(base.value_or(Sha256{})).raw(skel.value_or(Sha256{}));
    for (const auto& [offset, joint] : records) w.u32(offset).u16(joint);
    return w.raw(trailing).bytes();
  }
};

// ---- ANIM ------------------------------------------------------------------------------------
struct KeySpec {
  uint32_t time = 0;
  std::array<float, 3> t{1, 0, 0};
  std::array<float, 4> r{0, 0, 0, 1};
  std::array<float, 3> s{1, 1, 1};
};
inline KeySpec key_at(uint32_t time) {
  KeySpec k;
  k.time = time;
  return k;
}
struct TrackSpec {
  uint16_t joint = 1, reserved = 0;
  std::optional<uint32_t> count;  ///< default: keys.size()
  std::vector<KeySpec> keys = {key_at(0), key_at(100)};
};
struct ClipSpec {
  uint16_t id = 0;
  std::optional<uint16_t> track_count;  ///< default: tracks.size()
  uint32_t duration = 100;
  std::optional<uint8_t> name_len;  ///< default: name.size()
  std::array<uint8_t, 3> pad{0, 0, 0};
  std::string name = "c";
  std::vector<TrackSpec> tracks = {TrackSpec{}};
};
struct AnimSpec {
  uint8_t version = 1, reserved = 0;
  std::optional<uint16_t> count;  ///< default: clips.size()
  std::optional<Sha256> base, skel;
  std::vector<ClipSpec> clips = {ClipSpec{}};
  Bytes trailing;
  Bytes bytes() const {
    B w;
    w.u8(version).u8(reserved).u16(count.value_or(uint16_t(clips.size())));
    w.raw(base.value_or(Sha256{})).raw(skel.value_or(Sha256{}));
    for (const ClipSpec& c : clips) {
      w.u16(c.id).u16(c.track_count.value_or(uint16_t(c.tracks.size()))).u32(c.duration);
      w.u8(c.name_len.value_or(uint8_t(c.name.size())));
      w.u8(c.pad[0]).u8(c.pad[1]).u8(c.pad[2]).str(c.name);
      for (const TrackSpec& t : c.tracks) {
        w.u16(t.joint).u16(t.reserved).u32(t.count.value_or(uint32_t(t.keys.size())));
        for (const KeySpec& k : t.keys) {
          w.u32(k.time);
          for (float f : k.t) w.f32(f);
          for (float f : k.r) w.f32(f);
          for (float f : k.s) w.f32(f);
        }
      }
    }
    return w.raw(trailing).bytes();
  }
};

// ---- container ---------------------------------------------------------------------------------
struct SectionSpec {
  std::string tag;  ///< written as its first 4 bytes
  int32_t chunk_id = -1;
  uint8_t codec = 0, flags = 0;
  uint16_t reserved = 0;
  std::optional<uint32_t> length;  ///< default: payload.size()
  Bytes payload;
  Bytes bytes() const {
    B w;
    for (int i = 0; i < 4; ++i) w.u8(uint8_t(tag[i]));
    w.i32(chunk_id).u8(codec).u8(flags).u16(reserved);
    w.u32(length.value_or(uint32_t(payload.size())));
    return w.raw(payload).bytes();
  }
};
inline SectionSpec vox0_section(Bytes payload) {
  return {"VOX0", -1, 0, 1, 0, {}, std::move(payload)};
}
inline SectionSpec opt_section(std::string tag, Bytes payload) {
  return {std::move(tag), -1, 0, 0, 0, {}, std::move(payload)};
}

struct FileSpec {
  Bytes magic = {'V', 'F', 'P', 0};
  uint8_t major = 1, minor = 3;
  uint16_t flags = 0;
  std::optional<uint32_t> count;  ///< default: sections.size()
  std::optional<Sha256> hash;     ///< default: SHA-256 of the first VOX0-tagged payload
  std::vector<SectionSpec> sections;
  Bytes trailing;
  Bytes bytes() const {
    Sha256 h{};
    if (hash) {
      h = *hash;
    } else {
      for (const SectionSpec& s : sections)
        if (s.tag == "VOX0") {
          h = sha256(s.payload);
          break;
        }
    }
    B w;
    w.raw(magic).u8(major).u8(minor).u16(flags);
    w.u32(count.value_or(uint32_t(sections.size()))).raw(h);
    for (const SectionSpec& s : sections) w.raw(s.bytes());
    return w.raw(trailing).bytes();
  }
};

/// A static file: the fixture VOX0 (4x1x1, palette 3, voxels 1 0 2 1) and nothing else.
inline FileSpec static_file(const Vox0Spec& v = {}) {
  FileSpec f;
  f.sections.push_back(vox0_section(v.bytes()));
  return f;
}

/// A small valid rigged model, described field by field. file_spec() binds every hash left at
/// nullopt (baseSourceHash from the VOX0 payload, skeletonHash from the SKEL payload).
/// Layout of file(): header 0..44; VOX0 header 44, payload 60..88; SKEL header 88, payload
/// 104..243 (joint[0] at 140, joint[1] at 192); VSKN header 243, payload 259..339 (record[0] at
/// 333); ANIM header 339, payload 355..532 (clip[0] at 423, track[0] at 436, key[0] at 444,
/// key[1] at 488).
struct RigFixture {
  Vox0Spec vox0;
  SkelSpec skel;
  VsknSpec vskn;
  AnimSpec anim;
  bool with_skel = true, with_vskn = true, with_anim = true;

  Bytes skel_bytes() const {
    SkelSpec s = skel;
    if (!s.base) s.base = sha256(vox0.bytes());
    return s.bytes();
  }
  FileSpec file_spec() const {
    const Sha256 source = sha256(vox0.bytes());
    const Sha256 skeleton = sha256(skel_bytes());
    FileSpec f = static_file(vox0);
    if (with_skel) f.sections.push_back(opt_section("SKEL", skel_bytes()));
    if (with_vskn) {
      VsknSpec v = vskn;
      if (!v.base) v.base = source;
      if (!v.skel) v.skel = skeleton;
      f.sections.push_back(opt_section("VSKN", v.bytes()));
    }
    if (with_anim) {
      AnimSpec a = anim;
      if (!a.base) a.base = source;
      if (!a.skel) a.skel = skeleton;
      f.sections.push_back(opt_section("ANIM", a.bytes()));
    }
    return f;
  }
  Bytes file() const { return file_spec().bytes(); }
};

// ---- decode helpers ----------------------------------------------------------------------------

/// Decodes from an exact-size heap copy (ASan sees any read past the end).
inline Result<VfpFile> decode(const Bytes& bytes, Profile profile = Profile::VfpRig,
                              const Limits& limits = {}) {
  const Bytes copy(bytes.begin(), bytes.end());
  return decode_vfp(copy, DecodeOptions{profile, limits});
}

/// Passes when `r` failed with exactly `code`.
template <class T>
::testing::AssertionResult fails_with(const Result<T>& r, ErrorCode code) {
  if (r.ok()) return ::testing::AssertionFailure() << "decoded OK, expected " << to_string(code);
  if (r.error().code != code)
    return ::testing::AssertionFailure()
           << "got " << r.error().to_text() << ", expected " << to_string(code);
  return ::testing::AssertionSuccess();
}

/// Passes when `r` succeeded.
template <class T>
::testing::AssertionResult succeeds(const Result<T>& r) {
  if (r.ok()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "failed: " << r.error().to_text();
}

/// Passes when decoding under `profile` succeeds and encode_vfp gives the input back.
inline ::testing::AssertionResult round_trips(const Bytes& bytes,
                                              Profile profile = Profile::VfpRig) {
  auto r = decode(bytes, profile);
  if (!r.ok()) return ::testing::AssertionFailure() << "decode failed: " << r.error().to_text();
  auto e = encode_vfp(r.value());
  if (!e.ok()) return ::testing::AssertionFailure() << "encode failed: " << e.error().to_text();
  if (e.value() != bytes) return ::testing::AssertionFailure() << "re-encoded bytes differ";
  return ::testing::AssertionSuccess();
}

}  // namespace voxrig::vt
