// JSON compile input -> VfpFile (docs/spec/compile.md#top-level, D16).
//
//   {
//     "vfp": "1.3",                                  optional; exactly the string "1.3"
//     "size": [sx, sy, sz],                          required; each 1..65535
//     "palette": [[r, g, b, a], ...],                required; 1..256 entries, each 0..255
//     "voxels": [[x, y, z, paletteIndex], ...],      required; index 1..paletteCount-1
//     "sections": [{"tag", "chunk_id", "flags", "payload_hex"}, ...],   optional
//     "rig": {...}                                   optional; see vfp_json_rig.cpp
//   }
//
// Check order: the JSON text (json_dom: syntax, duplicate keys, nesting), then the top object's
// unknown keys (JSON order) and missing keys, then vfp, size, palette, voxels, sections, rig,
// each front to back. Output sections in the canonical writer order (docs/spec/vfp.md,
// Order): VOX0, the cache sections in JSON order, SKEL, VSKN, ANIM (only with at least one
// clip), then the unknown sections in JSON order; every hash bound by rebind(). The order comes
// from canonicalized(), the one home of that rule, so `canonicalize` of the output is a no-op.
#include <algorithm>
#include <new>

#include "json/json_dom.h"
#include "json/json_schema.h"
#include "json/vfp_json_rig.h"
#include "voxrig/vfp.h"
#include "voxrig/vfp_json.h"

