// The .gltf text form of an export, streamed (voxrig/export.h write_gltf_json).
#include <algorithm>

#include "voxrig/export.h"

namespace voxrig {

namespace {
// Base64 (RFC 4648, padded) of `b` appended to `out`.
void append_base64(std::string& out, std::span<const uint8_t> b) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (size_t i = 0; i < b.size(); i += 3) {
    const uint32_t n = uint32_t(b[i]) << 16 | (i + 1 < b.size() ? uint32_t(b[i + 1]) << 8 : 0) |
                       (i + 2 < b.size() ? uint32_t(b[i + 2]) : 0);
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
    out += i + 1 < b.size() ? kAlphabet[(n >> 6) & 63] : '=';
    out += i + 2 < b.size() ? kAlphabet[n & 63] : '=';
  }
}
}  // namespace

Status write_gltf_json(const GltfParts& parts, uint64_t max_bytes, const OutputSink& sink) {
  return guard_out_of_memory([&]() -> Status {
    static constexpr std::string_view kUri = ",\"uri\":\"data:application/octet-stream;base64,";
    const std::string_view json = parts.json;
    const bool embed = !parts.bin.empty() && parts.uri_at <= json.size();
    const std::string_view head = embed ? json.substr(0, parts.uri_at) : json;
    const std::string_view rest = embed ? json.substr(parts.uri_at) : std::string_view();
    const uint64_t encoded = embed ? kUri.size() + (parts.bin.size() + 2) / 3 * 4 + 1 : 0;
    const uint64_t total = head.size() + encoded + rest.size() + 1;
    if (total > max_bytes)
      return model_error(ErrorCode::LimitOutput, "",
                         "the .gltf text takes " + std::to_string(total) +
                             " bytes, over the output limit of " + std::to_string(max_bytes));
    sink(head);
    if (embed) {
      sink(kUri);
      std::string piece;
      constexpr size_t kIn = size_t{3} << 16;  // a multiple of 3: no padding until the end
      for (size_t i = 0; i < parts.bin.size(); i += kIn) {
        piece.clear();
        append_base64(piece, std::span<const uint8_t>(parts.bin).subspan(
                                 i, std::min(kIn, parts.bin.size() - i)));
        sink(piece);
      }
      sink("\"");
      sink(rest);
    }
    sink("\n");
    return ok_status();
  });
}

}  // namespace voxrig
