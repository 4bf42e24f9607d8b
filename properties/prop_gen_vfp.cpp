// VFP model generators (prop_gen_vfp.h). Every generator is a gen::exec, so a shrink of an early
// pick (a dimension, a count) regenerates what depends on it, and every pick shrinks toward the
// smallest model: 1x1x1, one joint, no clips, no extra sections.
#include "prop_gen_vfp.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <sstream>

#include "prop_gen_common.h"
#include "voxrig/float_text.h"
#include "voxrig/sha256.h"

namespace voxrig::props {
namespace {

constexpr const char* kCacheTags[] = {"MSH0", "PMSH", "RND0", "PRVW", "ANM0"};

Vec3 vec3(Numbers numbers, bool is_scale) {
  auto one = [&] {
    if (numbers == Numbers::Codec) return finite_float();
    const bool grid = numbers == Numbers::Grid;
    if (!is_scale) return bounded_float(grid ? 16.0f : 1000.0f);
    const float mag = grid ? 0.5f + static_cast<float>(uniform<int>(0, 1501)) / 1000.0f
                           : 0.25f + static_cast<float>(uniform<int>(0, 3751)) / 1000.0f;
    return one_in(4) ? -mag : mag;
  };
  Vec3 v;
  v.x = one();
  v.y = one();
  v.z = one();
  if (is_scale && uniform<int>(0, 3) == 0) v = Vec3{1, 1, 1};  // unit scale at small sizes
  return v;
}

Trs trs(Numbers numbers) {
  Trs t;
  t.t = vec3(numbers, false);
  const auto q = unit_quat(numbers == Numbers::Codec);
  t.r = Quat{q[0], q[1], q[2], q[3]};
  t.s = vec3(numbers, true);
  return t;
}

// A random permutation of 0..n-1 (shrinks toward the identity).
std::vector<size_t> permutation(size_t n) {
  const auto keys = *rc::gen::container<std::vector<size_t>>(n, rc::gen::inRange<size_t>(0, n + 1));
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return keys[a] < keys[b]; });
  return order;
}

int32_t chunk_id() { return one_in(4) ? uniform<int32_t>(0, 1 << 30) : pick<int32_t>(-1, 3); }

}  // namespace

rc::Gen<Vox0> gen_vox0(GridShape shape, int min_palette) {
  return rc::gen::exec([=] {
    Vox0 v;
    v.size_x = pick<uint16_t>(1, 9);
    v.size_y = pick<uint16_t>(1, 9);
    v.size_z = pick<uint16_t>(1, 9);
    const int palette = pick<int>(min_palette, 257);
    v.palette.resize(static_cast<size_t>(palette));
    for (Rgba& c : v.palette) {
      c = Rgba{static_cast<uint8_t>(pick<int>(0, 256)), static_cast<uint8_t>(pick<int>(0, 256)),
               static_cast<uint8_t>(pick<int>(0, 256)), static_cast<uint8_t>(pick<int>(0, 256))};
    }
    const size_t n = size_t{v.size_x} * v.size_y * v.size_z;
    v.voxels.assign(n, 0);
    // Few distinct colours, so that neighbouring faces can merge; any index < palette is valid.
    const int used = std::min(palette - 1, pick<int>(1, 6));
    if (used < 1) return v;
    const bool sparse = shape == GridShape::Sparse || (shape == GridShape::Any && one_in(2));
    if (sparse) {
      const size_t k = pick<size_t>(0, n / 3 + 2);
      for (size_t i = 0; i < k; ++i)
        v.voxels[uniform<size_t>(0, n)] = static_cast<uint8_t>(pick<int>(1, used + 1));
    } else {
      for (uint8_t& cell : v.voxels)
        if (uniform<int>(0, 4) != 0) cell = static_cast<uint8_t>(pick<int>(1, used + 1));
    }
    if (one_in(8)) v.voxels[uniform<size_t>(0, n)] = static_cast<uint8_t>(palette - 1);
    return v;
  });
}

