// RKCH-family generators (prop_gen_rkc.h).
#include "prop_gen_rkc.h"

#include <zlib.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <numeric>
#include <sstream>

#include "prop_gen_common.h"
#include "voxrig/float_text.h"
#include "voxrig/sha256.h"
#include "voxrig/testing/deflate.h"
#include "voxrig/testing/le_bytes.h"

namespace voxrig::props {
namespace {

using Bytes = std::vector<uint8_t>;

float any_or_finite(bool special) { return special ? any_float() : finite_float(); }

BoneXform xform(bool special) {
  BoneXform x;
  for (float& f : x.t) f = any_or_finite(special);
  if (uniform<int>(0, 3) == 0) {
    const auto q = unit_quat();
    std::copy(q.begin(), q.end(), x.r.begin());
  } else {
    for (float& f : x.r) f = any_or_finite(special);
  }
  for (float& f : x.s) f = any_or_finite(special);
  return x;
}

// Parent per node: a random forest whose parents may come after their children.
std::vector<int32_t> forest(size_t n) {
  const auto keys = *rc::gen::container<std::vector<size_t>>(n, rc::gen::inRange<size_t>(0, n + 1));
  std::vector<size_t> topo(n);
  std::iota(topo.begin(), topo.end(), 0);
  std::stable_sort(topo.begin(), topo.end(), [&](size_t a, size_t b) { return keys[a] < keys[b]; });
  std::vector<int32_t> parent(n, -1);
  for (size_t k = 1; k < n; ++k) {
    const size_t c = uniform<size_t>(0, k + 1);
    if (c > 0) parent[topo[k]] = static_cast<int32_t>(topo[c - 1]);
  }
  return parent;
}

Hinge hinge(int32_t parent, bool special) {
  Hinge h;
  h.parent = parent;
  for (auto& p : h.p)
    for (float& f : p) f = any_or_finite(special);
  for (auto& v : h.v)
    for (float& f : v) f = any_or_finite(special);
  h.vmin = static_cast<int16_t>(pick<int>(-32768, 32768));
  h.vmax = static_cast<int16_t>(pick<int>(-32768, 32768));
  h.htype = static_cast<uint8_t>(pick<int>(0, 256));
  for (uint8_t& b : h.filler) b = static_cast<uint8_t>(pick<int>(0, 256));
  return h;
}

std::vector<Seq> seq_table() {
  std::vector<Seq> seq(pick<size_t>(0, 7));
  int32_t t = pick<int32_t>(-5, 5);
  for (Seq& s : seq) {
    t += one_in(6) ? uniform<int32_t>(-1000000, 1000000) : pick<int32_t>(0, 700);
    s.tim = t;
    s.frm = one_in(8) ? uniform<int32_t>(INT32_MIN, INT32_MAX) : pick<int32_t>(-4, 6);
  }
  return seq;
}

// Per column, the (z, colour) pairs of a frame, ascending z.
using Columns = std::vector<std::vector<std::pair<uint32_t, uint32_t>>>;

std::vector<std::pair<uint32_t, uint32_t>> column(uint32_t dim_z) {
  std::vector<std::pair<uint32_t, uint32_t>> c;
  for (uint32_t z = 0; z < dim_z; ++z)
    if (uniform<int>(0, 3) == 2) c.push_back({z, uniform<uint32_t>(0, 0xFFFFFFFFu)});
  return c;
}

RvcVoxelFrame to_frame(const Columns& cols, std::array<uint32_t, 3> dims) {
  const uint32_t owpc = rvc_owpc(dims[2]);
  RvcVoxelFrame f;
  f.occupancy.assign(cols.size() * owpc, 0);
  f.color_offsets.push_back(0);
  for (size_t c = 0; c < cols.size(); ++c) {
    for (const auto& [z, colour] : cols[c]) {
      f.occupancy[c * owpc + (z >> 5)] |= 1u << (z & 31);
      f.colors.push_back(colour);
    }
    f.color_offsets.push_back(static_cast<uint32_t>(f.colors.size()));
  }
  return f;
}

std::array<uint32_t, 3> rvc_dims() {
  return {pick<uint32_t>(1, 5), pick<uint32_t>(1, 4),
          one_in(4) ? uniform<uint32_t>(33, 70) : pick<uint32_t>(1, 9)};
}

// ---- stored forms -----------------------------------------------------------------------------

struct StoredChunk {
  std::array<char, 4> tag;
  Bytes raw;
  bool real;  // the copy the decoder keeps (the last of its tag)
};

}  // namespace

rc::Gen<Kv6> gen_kv6() {
  return rc::gen::exec([] {
    Kv6 m;
    m.xsiz = pick<uint32_t>(0, 5);
    m.ysiz = pick<uint32_t>(0, 5);
    m.zsiz = pick<uint32_t>(0, 12);
    for (float& f : m.pivot) f = any_float();
    m.xlen.assign(m.xsiz, 0);
    m.ylen.assign(size_t{m.xsiz} * m.ysiz, 0);
    for (uint32_t x = 0; x < m.xsiz; ++x) {
      for (uint32_t y = 0; y < m.ysiz; ++y) {
        for (uint32_t z = 0; z < m.zsiz; ++z) {
          if (uniform<int>(0, 3) != 2) continue;
          m.voxels.push_back(Kv6Voxel{uniform<uint32_t>(0, 0xFFFFFFFFu), static_cast<uint16_t>(z),
                                      static_cast<uint8_t>(pick<int>(0, 64)),
                                      static_cast<uint8_t>(pick<int>(0, 256))});
          ++m.xlen[x];
          ++m.ylen[size_t{x} * m.ysiz + y];
        }
      }
    }
    if (one_in(3)) {
      Kv6Palette p{};
      for (uint8_t& b : p) b = static_cast<uint8_t>(uniform<int>(0, 256));
      m.palette = p;
    }
    return m;
  });
}

rc::Gen<RvcVoxelFrame> gen_rvc_frame(std::array<uint32_t, 3> dims) {
  return rc::gen::exec([dims] {
    Columns cols(size_t{dims[0]} * dims[1]);
    for (auto& c : cols) c = column(dims[2]);
    return to_frame(cols, dims);
  });
}

rc::Gen<RvcClip> gen_rvc_clip() {
  return rc::gen::exec([] {
    const auto dims = rvc_dims();
    const size_t n_frames = pick<size_t>(0, 5);
    std::vector<RvcVoxelFrame> frames;
    Columns cols(size_t{dims[0]} * dims[1]);
    for (auto& c : cols) c = column(dims[2]);
    for (size_t i = 0; i < n_frames; ++i) {
      if (i > 0) {  // edit a few columns of the previous frame
        const size_t edits = pick<size_t>(0, 3);
        for (size_t e = 0; e < edits; ++e) cols[uniform<size_t>(0, cols.size())] = column(dims[2]);
      }
      frames.push_back(to_frame(cols, dims));
    }
    std::vector<uint32_t> durations;
    if (uniform<int>(0, 2) == 1)
      for (size_t i = 0; i < n_frames; ++i) durations.push_back(pick<uint32_t>(0, 200));
    const std::array<float, 3> pivot{any_float(), any_float(), any_float()};
    const auto mode = static_cast<RvcLoopMode>(pick<int>(0, 3));
    return rvc_from_frames(dims, pivot, any_float(), mode, frames, durations,
                           pick<uint32_t>(0, 100), pick<uint32_t>(0, 4));
  });
}

rc::Gen<Bytes> gen_rvc_stored_variant(const RvcClip& base) {
  return rc::gen::exec([base] {
    const bool v1 = one_in(4);
    std::vector<StoredChunk> chunks;
    for (const RvcChunk& c : base.chunks) {
      StoredChunk s{c.tag, c.inflated, true};
      // Bytes past what the decoder reads are ignored (META past 37, FRMS past the frames,
      // TIME past frame_count values).
      if (one_in(4)) {
        const Bytes junk = some_bytes(9);
        s.raw.insert(s.raw.end(), junk.begin(), junk.end());
      }
      chunks.push_back(std::move(s));
      if (one_in(4)) chunks.push_back(StoredChunk{c.tag, some_bytes(40), false});  // duplicate
    }
    for (size_t i = pick<size_t>(0, 3); i > 0; --i) {
      const auto t = raw_tag_except({"META", "FRMS", "TIME"});
      chunks.push_back(
          StoredChunk{{char(t[0]), char(t[1]), char(t[2]), char(t[3])}, some_bytes(30), true});
    }
    // Any order in which every kept copy follows its duplicates.
    std::vector<size_t> order(chunks.size());
    std::iota(order.begin(), order.end(), 0);
    const auto keys =
        *rc::gen::container<std::vector<size_t>>(chunks.size(), rc::gen::inRange<size_t>(0, 8));
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return keys[a] < keys[b]; });
    std::vector<StoredChunk> sorted;
    for (size_t i : order) sorted.push_back(chunks[i]);
    for (size_t i = 0; i < sorted.size(); ++i) {
      if (!sorted[i].real) continue;
      size_t last = i;
      for (size_t j = i + 1; j < sorted.size(); ++j)
        if (sorted[j].tag == sorted[i].tag) last = j;
      std::swap(sorted[i], sorted[last]);
    }
    testing::LeBytes out;
    out.str("RVCL").u16(v1 ? 1 : 2);
    for (const StoredChunk& c : sorted) {
      out.str(std::string_view(c.tag.data(), c.tag.size()));
      testing::LeBytes stored;
      uint8_t flags = 0;
      if (!v1 && one_in(2)) {
        flags = 1;
        static const int kStrategies[] = {Z_DEFAULT_STRATEGY, Z_FILTERED, Z_HUFFMAN_ONLY, Z_RLE,
                                          Z_FIXED};
        stored.u32(static_cast<uint32_t>(c.raw.size()));
        const Bytes z =
            testing::raw_deflate(c.raw, uniform<int>(0, 10), kStrategies[uniform<size_t>(0, 5)]);
        stored.raw(z);
        if (one_in(4)) stored.raw(some_bytes(6));
      } else {
        stored.raw(c.raw);
      }
      if (!v1) {
        if (one_in(4)) flags |= static_cast<uint8_t>(uniform<int>(1, 128) << 1);
        out.u8(flags);
      }
      out.u32(static_cast<uint32_t>(stored.size())).raw(stored);
    }
    return out.bytes();
  });
}

