// VFP editing helpers (vfp_mutate.h).
#include "vfp_mutate.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "gen_common.h"
#include "vfp_rules.h"

namespace voxrig::props {
namespace {

void put_u16(Bytes& b, uint16_t v) {
  b.push_back(uint8_t(v));
  b.push_back(uint8_t(v >> 8));
}
void put_u32(Bytes& b, uint32_t v) {
  for (int i = 0; i < 4; ++i) b.push_back(uint8_t(v >> (8 * i)));
}
uint32_t get_u32(const Bytes& b, size_t at) {
  return b[at] | b[at + 1] << 8 | b[at + 2] << 16 | uint32_t(b[at + 3]) << 24;
}

// A different value for a float: flip one of its bits (any result, even non-finite).
float other_bits(float f) {
  return std::bit_cast<float>(std::bit_cast<uint32_t>(f) ^ (1u << uniform<int>(0, 32)));
}

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
    case 0: change_vec(t.t); break;
    case 1: change_quat(t.r); break;
    default: change_vec(t.s); break;
  }
}

}  // namespace

bool RawSection::is(const char* t) const { return std::memcmp(tag.data(), t, 4) == 0; }

Bytes RawVfp::bytes() const {
  Sha256 h{};
  if (hash) {
    h = *hash;
  } else {
    for (const RawSection& s : sections)
      if (s.is("VOX0")) { h = sha256(s.payload); break; }
  }
  Bytes b(magic.begin(), magic.end());
  b.push_back(major);
  b.push_back(minor);
  put_u16(b, flags);
  put_u32(b, count.value_or(static_cast<uint32_t>(sections.size())));
  b.insert(b.end(), h.begin(), h.end());
  for (const RawSection& s : sections) {
    b.insert(b.end(), s.tag.begin(), s.tag.end());
    put_u32(b, static_cast<uint32_t>(s.chunk_id));
    b.push_back(s.codec);
    b.push_back(s.flags);
    put_u16(b, s.reserved);
    put_u32(b, static_cast<uint32_t>(s.payload.size()));
    b.insert(b.end(), s.payload.begin(), s.payload.end());
  }
  b.insert(b.end(), trailing.begin(), trailing.end());
  return b;
}

int RawVfp::find(const char* tag) const {
  for (size_t i = 0; i < sections.size(); ++i)
    if (sections[i].is(tag)) return static_cast<int>(i);
  return -1;
}

RawVfp split_vfp(const Bytes& file) {
  RawVfp f;
  std::copy_n(file.begin(), 4, f.magic.begin());
  f.major = file[4];
  f.minor = file[5];
  f.flags = static_cast<uint16_t>(file[6] | file[7] << 8);
  const uint32_t n = get_u32(file, 8);
  size_t pos = 44;
  for (uint32_t i = 0; i < n; ++i) {
    RawSection s;
    std::copy_n(file.begin() + long(pos), 4, s.tag.begin());
    s.chunk_id = static_cast<int32_t>(get_u32(file, pos + 4));
    s.codec = file[pos + 8];
    s.flags = file[pos + 9];
    s.reserved = static_cast<uint16_t>(file[pos + 10] | file[pos + 11] << 8);
    const uint32_t len = get_u32(file, pos + 12);
    s.payload.assign(file.begin() + long(pos + 16), file.begin() + long(pos + 16 + len));
    pos += 16 + len;
    f.sections.push_back(std::move(s));
  }
  return f;
}

