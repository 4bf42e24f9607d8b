// The .gltf text form of a .glb (voxrig/export.h glb_to_gltf_json).
#include <nlohmann/json.hpp>

#include "voxrig/export.h"

namespace voxrig {

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

}  // namespace voxrig
