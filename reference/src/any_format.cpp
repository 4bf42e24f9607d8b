// Dispatch by magic bytes to each format family's decode / encode / dump / validate.
#include "voxrig/any_format.h"

#include <cstring>

#include "voxrig/dump.h"
#include "voxrig/vfp.h"

namespace voxrig {

namespace {

bool magic_is(std::span<const uint8_t> b, const char (&m)[5]) {
  return b.size() >= 4 && std::memcmp(b.data(), m, 4) == 0;
}

Error unknown_format(std::span<const uint8_t> bytes) {
  return Error{ErrorCode::FileUnknownFormat, 0, "",
               bytes.size() < 4 ? "fewer than 4 bytes" : "magic matches no known format"};
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
  switch (f) {
    case Format::Vfp: return "vfp";
    case Format::Rkc: return "rkc";
    case Format::Kv6: return "kv6";
    case Format::Rvc: return "rvc";
    case Format::Kfa: return "kfa";
    case Format::Unknown: return "unknown";
  }
  return "unknown";
}

Result<std::string> dump_any(std::span<const uint8_t> bytes, Profile profile, const Limits& limits) {
  switch (detect_format(bytes)) {
    case Format::Vfp: {
      VOXRIG_ASSIGN_OR_RETURN(VfpFile f, decode_vfp(bytes, options_for(profile, limits)));
      return dump_vfp(f);
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
    default:
      return unknown_format(bytes);
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
    default:
      r.error = unknown_format(bytes);
  }
  return r;
}

}  // namespace voxrig