void mutate_vox0(Vox0& v) {
  const size_t n = v.voxels.size();
  switch (uniform<int>(0, 4)) {
    case 0:
    {  // a voxel to another non-empty value (an empty voxel would break a binding on it)
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
    case 0: change_trs(j.bind); return;
    case 1: j.name = j.name.empty() ? "x" : std::string(); return;
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

template <class T>
T* first_body(VfpFile& f) {
  for (Section& s : f.sections)
    if (auto* b = std::get_if<T>(&s.body)) return b;
  return nullptr;
}

void flip_hash(Sha256& h) { h[uniform<size_t>(0, 32)] ^= static_cast<uint8_t>(uniform<int>(1, 256)); }

}  // namespace

bool mutate_model(VfpFile& f) {
  Vox0* vox0 = first_body<Vox0>(f);
  Skel* skel = first_body<Skel>(f);
  Vskn* vskn = first_body<Vskn>(f);
  Anim* anim = first_body<Anim>(f);
  RawPayload* raw = first_body<RawPayload>(f);
  switch (uniform<int>(0, 12)) {
    case 0: f.version_minor = static_cast<uint8_t>(f.version_minor + uniform<int>(1, 256)); return true;
    case 1: {
      if (f.sections.size() < 2) return false;
      const size_t i = uniform<size_t>(0, f.sections.size() - 1);
      if (f.sections[i] == f.sections[i + 1]) return false;
      std::swap(f.sections[i], f.sections[i + 1]);
      return true;
    }
    case 2: {
      SectionHeader& h = f.sections[uniform<size_t>(0, f.sections.size())].header;
      switch (uniform<int>(0, 4)) {
        case 0: h.chunk_id += 1; break;
        case 1: h.codec = static_cast<uint8_t>(h.codec + 1); break;
        case 2: h.flags ^= kSectionRequired; break;
        default: h.tag[uniform<size_t>(0, 4)] ^= 1; break;
      }
      return true;
    }
    case 3:
      if (raw == nullptr) return false;
      if (raw->bytes.empty() || one_in(4)) raw->bytes.push_back(0);
      else raw->bytes[uniform<size_t>(0, raw->bytes.size())] ^= static_cast<uint8_t>(uniform<int>(1, 256));
      return true;
    case 4: {  // a palette entry; entry 0 (the unused empty slot) half of the time
      Rgba& c = vox0->palette[one_in(2) ? 0 : uniform<size_t>(0, vox0->palette.size())];
      uint8_t* channel[] = {&c.r, &c.g, &c.b, &c.a};
      *channel[uniform<size_t>(0, 4)] ^= static_cast<uint8_t>(uniform<int>(1, 256));
      return true;
    }
    case 5: mutate_vox0(*vox0); return true;
    case 6: {  // a voxel to any other value (valid or not)
      uint8_t& cell = vox0->voxels[uniform<size_t>(0, vox0->voxels.size())];
      cell = static_cast<uint8_t>(cell + uniform<int>(1, 256));
      return true;
    }
    case 7:
      if (skel == nullptr) return false;
      if (one_in(4)) flip_hash(skel->base_source_hash);
      else if (one_in(3)) skel->joints[uniform<size_t>(0, skel->joints.size())].id ^= 1;
      else mutate_skel(*skel);
      return true;
    case 8:
      if (vskn == nullptr) return false;
      switch (uniform<int>(0, 4)) {
        case 0: vskn->default_joint ^= 1; break;
        case 1: flip_hash(vskn->skeleton_hash); break;
        case 2: flip_hash(vskn->base_source_hash); break;
        default:
          if (vskn->bindings.empty()) vskn->bindings.push_back({0, 0});
          else if (one_in(2)) vskn->bindings[uniform<size_t>(0, vskn->bindings.size())].joint ^= 1;
          else vskn->bindings[uniform<size_t>(0, vskn->bindings.size())].voxel_offset ^= 1;
      }
      return true;
    case 9:
      if (anim == nullptr) return false;
      if (one_in(3)) flip_hash(one_in(2) ? anim->skeleton_hash : anim->base_source_hash);
      else if (anim->clips.empty()) anim->clips.push_back(AnimClip{});
      else {
        AnimClip& c = anim->clips[uniform<size_t>(0, anim->clips.size())];
        switch (uniform<int>(0, 3)) {
          case 0: c.id ^= 1; break;
          case 1: c.duration_ms += 1; break;
          default: c.name += "x"; break;
        }
      }
      return true;
    default: {  // a key
      if (anim == nullptr) return false;
      std::vector<AnimKey*> keys;
      for (AnimClip& c : anim->clips)
        for (AnimTrack& t : c.tracks)
          for (AnimKey& k : t.keys) keys.push_back(&k);
      if (keys.empty()) return false;
      AnimKey& key = *keys[uniform<size_t>(0, keys.size())];
      if (one_in(3)) key.time_ms += 1;
      else if (one_in(2)) key.trs.t.x = other_bits(key.trs.t.x);
      else change_trs(key.trs);
      return true;
    }
  }
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
