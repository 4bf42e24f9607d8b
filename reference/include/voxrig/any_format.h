// voxrig/any_format.h — one entry point per operation for every format, chosen by magic bytes.
//
// This is what the CLI, the conformance runner and the fuzz targets of whole files call.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "voxrig/limits.h"
#include "voxrig/profile.h"
#include "voxrig/result.h"

namespace voxrig {

/// The formats voxrig reads.
enum class Format { Vfp, Rkc, Kv6, Rvc, Kfa, Unknown };

/// Chooses the format from the first four bytes: "VFP\0", "RKCH", "Kvxl", "RVCL", "Kwlk".
/// Anything else (including fewer than four bytes) is Unknown (error file.unknown_format).
Format detect_format(std::span<const uint8_t> bytes);
/// "vfp", "rkc", "kv6", "rvc", "kfa", "unknown".
std::string_view to_string(Format f);

/// Every operation below first matches the file's family to `profile` (D7): a VFP file under
/// rkc-strict / rkc-compat, or an RKCH, KV6, RVC or KFA file under vfp-static / vfp-rig, is
/// rejected with file.unknown_format, exactly like a file whose magic matches no format.

/// Decodes under `profile` and returns the canonical JSON dump (dump.h), or the error.
Result<std::string> dump_any(std::span<const uint8_t> bytes, Profile profile, const Limits& limits);

/// Decodes and re-serializes with the writer (docs/spec/writers.md#D1 `roundtrip`).
Result<std::vector<uint8_t>> roundtrip_any(std::span<const uint8_t> bytes, Profile profile,
                                           const Limits& limits);

/// Decodes and writes the canonical form (D1 `canonicalize`).
Result<std::vector<uint8_t>> canonicalize_any(std::span<const uint8_t> bytes, Profile profile,
                                              const Limits& limits);

/// Everything `voxrig validate` reports: the first error (if any) and all warnings (D14).
struct ValidationReport {
  Format format = Format::Unknown;
  std::optional<Error> error;
  std::vector<Warning> warnings;
};
/// Validates under `profile`; never fails itself.
ValidationReport validate_any(std::span<const uint8_t> bytes, Profile profile,
                              const Limits& limits);

}  // namespace voxrig
