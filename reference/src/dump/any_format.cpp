// Dispatch by magic bytes to each format family's decode / encode / dump / validate.
#include "voxrig/any_format.h"

#include <cstring>

#include "voxrig/dump.h"
#include "voxrig/enum_names.h"
#include "voxrig/kfa.h"
#include "voxrig/kv6.h"
#include "voxrig/rkc.h"
#include "voxrig/rvc.h"
#include "voxrig/vfp.h"

namespace voxrig {

namespace {

bool magic_is(std::span<const uint8_t> b, const char (&m)[5]) {
  return b.size() >= 4 && std::memcmp(b.data(), m, 4) == 0;
}

Error unknown_format(std::span<const uint8_t> bytes) {
  return error_at(ErrorCode::FileUnknownFormat, 0, "",
                  bytes.size() < 4 ? "fewer than 4 bytes" : "magic matches no known format");
}

DecodeOptions options_for(Profile profile, const Limits& limits) { return {profile, limits}; }

}  // namespace

Format detect_format(std::span<const uint8_t> bytes) {
  if (bytes.size() >= 4 && std::memcmp(bytes.data(), "VFP\0", 4) == 0) return Format::Vfp;
  if (magic_is(bytes, "RKCH")) return Format::Rkc;
  if (magic_is(bytes, "Kvxl")) return Format::Kv6;
  if (magic_is(bytes, "RVCL")) return Format::Rvc;
  if (magic_is(bytes, "Kwlk")) return Format::Kfa;
  return Format::Unknown;
}

std::string_view to_string(Format f) {
  static constexpr EnumName<Format> kNames[] = {{Format::Vfp, "vfp"}, {Format::Rkc, "rkc"},
                                                {Format::Kv6, "kv6"}, {Format::Rvc, "rvc"},
                                                {Format::Kfa, "kfa"}, {Format::Unknown, "unknown"}};
  return name_of(kNames, f, "unknown");
}

Result<std::string> dump_any(std::span<const uint8_t> bytes, Profile profile,
                             const Limits& limits) {
  switch (detect_format(bytes)) {
    case Format::Vfp: {
      VOXRIG_ASSIGN_OR_RETURN(VfpFile f, decode_vfp(bytes, options_for(profile, limits)));
      return dump_vfp(f);
    }
    case Format::Rkc: {
      VOXRIG_ASSIGN_OR_RETURN(Character c, decode_rkc(bytes, options_for(profile, limits)));
      return dump_rkc(c);
    }
    case Format::Kv6: {
      VOXRIG_ASSIGN_OR_RETURN(Kv6 k, decode_kv6(bytes, 0, options_for(profile, limits)));
      return dump_kv6(k);
    }
    case Format::Rvc: {
      VOXRIG_ASSIGN_OR_RETURN(RvcClip r, decode_rvc(bytes, 0, options_for(profile, limits)));
      return dump_rvc(r);
    }
    case Format::Kfa: {
      VOXRIG_ASSIGN_OR_RETURN(Kfa k, decode_kfa(bytes, options_for(profile, limits)));
      return dump_kfa(k);
    }
    default:
      return unknown_format(bytes);
  }
}

Result<std::vector<uint8_t>> roundtrip_any(std::span<const uint8_t> bytes, Profile profile,
                                           const Limits& limits) {
  switch (detect_format(bytes)) {
    case Format::Vfp: {
      VOXRIG_ASSIGN_OR_RETURN(VfpFile f, decode_vfp(bytes, options_for(profile, limits)));
      return encode_vfp(f);
    }
    case Format::Rkc: {
      VOXRIG_ASSIGN_OR_RETURN(Character c, decode_rkc(bytes, options_for(profile, limits)));
      return encode_rkc(c);
    }
    case Format::Kv6: {
      VOXRIG_ASSIGN_OR_RETURN(Kv6 k, decode_kv6(bytes, 0, options_for(profile, limits)));
      return encode_kv6(k);
    }
    case Format::Rvc: {
      VOXRIG_ASSIGN_OR_RETURN(RvcClip r, decode_rvc(bytes, 0, options_for(profile, limits)));
      return encode_rvc(r);
    }
    case Format::Kfa: {
      VOXRIG_ASSIGN_OR_RETURN(Kfa k, decode_kfa(bytes, options_for(profile, limits)));
      return encode_kfa(k);
    }
    default:
      return unknown_format(bytes);
  }
}

Result<std::vector<uint8_t>> canonicalize_any(std::span<const uint8_t> bytes, Profile profile,
                                              const Limits& limits) {
  switch (detect_format(bytes)) {
    case Format::Vfp: {
      VOXRIG_ASSIGN_OR_RETURN(VfpFile f, decode_vfp(bytes, options_for(profile, limits)));
      return encode_vfp(canonicalized(std::move(f)));
    }
    case Format::Unknown:
      return unknown_format(bytes);
    default:
      return roundtrip_any(bytes, profile, limits);  // D1: other formats canonicalize = roundtrip
  }
}

ValidationReport validate_any(std::span<const uint8_t> bytes, Profile profile,
                              const Limits& limits) {
  ValidationReport r;
  r.format = detect_format(bytes);
  switch (r.format) {
    case Format::Vfp: {
      auto f = decode_vfp(bytes, options_for(profile, limits));
      if (!f.ok()) r.error = f.error();
      break;
    }
    case Format::Rkc:
    case Format::Kv6:
    case Format::Kfa: {
      const DecodeOptions o = options_for(profile, limits);
      auto w = r.format == Format::Rkc   ? validate_rkc(bytes, o)
               : r.format == Format::Kv6 ? validate_kv6(bytes, o)
                                         : validate_kfa(bytes, o);
      if (!w.ok())
        r.error = w.error();
      else
        r.warnings = std::move(*w);
      break;
    }
    case Format::Rvc: {
      auto c = decode_rvc(bytes, 0, options_for(profile, limits));
      if (!c.ok()) r.error = c.error();
      break;
    }
    default:
      r.error = unknown_format(bytes);
  }
  return r;
}

}  // namespace voxrig
