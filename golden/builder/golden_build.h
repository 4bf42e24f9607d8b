// golden_build.h — builds RKCH-family case bytes from declarative descriptions.
//
// A case source's "character" names golden/sources/rkc/characters/<name>.json; "kv6", "kfa" and
// "rvc" hold a description inline. See golden/README.md ("Case sources") for the schema.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace voxrig::golden {

/// Builds the bytes of a case whose builder key is "character", "kv6", "kfa" or "rvc".
/// Returns false and sets `error` when the description is malformed or the encoder refuses it.
bool build_rkc_family(const nlohmann::json& spec, const std::string& golden_dir,
                      std::vector<uint8_t>& out, std::string& error);

}  // namespace voxrig::golden
