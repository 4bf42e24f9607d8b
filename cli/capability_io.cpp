// Capability protocol plumbing (capability_io.h).
#include "capability_io.h"

#include <charconv>
#include <cmath>
#include <iostream>

#include "voxrig/any_format.h"
#include "voxrig/rkc.h"
#include "voxrig/vfp.h"

namespace voxrig::cli {

Result<CapabilityModel> decode_for_capability(std::span<const uint8_t> bytes, Profile profile) {
  const Format f = detect_format(bytes);
  const DecodeOptions options{profile, Limits{}};
  const bool vfp_profile = profile == Profile::VfpStatic || profile == Profile::VfpRig;
  if (vfp_profile && f == Format::Vfp) {
    auto r = decode_vfp(bytes, options);
    if (!r.ok()) return std::move(r).error();
    return CapabilityModel{std::move(r).value()};
  }
  if (!vfp_profile && f == Format::Rkc) {
    auto r = decode_rkc(bytes, options);
    if (!r.ok()) return std::move(r).error();
    return CapabilityModel{std::move(r).value()};
  }
  if (!vfp_profile && f == Format::Kv6) {
    auto r = decode_kv6(bytes, 0, options);
    if (!r.ok()) return std::move(r).error();
    return CapabilityModel{std::move(r).value()};
  }
  return error_at(ErrorCode::FileUnknownFormat, 0, "",
                  std::string("a ") + std::string(to_string(f)) + " file under profile " +
                      std::string(to_string(profile)));
}

std::optional<std::string> enum_option(const Args& args, std::string_view name,
                                       std::initializer_list<std::string_view> allowed,
                                       std::string_view fallback) {
  const std::string v = args.last(name).value_or(std::string(fallback));
  for (auto a : allowed)
    if (a == v) return v;
  std::string list;
  for (auto a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
  std::cerr << "voxrig: " << name << ": '" << v << "' is not one of " << list << "\n";
  return std::nullopt;
}

std::string model_matrices_json(std::span<const Mat4d> models) {
  std::string out = "{\"model\": [";
  for (size_t j = 0; j < models.size(); ++j) {
    out += j ? ",\n  [" : "\n  [";
    for (int e = 0; e < 16; ++e) {
      if (e) out += ", ";
      const double v = models[j][e];
      if (!std::isfinite(v)) {
        out += "null";
        continue;
      }
      char buf[32];
      auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v + 0.0);  // -0.0 prints as 0
      out.append(buf, end);
    }
    out += "]";
  }
  out += models.empty() ? "]}\n" : "\n]}\n";
  return out;
}

std::string quads_json(std::span<const Quad> quads) {
  std::string out = "{\"quads\": [";
  for (size_t i = 0; i < quads.size(); ++i) {
    const Quad& q = quads[i];
    const int a = q.axis, u = (a + 1) % 3, v = (a + 2) % 3;
    uint64_t lo[3] = {q.x, q.y, q.z};
    if (q.positive) lo[a] -= 1;  // the plane of a +axis face is one past its voxel
    uint64_t hi[3] = {lo[0], lo[1], lo[2]};
    hi[u] += q.w - 1;
    hi[v] += q.h - 1;
    static constexpr const char* kAxis[3] = {"x", "y", "z"};
    out += i ? ",\n  " : "\n  ";
    out += "{\"normal\": \"" + std::string(q.positive ? "+" : "-") + kAxis[a] +
           "\", \"voxels\": [" + std::to_string(lo[0]) + ", " + std::to_string(lo[1]) + ", " +
           std::to_string(lo[2]) + ", " + std::to_string(hi[0]) + ", " + std::to_string(hi[1]) +
           ", " + std::to_string(hi[2]) + "], \"joint\": " + std::to_string(q.joint) +
           ", \"color\": " + std::to_string(q.material) + "}";
  }
  out += quads.empty() ? "]}\n" : "\n]}\n";
  return out;
}

}  // namespace voxrig::cli

#include <nlohmann/json.hpp>

namespace voxrig::cli {

namespace {
uint32_t le32(std::span<const uint8_t> b, size_t at) {
  return uint32_t(b[at]) | uint32_t(b[at + 1]) << 8 | uint32_t(b[at + 2]) << 16 |
         uint32_t(b[at + 3]) << 24;
}

std::string base64(std::span<const uint8_t> b) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((b.size() + 2) / 3 * 4);
  for (size_t i = 0; i < b.size(); i += 3) {
    const uint32_t n = uint32_t(b[i]) << 16 | (i + 1 < b.size() ? uint32_t(b[i + 1]) << 8 : 0) |
                       (i + 2 < b.size() ? uint32_t(b[i + 2]) : 0);
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
    out += i + 1 < b.size() ? kAlphabet[(n >> 6) & 63] : '=';
    out += i + 2 < b.size() ? kAlphabet[n & 63] : '=';
  }
  return out;
}
}  // namespace

std::optional<std::string> glb_to_gltf_json(std::span<const uint8_t> glb) {
  if (glb.size() < 20 || le32(glb, 0) != 0x46546C67u || le32(glb, 8) != glb.size())
    return std::nullopt;
  const uint32_t json_len = le32(glb, 12);
  if (le32(glb, 16) != 0x4E4F534Au || 20 + uint64_t(json_len) > glb.size()) return std::nullopt;
  std::span<const uint8_t> bin;
  const size_t at = 20 + json_len;
  if (at + 8 <= glb.size()) {
    const uint32_t bin_len = le32(glb, at);
    if (le32(glb, at + 4) != 0x004E4942u || at + 8 + uint64_t(bin_len) > glb.size())
      return std::nullopt;
    bin = glb.subspan(at + 8, bin_len);
  }
  try {
    auto doc = nlohmann::ordered_json::parse(glb.begin() + 20, glb.begin() + 20 + json_len);
    if (doc.contains("buffers") && doc["buffers"].is_array() && !doc["buffers"].empty())
      doc["buffers"][0]["uri"] = "data:application/octet-stream;base64," + base64(bin);
    return doc.dump() + "\n";
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::string format_of_extension(const std::string& path) {
  const size_t dot = path.rfind('.');
  if (dot == std::string::npos || path.find('/', dot) != std::string::npos) return "";
  std::string ext = path.substr(dot + 1);
  for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
  if (ext == "gltf" || ext == "glb" || ext == "obj" || ext == "json") return ext;
  return "";
}

}  // namespace voxrig::cli
