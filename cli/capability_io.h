// Shared plumbing of the capability protocols (conformance.md "Writers, evaluators and meshers"):
// the `voxrig pose` and `voxrig mesh` protocol forms decode a file under a profile, validate
// enum options with one message form, and print the protocol JSON.
#pragma once

#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "cli_common.h"
#include "voxrig/kv6.h"
#include "voxrig/mesh.h"
#include "voxrig/pose_f64.h"
#include "voxrig/rkc_model.h"
#include "voxrig/vfp_model.h"

namespace voxrig::cli {

/// A file decoded for a capability: VFP (either VFP profile), an RKCH character or a KV6.
using CapabilityModel = std::variant<VfpFile, Character, Kv6>;

/// Decodes `bytes` under `profile`: the VFP profiles read VFP, the RKCH profiles read RKCH and
/// KV6 (by magic). A file of the other family, or of a format the capability cannot use (RVC,
/// KFA, unknown), is file.unknown_format (the same code `dump` gives). Safe on any bytes.
Result<CapabilityModel> decode_for_capability(std::span<const uint8_t> bytes, Profile profile);

/// The value of enum option `name` (or `fallback` when absent). When the value is not one of
/// `allowed`, prints "voxrig: --policy: 'cubic' is not one of step, linear, slerp" and returns
/// nullopt (the caller exits with kExitUsage).
std::optional<std::string> enum_option(const Args& args, std::string_view name,
                                       std::initializer_list<std::string_view> allowed,
                                       std::string_view fallback);

/// {"model": [[16 numbers], ...]}: one column-major matrix per entry, each element as the
/// shortest decimal that round-trips the double; a non-finite element is written as null.
std::string model_matrices_json(std::span<const Mat4d> models);

/// {"quads": [{"normal": "+x", "voxels": [x0, y0, z0, x1, y1, z1], "joint": J, "color": C},
/// ...]}: the protocol form of reference quads (mesh.h coordinates turned into the inclusive
/// box of the voxels whose `normal` face the quad covers).
std::string quads_json(std::span<const Quad> quads);

}  // namespace voxrig::cli

namespace voxrig::cli {

/// The .gltf (JSON) form of a .glb written by export_gltf: the GLB's JSON chunk with the BIN
/// chunk embedded as a base64 data URI in buffers[0]. nullopt when `glb` is not a well-formed
/// GLB of that shape (never for export_gltf output).
std::optional<std::string> glb_to_gltf_json(std::span<const uint8_t> glb);

/// "gltf" for a path ending in .gltf, "glb" for .glb, "obj" for .obj, "json" for .json, else "".
std::string format_of_extension(const std::string& path);

}  // namespace voxrig::cli
