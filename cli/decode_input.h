// Helpers several commands share to take a file in: the profile a file is decoded under, the
// FILE arguments of dump/roundtrip/canonicalize, and reading a .vfp for mesh/pose/export-gltf.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cli_common.h"
#include "voxrig/error.h"
#include "voxrig/export.h"
#include "voxrig/vfp.h"

/// The --profile paragraph of every usage text that takes --profile (a literal, so the usage
/// texts stay compile-time constants).
#define VOXRIG_CLI_PROFILE_HELP                                                         \
  "  --profile P   vfp-static | vfp-rig | rkc-strict | rkc-compat\n"                    \
  "                (default: vfp-rig for VFP files, rkc-strict for RKCH/KV6/RVC/KFA;\n" \
  "                a file of the other family is rejected: file.unknown_format, exit 1)\n"

namespace voxrig::cli {

/// The options of dump / roundtrip / canonicalize (-o is accepted and unused, as it always was).
inline constexpr OptionSpec kFileOptions[] = {{"--profile", true, kProfileChoices}, {"-o", true}};

/// The profile to use for `bytes`: `given` (--profile), else the format's strict default
/// (default_profile, voxrig/file_summary.h). Allocates nothing.
Profile effective_profile(std::optional<Profile> given, std::span<const uint8_t> bytes);

/// The arguments of dump / roundtrip / canonicalize: --profile (into `profile`; nullopt = by
/// format) and exactly `files` FILE arguments. Returns kExitOk, or kExitUsage after printing
/// one line.
int file_arguments(const Args& args, size_t files, std::optional<Profile>& profile);

/// An operation of the codec on a whole file (dump_any, roundtrip_any, canonicalize_any).
template <class T>
using FileOp = Result<T> (*)(std::span<const uint8_t>, Profile, const Limits&);

/// dump / roundtrip / canonicalize: checks the arguments (file_arguments), reads the first FILE
/// and runs `op` on it under the effective profile with the default limits. On failure sets
/// `exit` (kExitUsage, kExitIo, or kExitReject after the error JSON on stdout) and returns
/// nullopt.
template <class T>
std::optional<T> run_on_file(const Args& args, size_t files, FileOp<T> op, int& exit) {
  std::optional<Profile> given;
  if ((exit = file_arguments(args, files, given)) != kExitOk) return std::nullopt;
  auto in = read_file(args.positional[0]);
  if (!in) {
    exit = kExitIo;
    return std::nullopt;
  }
  auto out = op(*in, effective_profile(given, *in), Limits{});
  if (!out.ok()) {
    print_error_json(out.error());
    exit = kExitReject;
    return std::nullopt;
  }
  return std::move(out).value();
}

/// roundtrip / canonicalize: run_on_file on IN, then writes the bytes to OUT. Returns kExitOk,
/// kExitReject, kExitUsage or kExitIo.
int rewrite_file(const Args& args, FileOp<std::vector<uint8_t>> op);

/// Reads `path` and decodes it as VFP under vfp-rig (meshing needs the rig when there is one).
/// A file of unknown format is rejected as file.unknown_format, exactly as dump/validate do; a
/// file of the RKCH family is a usage error naming its format ("takes a .vfp"). On failure sets
/// `exit` (kExitIo after read_file's message; kExitUsage after one line; kExitReject after the
/// error JSON on stdout and the error text on stderr) and returns nullopt.
std::optional<VfpFile> read_vfp(const std::string& path, int& exit);
/// read_vfp of bytes already read from `path`.
std::optional<VfpFile> load_vfp(const std::string& path, std::span<const uint8_t> bytes, int& exit);

/// "gltf" for a path ending in .gltf, "glb" for .glb, "obj" for .obj, "json" for .json, else "".
std::string format_of_extension(const std::string& path);

/// Prints the error JSON (stdout) and "voxrig: WHAT: error" (stderr; for limit.output it names
/// --max-output, the option that raises the limit); returns kExitReject.
int report_rejection(const Error& e, const std::string& what);

/// Streams an output to `out` (nullopt or "-": stdout) through an OutputStream: `produce(sink)`
/// writes it, refusing an output over its cap before the first piece. Returns kExitOk;
/// kExitReject after report_rejection(produce's error, `what`) (no file is created then); or
/// kExitIo after the write error's line.
int stream_output(const std::optional<std::string>& out, const std::string& what,
                  const std::function<Status(const OutputSink&)>& produce);

/// Writes an export's parts to `out` as a GLB (`format` "glb") or as .gltf JSON ("gltf"),
/// refusing an output over `max_output` (limit.output) before its first byte. Returns
/// stream_output's exit codes.
int write_gltf(const std::optional<std::string>& out, std::string_view format,
               const GltfParts& parts, uint64_t max_output);

}  // namespace voxrig::cli
