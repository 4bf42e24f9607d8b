// RKCH-family case builders (characters, KV6, KFA, RVC descriptions).
#include "golden_build.h"

namespace voxrig::cli::golden {

bool build_rkc_family(const nlohmann::json&, const std::string&, std::vector<uint8_t>&,
                      std::string& error) {
  error = "RKCH-family builders are not available yet";
  return false;
}

}  // namespace voxrig::cli::golden
