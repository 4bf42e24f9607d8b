// JSON compile input: one failing case per rule of docs/spec/compile.md#top-level and D16, with the
// exact error code and JSON path written by hand, next to the passing edge of the rule.
#include <gtest/gtest.h>

#include "vfp_json_test_util.h"

namespace voxrig {
namespace {

using namespace json_test;

// ---- one failing case per rule, exact code and JSON path -------------------------------------

TEST(VfpJsonRules, TopLevel) {
  const ErrCase cases[] = {
      {"not an object", "[]", "json.type", "$"},
      {"unknown key", doc(R"(,"colour":1)"), "json.unknown_key", "$.colour"},
      {"unknown key, odd name", doc(R"(,"a b":1)"), "json.unknown_key", R"($["a b"])"},
      {"codec is not a field", doc(R"(,"codec":0)"), "json.unknown_key", "$.codec"},
      {"missing size", R"({"palette":[[0,0,0,0]],"voxels":[]})", "json.missing_key", "$.size"},
      {"missing palette", R"({"size":[1,1,1],"voxels":[]})", "json.missing_key", "$.palette"},
      {"missing voxels", R"({"size":[1,1,1],"palette":[[0,0,0,0]]})", "json.missing_key",
       "$.voxels"},
      {"vfp 1.4", doc(R"(,"vfp":"1.4")"), "json.version", "$.vfp"},
      {"vfp number", doc(R"(,"vfp":1.3)"), "json.type", "$.vfp"},
      {"duplicate key", doc(R"(,"voxels":[])"), "json.duplicate_key", "$.voxels"},
      {"duplicate nested key", joints(R"({"id":0,"name":"a","name":"a"})"), "json.duplicate_key",
       "$.rig.joints[0].name"},
  };
  for (const ErrCase& c : cases) expect_error(c);
}

TEST(VfpJsonRules, SizePaletteVoxels) {
  const std::string pal = R"("palette":[[0,0,0,0],[1,1,1,1]],)";
  const ErrCase cases[] = {
      {"size 0", R"({"size":[0,1,1],)" + pal + R"("voxels":[]})", "json.range", "$.size[0]"},
      {"size 65536", R"({"size":[1,1,65536],)" + pal + R"("voxels":[]})", "json.range",
       "$.size[2]"},
      {"size of 2", R"({"size":[1,1],)" + pal + R"("voxels":[]})", "json.type", "$.size"},
      {"size float", R"({"size":[1,2.0,1],)" + pal + R"("voxels":[]})", "json.type", "$.size[1]"},
      {"size object", R"({"size":{},)" + pal + R"("voxels":[]})", "json.type", "$.size"},
      {"palette empty", R"({"size":[1,1,1],"palette":[],"voxels":[]})", "json.range", "$.palette"},
      {"palette 257",
       R"({"size":[1,1,1],"palette":[)" +
           [] {
             std::string s;
             for (int i = 0; i < 257; ++i) s += std::string(i ? "," : "") + "[0,0,0,0]";
             return s;
           }() +
           R"(],"voxels":[]})",
       "json.range", "$.palette"},
      {"colour 256", R"({"size":[1,1,1],"palette":[[0,0,0,0],[0,256,0,0]],"voxels":[]})",
       "json.range", "$.palette[1][1]"},
      {"colour -1", R"({"size":[1,1,1],"palette":[[0,0,0,-1]],"voxels":[]})", "json.range",
       "$.palette[0][3]"},
      {"colour of 3", R"({"size":[1,1,1],"palette":[[0,0,0]],"voxels":[]})", "json.type",
       "$.palette[0]"},
      {"voxels not array", R"({"size":[1,1,1],)" + pal + R"("voxels":{}})", "json.type",
       "$.voxels"},
      {"voxel index 0", R"({"size":[1,1,1],)" + pal + R"("voxels":[[0,0,0,0]]})", "json.range",
       "$.voxels[0][3]"},
      {"voxel index = palette count", R"({"size":[1,1,1],)" + pal + R"("voxels":[[0,0,0,2]]})",
       "json.range", "$.voxels[0][3]"},
      {"voxel with 1-entry palette",
       R"({"size":[1,1,1],"palette":[[0,0,0,0]],"voxels":[[0,0,0,1]]})", "json.range",
       "$.voxels[0][3]"},
      {"voxel x out", R"({"size":[1,2,1],)" + pal + R"("voxels":[[1,0,0,1]]})", "json.voxel_range",
       "$.voxels[0][0]"},
      {"voxel y negative", R"({"size":[1,2,1],)" + pal + R"("voxels":[[0,-1,0,1]]})",
       "json.voxel_range", "$.voxels[0][1]"},
      {"voxel z out", R"({"size":[1,2,1],)" + pal + R"("voxels":[[0,1,1,1]]})", "json.voxel_range",
       "$.voxels[0][2]"},
      {"voxel of 3", R"({"size":[1,1,1],)" + pal + R"("voxels":[[0,0,0]]})", "json.type",
       "$.voxels[0]"},
      {"voxel conflict", doc().substr(0, doc().size() - 2) + R"(,[0,0,0,2]]})",
       "json.voxel_conflict", "$.voxels[3]"},
  };
  for (const ErrCase& c : cases) expect_error(c);
}

TEST(VfpJsonRules, ExtraSections) {
  const ErrCase cases[] = {
      {"VOX0", sections(R"({"tag":"VOX0","payload_hex":""})"), "json.reserved_tag",
       "$.sections[0].tag"},
      {"SKEL", sections(R"({"tag":"SKEL","payload_hex":""})"), "json.reserved_tag",
       "$.sections[0].tag"},
      {"VSKN", sections(R"({"tag":"VSKN","payload_hex":""})"), "json.reserved_tag",
       "$.sections[0].tag"},
      {"ANIM", sections(R"({"tag":"PRVW","payload_hex":""},{"tag":"ANIM","payload_hex":""})"),
       "json.reserved_tag", "$.sections[1].tag"},
      {"tag lower case", sections(R"({"tag":"prvw","payload_hex":""})"), "json.range",
       "$.sections[0].tag"},
      {"tag of 5", sections(R"({"tag":"PRVW1","payload_hex":""})"), "json.range",
       "$.sections[0].tag"},
      {"unknown required", sections(R"({"tag":"XTRA","flags":1,"payload_hex":""})"),
       "json.unknown_required", "$.sections[0].flags"},
      {"reserved flag bits", sections(R"({"tag":"PRVW","flags":2,"payload_hex":""})"), "json.range",
       "$.sections[0].flags"},
      {"chunk_id -2", sections(R"({"tag":"PRVW","chunk_id":-2,"payload_hex":""})"), "json.range",
       "$.sections[0].chunk_id"},
      {"chunk_id 2^31", sections(R"({"tag":"PRVW","chunk_id":2147483648,"payload_hex":""})"),
       "json.range", "$.sections[0].chunk_id"},
      {"odd hex", sections(R"({"tag":"PRVW","payload_hex":"abc"})"), "json.bad_hex",
       "$.sections[0].payload_hex"},
      {"not hex", sections(R"({"tag":"PRVW","payload_hex":"0g"})"), "json.bad_hex",
       "$.sections[0].payload_hex"},
      {"hex with space", sections(R"({"tag":"PRVW","payload_hex":"00 1"})"), "json.bad_hex",
       "$.sections[0].payload_hex"},
      {"missing payload", sections(R"({"tag":"PRVW"})"), "json.missing_key",
       "$.sections[0].payload_hex"},
      {"missing tag", sections(R"({"payload_hex":""})"), "json.missing_key", "$.sections[0].tag"},
      {"codec field", sections(R"({"tag":"PRVW","codec":0,"payload_hex":""})"), "json.unknown_key",
       "$.sections[0].codec"},
      {"section not object", sections("[]"), "json.type", "$.sections[0]"},
  };
  for (const ErrCase& c : cases) expect_error(c);
  compile_ok(sections(R"({"tag":"ANM0","chunk_id":2147483647,"flags":1,"payload_hex":"FF"})"));
}

TEST(VfpJsonRules, Joints) {
  const ErrCase cases[] = {
      {"rig not object", doc(R"(,"rig":[])"), "json.type", "$.rig"},
      {"rig unknown key", rig(kJoints + R"(,"skin":1)"), "json.unknown_key", "$.rig.skin"},
      {"rig without joints", rig(R"("default_joint":0)"), "json.missing_key", "$.rig.joints"},
      {"no joints", rig(R"("joints":[])"), "json.range", "$.rig.joints"},
      {"joint unknown key", joints(R"({"id":0},{"id":1,"colour":1})"), "json.unknown_key",
       "$.rig.joints[1].colour"},
      {"joint without id", joints(R"({"id":0},{"parent":0})"), "json.missing_key",
       "$.rig.joints[1].id"},
      {"duplicate id", joints(R"({"id":4},{"id":4})"), "json.duplicate_id", "$.rig.joints[1].id"},
      {"parent null", joints(R"({"id":0},{"id":1,"parent":null})"), "json.type",
       "$.rig.joints[1].parent"},
      {"parent -1", joints(R"({"id":0},{"id":1,"parent":-1})"), "json.range",
       "$.rig.joints[1].parent"},
      {"parent 32768", joints(R"({"id":0},{"id":1,"parent":32768})"), "json.range",
       "$.rig.joints[1].parent"},
      {"parent missing", joints(R"({"id":0},{"id":1,"parent":0},{"id":2,"parent":7})"),
       "json.parent_missing", "$.rig.joints[2].parent"},
      {"self parent", joints(R"({"id":0},{"id":1,"parent":1})"), "json.parent_cycle",
       "$.rig.joints[1].parent"},
      // The first joint in JSON order whose chain never reaches a root: 3 -> 2 -> 1 -> 2 ...
      {"cycle", joints(R"({"id":0},{"id":3,"parent":2},{"id":2,"parent":1},{"id":1,"parent":2})"),
       "json.parent_cycle", "$.rig.joints[1].parent"},
      {"cycle after good joints",
       joints(
           R"({"id":4,"parent":5},{"id":5},{"id":7,"parent":4},{"id":8,"parent":9},{"id":9,"parent":8})"),
       "json.parent_cycle", "$.rig.joints[3].parent"},
      {"name too long", joints(R"({"id":0,"name":")" + std::string(256, 'a') + R"("})"),
       "json.bad_name", "$.rig.joints[0].name"},
      {"name too long after escapes",
       joints(R"({"id":0,"name":")" +
              [] {
                std::string s;
                for (int i = 0; i < 128; ++i) s += "\\u00e9";  // 2 UTF-8 bytes each: 256
                return s;
              }() +
              R"("})"),
       "json.bad_name", "$.rig.joints[0].name"},
      {"lone surrogate", joints(R"({"id":0,"name":"a\ud800b"})"), "json.bad_name",
       "$.rig.joints[0].name"},
      {"lone low surrogate", joints(R"({"id":0,"name":"\udc00"})"), "json.bad_name",
       "$.rig.joints[0].name"},
      {"name number", joints(R"({"id":0,"name":5})"), "json.type", "$.rig.joints[0].name"},
      {"non-unit rotation", joints(R"({"id":0,"rotation":[0,0,0,1.0011]})"),
       "json.non_unit_rotation", "$.rig.joints[0].rotation"},
      {"zero rotation", joints(R"({"id":0,"rotation":[0,0,0,0]})"), "json.non_unit_rotation",
       "$.rig.joints[0].rotation"},
      {"rotation of 3", joints(R"({"id":0,"rotation":[0,0,1]})"), "json.type",
       "$.rig.joints[0].rotation"},
      {"translation string", joints(R"({"id":0,"translation":[0,"1",0]})"), "json.type",
       "$.rig.joints[0].translation[1]"},
  };
  for (const ErrCase& c : cases) expect_error(c);
  // Passing sides: 255-byte name, a valid surrogate pair, a rotation inside the tolerance, a
  // parent with a larger id, \u0000 in a name.
  VfpFile f = compile_ok(joints(
      R"({"id":0,"name":")" + std::string(255, 'a') +
      R"("},{"id":1,"parent":2,"name":"\ud83d\ude00\u0000","rotation":[0,0,0,1.0009]},{"id":2})"));
  ASSERT_NE(f.skel(), nullptr);
  EXPECT_EQ(f.skel()->joints[1].name, std::string("\xF0\x9F\x98\x80\0", 5));
  EXPECT_EQ(f.skel()->joints[0].name.size(), 255u);
}