rc::Gen<Skel> gen_skel(Numbers numbers, int max_joints) {
  return rc::gen::exec([=] {
    Skel s;
    const size_t n = pick<size_t>(1, static_cast<size_t>(max_joints) + 1);
    // Ids strictly increasing with gaps; big jumps may put leaves above 32767 (edge case 6).
    uint32_t id = pick<uint32_t>(0, 4);
    s.joints.resize(n);
    for (size_t i = 0; i < n; ++i) {
      if (i > 0) id += one_in(10) ? uniform<uint32_t>(1, 6000) : pick<uint32_t>(1, 3);
      s.joints[i].id = static_cast<uint16_t>(id);
    }
    // Parents: a random topological order; each joint's parent comes earlier in that order,
    // which is any position in file order (parents may follow their children).
    const std::vector<size_t> topo = permutation(n);
    for (size_t k = 0; k < n; ++k) {
      std::vector<size_t> candidates;
      for (size_t j = 0; j < k; ++j)
        if (s.joints[topo[j]].id <= 32767) candidates.push_back(topo[j]);
      const size_t c = uniform<size_t>(0, candidates.size() + 1);
      s.joints[topo[k]].parent =
          c == 0 ? int16_t{-1} : static_cast<int16_t>(s.joints[candidates[c - 1]].id);
    }
    for (SkelJoint& j : s.joints) {
      j.bind = trs(numbers);
      j.name = utf8_name(255);
    }
    return s;
  });
}

rc::Gen<Vskn> gen_vskn(const Vox0& vox0, const Skel& skel) {
  return rc::gen::exec([vox0, skel] {
    Vskn v;
    const size_t n = skel.joints.size();
    v.default_joint = skel.joints[uniform<size_t>(0, n)].id;
    for (size_t i = 0; i < vox0.voxels.size(); ++i) {
      if (vox0.voxels[i] == 0 || uniform<int>(0, 3) == 0) continue;
      const uint16_t joint = skel.joints[uniform<size_t>(0, n)].id;
      if (joint != v.default_joint) v.bindings.push_back({static_cast<uint32_t>(i), joint});
    }
    return v;
  });
}

GenRig gen_eval_rig(int max_clips, bool extreme_bind_scales) {
  GenRig r;
  r.skel = *gen_skel(Numbers::Eval, 8);
  if (extreme_bind_scales && one_in(2))
    for (auto& j : r.skel.joints)
      j.bind.s = {one_in(2) ? 0.25f : 4.0f, one_in(2) ? 0.25f : 4.0f, one_in(2) ? 0.25f : 4.0f};
  r.anim = *gen_anim(r.skel, Numbers::Eval, max_clips, 1);
  return r;
}

rc::Gen<Anim> gen_anim(const Skel& skel, Numbers numbers, int max_clips, int min_clips) {
  return rc::gen::exec([skel, numbers, max_clips, min_clips] {
    Anim a;
    const size_t clips = pick<size_t>(size_t(min_clips), static_cast<size_t>(max_clips) + 1);
    uint32_t id = pick<uint32_t>(0, 3);
    for (size_t c = 0; c < clips; ++c) {
      if (c > 0) id += one_in(8) ? uniform<uint32_t>(1, 20000) : pick<uint32_t>(1, 3);
      AnimClip clip;
      clip.id = static_cast<uint16_t>(id);
      clip.duration_ms = one_in(6)   ? 0u
                         : one_in(8) ? static_cast<uint32_t>(uniform<uint64_t>(1, 1ull << 32))
                                     : pick<uint32_t>(1, 5001);
      clip.name = utf8_name(255);
      for (const SkelJoint& j : skel.joints) {  // ids are increasing in SKEL order
        if (uniform<int>(0, 3) == 0) continue;
        AnimTrack track;
        track.joint = j.id;
        const uint64_t span = uint64_t{clip.duration_ms} + 1;
        const size_t want = std::min<uint64_t>(pick<size_t>(1, 6), span);
        std::vector<uint32_t> times;
        if (one_in(3)) times.push_back(0);
        if (one_in(3)) times.push_back(clip.duration_ms);
        while (times.size() < want)
          times.push_back(static_cast<uint32_t>(uniform<uint64_t>(0, span)));
        std::sort(times.begin(), times.end());
        times.erase(std::unique(times.begin(), times.end()), times.end());
        for (uint32_t t : times) {
          AnimKey key{t, trs(numbers)};
          // Keys often repeat a bind component (the compile input may then leave it out).
          if (one_in(3)) key.trs.t = j.bind.t;
          if (one_in(3)) key.trs.r = j.bind.r;
          if (one_in(3)) key.trs.s = j.bind.s;
          track.keys.push_back(key);
        }
        clip.tracks.push_back(std::move(track));
      }
      a.clips.push_back(std::move(clip));
    }
    return a;
  });
}