rc::Gen<Kfa> gen_kfa() {
  return rc::gen::exec([] {
    Kfa k;
    k.kv6_name = some_bytes(12);
    const std::vector<int32_t> parents = forest(pick<size_t>(0, 6));
    for (int32_t p : parents) k.hinges.push_back(hinge(p, true));
    k.frame_count = pick<uint32_t>(0, 4);
    for (size_t i = 0; i < k.frame_count * k.hinges.size(); ++i)
      k.frames.push_back(static_cast<int16_t>(pick<int>(-32768, 32768)));
    k.seq = seq_table();
    return k;
  });
}

rc::Gen<Character> gen_character(CharacterGenOptions o) {
  return rc::gen::exec([o] {
    Character c;
    c.name = utf8_name(120);
    for (float& f : c.root) f = any_or_finite(o.special_floats);
    for (size_t i = pick<size_t>(0, 3); i > 0; --i) c.meshes.push_back(*gen_kv6());
    for (size_t i = pick<size_t>(0, 3); i > 0; --i) c.voxel_clips.push_back(*gen_rvc_clip());
    const std::vector<int32_t> parents = forest(pick<size_t>(0, size_t(o.max_bones) + 1));
    for (int32_t p : parents) {
      Bone b;
      b.name = utf8_name(60);
      for (size_t a = pick<size_t>(0, 3); a > 0; --a) {
        const bool clip = !c.voxel_clips.empty() && (c.meshes.empty() || one_in(2));
        if (!clip && c.meshes.empty()) break;
        Attachment at;
        at.kind = clip ? AttachmentKind::Clip : AttachmentKind::Static;
        at.index = uniform<uint32_t>(0, uint32_t(clip ? c.voxel_clips.size() : c.meshes.size()));
        at.local_offset = xform(o.special_floats);
        at.speed_q8 = one_in(3) ? uniform<int32_t>(INT32_MIN, INT32_MAX) : 256;
        at.start_phase_ms = pick<uint32_t>(0, 5000);
        b.attachments.push_back(at);
      }
      b.hinge = hinge(p, o.special_floats);
      c.bones.push_back(std::move(b));
    }
    for (size_t i = pick<size_t>(0, 4); i > 0; --i) {
      Clip clip;
      clip.name = utf8_name(40);
      if (uniform<int>(0, 4) != 3) {
        SkeletalClip s;
        s.frame_count = pick<uint32_t>(0, 4);
        s.numhin = static_cast<uint32_t>(c.bones.size());
        for (size_t f = 0; f < size_t{s.frame_count} * s.numhin; ++f)
          s.frames.push_back(xform(o.special_floats));
        s.seq = seq_table();
        clip.data = std::move(s);
      } else {
        clip.data = UnknownClip{static_cast<uint16_t>(uniform<int>(1, 65536)), some_bytes(40)};
      }
      c.clips.push_back(std::move(clip));
    }
    for (size_t i = pick<size_t>(0, 4); i > 0; --i)
      c.extra_chunks.push_back(
          ExtraChunk{raw_tag_except({"META", "MSHS", "BONS", "CLPS", "VCLP"}), some_bytes(40)});
    return c;
  });
}

