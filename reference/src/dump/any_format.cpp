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

// D7: a profile reads one family (vfp-* VFP; rkc-* RKCH, KV6, RVC, KFA), so a file of the other
// family is a format the profile does not know: file.unknown_format, like an unknown magic.
std::optional<Error> foreign_family(Format f, Profile profile) {
  const bool vfp_profile = profile == Profile::VfpStatic || profile == Profile::VfpRig;
  if (f == Format::Unknown || (f == Format::Vfp) == vfp_profile) return std::nullopt;
  return error_at(ErrorCode::FileUnknownFormat, 0, "",
                  "the file is " + std::string(to_string(f)) + ", which " +
                      std::string(to_string(profile)) + " does not read (profiles for " +
                      std::string(to_string(f)) + ": " +
                      (f == Format::Vfp ? "vfp-static, vfp-rig" : "rkc-strict, rkc-compat") + ")");
}

DecodeOptions options_for(Profile profile, const Limits& limits) { return {profile, limits}; }

// Lambdas joined into one overload set, so a visitor can name one case per model type.
template <class... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};
template <class... Fs>
Overloaded(Fs...) -> Overloaded<Fs...>;

// The one "decode whichever format this is" dispatch: detects the format, decodes the whole
// file (a standalone KV6/RVC starts at file offset 0) and hands the model, as an rvalue, to
// `visit`, whose Result<R> it returns. A decode error or an unknown magic is returned as is.
template <class R, class Visit>
Result<R> visit_decoded(std::span<const uint8_t> bytes, Profile profile, const Limits& limits,
                        Visit&& visit) {
  return guard_out_of_memory([&]() -> Result<R> {
    const DecodeOptions o = options_for(profile, limits);
    if (auto e = foreign_family(detect_format(bytes), profile)) return std::move(*e);
    switch (detect_format(bytes)) {
      case Format::Vfp: {
        VOXRIG_ASSIGN_OR_RETURN(VfpFile f, decode_vfp(bytes, o));
        return visit(std::move(f));
      }
      case Format::Rkc: {
        VOXRIG_ASSIGN_OR_RETURN(Character c, decode_rkc(bytes, o));
        return visit(std::move(c));
      }
      case Format::Kv6: {
        VOXRIG_ASSIGN_OR_RETURN(Kv6 k, decode_kv6(bytes, 0, o));
        return visit(std::move(k));
      }
      case Format::Rvc: {
        VOXRIG_ASSIGN_OR_RETURN(RvcClip r, decode_rvc(bytes, 0, o));
        return visit(std::move(r));
      }
      case Format::Kfa: {
        VOXRIG_ASSIGN_OR_RETURN(Kfa k, decode_kfa(bytes, o));
        return visit(std::move(k));
      }
      default:
        return unknown_format(bytes);
    }
  });
}

ValidationReport validate_unguarded(std::span<const uint8_t> bytes, Profile profile,
                                    const Limits& limits);

// Encodes a decoded model with its own format's encoder (the roundtrip half of the dispatch).
struct EncodeAny {
  Result<std::vector<uint8_t>> operator()(const VfpFile& f) const { return encode_vfp(f); }
  Result<std::vector<uint8_t>> operator()(const Character& c) const { return encode_rkc(c); }
  Result<std::vector<uint8_t>> operator()(const Kv6& k) const { return encode_kv6(k); }
  Result<std::vector<uint8_t>> operator()(const RvcClip& r) const { return encode_rvc(r); }
  Result<std::vector<uint8_t>> operator()(const Kfa& k) const { return encode_kfa(k); }
};

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
  return visit_decoded<std::string>(bytes, profile, limits,
                                    Overloaded{[](const VfpFile& f) { return dump_vfp(f); },
                                               [](const Character& c) { return dump_rkc(c); },
                                               [](const Kv6& k) { return dump_kv6(k); },
                                               [](const RvcClip& r) { return dump_rvc(r); },
                                               [](const Kfa& k) { return dump_kfa(k); }});
}

Result<std::vector<uint8_t>> roundtrip_any(std::span<const uint8_t> bytes, Profile profile,
                                           const Limits& limits) {
  return visit_decoded<std::vector<uint8_t>>(bytes, profile, limits, EncodeAny{});
}

Result<std::vector<uint8_t>> canonicalize_any(std::span<const uint8_t> bytes, Profile profile,
                                              const Limits& limits) {
  // D1: VFP canonicalizes its model before encoding; for every other format canonicalize is
  // roundtrip.
  return visit_decoded<std::vector<uint8_t>>(
      bytes, profile, limits,
      Overloaded{[](VfpFile&& f) { return encode_vfp(canonicalized(std::move(f))); },
                 [](auto&& model) { return EncodeAny{}(model); }});
}

ValidationReport validate_any(std::span<const uint8_t> bytes, Profile profile,
                              const Limits& limits) {
  ValidationReport r;
  const Status s = guard_out_of_memory([&]() -> Status {
    r = validate_unguarded(bytes, profile, limits);
    return ok_status();
  });
  if (!s.ok()) {
    r.warnings.clear();
    r.error = s.error();
  }
  return r;
}

namespace {

ValidationReport validate_unguarded(std::span<const uint8_t> bytes, Profile profile,
                                    const Limits& limits) {
  ValidationReport r;
  r.format = detect_format(bytes);
  if (auto e = foreign_family(r.format, profile)) {
    r.error = std::move(e);
    return r;
  }
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

}  // namespace

}  // namespace voxrig