bool is_cache_tag(const SectionTag& tag) {
  for (const char* t : kCacheTags)
    if (std::memcmp(t, tag.data(), 4) == 0) return true;
  return false;
}

bool is_known_tag(const SectionTag& tag) {
  if (is_cache_tag(tag)) return true;
  for (const char* t : {"VOX0", "SKEL", "VSKN", "ANIM"})
    if (std::memcmp(t, tag.data(), 4) == 0) return true;
  return false;
}

rc::Gen<VfpFile> gen_vfp_file(VfpGenOptions o) {
  return rc::gen::exec([o] {
    VfpFile f;
    const bool compile = o.compilable;
    f.version_minor = (o.any_minor && !compile && one_in(2)) ? uniform<uint8_t>(0, 255) : 3;
    const bool rig = o.rig == VfpGenOptions::Rig::Always ||
                     (o.rig == VfpGenOptions::Rig::Maybe && uniform<int>(0, 2) == 1);
    const Vox0 vox0 = *gen_vox0(o.grid, rig ? 2 : 1);
    std::vector<Section> core;
    core.push_back(Section{{make_tag("VOX0"), -1, 0, kSectionRequired}, vox0});
    if (rig) {
      const Skel skel = *gen_skel(o.numbers);
      core.push_back(Section{{make_tag("SKEL"), -1, 0, 0}, skel});
      core.push_back(Section{{make_tag("VSKN"), -1, 0, 0}, *gen_vskn(vox0, skel)});
      const Anim anim = *gen_anim(skel, o.numbers);
      if (compile ? !anim.clips.empty() : uniform<int>(0, 3) != 0)
        core.push_back(Section{{make_tag("ANIM"), -1, 0, 0}, anim});
    }
    std::vector<Section> extras;
    const size_t n_extra = o.extras ? pick<size_t>(0, 5) : 0;
    for (size_t i = 0; i < n_extra; ++i) {
      Section s;
      s.header.chunk_id = chunk_id();
      if (one_in(2)) {
        std::memcpy(s.header.tag.data(), kCacheTags[uniform<size_t>(0, 5)], 4);
        s.header.flags = one_in(3) ? kSectionRequired : 0;
      } else {
        s.header.tag = vfp_tag_except(
            {"VOX0", "SKEL", "VSKN", "ANIM", "MSH0", "PMSH", "RND0", "PRVW", "ANM0"});
      }
      if (o.any_codec && !compile && s.header.flags == 0 && one_in(4))
        s.header.codec = uniform<uint8_t>(1, 255);
      s.body = RawPayload{some_bytes(48)};
      extras.push_back(std::move(s));
    }
    if (o.shuffle && !compile) {
      std::vector<Section> all = core;
      all.insert(all.end(), extras.begin(), extras.end());
      for (size_t i : permutation(all.size())) f.sections.push_back(all[i]);
    } else {  // the compiler's order: VOX0, extras, SKEL, VSKN, ANIM
      f.sections.push_back(core[0]);
      f.sections.insert(f.sections.end(), extras.begin(), extras.end());
      f.sections.insert(f.sections.end(), core.begin() + 1, core.end());
    }
    rebind(f);
    return f;
  });
}

// ---- descriptions ---------------------------------------------------------------------------