// ---- descriptions ---------------------------------------------------------------------------

namespace {

std::string fl(std::span<const float> v) {
  std::string s = "(";
  for (float x : v) s += (s.size() > 1 ? " " : "") + f32_json(x);
  return s + ")";
}

std::string tag4(std::span<const uint8_t> t) {
  std::string s;
  for (uint8_t c : t) s += (c >= 0x20 && c < 0x7F) ? char(c) : '?';
  return s + "(" + to_hex(t) + ")";
}

}  // namespace

std::string describe(const Kv6& m) {
  std::ostringstream os;
  os << "Kv6 " << m.xsiz << "x" << m.ysiz << "x" << m.zsiz << " pivot " << fl(m.pivot) << " "
     << m.voxels.size() << " voxels" << (m.palette ? " +SPal" : "");
  return os.str();
}

std::string describe(const RvcClip& c) {
  std::ostringstream os;
  os << "RvcClip v" << c.version << " dims " << c.meta.dims[0] << "x" << c.meta.dims[1] << "x"
     << c.meta.dims[2] << " frames " << c.meta.frame_count << " loop " << int(c.meta.loop_mode)
     << " chunks";
  for (const RvcChunk& k : c.chunks)
    os << " " << std::string(k.tag.data(), 4) << "/" << int(k.flags) << "/" << k.stored.size();
  return os.str();
}