TEST(VfpJsonRules, DefaultJointAndBindings) {
  const ErrCase cases[] = {
      {"default missing", rig(kJoints + R"(,"default_joint":7)"), "json.joint_missing",
       "$.rig.default_joint"},
      {"default string", rig(kJoints + R"(,"default_joint":"0")"), "json.type",
       "$.rig.default_joint"},
      {"bindings object", rig(kJoints + R"(,"bindings":{})"), "json.type", "$.rig.bindings"},
      {"binding empty voxel", rig(kJoints + R"(,"bindings":[{"position":[1,1,0],"joint":1}])"),
       "json.binding_empty_voxel", "$.rig.bindings[0].position"},
      // Checked before bindings to the default joint are dropped.
      {"default binding on empty voxel",
       rig(kJoints +
           R"(,"bindings":[{"position":[0,0,0],"joint":1},{"position":[1,1,1],"joint":0}])"),
       "json.binding_empty_voxel", "$.rig.bindings[1].position"},
      {"binding joint missing", rig(kJoints + R"(,"bindings":[{"position":[0,0,0],"joint":9}])"),
       "json.joint_missing", "$.rig.bindings[0].joint"},
      {"binding out of grid", rig(kJoints + R"(,"bindings":[{"position":[0,2,0],"joint":1}])"),
       "json.voxel_range", "$.rig.bindings[0].position[1]"},
      {"binding conflict",
       rig(kJoints +
           R"(,"bindings":[{"position":[0,0,0],"joint":1},{"position":[1,0,0],"joint":1},)"
           R"({"position":[1,0,0],"joint":1},{"position":[0,0,0],"joint":0}])"),
       "json.binding_conflict", "$.rig.bindings[3]"},
      {"binding conflict with the default",
       rig(kJoints +
           R"(,"bindings":[{"position":[0,0,0],"joint":0},{"position":[0,0,0],"joint":1}])"),
       "json.binding_conflict", "$.rig.bindings[1]"},
      {"binding without joint", rig(kJoints + R"(,"bindings":[{"position":[0,0,0]}])"),
       "json.missing_key", "$.rig.bindings[0].joint"},
      {"binding unknown key",
       rig(kJoints + R"(,"bindings":[{"position":[0,0,0],"joint":1,"bone":1}])"),
       "json.unknown_key", "$.rig.bindings[0].bone"},
      {"position of 2", rig(kJoints + R"(,"bindings":[{"position":[0,0],"joint":1}])"), "json.type",
       "$.rig.bindings[0].position"},
  };
  for (const ErrCase& c : cases) expect_error(c);
}

