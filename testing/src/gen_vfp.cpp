// Seeded VFP generator (static and rigged models) and the VFP negative-mutation table, plus the
// PRNG and the per-format dispatch of voxrig/testing/gen.h.
//
// Byte offsets the mutations use (docs/spec/vfp.md / "Voxel Rig v1"):
// | file header | 0 magic | 4 versionMajor u8 | 5 versionMinor | 6 headerFlags u16 |
// |             | 8 sectionCount u32 | 12 sourceHash[32] | 44 first section            |
// | section     | +0 tag[4] | +4 chunkId i32 | +8 codec | +9 flags | +10 reserved u16 |
// |             | +12 length u32 | +16 payload                                        |
// | VOX0        | +0 version | +1 reserved | +2 paletteCount u16 | +4 sizes | +12 palette |
// | SKEL        | +0 version | +1 reserved | +2 jointCount | +4 hash | +36 joints: 48-byte |
// |             | prefix (+0 id u16, +2 parentId i16, +44 nameLen u8) + name             |
// | VSKN        | +0 version | +1 encoding | ...                                          |
#include <algorithm>
#include <array>

#include "gen_internal.h"
#include "voxrig/enum_names.h"
#include "voxrig/testing/layout.h"
#include "voxrig/vfp.h"

namespace voxrig::gen {

// ---- PRNG ---------------------------------------------------------------------------------------

uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

GenRng::GenRng(uint64_t seed) {
  for (uint64_t& s : s_) s = splitmix64(seed);
}

uint64_t GenRng::next() {
  auto rotl = [](uint64_t x, int k) { return (x << k) | (x >> (64 - k)); };
  const uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

uint32_t GenRng::below(uint32_t n) { return n == 0 ? 0 : static_cast<uint32_t>(next() % n); }

int32_t GenRng::range(int32_t lo, int32_t hi) {
  return static_cast<int32_t>(
      static_cast<int64_t>(lo) +
      static_cast<int64_t>(below(static_cast<uint32_t>(static_cast<int64_t>(hi) - lo + 1))));
}

bool GenRng::chance(uint32_t num, uint32_t den) { return below(den) < num; }

uint64_t case_seed(uint64_t run_seed, uint64_t index) {
  uint64_t s = run_seed ^ splitmix64(index);
  return splitmix64(s);
}

namespace {

constexpr EnumName<GenFormat> kGenFormatNames[] = {{GenFormat::Vfp, "vfp"},
                                                   {GenFormat::Rkc, "rkc"},
                                                   {GenFormat::Kv6, "kv6"},
                                                   {GenFormat::Rvc, "rvc"},
                                                   {GenFormat::Kfa, "kfa"}};

}  // namespace

std::string_view to_string(GenFormat f) { return name_of(kGenFormatNames, f, "vfp"); }

std::optional<GenFormat> gen_format_from_string(std::string_view s) {
  return value_of(kGenFormatNames, s);
}

GenCase generate_case(GenFormat format, uint64_t seed, GenSize size, bool negative) {
  GenRng rng(seed);
  switch (format) {
    case GenFormat::Vfp:
      return generate_vfp(rng, size, negative);
    case GenFormat::Rkc:
      return generate_rkc(rng, size, negative);
    case GenFormat::Kv6:
      return generate_kv6(rng, size, negative);
    case GenFormat::Rvc:
      return generate_rvc(rng, size, negative);
    case GenFormat::Kfa:
      return generate_kfa(rng, size, negative);
  }
  return {};
}

std::vector<GenMutationKind> mutation_kinds() {
  auto v = detail::vfp_kinds();
  auto r = detail::rkc_family_kinds();
  v.insert(v.end(), r.begin(), r.end());
  return v;
}

namespace {

using detail::Kind;

constexpr std::array<const char*, 9> kKnownTags = {"VOX0", "MSH0", "PMSH", "RND0", "PRVW",
                                                   "ANM0", "SKEL", "VSKN", "ANIM"};
constexpr std::array<const char*, 5> kCacheTags = {"MSH0", "PMSH", "RND0", "PRVW", "ANM0"};

Vec3 vec3(GenRng& rng, int32_t lo, int32_t hi) {
  return {detail::eighths(rng, lo, hi), detail::eighths(rng, lo, hi), detail::eighths(rng, lo, hi)};
}
Trs random_trs(GenRng& rng) {
  Trs t;
  t.t = vec3(rng, -64, 64);
  const auto q = detail::unit_quat(rng);
  t.r = {q[0], q[1], q[2], q[3]};
  t.s = rng.chance(1, 2) ? Vec3{1, 1, 1} : vec3(rng, -16, 16);  // any finite scale is valid
  return t;
}

SectionTag unknown_tag(GenRng& rng) {
  static constexpr char kAlnum[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  while (true) {
    SectionTag t{};
    t[0] = kAlnum[rng.below(26)];  // a letter first, so the lower-case mutation always applies
    for (int i = 1; i < 4; ++i) t[i] = kAlnum[rng.below(36)];
    bool known = false;
    for (const char* k : kKnownTags) known |= std::equal(t.begin(), t.end(), k);
    if (!known) return t;
  }
}

Skel random_skel(GenRng& rng, GenSize size) {
  Skel s;
  const uint32_t n = 1 + rng.below(size == GenSize::Small ? 5 : 12);
  uint32_t id = rng.below(4);
  std::vector<uint16_t> ids;
  for (uint32_t i = 0; i < n; ++i) {
    ids.push_back(static_cast<uint16_t>(id));
    id += 1 + rng.below(size == GenSize::Small ? 3 : 200);
  }
  const auto parent = detail::random_forest(rng, n);
  for (uint32_t i = 0; i < n; ++i) {
    SkelJoint j;
    j.id = ids[i];
    j.parent =
        parent[i] < 0 ? int16_t{-1} : static_cast<int16_t>(ids[static_cast<size_t>(parent[i])]);
    j.bind = random_trs(rng);
    j.name = detail::random_name(rng, 0, 10);
    s.joints.push_back(std::move(j));
  }
  // FP-6: a leaf joint may have an id above 32767 (no i16 parentId can name it). Only
  // the last joint can take one (ids strictly increasing), and only if it is nobody's parent.
  const bool last_is_leaf = std::none_of(
      parent.begin(), parent.end(), [&](int32_t p) { return p == static_cast<int32_t>(n - 1); });
  if (last_is_leaf && rng.chance(1, 8))
    s.joints.back().id = static_cast<uint16_t>(32768 + rng.below(32768));
  return s;
}

Anim random_anim(GenRng& rng, GenSize size, const Skel& skel) {
  Anim a;
  const uint32_t clips = rng.below(size == GenSize::Small ? 3 : 6);
  uint32_t id = rng.below(3);
  for (uint32_t c = 0; c < clips; ++c) {
    AnimClip clip;
    clip.id = static_cast<uint16_t>(id);
    id += 1 + rng.below(5);
    clip.duration_ms = rng.chance(1, 6) ? 0 : 1 + rng.below(2000);
    clip.name = detail::random_name(rng, 0, 8);
    for (const SkelJoint& j : skel.joints) {
      if (!rng.chance(1, 2)) continue;
      AnimTrack t;
      t.joint = j.id;
      const uint32_t want = 1 + rng.below(size == GenSize::Small ? 3 : 8);
      const uint32_t k = std::min<uint64_t>(want, uint64_t{clip.duration_ms} + 1);
      // k strictly increasing times in [0, duration]: sorted draws in [0, slack], plus i.
      const uint32_t slack = clip.duration_ms - (k - 1);
      std::vector<uint32_t> times(k);
      for (auto& v : times) v = rng.below(slack + 1);
      std::sort(times.begin(), times.end());
      for (uint32_t i = 0; i < k; ++i) t.keys.push_back({times[i] + i, random_trs(rng)});
      clip.tracks.push_back(std::move(t));
    }
    a.clips.push_back(std::move(clip));
  }
  return a;
}

// ---- negative mutations
// --------------------------------------------------------------------------

struct VfpSec {
  uint64_t at;  // section header offset
  std::array<char, 4> tag;
  uint32_t len;
  uint64_t payload() const { return at + 16; }
};
struct VfpCtx {
  std::vector<VfpSec> sections;
  const VfpSec* find(const char* tag) const {
    for (const auto& s : sections)
      if (std::equal(s.tag.begin(), s.tag.end(), tag)) return &s;
    return nullptr;
  }
};

std::string sec_field(const VfpCtx& ctx, const VfpSec& s, const std::string& leaf) {
  return "section[" + std::to_string(&s - ctx.sections.data()) + "]/" + leaf;
}

using VfpKind = Kind<VfpCtx>;
constexpr std::optional<ErrorCode> kAccept = std::nullopt;

const std::array<VfpKind, 12> kVfpKinds = {{
    {"vfp.header_truncated", "docs/spec/vfp.md: the 44-byte file header must be complete",
     ErrorCode::VfpHeaderTruncated, ErrorCode::VfpHeaderTruncated,
     [](GenCase& c, GenRng& rng, const VfpCtx&) {
       detail::truncate_to(c, 4 + rng.below(40), "header");
       return true;
     }},
    {"vfp.version_major", "docs/spec/vfp.md: versionMajor = 1 (any other value: reject)",
     ErrorCode::VfpVersionMajor, ErrorCode::VfpVersionMajor,
     [](GenCase& c, GenRng& rng, const VfpCtx&) {
       detail::set_unsupported(c, rng, 4, 1, 2, 255, "header/versionMajor");
       return true;
     }},
    {"vfp.header_flags", "docs/spec/vfp.md: headerFlags = 0 (non-zero: reject)",
     ErrorCode::VfpHeaderFlags, ErrorCode::VfpHeaderFlags,
     [](GenCase& c, GenRng& rng, const VfpCtx&) {
       detail::set_le(c, 6, 2, rng.range(1, 65535), "header/headerFlags");
       return true;
     }},
    {"vfp.section_tag_lower", "docs/spec/vfp.md#section-header: tag characters from A-Z0-9 (lower case: reject)",
     ErrorCode::VfpSectionBadTag, ErrorCode::VfpSectionBadTag,
     [](GenCase& c, GenRng& rng, const VfpCtx& ctx) {
       const VfpSec& s = ctx.sections[rng.below(static_cast<uint32_t>(ctx.sections.size()))];
       std::vector<uint32_t> letters;
       for (uint32_t i = 0; i < 4; ++i)
         if (s.tag[i] >= 'A' && s.tag[i] <= 'Z') letters.push_back(i);
       if (letters.empty()) return false;
       const uint32_t i = letters[rng.below(static_cast<uint32_t>(letters.size()))];
       detail::set_le(c, s.at + i, 1, s.tag[i] - 'A' + 'a',
                      sec_field(ctx, s, "tag+" + std::to_string(i)));
       return true;
     }},
    {"vfp.section_reserved", "docs/spec/vfp.md#section-header: reserved u16 = 0 (FP-1)",
     ErrorCode::VfpSectionReserved, ErrorCode::VfpSectionReserved,
     [](GenCase& c, GenRng& rng, const VfpCtx& ctx) {
       const VfpSec& s = ctx.sections[rng.below(static_cast<uint32_t>(ctx.sections.size()))];
       detail::set_le(c, s.at + 10, 2, rng.range(1, 65535), sec_field(ctx, s, "reserved"));
       return true;
     }},
    {"vfp.trailing_bytes", "docs/spec/vfp.md: any byte after the last section: reject",
     ErrorCode::VfpTrailingBytes, ErrorCode::VfpTrailingBytes,
     [](GenCase& c, GenRng& rng, const VfpCtx&) {
       auto b = detail::random_bytes(rng, 15);
       if (b.empty()) b.push_back(0);
       detail::append(c, std::move(b));
       return true;
     }},
    {"vfp.source_hash", "docs/spec/vfp.md: sourceHash must equal SHA-256(VOX0 payload)",
     ErrorCode::VfpSourceHash, ErrorCode::VfpSourceHash,
     [](GenCase& c, GenRng& rng, const VfpCtx&) {
       const uint32_t i = rng.below(32);
       detail::set_le(c, 12 + i, 1, c.bytes[12 + i] ^ (1 + rng.below(255)),
                      "header/sourceHash+" + std::to_string(i));
       return true;
     }},
    {"vox0.reserved", "docs/spec/vfp.md#vox0-payload: reserved byte 1 = 0 (checked before the sourceHash)",
     ErrorCode::Vox0Reserved, ErrorCode::Vox0Reserved,
     [](GenCase& c, GenRng& rng, const VfpCtx& ctx) {
       const VfpSec* s = ctx.find("VOX0");
       detail::set_le(c, s->payload() + 1, 1, rng.range(1, 255), sec_field(ctx, *s, "payload+1"));
       return true;
     }},
    {"vox0.palette_index", "docs/spec/vfp.md#vox0-payload: a non-zero voxel value must be < paletteCount",
     ErrorCode::Vox0PaletteIndex, ErrorCode::Vox0PaletteIndex,
     [](GenCase& c, GenRng& rng, const VfpCtx& ctx) {
       const VfpSec* s = ctx.find("VOX0");
       const uint64_t p = s->payload();
       const uint64_t pc = detail::get_le(c.bytes, p + 2, 2);
       if (pc >= 256) return false;
       const uint64_t cells = s->len - 12 - 4 * pc;
       const uint64_t cell = rng.below(static_cast<uint32_t>(cells));
       detail::set_le(c, p + 12 + 4 * pc + cell, 1, rng.range(static_cast<int32_t>(pc), 255),
                      "VOX0/voxel+" + std::to_string(cell));
       return true;
     }},
    {"skel.bad_version",
     "docs/spec/rig.md#skel version = 1; D10: vfp-rig rejects (unsupported), "
     "vfp-static ignores rig sections",
     kAccept, ErrorCode::SkelBadVersion,
     [](GenCase& c, GenRng& rng, const VfpCtx& ctx) {
       const VfpSec* s = ctx.find("SKEL");
       if (!s) return false;
       detail::set_unsupported(c, rng, s->payload(), 1, 2, 255, "SKEL/version");
       return true;
     }},
    {"skel.parent_missing",
     "docs/spec/rig.md#skel: parentId is -1 or an existing joint (FP-5: "
     "below -1 is a missing parent); vfp-static ignores rig sections",
     kAccept, ErrorCode::SkelParentMissing,
     [](GenCase& c, GenRng& rng, const VfpCtx& ctx) {
       const VfpSec* s = ctx.find("SKEL");
       if (!s) return false;
       const uint64_t count = detail::get_le(c.bytes, s->payload() + 2, 2);
       const uint64_t pick = rng.below(static_cast<uint32_t>(count));
       uint64_t at = s->payload() + 36;
       for (uint64_t j = 0; j < pick; ++j) at += 48 + c.bytes[at + 44];
       detail::set_signed(c, at + 2, 2, rng.range(-32768, -2),
                          "SKEL/joint[" + std::to_string(pick) + "]/parentId");
       return true;
     }},
    {"vskn.bad_encoding",
     "docs/spec/rig.md#vskn encoding = 1; D10: vfp-rig rejects (unsupported), "
     "vfp-static ignores rig sections",
     kAccept, ErrorCode::VsknBadEncoding,
     [](GenCase& c, GenRng& rng, const VfpCtx& ctx) {
       const VfpSec* s = ctx.find("VSKN");
       if (!s) return false;
       detail::set_unsupported(c, rng, s->payload() + 1, 1, 2, 255, "VSKN/encoding");
       return true;
     }},
}};

}  // namespace

namespace detail {
std::vector<GenMutationKind> vfp_kinds() {
  std::vector<GenMutationKind> v;
  list_kinds(GenFormat::Vfp, kVfpKinds, v);
  return v;
}
}  // namespace detail

GenCase generate_vfp(GenRng& rng, GenSize size, bool negative) {
  const bool small = size == GenSize::Small;
  VfpFile f;
  f.version_minor = rng.chance(1, 4) ? static_cast<uint8_t>(rng.below(256)) : uint8_t{3};
  Vox0 v;
  const uint32_t max_dim = small ? 4 : 12;
  v.size_x = static_cast<uint16_t>(1 + rng.below(max_dim));
  v.size_y = static_cast<uint16_t>(1 + rng.below(max_dim));
  v.size_z = static_cast<uint16_t>(1 + rng.below(max_dim));
  const uint32_t pc = 1 + rng.below(small ? 8 : 256);
  for (uint32_t i = 0; i < pc; ++i)
    v.palette.push_back({static_cast<uint8_t>(rng.below(256)), static_cast<uint8_t>(rng.below(256)),
                         static_cast<uint8_t>(rng.below(256)),
                         static_cast<uint8_t>(rng.below(256))});
  v.voxels.resize(size_t{v.size_x} * v.size_y * v.size_z);
  for (auto& x : v.voxels)
    x = pc > 1 && rng.chance(1, 2) ? static_cast<uint8_t>(1 + rng.below(pc - 1)) : 0;

  std::string desc = "static " + std::to_string(v.size_x) + "x" + std::to_string(v.size_y) + "x" +
                     std::to_string(v.size_z) + ", " + std::to_string(pc) + " colours";
  std::vector<Section> sections;
  sections.push_back({{make_tag("VOX0"), -1, 0, kSectionRequired}, v});
  if (rng.chance(1, 2)) {
    Skel skel = random_skel(rng, size);
    Vskn vskn;
    vskn.default_joint = skel.joints[rng.below(static_cast<uint32_t>(skel.joints.size()))].id;
    for (uint32_t i = 0; i < v.voxels.size(); ++i) {
      if (!v.voxels[i] || !rng.chance(1, 3)) continue;
      const uint16_t j = skel.joints[rng.below(static_cast<uint32_t>(skel.joints.size()))].id;
      if (j != vskn.default_joint) vskn.bindings.push_back({i, j});
    }
    desc = "rigged" + desc.substr(6) + ", " + std::to_string(skel.joints.size()) + " joints, " +
           std::to_string(vskn.bindings.size()) + " bindings";
    const bool with_anim = rng.chance(2, 3);
    Anim anim;
    if (with_anim) {
      anim = random_anim(rng, size, skel);
      desc += ", " + std::to_string(anim.clips.size()) + " clips";
    }
    sections.push_back({{make_tag("SKEL"), -1, 0, 0}, std::move(skel)});
    sections.push_back({{make_tag("VSKN"), -1, 0, 0}, std::move(vskn)});
    if (with_anim) sections.push_back({{make_tag("ANIM"), -1, 0, 0}, std::move(anim)});
  }
  const uint32_t extras = rng.below(small ? 3 : 6);
  for (uint32_t i = 0; i < extras; ++i) {
    SectionHeader h;
    if (rng.chance(1, 2)) {
      const char* t = kCacheTags[rng.below(kCacheTags.size())];
      std::copy(t, t + 4, h.tag.begin());
    } else {
      h.tag = unknown_tag(rng);
    }
    h.chunk_id = rng.chance(1, 2) ? -1 : static_cast<int32_t>(rng.below(100));
    h.codec = rng.chance(1, 4) ? static_cast<uint8_t>(rng.range(1, 255)) : uint8_t{0};
    sections.push_back({h, RawPayload{detail::random_bytes(rng, small ? 12 : 64)}});
  }
  if (extras) desc += ", " + std::to_string(extras) + " optional sections";
  // Any section order is valid (docs/spec/vfp.md#order-of-checks): shuffle everything, VOX0 included.
  for (size_t i = sections.size(); i > 1; --i)
    std::swap(sections[i - 1], sections[rng.below(static_cast<uint32_t>(i))]);
  f.sections = std::move(sections);
  rebind(f);

  GenCase c;
  c.format = GenFormat::Vfp;
  c.kind = "valid";
  c.rule =
      "docs/spec/vfp.md + Voxel Rig v1: a valid file (D1: parse -> serialize is byte-exact)";
  c.description = desc;
  c.expect = {{Profile::VfpStatic, true, ErrorCode::InternalBug},
              {Profile::VfpRig, true, ErrorCode::InternalBug}};
  auto bytes = encode_vfp(f);
  if (bytes.ok()) c.bytes = std::move(*bytes);  // a generated model is always representable
  if (!negative) return c;

  VfpCtx ctx;  // the sections as the testing walker frames them
  if (const auto framing = testing::framing_of(c.bytes))
    for (const testing::Frame& f : framing->frames) {
      VfpSec s{f.offset, {}, f.declared};
      std::copy(f.tag.begin(), f.tag.end(), s.tag.begin());
      ctx.sections.push_back(s);
    }
  detail::apply_one(c, rng, ctx, kVfpKinds);
  return c;
}

}  // namespace voxrig::gen