namespace voxrig {
namespace {

using detail::JsonPath;
using detail::JsonSchemaReader;

bool is_tag_char(char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

bool is_cache_tag(const SectionTag& t) {
  for (const char* known : {"MSH0", "PMSH", "RND0", "PRVW", "ANM0"}) {
    if (std::equal(t.begin(), t.end(), known)) return true;
  }
  return false;
}

bool is_reserved_tag(const SectionTag& t) {
  for (const char* own : {"VOX0", "SKEL", "VSKN", "ANIM"}) {
    if (std::equal(t.begin(), t.end(), own)) return true;
  }
  return false;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

class Compiler {
 public:
  Compiler(const JsonDoc& doc, const Limits& limits) : doc_(doc), r_(doc), limits_(limits) {}

  Result<VfpFile> run() {
    const JsonNode& top = doc_.root();
    const JsonPath root;
    VOXRIG_TRY(r_.object(top, root, {"vfp", "size", "palette", "voxels", "sections", "rig"},
                         {"size", "palette", "voxels"}));
    if (const JsonNode* v = doc_.member(top, "vfp")) {
      VOXRIG_TRY(r_.expect(*v, JsonKind::String, root.child("vfp")));
      if (doc_.str(*v) != "1.3") {
        return r_.error(ErrorCode::JsonVersion, *v, root.child("vfp"), "only \"1.3\" is supported");
      }
    }
    if (limits_.vfp_sections < 1) {
      return r_.error(ErrorCode::JsonLimit, top, root, "the section limit leaves no room for VOX0");
    }
    VfpFile file;
    file.version_minor = 3;
    VOXRIG_ASSIGN_OR_RETURN(Vox0 vox0, compile_vox0(top, root));
    file.sections.push_back(
        Section{SectionHeader{make_tag("VOX0"), -1, 0, kSectionRequired}, std::move(vox0)});
    if (const JsonNode* s = doc_.member(top, "sections")) {
      VOXRIG_TRY(extra_sections(*s, root.child("sections"), file));
    }
    if (const JsonNode* rig = doc_.member(top, "rig")) {
      VOXRIG_ASSIGN_OR_RETURN(
          detail::CompiledRig compiled,
          detail::compile_rig(r_, *rig, root.child("rig"), *file.vox0(), limits_));
      const bool has_anim = !compiled.anim.clips.empty();
      if (file.sections.size() + 2 + (has_anim ? 1 : 0) > limits_.vfp_sections) {
        return r_.error(ErrorCode::JsonLimit, *rig, root.child("rig"),
                        "the rig sections would exceed the section limit");
      }
      SectionHeader h{make_tag("SKEL"), -1, 0, 0};  // rig sections: global, RAW8, flags 0
      file.sections.push_back(Section{h, std::move(compiled.skel)});
      h.tag = make_tag("VSKN");
      file.sections.push_back(Section{h, std::move(compiled.vskn)});
      if (has_anim) {
        h.tag = make_tag("ANIM");
        file.sections.push_back(Section{h, std::move(compiled.anim)});
      }
    }
    file = canonicalized(std::move(file));
    rebind(file);
    return file;
  }

 private:
  Result<Vox0> compile_vox0(const JsonNode& top, const JsonPath& root) {
    Vox0 vox0;
    const JsonNode& size = *doc_.member(top, "size");
    const JsonPath sp = root.child("size");
    VOXRIG_TRY(r_.expect_tuple(size, 3, sp));
    uint16_t dims[3];
    size_t i = 0;
    for (const JsonNode* n = doc_.first(size); n; n = doc_.next(*n), ++i) {
      VOXRIG_ASSIGN_OR_RETURN(const int64_t d, r_.integer(*n, sp.item(i), 1, 65535));
      dims[i] = static_cast<uint16_t>(d);
    }
    vox0.size_x = dims[0];
    vox0.size_y = dims[1];
    vox0.size_z = dims[2];
    // At most 65535^3 < 2^48: no overflow in 64 bits.
    const uint64_t count = uint64_t{dims[0]} * dims[1] * dims[2];
    if (count > limits_.vox0_voxels || 12 + 4 * 256 + count > 0xFFFFFFFFu) {
      return r_.error(
          ErrorCode::JsonLimit, size, sp,
          std::to_string(count) + " voxels (limit " + std::to_string(limits_.vox0_voxels) + ")");
    }
    // The file header, the VOX0 section header, its fixed fields and one palette entry come
    // with the grid: a grid the output limit cannot hold is refused before it is allocated.
    const uint64_t least = 44 + 16 + 12 + 4 + count;
    if (least > limits_.output_bytes) {
      return r_.error(ErrorCode::LimitOutput, size, sp,
                      "a VFP of " + std::to_string(count) + " voxels takes at least " +
                          std::to_string(least) + " bytes, over the output limit of " +
                          std::to_string(limits_.output_bytes));
    }

    const JsonNode& pal = *doc_.member(top, "palette");
    const JsonPath pp = root.child("palette");
    VOXRIG_TRY(r_.expect(pal, JsonKind::Array, pp));
    if (pal.count() < 1 || pal.count() > 256) {
      return r_.error(ErrorCode::JsonRange, pal, pp, "a palette has 1..256 entries");
    }
    vox0.palette.reserve(pal.count());
    i = 0;
    for (const JsonNode* e = doc_.first(pal); e; e = doc_.next(*e), ++i) {
      const JsonPath ep = pp.item(i);
      VOXRIG_TRY(r_.expect_tuple(*e, 4, ep));
      uint8_t c[4];
      size_t k = 0;
      for (const JsonNode* v = doc_.first(*e); v; v = doc_.next(*v), ++k) {
        VOXRIG_ASSIGN_OR_RETURN(const int64_t x, r_.integer(*v, ep.item(k), 0, 255));
        c[k] = static_cast<uint8_t>(x);
      }
      vox0.palette.push_back(Rgba{c[0], c[1], c[2], c[3]});
    }

    const JsonNode& vox = *doc_.member(top, "voxels");
    const JsonPath vp = root.child("voxels");
    VOXRIG_TRY(r_.expect(vox, JsonKind::Array, vp));
    vox0.voxels.assign(count, 0);
    const int64_t max_index = static_cast<int64_t>(pal.count()) - 1;
    i = 0;
    for (const JsonNode* e = doc_.first(vox); e; e = doc_.next(*e), ++i) {
      const JsonPath ep = vp.item(i);
      VOXRIG_TRY(r_.expect_tuple(*e, 4, ep));
      const JsonNode* v = doc_.first(*e);
      int64_t xyz[3];
      for (size_t k = 0; k < 3; ++k, v = doc_.next(*v)) {
        VOXRIG_ASSIGN_OR_RETURN(
            xyz[k], r_.integer(*v, ep.item(k), 0, dims[k] - 1, ErrorCode::JsonVoxelRange));
      }
      // Only an integer can be out of range: a value of the wrong type is json.type first, as
      // with any palette (found by the independent Python compiler).
      if (max_index < 1 && (v->kind == JsonKind::Integer || v->kind == JsonKind::BigInteger)) {
        return r_.error(ErrorCode::JsonRange, *v, ep.item(3),
                        "a palette of one entry has no colour for a voxel");
      }
      VOXRIG_ASSIGN_OR_RETURN(const int64_t index, r_.integer(*v, ep.item(3), 1, max_index));
      uint8_t& cell =
          vox0.voxels[vox0.index(static_cast<uint32_t>(xyz[0]), static_cast<uint32_t>(xyz[1]),
                                 static_cast<uint32_t>(xyz[2]))];
      if (cell != 0 && cell != index) {
        return r_.error(ErrorCode::JsonVoxelConflict, *e, ep,
                        "the voxel is listed earlier with palette index " + std::to_string(cell));
      }
      cell = static_cast<uint8_t>(index);
    }
    return vox0;
  }

  Status extra_sections(const JsonNode& list, const JsonPath& path, VfpFile& file) {
    VOXRIG_TRY(r_.expect(list, JsonKind::Array, path));
    if (uint64_t{list.count()} + 1 > limits_.vfp_sections) {
      return r_.error(ErrorCode::JsonLimit, list, path,
                      "over " + std::to_string(limits_.vfp_sections) + " sections");
    }
    size_t i = 0;
    for (const JsonNode* n = doc_.first(list); n; n = doc_.next(*n), ++i) {
      const JsonPath p = path.item(i);
      VOXRIG_TRY(
          r_.object(*n, p, {"tag", "chunk_id", "flags", "payload_hex"}, {"tag", "payload_hex"}));
      Section s;
      const JsonNode& tag = *doc_.member(*n, "tag");
      VOXRIG_TRY(r_.expect(tag, JsonKind::String, p.child("tag")));
      const std::string_view t = doc_.str(tag);
      if (t.size() != 4 || !std::all_of(t.begin(), t.end(), is_tag_char)) {
        return r_.error(ErrorCode::JsonRange, tag, p.child("tag"),
                        "a tag is four characters from A-Z 0-9");
      }
      std::copy(t.begin(), t.end(), s.header.tag.begin());
      if (is_reserved_tag(s.header.tag)) {
        return r_.error(ErrorCode::JsonReservedTag, tag, p.child("tag"),
                        "VOX0, SKEL, VSKN and ANIM are written by the compiler itself");
      }
      if (const JsonNode* c = doc_.member(*n, "chunk_id")) {
        VOXRIG_ASSIGN_OR_RETURN(const int64_t id,
                                r_.integer(*c, p.child("chunk_id"), -1, INT32_MAX));
        s.header.chunk_id = static_cast<int32_t>(id);
      }
      if (const JsonNode* f = doc_.member(*n, "flags")) {
        // Bit 0 = REQUIRED; bits 1-7 are reserved and must be 0.
        VOXRIG_ASSIGN_OR_RETURN(const int64_t flags, r_.integer(*f, p.child("flags"), 0, 1));
        s.header.flags = static_cast<uint8_t>(flags);
        if ((flags & kSectionRequired) && !is_cache_tag(s.header.tag)) {
          return r_.error(ErrorCode::JsonUnknownRequired, *f, p.child("flags"),
                          "a reader cannot understand a required section of unknown tag");
        }
      }
      const JsonNode& hex = *doc_.member(*n, "payload_hex");
      VOXRIG_TRY(r_.expect(hex, JsonKind::String, p.child("payload_hex")));
      const std::string_view h = doc_.str(hex);
      if (h.size() % 2 != 0) {
        return r_.error(ErrorCode::JsonBadHex, hex, p.child("payload_hex"),
                        "odd number of hex digits");
      }
      RawPayload raw;
      raw.bytes.reserve(h.size() / 2);
      for (size_t k = 0; k < h.size(); k += 2) {
        const int hi = hex_value(h[k]);
        const int lo = hex_value(h[k + 1]);
        if (hi < 0 || lo < 0) {
          return r_.error(ErrorCode::JsonBadHex, hex, p.child("payload_hex"),
                          "not a hex digit at character " + std::to_string(hi < 0 ? k : k + 1));
        }
        raw.bytes.push_back(static_cast<uint8_t>(hi * 16 + lo));
      }
      s.body = std::move(raw);
      file.sections.push_back(std::move(s));
    }
    return {};
  }

  const JsonDoc& doc_;
  JsonSchemaReader r_;
  const Limits& limits_;
};

}  // namespace

Result<VfpFile> compile_vfp_json(std::string_view json_text, const Limits& limits) {
  try {
    JsonParseOptions parse;
    parse.max_values = static_cast<size_t>(std::min<uint64_t>(limits.json_values, SIZE_MAX));
    VOXRIG_ASSIGN_OR_RETURN(JsonDoc doc, JsonDoc::parse(json_text, parse));
    Compiler c(doc, limits);
    return c.run();
  } catch (const std::bad_alloc&) {
    return Error{ErrorCode::InternalOutOfMemory, 0, {}, {}};  // no strings: cannot fail again
  } catch (const std::exception& e) {
    return error_at(ErrorCode::InternalBug, 0, "$", e.what());
  }
}

}  // namespace voxrig