TEST(VfpJsonRules, Animations) {
  const ErrCase cases[] = {
      {"animations object", rig(kJoints + R"(,"animations":{})"), "json.type", "$.rig.animations"},
      {"clip without duration", clips(R"({"id":0})"), "json.missing_key",
       "$.rig.animations[0].duration_ms"},
      {"clip without id", clips(R"({"duration_ms":0})"), "json.missing_key",
       "$.rig.animations[0].id"},
      {"duplicate clip id", clips(R"({"id":3,"duration_ms":0},{"id":3,"duration_ms":0})"),
       "json.duplicate_id", "$.rig.animations[1].id"},
      {"duration negative", clips(R"({"id":0,"duration_ms":-1})"), "json.range",
       "$.rig.animations[0].duration_ms"},
      {"duration 2^32", clips(R"({"id":0,"duration_ms":4294967296})"), "json.range",
       "$.rig.animations[0].duration_ms"},
      {"clip unknown key", clips(R"({"id":0,"duration_ms":0,"loop":true})"), "json.unknown_key",
       "$.rig.animations[0].loop"},
      {"clip name too long",
       clips(R"({"id":0,"duration_ms":0,"name":")" + std::string(300, 'x') + R"("})"),
       "json.bad_name", "$.rig.animations[0].name"},
      {"tracks null", clips(R"({"id":0,"duration_ms":0,"tracks":null})"), "json.type",
       "$.rig.animations[0].tracks"},
      {"track joint missing",
       clips(R"({"id":0,"duration_ms":0,"tracks":[{"joint":5,"keys":[{"time_ms":0}]}]})"),
       "json.joint_missing", "$.rig.animations[0].tracks[0].joint"},
      {"two tracks, one joint",
       clips(
           R"({"id":0,"duration_ms":0,"tracks":[{"joint":1,"keys":[{"time_ms":0}]},{"joint":1,"keys":[{"time_ms":0}]}]})"),
       "json.duplicate_id", "$.rig.animations[0].tracks[1].joint"},
      {"track without keys", clips(R"({"id":0,"duration_ms":0,"tracks":[{"joint":1}]})"),
       "json.missing_key", "$.rig.animations[0].tracks[0].keys"},
      {"no keys", keys(""), "json.no_keys", "$.rig.animations[0].tracks[0].keys"},
      {"key without time", keys(R"({"rotation":[0,0,0,1]})"), "json.missing_key",
       "$.rig.animations[0].tracks[0].keys[0].time_ms"},
      {"key time equal", keys(R"({"time_ms":5},{"time_ms":5})"), "json.key_time_order",
       "$.rig.animations[0].tracks[0].keys[1].time_ms"},
      {"key time decreasing", keys(R"({"time_ms":5},{"time_ms":9},{"time_ms":2})"),
       "json.key_time_order", "$.rig.animations[0].tracks[0].keys[2].time_ms"},
      {"key after duration", keys(R"({"time_ms":0},{"time_ms":101})"), "json.key_time_range",
       "$.rig.animations[0].tracks[0].keys[1].time_ms"},
      {"key time float", keys(R"({"time_ms":0.5})"), "json.type",
       "$.rig.animations[0].tracks[0].keys[0].time_ms"},
      {"key non-unit rotation", keys(R"({"time_ms":0,"rotation":[0.5,0.5,0.5,0.6]})"),
       "json.non_unit_rotation", "$.rig.animations[0].tracks[0].keys[0].rotation"},
      {"key unknown key", keys(R"({"time_ms":0,"value":1})"), "json.unknown_key",
       "$.rig.animations[0].tracks[0].keys[0].value"},
      {"key float overflow", keys(R"({"time_ms":0,"scale":[1,1,1e39]})"), "json.float_overflow",
       "$.rig.animations[0].tracks[0].keys[0].scale[2]"},
  };
  for (const ErrCase& c : cases) expect_error(c);
}

