// Shared helpers of the JSON compile tests: a small valid document to vary, and an exact
// code + JSON path assertion. Expectations stay in the tests, written by hand.
#pragma once

#include <gtest/gtest.h>

#include <bit>
#include <fstream>
#include <sstream>
#include <string>

#include "voxrig/vfp.h"
#include "voxrig/vfp_json.h"

namespace voxrig::json_test {

// The seed's examples (shared/design/examples), kept verbatim in the golden sources so the tests
// need nothing outside the repository.
inline std::string read_example(const char* name) {
  std::ifstream f(std::string(VOXRIG_SOURCE_DIR) + "/golden/sources/vfp/models/" + name,
                  std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

inline uint32_t bits(float f) { return std::bit_cast<uint32_t>(f); }

// A 2x2x2 model: voxel 0 = [0,0,0] and 1 = [1,0,0] have colour 1, voxel 2 = [0,1,0] colour 2;
// everything else is empty.
inline const std::string kVox =
    R"("size":[2,2,2],"palette":[[0,0,0,0],[255,0,0,255],[0,255,0,255]],)"
    R"("voxels":[[0,0,0,1],[1,0,0,1],[0,1,0,2]])";
inline const std::string kJoints =
    R"("joints":[{"id":0,"name":"Root"},{"id":1,"parent":0,"name":"Arm"}])";

inline std::string doc(const std::string& extra = "") { return "{" + kVox + extra + "}"; }
inline std::string rig(const std::string& body) { return doc(R"(,"rig":{)" + body + "}"); }
inline std::string joints(const std::string& list) { return rig(R"("joints":[)" + list + "]"); }
inline std::string clips(const std::string& list) {
  return rig(kJoints + R"(,"animations":[)" + list + "]");
}
// One clip (id 0, 100 ms) with one track on joint 1 whose keys are `keys`.
inline std::string keys(const std::string& list) {
  return clips(R"({"id":0,"duration_ms":100,"tracks":[{"joint":1,"keys":[)" + list + "]}]}");
}
inline std::string sections(const std::string& list) {
  return doc(R"(,"sections":[)" + list + "]");
}

inline VfpFile compile_ok(const std::string& json, const Limits& limits = {}) {
  auto r = compile_vfp_json(json, limits);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().to_text()) << "\n" << json;
  return r.ok() ? std::move(r).value() : VfpFile{};
}

struct ErrCase {
  const char* what;
  std::string json;
  const char* code;
  std::string path;
};

inline void expect_error(const ErrCase& c, const Limits& limits = {}) {
  SCOPED_TRACE(c.what);
  auto r = compile_vfp_json(c.json, limits);
  ASSERT_FALSE(r.ok()) << c.json;
  EXPECT_EQ(to_string(r.error().code), c.code) << r.error().to_text();
  EXPECT_EQ(r.error().path, c.path) << r.error().to_text();
}

}  // namespace voxrig::json_test
