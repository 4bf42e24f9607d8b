// Field locator for golden mutations: a lenient walk that names every field of a VFP, RKCH, KV6,
// RVC or KFA file. Never validates; stops a table at the first element that does not fit.
//
// VFP payload field names (formats.md):
//   VOX0  version reserved paletteCount sizeX sizeY sizeZ reserved2 palette[i] voxels
//         (computed: voxel[i], voxel[x,y,z])
//   SKEL  version reserved jointCount baseSourceHash joint[i]{jointId parentId translation(.x.y.z)
//         rotation(.x.y.z.w) scale(.x.y.z) nameLen pad name}
//   VSKN  version encoding defaultJointId reserved bindingCount baseSourceHash skeletonHash
//         record[i]{voxelOffset jointId}
//   ANIM  version reserved clipCount baseSourceHash skeletonHash clip[i]{clipId trackCount
//         durationMs nameLen pad name track[j]{jointId reserved keyCount key[k]{timeMs
//         translation rotation scale}}}
// RKCH family names follow rkc-family.md (name_len, attach_count, hinge/p0.x, numfrm, seq[k]/tim…).
#include "golden_layout.h"

#include <algorithm>
#include <cstring>
#include <map>

namespace voxrig::cli::golden {
namespace {

uint64_t le(std::span<const uint8_t> b, uint64_t at, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; ++i) v |= uint64_t(b[at + i]) << (8 * i);
  return v;
}

// Emits fields under one or more alias prefixes while walking forward through [pos, end).
class Walker {
 public:
  Walker(std::span<const uint8_t> b, uint64_t pos, uint64_t end, Layout& out,
         std::vector<std::string> prefixes)
      : b_(b), pos_(pos), end_(end), out_(out), prefixes_(std::move(prefixes)) {}

  uint64_t pos() const { return pos_; }
  uint64_t end() const { return end_; }
  uint64_t remaining() const { return end_ - pos_; }
  bool fits(uint64_t n) const { return n <= remaining(); }

  // Names [pos, pos+n) and advances; false (nothing emitted) if it does not fit.
  bool field(const std::string& name, uint64_t n) {
    if (!fits(n)) return false;
    emit(name, pos_, n);
    pos_ += n;
    return true;
  }
  // Names a range without advancing (a sub-field or a whole record).
  void emit(const std::string& name, uint64_t at, uint64_t n) {
    for (const auto& p : prefixes_) out_.fields.push_back({p.empty() ? name : p + "/" + name, at, n});
  }
  // A little-endian unsigned field; returns its value (0 when it does not fit).
  std::optional<uint64_t> uint(const std::string& name, int n) {
    if (!fits(uint64_t(n))) return std::nullopt;
    uint64_t v = le(b_, pos_, n);
    field(name, uint64_t(n));
    return v;
  }
  bool vec3(const std::string& name) {
    if (!fits(12)) return false;
    emit(name, pos_, 12);
    static const char* kAxes[] = {"x", "y", "z"};
    for (int i = 0; i < 3; ++i) field(name + "." + kAxes[i], 4);
    return true;
  }
  bool quat(const std::string& name) {
    if (!fits(16)) return false;
    emit(name, pos_, 16);
    static const char* kAxes[] = {"x", "y", "z", "w"};
    for (int i = 0; i < 4; ++i) field(name + "." + kAxes[i], 4);
    return true;
  }
  void end_marker() { emit("end", end_, 0); }
  const std::vector<std::string>& prefixes() const { return prefixes_; }
  std::vector<std::string> sub_prefixes(const std::string& name) const {
    std::vector<std::string> r;
    for (const auto& p : prefixes_) r.push_back(p.empty() ? name : p + "/" + name);
    return r;
  }
  std::span<const uint8_t> bytes() const { return b_; }
  Layout& out() { return out_; }
  void set_pos(uint64_t p) { pos_ = p; }

