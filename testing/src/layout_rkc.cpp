// Named fields of the lenient walk, RKCH family: RKCH chunks and payloads (META, MSHS, BONS, CLPS,
// VCLP with embedded KV6 and RVC blobs), standalone KV6, RVC and KFA. Names follow docs/spec/
// (name_len, attach_count, hinge/p0.x, numfrm, seq[k]/tim, ...); record sizes are the codec's
// (voxrig/wire/rkch.h, kv6.h). Lenient: never validates.
#include <algorithm>
#include <cstring>
#include <map>

#include "layout_walker.h"

namespace voxrig::testing::detail {

static void walk_xform(Walker& w, const std::string& name) {
  Walker x = w.child(name);
  if (!w.fits(wire::rkch::xform::kSize)) return;
  w.emit(name, w.pos(), wire::rkch::xform::kSize);
  x.vec3("t");
  x.quat("r");
  x.vec3("s");
  w.set_pos(x.pos());
}

static void walk_hinge(Walker& w, const std::string& name) {
  if (!w.fits(kHingeSize)) return;
  w.emit(name, w.pos(), kHingeSize);
  Walker h = w.child(name);
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
  for (uint64_t i = 0; nv && i < *nv && w.fits(wire::kv6::kVoxelSize); ++i) {
    const std::string v = idx("voxel", i);
    w.emit(v, w.pos(), wire::kv6::kVoxelSize);
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
  namespace wk = wire::kv6;
  if (w.fits(wk::kPaletteTrailerSize) &&
      std::memcmp(b.data() + w.pos(), wk::kPaletteMagic.data(), wk::kPaletteMagic.size()) == 0) {
    w.emit("palette", w.pos(), wk::kPaletteTrailerSize);
    w.field("palette/tag", wk::kPaletteMagic.size());
    w.field("palette/data", wk::kPaletteBytes);
  }
  w.emit("trailer", w.pos(), w.remaining());
  w.end_marker();
}

static void walk_rvc_frames(Walker& w, uint64_t frame_count, uint64_t owpc) {
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
        for (uint64_t i = 0; nc && i < *nc && w.fits(4); ++i)
          w.field(ch + "/" + idx("colors", i), 4);
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
  // A blob too short for a whole header has no chunks but still gets its "end".
  const Framing framing =
      framing_as(b.subspan(start, end - start), Container::Rvc).value_or(Framing{});
  uint64_t frame_count = 0, owpc = 1;  // from META, for FRMS
  static constexpr HeadField kFlags[] = {{"flags", 4, 1}};
  walk_frames(b, start, framing, prefixes, "chunk",
              v1 ? std::span<const HeadField>() : std::span<const HeadField>(kFlags), "len", out,
              [&](const std::string& tag, uint64_t pos, Walker& pw) {
                const uint64_t flags = v1 ? 0 : b[pos + 4];
                if (flags & 1) {
                  pw.uint("raw_len", 4);
                  pw.field("stream", pw.remaining());
                } else if (tag == "META") {
                  pw.uint("dims.x", 4);
                  pw.uint("dims.y", 4);
                  auto dz = pw.uint("dims.z", 4);
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
              });
  w.end_marker();
}

// An RKCH table of named records (BONS, CLPS): a u32 count, then records that each start with a
// u16 name_len and the name; rest(Walker&) walks the remainder of one record.
template <class Rest>
static void walk_named_records(Walker& w, const std::string& name, Rest rest) {
  walk_records(w, name, w.uint("count", 4), 2, [&](Walker& rw) {
    rw.counted("name_len", 2, "name");
    rest(rw);
  });
}

static void walk_rkc_payload(std::span<const uint8_t> b, const std::string& tag, Walker& w) {
  Layout& out = w.out();
  if (tag == "META") {
    auto n = w.uint("name_len", 2);
    if (n) w.field("name", std::min(*n, w.remaining()));
    w.vec3("root");
    return;
  }
  if (tag == "MSHS" || tag == "VCLP") {
    const bool mesh = tag == "MSHS";
    const uint64_t list = w.pos();
    w.uint("count", 4);
    const std::vector<Frame> blobs = blob_frames(b, list, w.end());
    for (uint64_t i = 0; i < blobs.size(); ++i) {
      const std::string rec = idx(mesh ? "mesh" : "clip", i);
      const uint64_t start = blobs[i].offset, bstart = blobs[i].payload_start,
                     bend = blobs[i].payload_end;
      w.field(rec + "/blob_len", 4);
      w.emit(rec, start, bend - start);
      w.field(rec + "/blob", bend - bstart);
      auto sub = w.sub_prefixes(rec + (mesh ? "/kv6" : "/rvc"));
      if (mesh)
        walk_kv6_at(b, bstart, bend, out, sub);
      else
        walk_rvc_at(b, bstart, bend, out, sub);
      w.emit(rec + "/blob/end", bend, 0);
      add_region(out, w.sub_prefixes(rec + "/blob_len")[0], start, bstart, bend,
                 w.sub_prefixes(rec + "/blob"));
      for (const auto& p : w.sub_prefixes(rec + (mesh ? "/kv6" : "/rvc")))
        out.regions.back().end_paths.push_back(p + "/end");
    }
    return;
  }
  if (tag == "BONS") {
    walk_named_records(w, "bone", [&](Walker& bw) {
      auto na = bw.uint("attach_count", 4);
      for (uint64_t a = 0; na && a < *na && bw.fits(kAttachmentSize); ++a) {
        const std::string at = idx("attachment", a);
        bw.emit(at, bw.pos(), kAttachmentSize);
        Walker aw = bw.child(at);
        aw.uint("mesh_kind", 2);
        aw.uint("index", 4);
        walk_xform(aw, "local_offset");
        aw.uint("speed_q8", 4);
        aw.uint("start_phase_ms", 4);
        bw.set_pos(aw.pos());
      }
      walk_hinge(bw, "hinge");
    });
    return;
  }
  if (tag == "CLPS") {
    walk_named_records(w, "clip", [&](Walker& cw) {
      auto kind = cw.uint("kind", 2);
      const uint64_t len_off = cw.pos();
      auto len = cw.uint("payload_len", 4);
      if (len) {
        const uint64_t bstart = cw.pos(), bend = std::min(cw.end(), bstart + *len);
        cw.emit("body", bstart, bend - bstart);
        Walker body(b, bstart, bend, out, cw.sub_prefixes("body"));
        if (kind && *kind == 0) {
          auto nf = body.uint("numfrm", 4), nh = body.uint("numhin", 4);
          // A frame of zero bones is zero bytes (hazard H2): only rows with bytes are walked,
          // so every iteration consumes some and numfrm = 2^32 - 1 costs nothing.
          for (uint64_t f = 0;
               nf && nh && *nh > 0 && f < *nf && body.fits(wire::rkch::xform::kSize * *nh); ++f)
            for (uint64_t h = 0; h < *nh; ++h)
              walk_xform(body, idx("frame", f) + "/" + idx("bone", h));
          auto ns = body.uint("seqcount", 4);
          for (uint64_t s = 0; ns && s < *ns && body.fits(wire::rkch::seq::kSize); ++s) {
            body.uint(idx("seq", s) + "/tim", 4);
            body.uint(idx("seq", s) + "/frm", 4);
          }
        }
        body.end_marker();
        add_region(out, cw.sub_prefixes("payload_len")[0], len_off, bstart, bend,
                   cw.sub_prefixes("body"));
        cw.set_pos(bend);
      }
    });
  }
}

void walk_rkc(std::span<const uint8_t> b, Layout& out) {
  Walker h(b, 0, b.size(), out, {"header"});
  h.field("magic", 4);
  h.field("version", 2);
  const auto framing = framing_as(b, Container::Rkch);
  if (!framing) return;
  walk_frames(b, 0, *framing, {""}, "chunk", {}, "len", out,
              [&](const std::string& tag, uint64_t, Walker& pw) { walk_rkc_payload(b, tag, pw); });
}

void walk_kfa(std::span<const uint8_t> b, Layout& out) {
  Walker w(b, 0, b.size(), out, {""});
  w.field("magic", 4);
  auto nl = w.uint("name_len", 4);
  if (nl) w.field("name", std::min(*nl, w.remaining()));
  auto nh = w.uint("numhin", 4);
  for (uint64_t i = 0; nh && i < *nh && w.fits(kHingeSize); ++i) walk_hinge(w, idx("hinge", i));
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

}  // namespace voxrig::testing::detail
