// VFP editing helpers (vfp_mutate.h).
#include "vfp_mutate.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <functional>

#include "prop_gen_common.h"
#include "vfp_rules.h"
#include "voxrig/byte_reader.h"
#include "voxrig/byte_writer.h"
#include "voxrig/testing/layout.h"

namespace voxrig::props {
namespace {

// A different finite value that keeps a unit quaternion unit (negating a component changes the
// bits and keeps the norm; -0.0 and 0.0 differ too).
void change_quat(Quat& q) {
  float* c[] = {&q.x, &q.y, &q.z, &q.w};
  float& f = *c[uniform<size_t>(0, 4)];
  f = -f;
}

void change_vec(Vec3& v) {
  float* c[] = {&v.x, &v.y, &v.z};
  float& f = *c[uniform<size_t>(0, 3)];
  f = (f == 1.0f) ? 2.0f : 1.0f;
}

void change_trs(Trs& t) {
  switch (uniform<int>(0, 3)) {
    case 0:
      change_vec(t.t);
      break;
    case 1:
      change_quat(t.r);
      break;
    default:
      change_vec(t.s);
      break;
  }
}

}  // namespace

bool RawSection::is(const char* t) const { return std::memcmp(tag.data(), t, 4) == 0; }

// A typed view of testing::Split: the walker frames and re-joins, this only names the fields.
Bytes RawVfp::bytes() const {
  testing::Split s;
  ByteWriter header;
  header.bytes(magic);
  header.u8(major);
  header.u8(minor);
  header.u16(flags);
  header.u32(0);  // sectionCount: join() writes it
  header.bytes(hash.value_or(Sha256{}));
  s.header = header.take();
  for (const RawSection& r : sections) {
    ByteWriter head;
    head.i32(r.chunk_id);
    head.u8(r.codec);
    head.u8(r.flags);
    head.u16(r.reserved);
    s.parts.push_back({r.tag, head.take(), r.payload});
  }
  s.trailing = trailing;
  if (!hash) testing::rebind_split(s, false);
  return testing::join(s, count);
}

int RawVfp::find(const char* tag) const {
  for (size_t i = 0; i < sections.size(); ++i)
    if (sections[i].is(tag)) return static_cast<int>(i);
  return -1;
}

RawVfp split_vfp(const Bytes& file) {
  const testing::Split s = testing::split(file).value();
  RawVfp f;
  ByteReader h(s.header, 0, ErrorCode::VfpHeaderTruncated);
  std::span<const uint8_t> magic;
  h.try_bytes(4, magic);
  std::copy(magic.begin(), magic.end(), f.magic.begin());
  h.try_u8(f.major);
  h.try_u8(f.minor);
  h.try_u16(f.flags);
  for (const testing::Part& p : s.parts) {
    RawSection r;
    r.tag = p.tag;
    ByteReader head(p.head, 0, ErrorCode::VfpSectionTruncated);
    head.try_i32(r.chunk_id);
    head.try_u8(r.codec);
    head.try_u8(r.flags);
    head.try_u16(r.reserved);
    r.payload = p.payload;
    f.sections.push_back(std::move(r));
  }
  f.trailing = s.trailing;
  return f;
}

void mutate_vox0(Vox0& v) {
  const size_t n = v.voxels.size();
  switch (uniform<int>(0, 4)) {
    case 0: {  // a voxel to another non-empty value (an empty voxel would break a binding on it)
      uint8_t& cell = v.voxels[uniform<size_t>(0, n)];
      const size_t colours = v.palette.size() - 1;  // values 1..colours
      if (cell == 0 && colours >= 1) {
        cell = static_cast<uint8_t>(uniform<size_t>(1, colours + 1));
        return;
      }
      if (cell != 0 && colours >= 2) {
        cell = static_cast<uint8_t>((cell - 1 + uniform<size_t>(1, colours)) % colours + 1);
        return;
      }
    }
      [[fallthrough]];
    case 1: {  // a palette entry (entry 0's colour is kept too, though unused)
      Rgba& c = v.palette[uniform<size_t>(0, v.palette.size())];
      c.a = static_cast<uint8_t>(c.a + uniform<int>(1, 256));
      return;
    }
    case 2:
      if (v.palette.size() < 256) {
        v.palette.push_back(Rgba{1, 2, 3, 4});
        return;
      }
      [[fallthrough]];
    default: {  // grow the grid by one layer in z (new layer empty)
      if (v.size_z == 65535) {
        v.voxels[0] = v.voxels[0] == 0 && v.palette.size() > 1 ? 1 : 0;
        return;
      }
      v.size_z = static_cast<uint16_t>(v.size_z + 1);
      v.voxels.resize(size_t{v.size_x} * v.size_y * v.size_z, 0);
      return;
    }
  }
}

void mutate_skel(Skel& s) {
  SkelJoint& j = s.joints[uniform<size_t>(0, s.joints.size())];
  switch (uniform<int>(0, 4)) {
    case 0:
      change_trs(j.bind);
      return;
    case 1:
      j.name = j.name.empty() ? "x" : std::string();
      return;
    case 2:
      if (j.parent != -1) {
        j.parent = -1;  // a root: still a forest
        return;
      }
      [[fallthrough]];
    default:
      if (s.joints.back().id < 65535) {
        SkelJoint leaf;
        leaf.id = static_cast<uint16_t>(s.joints.back().id + 1);
        leaf.parent = s.joints[0].id <= 32767 ? static_cast<int16_t>(s.joints[0].id) : int16_t{-1};
        s.joints.push_back(leaf);
      } else {
        change_trs(j.bind);
      }
      return;
  }
}

namespace {

float sign_flipped(float f) {
  return std::bit_cast<float>(std::bit_cast<uint32_t>(f) ^ 0x80000000u);
}
float ulp_flipped(float f) { return std::bit_cast<float>(std::bit_cast<uint32_t>(f) ^ 1u); }

float* trs_float(Trs& t, int k) {
  float* f[] = {&t.t.x, &t.t.y, &t.t.z, &t.r.x, &t.r.y, &t.r.z, &t.r.w, &t.s.x, &t.s.y, &t.s.z};
  return f[k];
}

}  // namespace

std::vector<FieldVariant> field_variants(const VfpFile& base, size_t max_per_array) {
  std::vector<FieldVariant> out;
  // Adds base with `edit` applied to a copy of it.
  auto add = [&](const std::string& what, const std::function<void(VfpFile&)>& edit) {
    VfpFile v = base;
    edit(v);
    out.push_back({what, std::move(v)});
  };
  // The ten floats of a TRS, each twice: sign flipped (-0.0 vs 0.0 too) and last bit flipped.
  auto trs = [&](const std::string& what, const std::function<Trs&(VfpFile&)>& get) {
    for (int k = 0; k < 10; ++k) {
      add(what + " float " + std::to_string(k) + " sign", [&](VfpFile& v) {
        float* f = trs_float(get(v), k);
        *f = sign_flipped(*f);
      });
      add(what + " float " + std::to_string(k) + " ulp", [&](VfpFile& v) {
        float* f = trs_float(get(v), k);
        *f = ulp_flipped(*f);
      });
    }
  };
  auto hash = [&](const std::string& what, const std::function<Sha256&(VfpFile&)>& get) {
    add(what + " byte 0", [&](VfpFile& v) { get(v)[0] ^= 1; });
    add(what + " byte 31", [&](VfpFile& v) { get(v)[31] ^= 0x80; });
  };
  const auto upto = [&](size_t n) { return std::min(n, max_per_array); };

  add("versionMinor", [](VfpFile& v) { v.version_minor ^= 1; });
  for (size_t i = 0; i < base.sections.size(); ++i) {
    const std::string at = "section[" + std::to_string(i) + "] ";
    if (i + 1 < base.sections.size() && !(base.sections[i] == base.sections[i + 1]))
      add(at + "swapped with the next",
          [i](VfpFile& v) { std::swap(v.sections[i], v.sections[i + 1]); });
    add(at + "tag", [i](VfpFile& v) { v.sections[i].header.tag[3] ^= 1; });
    add(at + "chunkId", [i](VfpFile& v) { v.sections[i].header.chunk_id ^= 1; });
    add(at + "codec", [i](VfpFile& v) { v.sections[i].header.codec ^= 1; });
    add(at + "flags", [i](VfpFile& v) { v.sections[i].header.flags ^= 1; });
    const auto& body = base.sections[i].body;
    if (const auto* raw = std::get_if<RawPayload>(&body)) {
      add(at + "payload longer",
          [i](VfpFile& v) { std::get<RawPayload>(v.sections[i].body).bytes.push_back(0); });
      for (size_t b = 0; b < upto(raw->bytes.size()); ++b)
        add(at + "payload byte " + std::to_string(b),
            [i, b](VfpFile& v) { std::get<RawPayload>(v.sections[i].body).bytes[b] ^= 1; });
    } else if (const auto* x = std::get_if<Vox0>(&body)) {
      auto vox = [i](VfpFile& v) -> Vox0& { return std::get<Vox0>(v.sections[i].body); };
      add(at + "sizeZ", [&](VfpFile& v) {
        Vox0& o = vox(v);
        o.size_z = static_cast<uint16_t>(o.size_z + 1);
        o.voxels.resize(size_t{o.size_x} * o.size_y * o.size_z, 0);
      });
      add(at + "sizeX/sizeZ swapped", [&](VfpFile& v) { std::swap(vox(v).size_x, vox(v).size_z); });
      add(at + "palette entry added", [&](VfpFile& v) { vox(v).palette.push_back(Rgba{}); });
      for (size_t e = 0; e < upto(x->palette.size()); ++e)
        for (int ch = 0; ch < 4; ++ch)
          add(at + "palette[" + std::to_string(e) + "] channel " + std::to_string(ch),
              [&, e, ch](VfpFile& v) {
                Rgba& c = vox(v).palette[e];
                uint8_t* p[] = {&c.r, &c.g, &c.b, &c.a};
                *p[ch] ^= 1;
              });
      for (size_t c = 0; c < upto(x->voxels.size()); ++c)
        add(at + "voxel " + std::to_string(c), [&, c](VfpFile& v) { vox(v).voxels[c] ^= 1; });
    } else if (const auto* k = std::get_if<Skel>(&body)) {
      auto sk = [i](VfpFile& v) -> Skel& { return std::get<Skel>(v.sections[i].body); };
      hash(at + "baseSourceHash", [&](VfpFile& v) -> Sha256& { return sk(v).base_source_hash; });
      add(at + "joint added", [&](VfpFile& v) { sk(v).joints.push_back(SkelJoint{}); });
      for (size_t j = 0; j < upto(k->joints.size()); ++j) {
        const std::string jt = at + "joint[" + std::to_string(j) + "] ";
        add(jt + "id", [&, j](VfpFile& v) { sk(v).joints[j].id ^= 1; });
        add(jt + "parent", [&, j](VfpFile& v) { sk(v).joints[j].parent ^= 1; });
        add(jt + "name", [&, j](VfpFile& v) { sk(v).joints[j].name += "x"; });
        trs(jt, [&, j](VfpFile& v) -> Trs& { return sk(v).joints[j].bind; });
      }
    } else if (const auto* b = std::get_if<Vskn>(&body)) {
      auto vs = [i](VfpFile& v) -> Vskn& { return std::get<Vskn>(v.sections[i].body); };
      add(at + "defaultJointId", [&](VfpFile& v) { vs(v).default_joint ^= 1; });
      hash(at + "baseSourceHash", [&](VfpFile& v) -> Sha256& { return vs(v).base_source_hash; });
      hash(at + "skeletonHash", [&](VfpFile& v) -> Sha256& { return vs(v).skeleton_hash; });
      add(at + "binding added", [&](VfpFile& v) { vs(v).bindings.push_back({}); });
      for (size_t r = 0; r < upto(b->bindings.size()); ++r) {
        add(at + "binding offset " + std::to_string(r),
            [&, r](VfpFile& v) { vs(v).bindings[r].voxel_offset ^= 1; });
        add(at + "binding joint " + std::to_string(r),
            [&, r](VfpFile& v) { vs(v).bindings[r].joint ^= 1; });
      }
    } else if (const auto* a = std::get_if<Anim>(&body)) {
      auto an = [i](VfpFile& v) -> Anim& { return std::get<Anim>(v.sections[i].body); };
      hash(at + "baseSourceHash", [&](VfpFile& v) -> Sha256& { return an(v).base_source_hash; });
      hash(at + "skeletonHash", [&](VfpFile& v) -> Sha256& { return an(v).skeleton_hash; });
      add(at + "clip added", [&](VfpFile& v) { an(v).clips.push_back(AnimClip{}); });
      for (size_t c = 0; c < upto(a->clips.size()); ++c) {
        const std::string cl = at + "clip[" + std::to_string(c) + "] ";
        add(cl + "id", [&, c](VfpFile& v) { an(v).clips[c].id ^= 1; });
        add(cl + "duration", [&, c](VfpFile& v) { an(v).clips[c].duration_ms ^= 1; });
        add(cl + "name", [&, c](VfpFile& v) { an(v).clips[c].name += "x"; });
        add(cl + "track added",
            [&, c](VfpFile& v) { an(v).clips[c].tracks.push_back(AnimTrack{}); });
        for (size_t t = 0; t < upto(a->clips[c].tracks.size()); ++t) {
          const std::string tr = cl + "track[" + std::to_string(t) + "] ";
          add(tr + "joint", [&, c, t](VfpFile& v) { an(v).clips[c].tracks[t].joint ^= 1; });
          add(tr + "key added",
              [&, c, t](VfpFile& v) { an(v).clips[c].tracks[t].keys.push_back({}); });
          for (size_t q = 0; q < upto(a->clips[c].tracks[t].keys.size()); ++q) {
            const std::string ky = tr + "key[" + std::to_string(q) + "] ";
            add(ky + "time",
                [&, c, t, q](VfpFile& v) { an(v).clips[c].tracks[t].keys[q].time_ms ^= 1; });
            trs(ky,
                [&, c, t, q](VfpFile& v) -> Trs& { return an(v).clips[c].tracks[t].keys[q].trs; });
          }
        }
      }
    }
  }
  return out;
}

Bytes respell_vfp(const Bytes& valid) {
  RawVfp r = split_vfp(valid);
  r.minor = static_cast<uint8_t>(uniform<int>(0, 256));
  for (RawSection& s : r.sections) {
    const bool cache = s.is("MSH0") || s.is("PMSH") || s.is("RND0") || s.is("PRVW") || s.is("ANM0");
    const bool unknown = !cache && !s.is("VOX0") && !s.is("SKEL") && !s.is("VSKN") && !s.is("ANIM");
    if (!cache && !unknown) continue;
    if (one_in(2)) s.chunk_id = uniform<int32_t>(-1, INT32_MAX);
    if (s.flags == 0 && one_in(2)) s.codec = static_cast<uint8_t>(uniform<int>(0, 256));
  }
  // Any section order is valid.
  for (size_t i = r.sections.size(); i > 1; --i)
    std::swap(r.sections[i - 1], r.sections[uniform<size_t>(0, i)]);
  return r.bytes();
}

size_t skel_joint_offset(const Skel& s, size_t joint) {
  size_t at = 36;
  for (size_t i = 0; i < joint; ++i) at += 48 + s.joints[i].name.size();
  return at;
}

AnimOffsets anim_offsets(const Anim& a) {
  AnimOffsets o;
  size_t at = 68;
  for (const AnimClip& c : a.clips) {
    o.clips.push_back(at);
    at += 12 + c.name.size();
    o.tracks.emplace_back();
    for (const AnimTrack& t : c.tracks) {
      o.tracks.back().push_back(at);
      at += 8 + 44 * t.keys.size();
    }
  }
  return o;
}

}  // namespace voxrig::props