 private:
  std::span<const uint8_t> b_;
  uint64_t pos_, end_;
  Layout& out_;
  std::vector<std::string> prefixes_;
};

std::string idx(const std::string& name, uint64_t i) { return name + "[" + std::to_string(i) + "]"; }

// Adds a region whose u32 length sits at `len_off` and counts [start, end).
void add_region(Layout& out, const std::string& len_path, uint64_t len_off, uint64_t start,
                uint64_t end, const std::vector<std::string>& prefixes) {
  Region r{len_path, len_off, start, end, {}};
  for (const auto& p : prefixes) r.end_paths.push_back(p + "/end");
  out.regions.push_back(std::move(r));
}

// Tag aliases of the k-th occurrence: "section[3]", "section[SKEL]" (first only), "section[SKEL:1]".
std::vector<std::string> alias_prefixes(const std::string& container, uint64_t i,
                                        const std::string& tag, uint64_t k) {
  std::vector<std::string> r{idx(container, i)};
  if (k == 0) r.push_back(container + "[" + tag + "]");
  r.push_back(container + "[" + tag + ":" + std::to_string(k) + "]");
  return r;
}
std::vector<std::string> tag_prefixes(const std::string& tag, uint64_t k) {
  std::vector<std::string> r;
  if (k == 0) r.push_back(tag);
  r.push_back(tag + ":" + std::to_string(k));
  return r;
}

bool printable_tag(std::span<const uint8_t> b, uint64_t at) {
  for (int i = 0; i < 4; ++i)
    if (b[at + i] < 0x20 || b[at + i] > 0x7E) return false;
  return true;
}
std::string tag_text(std::span<const uint8_t> b, uint64_t at) {
  if (!printable_tag(b, at)) return "?";
  return std::string(reinterpret_cast<const char*>(b.data() + at), 4);
}

// ---------------------------------------------------------------- VFP payloads
void walk_vox0(Walker& w) {
  w.uint("version", 1);
  w.uint("reserved", 1);
  auto pc = w.uint("paletteCount", 2);
  auto sx = w.uint("sizeX", 2), sy = w.uint("sizeY", 2), sz = w.uint("sizeZ", 2);
  w.uint("reserved2", 2);
  for (uint64_t i = 0; pc && i < *pc && w.fits(4); ++i) w.field(idx("palette", i), 4);
  if (sx && sy && sz) w.emit("voxels", w.pos(), std::min(w.remaining(), *sx * *sy * *sz));
}

void walk_skel(Walker& w) {
  w.uint("version", 1);
  w.uint("reserved", 1);
  auto n = w.uint("jointCount", 2);
  w.field("baseSourceHash", 32);
  for (uint64_t i = 0; n && i < *n && w.fits(48); ++i) {
    const uint64_t start = w.pos();
    const uint64_t name_len = w.bytes()[start + 44];
    w.emit(idx("joint", i), start, std::min(48 + name_len, w.remaining()));
    Walker j(w.bytes(), start, w.end(), w.out(), w.sub_prefixes(idx("joint", i)));
    j.uint("jointId", 2);
    j.uint("parentId", 2);
    j.vec3("translation");
    j.quat("rotation");
    j.vec3("scale");
    j.uint("nameLen", 1);
    j.field("pad", 3);
    j.field("name", std::min(name_len, j.remaining()));
    w.set_pos(j.pos());
  }
}

void walk_vskn(Walker& w) {
  w.uint("version", 1);
  w.uint("encoding", 1);
  w.uint("defaultJointId", 2);
  w.uint("reserved", 2);
  auto n = w.uint("bindingCount", 4);
  w.field("baseSourceHash", 32);
  w.field("skeletonHash", 32);
  for (uint64_t i = 0; n && i < *n && w.fits(6); ++i) {
    w.emit(idx("record", i), w.pos(), 6);
    w.field(idx("record", i) + "/voxelOffset", 4);
    w.field(idx("record", i) + "/jointId", 2);
  }
}

void walk_anim(Walker& w) {
  w.uint("version", 1);
  w.uint("reserved", 1);
  auto nc = w.uint("clipCount", 2);
  w.field("baseSourceHash", 32);
  w.field("skeletonHash", 32);
  for (uint64_t c = 0; nc && c < *nc && w.fits(12); ++c) {
    const uint64_t cstart = w.pos();
    Walker cw(w.bytes(), cstart, w.end(), w.out(), w.sub_prefixes(idx("clip", c)));
    cw.uint("clipId", 2);
    auto nt = cw.uint("trackCount", 2);
    cw.uint("durationMs", 4);
    auto nl = cw.uint("nameLen", 1);
    cw.field("pad", 3);
    cw.field("name", std::min(nl.value_or(0), cw.remaining()));
    for (uint64_t t = 0; nt && t < *nt && cw.fits(8); ++t) {
      const uint64_t tstart = cw.pos();
      Walker tw(w.bytes(), tstart, w.end(), w.out(), cw.sub_prefixes(idx("track", t)));
      tw.uint("jointId", 2);
      tw.uint("reserved", 2);
      auto nk = tw.uint("keyCount", 4);
      for (uint64_t k = 0; nk && k < *nk && tw.fits(44); ++k) {
        tw.emit(idx("key", k), tw.pos(), 44);
        Walker kw(w.bytes(), tw.pos(), w.end(), w.out(), tw.sub_prefixes(idx("key", k)));
        kw.uint("timeMs", 4);
        kw.vec3("translation");
        kw.quat("rotation");
        kw.vec3("scale");
        tw.set_pos(kw.pos());
      }
      cw.emit(idx("track", t), tstart, tw.pos() - tstart);
      cw.set_pos(tw.pos());
    }
    w.emit(idx("clip", c), cstart, cw.pos() - cstart);
    w.set_pos(cw.pos());
  }
}

void walk_vfp(std::span<const uint8_t> b, Layout& out) {
  Walker h(b, 0, b.size(), out, {"header"});
  h.field("magic", 4);
  h.field("versionMajor", 1);
  h.field("versionMinor", 1);
  h.field("headerFlags", 2);
  h.field("sectionCount", 4);
  h.field("sourceHash", 32);
  if (b.size() < 44) return;
  std::map<std::string, uint64_t> seen;
  uint64_t pos = 44;
  for (uint64_t i = 0; pos + 16 <= b.size(); ++i) {
    const std::string tag = tag_text(b, pos);
    const uint64_t k = seen[tag]++;
    const uint64_t len = le(b, pos + 12, 4);
    const uint64_t pstart = pos + 16;
    const uint64_t pend = std::min<uint64_t>(b.size(), pstart + len);
    auto sec = alias_prefixes("section", i, tag, k);
    for (const auto& p : sec) {
      out.fields.push_back({p, pos, pend - pos});
      out.fields.push_back({p + "/tag", pos, 4});
      out.fields.push_back({p + "/chunkId", pos + 4, 4});
      out.fields.push_back({p + "/codec", pos + 8, 1});
      out.fields.push_back({p + "/flags", pos + 9, 1});
      out.fields.push_back({p + "/reserved", pos + 10, 2});
      out.fields.push_back({p + "/length", pos + 12, 4});
      out.fields.push_back({p + "/payload", pstart, pend - pstart});
    }
    std::vector<std::string> payload_prefixes = sec;
    if (tag != "?")
      for (auto& p : tag_prefixes(tag, k)) payload_prefixes.push_back(p);
    Walker pw(b, pstart, pend, out, payload_prefixes);
    if (tag == "VOX0") walk_vox0(pw);
    else if (tag == "SKEL") walk_skel(pw);
    else if (tag == "VSKN") walk_vskn(pw);
    else if (tag == "ANIM") walk_anim(pw);
    pw.end_marker();
    add_region(out, sec[0] + "/length", pos + 12, pstart, pend, payload_prefixes);
    pos = pend;
  }
}

// ---------------------------------------------------------------- RKCH family
void walk_xform(Walker& w, const std::string& name) {
  Walker x(w.bytes(), w.pos(), w.end(), w.out(), w.sub_prefixes(name));
  if (!w.fits(40)) return;
  w.emit(name, w.pos(), 40);
  x.vec3("t");
  x.quat("r");
  x.vec3("s");
  w.set_pos(x.pos());
}

void walk_hinge(Walker& w, const std::string& name) {
  if (!w.fits(64)) return;
  w.emit(name, w.pos(), 64);
  Walker h(w.bytes(), w.pos(), w.end(), w.out(), w.sub_prefixes(name));
  h.uint("parent", 4);
  h.vec3("p0");
  h.vec3("p1");
  h.vec3("v0");
  h.vec3("v1");
  h.uint("vmin", 2);
  h.uint("vmax", 2);
  h.uint("htype", 1);
  h.field("filler", 7);
  w.set_pos(h.pos());
}

void walk_kv6_at(std::span<const uint8_t> b, uint64_t start, uint64_t end, Layout& out,
                 std::vector<std::string> prefixes) {
  Walker w(b, start, end, out, std::move(prefixes));
  w.field("magic", 4);
  auto xs = w.uint("xsiz", 4), ys = w.uint("ysiz", 4);
  w.uint("zsiz", 4);
  w.field("xpiv", 4);
  w.field("ypiv", 4);
  w.field("zpiv", 4);
  auto nv = w.uint("numvoxs", 4);
  for (uint64_t i = 0; nv && i < *nv && w.fits(8); ++i) {
    const std::string v = idx("voxel", i);
    w.emit(v, w.pos(), 8);
    w.field(v + "/col", 4);
    w.field(v + "/z", 2);
    w.field(v + "/vis", 1);
    w.field(v + "/dir", 1);
  }
  if (xs) {
    w.emit("xlen", w.pos(), std::min(w.remaining(), *xs * 4));
    for (uint64_t x = 0; x < *xs && w.fits(4); ++x) w.field(idx("xlen", x), 4);
  }
  if (xs && ys) {
    w.emit("ylen", w.pos(), std::min(w.remaining(), *xs * *ys * 2));
    for (uint64_t i = 0; i < *xs * *ys && w.fits(2); ++i) w.field(idx("ylen", i), 2);
  }
  if (w.fits(772) && std::memcmp(b.data() + w.pos(), "SPal", 4) == 0) {
    w.emit("palette", w.pos(), 772);
    w.field("palette/tag", 4);
    w.field("palette/data", 768);
  }
  w.emit("trailer", w.pos(), w.remaining());
  w.end_marker();
}

void walk_rvc_frames(Walker& w, uint64_t frame_count, uint64_t owpc) {
  for (uint64_t f = 0; f < frame_count && w.fits(1); ++f) {
    const std::string fr = idx("frame", f);
    const uint64_t fstart = w.pos();
    auto kind = w.uint(fr + "/kind", 1);
    if (kind.value_or(2) == 0) {
      for (const char* arr : {"occupancy", "offsets", "colors"}) {
        auto n = w.uint(fr + "/" + arr + "_count", 4);
        if (!n) break;
        w.emit(fr + "/" + arr, w.pos(), std::min(w.remaining(), *n * 4));
        for (uint64_t i = 0; i < *n && w.fits(4); ++i) w.field(fr + "/" + idx(arr, i), 4);
      }
    } else if (kind.value_or(2) == 1) {
      auto n = w.uint(fr + "/changed_count", 4);
      for (uint64_t c = 0; n && c < *n && w.fits(4); ++c) {
        const std::string ch = fr + "/" + idx("change", c);
        w.uint(ch + "/col", 4);
        w.field(ch + "/occupancy", std::min(w.remaining(), owpc * 4));
        auto nc = w.uint(ch + "/colors_count", 4);
        for (uint64_t i = 0; nc && i < *nc && w.fits(4); ++i) w.field(ch + "/" + idx("colors", i), 4);
      }
    } else {
      break;
    }
    w.emit(fr, fstart, w.pos() - fstart);
  }
}

void walk_rvc_at(std::span<const uint8_t> b, uint64_t start, uint64_t end, Layout& out,
                 const std::vector<std::string>& prefixes) {
  Walker w(b, start, end, out, prefixes);
  w.field("magic", 4);
  auto ver = w.uint("version", 2);
  if (!ver) return;
  const bool v1 = *ver == 1;
  std::map<std::string, uint64_t> seen;
  uint64_t pos = w.pos();
  uint64_t frame_count = 0, owpc = 1;
  const uint64_t hdr = v1 ? 8 : 9;
  for (uint64_t i = 0; pos + hdr <= end; ++i) {
    const std::string tag = tag_text(b, pos);
    const uint64_t k = seen[tag]++;
    const uint64_t len_off = pos + (v1 ? 4 : 5);
    const uint64_t flags = v1 ? 0 : b[pos + 4];
    const uint64_t len = le(b, len_off, 4);
    const uint64_t pstart = pos + hdr, pend = std::min(end, pstart + len);
    std::vector<std::string> sec;
    for (const auto& p : alias_prefixes("chunk", i, tag, k))
      for (const auto& q : prefixes) sec.push_back(q.empty() ? p : q + "/" + p);
    for (const auto& p : sec) {
      out.fields.push_back({p, pos, pend - pos});
      out.fields.push_back({p + "/tag", pos, 4});
      if (!v1) out.fields.push_back({p + "/flags", pos + 4, 1});
      out.fields.push_back({p + "/len", len_off, 4});
      out.fields.push_back({p + "/payload", pstart, pend - pstart});
    }
    std::vector<std::string> pp = sec;
    if (tag != "?")
      for (const auto& t : tag_prefixes(tag, k))
        for (const auto& q : prefixes) pp.push_back(q.empty() ? t : q + "/" + t);
    Walker pw(b, pstart, pend, out, pp);
    if (flags & 1) {
      pw.uint("raw_len", 4);
      pw.field("stream", pw.remaining());
    } else if (tag == "META") {
      auto dx = pw.uint("dims.x", 4), dy = pw.uint("dims.y", 4), dz = pw.uint("dims.z", 4);
      (void)dx;
      (void)dy;
      pw.vec3("pivot");
      pw.field("voxel_world_size", 4);
      pw.uint("loop_mode", 1);
      pw.uint("default_frame_ms", 4);
      auto fc = pw.uint("frame_count", 4);
      if (fc) frame_count = *fc;
      if (dz) owpc = std::max<uint64_t>(1, (*dz + 31) / 32);
    } else if (tag == "FRMS") {
      walk_rvc_frames(pw, frame_count, owpc);
    } else if (tag == "TIME") {
      for (uint64_t f = 0; pw.fits(4); ++f) pw.field(idx("duration", f), 4);
    }
    pw.end_marker();
    add_region(out, sec[0] + "/len", len_off, pstart, pend, pp);
    pos = pend;
  }
  w.end_marker();
}

void walk_rkc_payload(std::span<const uint8_t> b, const std::string& tag, Walker& w) {
  Layout& out = w.out();
  if (tag == "META") {
    auto n = w.uint("name_len", 2);
    if (n) w.field("name", std::min(*n, w.remaining()));
    w.vec3("root");
    return;
  }
  if (tag == "MSHS" || tag == "VCLP") {
    const bool mesh = tag == "MSHS";
    auto n = w.uint("count", 4);
    for (uint64_t i = 0; n && i < *n && w.fits(4); ++i) {
      const std::string rec = idx(mesh ? "mesh" : "clip", i);
      const uint64_t start = w.pos();
      auto len = w.uint(rec + "/blob_len", 4).value_or(0);
      const uint64_t bstart = w.pos(), bend = std::min(w.end(), bstart + len);
      w.emit(rec, start, bend - start);
      w.field(rec + "/blob", bend - bstart);
      auto sub = w.sub_prefixes(rec + (mesh ? "/kv6" : "/rvc"));
      if (mesh) walk_kv6_at(b, bstart, bend, out, sub);
      else walk_rvc_at(b, bstart, bend, out, sub);
      w.emit(rec + "/blob/end", bend, 0);
      add_region(out, w.sub_prefixes(rec + "/blob_len")[0], start, bstart, bend,
                 w.sub_prefixes(rec + "/blob"));
      for (const auto& p : w.sub_prefixes(rec + (mesh ? "/kv6" : "/rvc")))
        out.regions.back().end_paths.push_back(p + "/end");
    }
    return;
  }
  if (tag == "BONS") {
    auto n = w.uint("count", 4);
    for (uint64_t i = 0; n && i < *n && w.fits(2); ++i) {
      const std::string bone = idx("bone", i);
      const uint64_t start = w.pos();
      Walker bw(b, start, w.end(), out, w.sub_prefixes(bone));
      auto nl = bw.uint("name_len", 2);
      bw.field("name", std::min(nl.value_or(0), bw.remaining()));
      auto na = bw.uint("attach_count", 4);
      for (uint64_t a = 0; na && a < *na && bw.fits(54); ++a) {
        const std::string at = idx("attachment", a);
        bw.emit(at, bw.pos(), 54);
        Walker aw(b, bw.pos(), w.end(), out, bw.sub_prefixes(at));
        aw.uint("mesh_kind", 2);
        aw.uint("index", 4);
        walk_xform(aw, "local_offset");
        aw.uint("speed_q8", 4);
        aw.uint("start_phase_ms", 4);
        bw.set_pos(aw.pos());
      }
      walk_hinge(bw, "hinge");
      w.emit(bone, start, bw.pos() - start);
      w.set_pos(bw.pos());
    }
    return;
  }
  if (tag == "CLPS") {
    auto n = w.uint("count", 4);
    for (uint64_t i = 0; n && i < *n && w.fits(2); ++i) {
      const std::string clip = idx("clip", i);
      const uint64_t start = w.pos();
      Walker cw(b, start, w.end(), out, w.sub_prefixes(clip));
      auto nl = cw.uint("name_len", 2);
      cw.field("name", std::min(nl.value_or(0), cw.remaining()));
      auto kind = cw.uint("kind", 2);
      const uint64_t len_off = cw.pos();
      auto len = cw.uint("payload_len", 4);
      if (len) {
        const uint64_t bstart = cw.pos(), bend = std::min(w.end(), bstart + *len);
        cw.emit("body", bstart, bend - bstart);
        Walker body(b, bstart, bend, out, cw.sub_prefixes("body"));
        if (kind && *kind == 0) {
          auto nf = body.uint("numfrm", 4), nh = body.uint("numhin", 4);
          for (uint64_t f = 0; nf && nh && f < *nf && body.fits(40 * *nh); ++f)
            for (uint64_t h = 0; h < *nh; ++h)
              walk_xform(body, idx("frame", f) + "/" + idx("bone", h));
          auto ns = body.uint("seqcount", 4);
          for (uint64_t s = 0; ns && s < *ns && body.fits(8); ++s) {
            body.uint(idx("seq", s) + "/tim", 4);
            body.uint(idx("seq", s) + "/frm", 4);
          }
        }
        body.end_marker();
        add_region(out, cw.sub_prefixes("payload_len")[0], len_off, bstart, bend,
                   cw.sub_prefixes("body"));
        cw.set_pos(bend);
      }
      w.emit(clip, start, cw.pos() - start);
      w.set_pos(cw.pos());
    }
  }
}

void walk_rkc(std::span<const uint8_t> b, Layout& out) {
  Walker h(b, 0, b.size(), out, {"header"});
  h.field("magic", 4);
  h.field("version", 2);
  std::map<std::string, uint64_t> seen;
  uint64_t pos = 6;
  for (uint64_t i = 0; pos + 8 <= b.size(); ++i) {
    const std::string tag = tag_text(b, pos);
    const uint64_t k = seen[tag]++;
    const uint64_t len = le(b, pos + 4, 4);
    const uint64_t pstart = pos + 8, pend = std::min<uint64_t>(b.size(), pstart + len);
    auto sec = alias_prefixes("chunk", i, tag, k);
    for (const auto& p : sec) {
      out.fields.push_back({p, pos, pend - pos});
      out.fields.push_back({p + "/tag", pos, 4});
      out.fields.push_back({p + "/len", pos + 4, 4});
      out.fields.push_back({p + "/payload", pstart, pend - pstart});
    }
    std::vector<std::string> pp = sec;
    if (tag != "?")
      for (auto& p : tag_prefixes(tag, k)) pp.push_back(p);
    Walker pw(b, pstart, pend, out, pp);
    walk_rkc_payload(b, tag, pw);
    pw.end_marker();
    add_region(out, sec[0] + "/len", pos + 4, pstart, pend, pp);
    pos = pend;
  }
}

void walk_kfa(std::span<const uint8_t> b, Layout& out) {
  Walker w(b, 0, b.size(), out, {""});
  w.field("magic", 4);
  auto nl = w.uint("name_len", 4);
  if (nl) w.field("name", std::min(*nl, w.remaining()));
  auto nh = w.uint("numhin", 4);
  for (uint64_t i = 0; nh && i < *nh && w.fits(64); ++i) walk_hinge(w, idx("hinge", i));
  auto nf = w.uint("numfrm", 4);
  if (nf && nh) {
    w.emit("frmval", w.pos(), std::min(w.remaining(), *nf * *nh * 2));
    for (uint64_t f = 0; f < *nf && w.fits(2 * *nh) && *nh; ++f)
      for (uint64_t h = 0; h < *nh; ++h) w.field(idx("frame", f) + "/" + idx("hinge", h), 2);
  }
  auto ns = w.uint("seqnum", 4);
  for (uint64_t s = 0; ns && s < *ns && w.fits(8); ++s) {
    w.uint(idx("seq", s) + "/tim", 4);
    w.uint(idx("seq", s) + "/frm", 4);
  }
}

bool magic(std::span<const uint8_t> b, const char* m) {
  return b.size() >= 4 && std::memcmp(b.data(), m, 4) == 0;
}

// Parses "[a]" or "[a,b,c]" of unsigned integers.
std::optional<std::vector<uint64_t>> parse_index(std::string_view s) {
  if (s.size() < 3 || s.front() != '[' || s.back() != ']') return std::nullopt;
  std::vector<uint64_t> r;
  uint64_t v = 0;
  bool digit = false;
  for (char c : s.substr(1)) {
    if (c >= '0' && c <= '9') {
      v = v * 10 + uint64_t(c - '0');
      digit = true;
    } else if ((c == ',' || c == ']') && digit) {
      r.push_back(v);
      v = 0;
      digit = false;
    } else {
      return std::nullopt;
    }
  }
  return r;
}

const Field* lookup(const Layout& l, std::string_view path) {
  for (const auto& f : l.fields)
    if (f.path == path) return &f;
  return nullptr;
}

}  // namespace