std::string describe(const Character& c) {
  std::ostringstream os;
  os << "Character \"" << c.name << "\" root " << fl(c.root) << ", " << c.meshes.size()
     << " meshes, " << c.voxel_clips.size() << " voxel clips";
  for (const Kv6& m : c.meshes) os << "\n  mesh " << describe(m);
  for (const RvcClip& v : c.voxel_clips) os << "\n  vclip " << describe(v);
  for (const Bone& b : c.bones) {
    os << "\n  bone \"" << b.name << "\" parent " << b.hinge.parent << " htype "
       << int(b.hinge.htype);
    for (const Attachment& a : b.attachments)
      os << " [" << (a.kind == AttachmentKind::Static ? "mesh " : "clip ") << a.index << "]";
  }
  for (const Clip& k : c.clips) {
    os << "\n  clip \"" << k.name << "\" ";
    if (const auto* s = std::get_if<SkeletalClip>(&k.data)) {
      os << "skeletal " << s->frame_count << "x" << s->numhin << " seq";
      for (const Seq& q : s->seq) os << " {" << q.tim << "," << q.frm << "}";
    } else {
      const auto& u = std::get<UnknownClip>(k.data);
      os << "kind " << u.kind << " " << u.bytes.size() << " B";
    }
  }
  for (const ExtraChunk& e : c.extra_chunks)
    os << "\n  extra " << tag4(e.tag) << " " << e.bytes.size() << " B";
  return os.str();
}

std::string describe(const Kfa& k) {
  std::ostringstream os;
  os << "Kfa name " << k.kv6_name.size() << " B, " << k.hinges.size() << " hinges (parents";
  for (const Hinge& h : k.hinges) os << " " << h.parent;
  os << "), " << k.frame_count << " frames, " << k.seq.size() << " seq";
  return os.str();
}

}  // namespace voxrig::props
