// The validation table's shape: each rule of docs/spec/ / docs/spec/vfp.md has one
// mutator that breaks exactly that rule in a valid file (through the model, then rebind(), or
// through the bytes) and the one code the decoder must report.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "prop_gen_common.h"
#include "prop_support.h"
#include "vfp_mutate.h"
#include "voxrig/vfp.h"

namespace voxrig::props {

/// What a mutator works on: the valid model and its bytes; it may tighten the limits or change
/// the profile the file is decoded under.
struct RuleCase {
  VfpFile model;
  Bytes bytes;
  Limits limits;
  Profile profile = Profile::VfpRig;

  RawVfp raw() const { return split_vfp(bytes); }
  /// Encodes a (possibly invalid) model; rebinding first keeps every hash right.
  Bytes encode(VfpFile m, bool bind = true) const {
    if (bind) rebind(m);
    return encode_vfp(m).value();
  }
};

/// One rule: the expected code and a mutator returning the broken file, or nullopt when this
/// file has nothing the rule can break (e.g. no second joint).
struct Rule {
  const char* code;
  std::function<std::optional<Bytes>(RuleCase&)> apply;
};

/// Applies every rule to `valid` and checks each verdict; fails the case at the first rule whose
/// decoder verdict is not exactly its code (the broken file is recorded as the counterexample).
struct Broken {
  const char* code;
  Bytes bytes;
  Limits limits;
  Profile profile;
};

inline void check_rules(const std::vector<Rule>& rules, const VfpFile& valid) {
  const Bytes bytes = encode_vfp(valid).value();
  RC_PRE(decode_vfp(bytes, DecodeOptions{Profile::VfpRig, {}}).ok());
  const std::vector<Broken> broken = choose("one broken file per rule", [rules, valid, bytes] {
    std::vector<Broken> out;
    for (const Rule& rule : rules) {
      RuleCase c{valid, bytes, Limits{}, Profile::VfpRig};
      if (std::optional<Bytes> b = rule.apply(c))
        out.push_back({rule.code, *b, c.limits, c.profile});
    }
    return out;
  });
  for (const Broken& b : broken) {
    record("vfp", b.bytes);
    auto r = decode_vfp(b.bytes, DecodeOptions{b.profile, b.limits});
    const std::string got = r.ok() ? std::string("ok") : r.error().to_text();
    if (code_of(r) != b.code)
      RC_FAIL(std::string("rule ") + b.code + " (" + std::string(to_string(b.profile)) + "): got " +
              got);
  }
}

// ---- helpers for the mutators ----

using ModelEdit = std::function<bool(VfpFile&)>;

inline std::optional<Bytes> model_edit(const RuleCase& c, const ModelEdit& edit, bool bind = true) {
  VfpFile m = c.model;
  if (!bind) rebind(m);
  if (!edit(m)) return std::nullopt;
  return c.encode(std::move(m), bind);
}

inline std::optional<Bytes> payload_edit(const RuleCase& c, const char* tag,
                                         const std::function<bool(Bytes&)>& edit) {
  RawVfp r = c.raw();
  const int i = r.find(tag);
  if (i < 0 || !edit(r.sections[size_t(i)].payload)) return std::nullopt;
  return r.bytes();
}

// The three byte-level breaks every section table has.

/// Section `tag`'s payload cut to a random length below min(max_len, its size) (`.truncated`).
inline std::optional<Bytes> truncated_payload(const RuleCase& c, const char* tag,
                                              size_t max_len = SIZE_MAX) {
  return payload_edit(c, tag, [max_len](Bytes& p) {
    p.resize(uniform<size_t>(0, std::min(max_len, p.size())));
    return true;
  });
}

/// Payload byte `at` of section `tag` (a version or encoding byte whose only valid value is 1)
/// set to any of 2..255 or 0 (`.bad_version`, `.bad_encoding`).
inline std::optional<Bytes> bad_payload_byte(const RuleCase& c, const char* tag, size_t at) {
  return payload_edit(c, tag, [at](Bytes& p) {
    p[at] = uint8_t(1 + uniform<int>(1, 256));
    return true;
  });
}

/// 1..most-1 random bytes appended to section `tag`'s payload (`.trailing_bytes`).
inline std::optional<Bytes> trailing_payload(const RuleCase& c, const char* tag, size_t most) {
  return payload_edit(c, tag, [most](Bytes& p) {
    const Bytes junk = bytes_of(uniform<size_t>(1, most));
    p.insert(p.end(), junk.begin(), junk.end());
    return true;
  });
}

/// The limit c.limits.*limit set one below `have`, the count the valid file holds, so that the
/// file is rejected for exceeding it (`.limit.*`). have must be at least 1.
inline std::optional<Bytes> limit_below(RuleCase& c, uint64_t Limits::*limit, uint64_t have) {
  c.limits.*limit = have - 1;
  return c.bytes;
}

/// One bit (`mask`) of a random byte of the hash `hash_of` picks flipped, written without
/// rebinding so the hash is the failure (`.base_source_hash`, `.skeleton_hash`); nullopt when
/// hash_of finds no such section (nullptr).
inline std::optional<Bytes> flipped_hash(const RuleCase& c,
                                         const std::function<Sha256*(VfpFile&)>& hash_of,
                                         uint8_t mask) {
  return model_edit(
      c,
      [&](VfpFile& m) {
        Sha256* h = hash_of(m);
        if (h == nullptr) return false;
        (*h)[uniform<size_t>(0, 32)] ^= mask;
        return true;
      },
      false);
}

/// The rule `code` that breaks a binding with flipped_hash(c, hash_of, mask).
inline Rule hash_rule(const char* code, Sha256* (*hash_of)(VfpFile&), uint8_t mask) {
  return {code, [hash_of, mask](RuleCase& c) { return flipped_hash(c, hash_of, mask); }};
}

template <class T>
T& any_of(std::vector<T>& v) {
  return v[uniform<size_t>(0, v.size())];
}

inline bool has_id(const Skel& s, int64_t id) {
  for (const SkelJoint& j : s.joints)
    if (j.id == id) return true;
  return false;
}

// A u16 joint id that is not in the skeleton.
inline uint16_t missing_id(const Skel& s) {
  uint16_t id = uniform<uint16_t>(0, 65535);
  while (has_id(s, id)) ++id;
  return id;
}

inline float non_finite() { return *rc::gen::element(NAN, INFINITY, -INFINITY, -NAN); }
inline void make_non_unit(Quat& q) {
  const float k = one_in(2) ? 1.5f : 0.5f;
  q = Quat{q.x * k, q.y * k, q.z * k, q.w * k};
}
inline float* any_float_of(Trs& t) {
  float* f[] = {&t.t.x, &t.t.y, &t.t.z, &t.r.x, &t.r.y, &t.r.z, &t.r.w, &t.s.x, &t.s.y, &t.s.z};
  return f[uniform<size_t>(0, 10)];
}
inline AnimTrack* any_track(Anim& a) {
  std::vector<AnimTrack*> all;
  for (AnimClip& c : a.clips)
    for (AnimTrack& t : c.tracks) all.push_back(&t);
  return all.empty() ? nullptr : all[uniform<size_t>(0, all.size())];
}
inline size_t total_keys(const Anim& a) {
  size_t n = 0;
  for (const AnimClip& c : a.clips)
    for (const AnimTrack& t : c.tracks) n += t.keys.size();
  return n;
}

// Model edits that need an ANIM (with at least one clip / track).
inline std::optional<Bytes> anim_edit(const RuleCase& c,
                                      const std::function<bool(Anim&, const Skel&)>& edit,
                                      bool bind = true) {
  return model_edit(
      c, [&](VfpFile& m) { return m.anim() != nullptr && edit(*m.anim(), *m.skel()); }, bind);
}

// An ANIM edit of one random track; nullopt when the ANIM has no track or edit declines.
inline std::optional<Bytes> track_edit(const RuleCase& c,
                                       const std::function<bool(AnimTrack&)>& edit) {
  return anim_edit(c, [&](Anim& a, const Skel&) {
    AnimTrack* t = any_track(a);
    return t != nullptr && edit(*t);
  });
}

// Byte-level edits of the file the case was written to.
using Edit = std::function<void(RawVfp&)>;

inline std::optional<Bytes> raw_edit(const RuleCase& c, const Edit& edit) {
  RawVfp r = c.raw();
  edit(r);
  return r.bytes();
}

inline RawSection& vox0_of(RawVfp& r) { return r.sections[size_t(r.find("VOX0"))]; }
inline RawSection& any_section(RawVfp& r) {
  return r.sections[uniform<size_t>(0, r.sections.size())];
}

inline void put_u16(Bytes& b, size_t at, uint16_t v) {
  b[at] = uint8_t(v);
  b[at + 1] = uint8_t(v >> 8);
}

inline RawSection extra(const char* tag_or_null, uint8_t codec, uint8_t flags) {
  RawSection s;
  const auto t = tag_or_null ? std::array<char, 4>{tag_or_null[0], tag_or_null[1], tag_or_null[2],
                                                   tag_or_null[3]}
                             : vfp_tag_except({"VOX0", "SKEL", "VSKN", "ANIM", "MSH0", "PMSH",
                                               "RND0", "PRVW", "ANM0"});
  std::copy(t.begin(), t.end(), s.tag.begin());
  s.codec = codec;
  s.flags = flags;
  s.payload = some_bytes(8);
  return s;
}

inline void insert_anywhere(RawVfp& r, RawSection s) {
  r.sections.insert(r.sections.begin() + long(uniform<size_t>(0, r.sections.size() + 1)),
                    std::move(s));
}

/// Offsets of things inside rig payloads of a model this suite wrote.
size_t skel_joint_offset(const Skel& s, size_t joint);  ///< start of joint[joint] in the payload
struct AnimOffsets {
  std::vector<size_t> clips;                ///< start of each clip
  std::vector<std::vector<size_t>> tracks;  ///< start of each track, per clip
};
AnimOffsets anim_offsets(const Anim& a);

}  // namespace voxrig::props