Layout layout_of(std::span<const uint8_t> bytes) {
  Layout out;
  if (bytes.size() >= 4 && std::memcmp(bytes.data(), "VFP\0", 4) == 0) walk_vfp(bytes, out);
  else if (magic(bytes, "RKCH")) walk_rkc(bytes, out);
  else if (magic(bytes, "Kvxl")) walk_kv6_at(bytes, 0, bytes.size(), out, {""});
  else if (magic(bytes, "RVCL")) walk_rvc_at(bytes, 0, bytes.size(), out, {""});
  else if (magic(bytes, "Kwlk")) walk_kfa(bytes, out);
  out.fields.push_back({"end", bytes.size(), 0});
  return out;
}

std::optional<Field> find_field(const Layout& layout, std::span<const uint8_t> bytes,
                                std::string_view path, std::string& why) {
  if (const Field* f = lookup(layout, path)) return *f;
  // Computed VOX0 voxel addresses: PREFIX/voxel[i] or PREFIX/voxel[x,y,z].
  const size_t at = path.rfind("/voxel[");
  if (at != std::string_view::npos) {
    const std::string prefix(path.substr(0, at));
    auto ix = parse_index(path.substr(at + 6));
    const Field* vox = lookup(layout, prefix + "/voxels");
    const Field* sx = lookup(layout, prefix + "/sizeX");
    const Field* sy = lookup(layout, prefix + "/sizeY");
    if (ix && vox && sx && sy && (ix->size() == 1 || ix->size() == 3)) {
      uint64_t i = (*ix)[0];
      if (ix->size() == 3) {
        const uint64_t X = le(bytes, sx->offset, 2), Y = le(bytes, sy->offset, 2);
        i = (*ix)[0] + X * ((*ix)[1] + Y * (*ix)[2]);
      }
      if (i < vox->size) return Field{std::string(path), vox->offset + i, 1};
      why = "voxel index " + std::to_string(i) + " is outside the voxels present";
      return std::nullopt;
    }
  }
  why = "no field named '" + std::string(path) + "' in this file";
  return std::nullopt;
}

}  // namespace voxrig::cli::golden
