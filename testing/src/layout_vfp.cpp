// Named fields of the lenient walk (voxrig/testing/layout.h): every field of a VFP file, the
// dispatch by magic to the RKCH family (layout_rkc.cpp), and find_field. Never validates; stops a
// table at the first element that does not fit.
//
// VFP payload field names (docs/spec/):
//   VOX0  version reserved paletteCount sizeX sizeY sizeZ reserved2 palette[i] voxels
//         (computed: voxel[i], voxel[x,y,z])
//   SKEL  version reserved jointCount baseSourceHash joint[i]{jointId parentId translation(.x.y.z)
//         rotation(.x.y.z.w) scale(.x.y.z) nameLen pad name}
//   VSKN  version encoding defaultJointId reserved bindingCount baseSourceHash skeletonHash
//         record[i]{voxelOffset jointId}
//   ANIM  version reserved clipCount baseSourceHash skeletonHash clip[i]{clipId trackCount
//         durationMs nameLen pad name track[j]{jointId reserved keyCount key[k]{timeMs
//         translation rotation scale}}}
#include "voxrig/testing/layout.h"

#include <algorithm>
#include <cstring>
#include <map>

#include "layout_walker.h"

namespace voxrig::testing {
namespace {

using namespace detail;

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
  for (uint64_t i = 0; n && i < *n && w.fits(kJointPrefix); ++i) {
    const uint64_t start = w.pos();
    const uint64_t name_len = w.bytes()[start + kJointNameLenAt];
    w.emit(idx("joint", i), start, std::min(kJointPrefix + name_len, w.remaining()));
    Walker j = w.child(idx("joint", i));
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
  namespace wv = wire::vskn;
  w.uint("version", 1);
  w.uint("encoding", 1);
  w.uint("defaultJointId", 2);
  w.uint("reserved", 2);
  auto n = w.uint("bindingCount", 4);
  w.field("baseSourceHash", wv::kHashSize);
  w.field("skeletonHash", wv::kHashSize);
  for (uint64_t i = 0; n && i < *n && w.fits(wv::kRecordSize); ++i) {
    const std::string rec = idx("record", i);
    w.emit(rec, w.pos(), wv::kRecordSize);
    w.emit(rec + "/voxelOffset", w.pos() + wv::kRecordVoxelOffsetAt, 4);
    w.emit(rec + "/jointId", w.pos() + wv::kRecordJointAt, 2);
    w.set_pos(w.pos() + wv::kRecordSize);
  }
}

void walk_anim(Walker& w) {
  w.uint("version", 1);
  w.uint("reserved", 1);
  auto nc = w.uint("clipCount", 2);
  w.field("baseSourceHash", 32);
  w.field("skeletonHash", 32);
  walk_records(w, "clip", nc, kClipPrefix, [&](Walker& cw) {
    cw.uint("clipId", 2);
    auto nt = cw.uint("trackCount", 2);
    cw.uint("durationMs", 4);
    auto nl = cw.uint("nameLen", 1);
    cw.field("pad", 3);
    cw.field("name", std::min(nl.value_or(0), cw.remaining()));
    walk_records(cw, "track", nt, kTrackPrefix, [&](Walker& tw) {
      tw.uint("jointId", 2);
      tw.uint("reserved", 2);
      auto nk = tw.uint("keyCount", 4);
      for (uint64_t k = 0; nk && k < *nk && tw.fits(kKeySize); ++k) {
        tw.emit(idx("key", k), tw.pos(), kKeySize);
        Walker kw = tw.child(idx("key", k));
        kw.uint("timeMs", 4);
        kw.vec3("translation");
        kw.quat("rotation");
        kw.vec3("scale");
        tw.set_pos(kw.pos());
      }
    });
  });
}

void walk_vfp(std::span<const uint8_t> b, Layout& out) {
  Walker h(b, 0, b.size(), out, {"header"});
  h.field("magic", 4);
  h.field("versionMajor", 1);
  h.field("versionMinor", 1);
  h.field("headerFlags", 2);
  h.field("sectionCount", 4);
  h.field("sourceHash", 32);
  const auto framing = framing_as(b, Container::Vfp);
  if (!framing) return;
  static constexpr HeadField kHead[] = {
      {"chunkId", 4, 4}, {"codec", 8, 1}, {"flags", 9, 1}, {"reserved", 10, 2}};
  walk_frames(b, 0, *framing, {""}, "section", kHead, "length", out,
              [](const std::string& tag, uint64_t, Walker& pw) {
                if (tag == "VOX0")
                  walk_vox0(pw);
                else if (tag == "SKEL")
                  walk_skel(pw);
                else if (tag == "VSKN")
                  walk_vskn(pw);
                else if (tag == "ANIM")
                  walk_anim(pw);
              });
}

bool magic(std::span<const uint8_t> b, const char* m) {
  return b.size() >= 4 && std::memcmp(b.data(), m, 4) == 0;
}
bool magic(std::span<const uint8_t> b, const std::array<uint8_t, 4>& m) {
  return b.size() >= m.size() && std::memcmp(b.data(), m.data(), m.size()) == 0;
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
  if (bytes.size() >= 4 && std::memcmp(bytes.data(), "VFP\0", 4) == 0)
    walk_vfp(bytes, out);
  else if (magic(bytes, wire::rkch::kMagic))
    walk_rkc(bytes, out);
  else if (magic(bytes, wire::kv6::kMagic))
    walk_kv6_at(bytes, 0, bytes.size(), out, {""});
  else if (magic(bytes, "RVCL"))
    walk_rvc_at(bytes, 0, bytes.size(), out, {""});
  else if (magic(bytes, "Kwlk"))
    walk_kfa(bytes, out);
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

std::optional<uint64_t> offset_of(const Layout& layout, std::string_view path) {
  if (const Field* f = lookup(layout, path)) return f->offset;
  return std::nullopt;
}

}  // namespace voxrig::testing