namespace {

std::string tag_text(const SectionTag& t) { return std::string(t.data(), 4); }

std::string floats(std::initializer_list<float> v) {
  std::string s = "(";
  for (float x : v) s += (s.size() > 1 ? " " : "") + f32_json(x);
  return s + ")";
}

std::string trs_text(const Trs& t) {
  return "t" + floats({t.t.x, t.t.y, t.t.z}) + " r" + floats({t.r.x, t.r.y, t.r.z, t.r.w}) + " s" +
         floats({t.s.x, t.s.y, t.s.z});
}

std::string short_hex(std::span<const uint8_t> b, size_t max = 24) {
  std::string s = to_hex(b.subspan(0, std::min(b.size(), max)));
  return b.size() > max ? s + "..." : s;
}

}  // namespace

std::string describe(const Vox0& v) {
  std::ostringstream os;
  os << v.size_x << "x" << v.size_y << "x" << v.size_z << " palette[" << v.palette.size() << "]";
  size_t shown = 0, non_empty = 0;
  for (size_t i = 0; i < v.voxels.size(); ++i) {
    if (v.voxels[i] == 0) continue;
    if (++non_empty > 48) continue;
    const size_t x = i % v.size_x, y = (i / v.size_x) % v.size_y,
                 z = i / (size_t{v.size_x} * v.size_y);
    os << (shown++ ? " " : " voxels ") << "(" << x << "," << y << "," << z
       << ")=" << int(v.voxels[i]);
  }
  if (non_empty > 48) os << " ... (" << non_empty << " non-empty)";
  return os.str();
}

std::string describe(const Section& s) {
  std::ostringstream os;
  os << tag_text(s.header.tag) << " chunk " << s.header.chunk_id << " codec " << int(s.header.codec)
     << " flags " << int(s.header.flags) << ": ";
  if (const auto* raw = std::get_if<RawPayload>(&s.body)) {
    os << "raw " << raw->bytes.size() << " B " << short_hex(raw->bytes);
  } else if (const auto* v = std::get_if<Vox0>(&s.body)) {
    os << describe(*v);
  } else if (const auto* sk = std::get_if<Skel>(&s.body)) {
    os << "base " << short_hex(sk->base_source_hash, 4);
    for (const SkelJoint& j : sk->joints)
      os << "\n      joint " << j.id << " parent " << j.parent << " \"" << j.name << "\" "
         << trs_text(j.bind);
  } else if (const auto* vs = std::get_if<Vskn>(&s.body)) {
    os << "default " << vs->default_joint << " base " << short_hex(vs->base_source_hash, 4)
       << " skel " << short_hex(vs->skeleton_hash, 4) << " bindings";
    for (const VsknBinding& b : vs->bindings) os << " " << b.voxel_offset << "->" << b.joint;
  } else if (const auto* an = std::get_if<Anim>(&s.body)) {
    os << "base " << short_hex(an->base_source_hash, 4) << " skel "
       << short_hex(an->skeleton_hash, 4);
    for (const AnimClip& c : an->clips) {
      os << "\n      clip " << c.id << " \"" << c.name << "\" " << c.duration_ms << " ms";
      for (const AnimTrack& t : c.tracks) {
        os << "\n        track joint " << t.joint;
        for (const AnimKey& k : t.keys)
          os << "\n          @" << k.time_ms << " " << trs_text(k.trs);
      }
    }
  }
  return os.str();
}

std::string describe(const Skel& s) { return describe(Section{{make_tag("SKEL"), -1, 0, 0}, s}); }
std::string describe(const Anim& a) { return describe(Section{{make_tag("ANIM"), -1, 0, 0}, a}); }

std::string describe(const VfpFile& f) {
  std::ostringstream os;
  os << "VfpFile 1." << int(f.version_minor) << ", " << f.sections.size() << " sections";
  for (size_t i = 0; i < f.sections.size(); ++i)
    os << "\n  [" << i << "] " << describe(f.sections[i]);
  return os.str();
}

}  // namespace voxrig::props