TEST(VfpJsonRules, Limits) {
  Limits l;
  l.vox0_voxels = 7;  // the 2x2x2 grid has 8
  expect_error({"voxels", doc(), "json.limit", "$.size"}, l);
  l.vox0_voxels = 8;
  compile_ok(doc(), l);

  l = Limits{};
  l.skel_joints = 1;
  expect_error({"joints", rig(kJoints), "json.limit", "$.rig.joints"}, l);
  compile_ok(rig(R"("joints":[{"id":0}])"), l);

  // jointCount is a u16: 65536 distinct ids cannot be written, whatever the limit says.
  l.skel_joints = 1u << 20;
  std::string many;
  for (int i = 0; i < 65536; ++i) many += (i ? ",{\"id\":" : "{\"id\":") + std::to_string(i) + "}";
  expect_error({"65536 joints", joints(many), "json.limit", "$.rig.joints"}, l);
  many.resize(many.rfind(','));
  compile_ok(joints(many), l);

  l = Limits{};
  l.anim_clips = 1;
  expect_error({"clips", clips(R"({"id":0,"duration_ms":0},{"id":1,"duration_ms":0})"),
                "json.limit", "$.rig.animations"},
               l);
  compile_ok(clips(R"({"id":0,"duration_ms":0})"), l);

  l = Limits{};
  l.anim_keys_per_track = 2;
  expect_error({"keys per track", keys(R"({"time_ms":0},{"time_ms":1},{"time_ms":2})"),
                "json.limit", "$.rig.animations[0].tracks[0].keys"},
               l);
  compile_ok(keys(R"({"time_ms":0},{"time_ms":1})"), l);

  l = Limits{};
  l.anim_keys_total = 3;
  const std::string two_tracks =
      R"({"id":0,"duration_ms":9,"tracks":[{"joint":0,"keys":[{"time_ms":0},{"time_ms":1}]},)"
      R"({"joint":1,"keys":[{"time_ms":0},{"time_ms":1}]}]})";
  expect_error(
      {"keys total", clips(two_tracks), "json.limit", "$.rig.animations[0].tracks[1].keys"}, l);
  l.anim_keys_total = 4;
  compile_ok(clips(two_tracks), l);

  l = Limits{};
  l.vfp_sections = 2;  // VOX0 + one extra
  const std::string two = R"({"tag":"PRVW","payload_hex":""},{"tag":"RND0","payload_hex":""})";
  expect_error({"sections", sections(two), "json.limit", "$.sections"}, l);
  compile_ok(sections(R"({"tag":"PRVW","payload_hex":""})"), l);
  l.vfp_sections = 3;  // VOX0 + SKEL + VSKN fit, one more does not
  compile_ok(rig(kJoints), l);
  expect_error({"rig sections",
                doc(R"(,"sections":[{"tag":"PRVW","payload_hex":""}],"rig":{)" + kJoints + "}"),
                "json.limit", "$.rig"},
               l);
}

}  // namespace
}  // namespace voxrig
