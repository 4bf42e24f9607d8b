// The RVC dump (docs/spec/dump.md, "RVC"): fields, digests, determinism, completeness.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "rvc_test_util.h"
#include "voxrig/rvc.h"
#include "voxrig/sha256.h"

using namespace rvctest;
using nlohmann::json;

namespace {

std::string hex_sha(const Bytes& b) { return voxrig::to_hex(voxrig::sha256(b)); }

json dump_of(const Bytes& f) {
  auto r = voxrig::decode_rvc(f, 0, compat());
  EXPECT_TRUE(r.ok());
  return json::parse(voxrig::dump_rvc(r.value()));
}

}  // namespace

TEST(RvcDump, Fields) {
  const Bytes meta_raw = meta({2, 1, 4}, 2, 2, 40, {0.5f, -0.0f, 2.0f}, 0.25f);
  const Bytes meta_stored = deflated(meta_raw, 9, {0xAA});
  const Bytes frms = cat({key({1, 6}, {0, 1, 3}, {0xA, 0xB, 0xC}), delta({{1, {8}, {0xD}}})});
  const Bytes f = file({chunk("META", meta_stored, 0x81), chunk("FRMS", frms),
                        chunk("TIME", u32s({3, 0})), chunk("\xC3x\x01y", Bytes{})});
  const json j = dump_of(f);
  EXPECT_EQ(j["schema"], "voxrig-dump/2");
  EXPECT_EQ(j["format"], "rvc");
  EXPECT_EQ(j["version"], 2);
  ASSERT_EQ(j["chunks"].size(), 4u);
  const json& c0 = j["chunks"][0];
  EXPECT_EQ(c0["tag"], "META");
  EXPECT_EQ(c0["flags"], 0x81);
  EXPECT_EQ(c0["deflated"], true);
  EXPECT_EQ(c0["stored"]["count"], meta_stored.size());
  EXPECT_EQ(c0["stored"]["sha256"], hex_sha(meta_stored));
  EXPECT_EQ(c0["inflated"]["count"], 37);
  EXPECT_EQ(c0["inflated"]["sha256"], hex_sha(meta_raw));
  EXPECT_EQ(j["chunks"][1]["deflated"], false);
  EXPECT_EQ(j["chunks"][3]["tag"], "\u00C3x\u0001y");  // each byte one code point (Latin-1)
  const json& m = j["meta"];
  EXPECT_EQ(m["dims"], json::parse("[2, 1, 4]"));
  EXPECT_EQ(m["loop_mode"], 2);
  EXPECT_EQ(m["default_frame_ms"], 40);
  EXPECT_EQ(m["frame_count"], 2);
  EXPECT_EQ(m["voxel_world_size"].get<double>(), 0.25);
  ASSERT_EQ(m["pivot"].size(), 3u);
  EXPECT_TRUE(std::signbit(m["pivot"][1].get<double>()));  // -0.0 spelled "-0.0"
  ASSERT_EQ(j["frames"].size(), 2u);
  const json& k = j["frames"][0];
  EXPECT_EQ(k["kind"], "key");
  EXPECT_EQ(k["occupancy"]["count"], 2);
  EXPECT_EQ(k["occupancy"]["sha256"], hex_sha(u32s({1, 6})));
  EXPECT_EQ(k["color_offsets"]["sha256"], hex_sha(u32s({0, 1, 3})));
  EXPECT_EQ(k["colors"]["sha256"], hex_sha(u32s({0xA, 0xB, 0xC})));
  const json& d = j["frames"][1];
  EXPECT_EQ(d["kind"], "delta");
  EXPECT_EQ(d["columns"], 1);
  EXPECT_EQ(d["cols"]["sha256"], hex_sha(u32s({1})));
  EXPECT_EQ(d["occupancy"]["sha256"], hex_sha(u32s({8})));
  EXPECT_EQ(d["color_counts"]["sha256"], hex_sha(u32s({1})));
  EXPECT_EQ(d["colors"]["sha256"], hex_sha(u32s({0xD})));
  EXPECT_EQ(j["durations"], json::parse("[3, 0]"));
  // Exact spelling of the float fields (D17).
  const std::string text = voxrig::dump_rvc(voxrig::decode_rvc(f, 0, compat()).value());
  EXPECT_NE(text.find("\"pivot\": [0.5, -0.0, 2.0]"), std::string::npos) << text;
  EXPECT_NE(text.find("\"voxel_world_size\": 0.25"), std::string::npos);
}

TEST(RvcDump, NoTimeIsNullAndTimeWithZeroFramesIsEmpty) {
  EXPECT_TRUE(
      dump_of(file({chunk("META", meta({1, 1, 4}, 0)), chunk("FRMS", {})}))["durations"].is_null());
  const json j =
      dump_of(file({chunk("META", meta({1, 1, 4}, 0)), chunk("FRMS", {}), chunk("TIME", {})}));
  EXPECT_TRUE(j["durations"].is_array());
  EXPECT_TRUE(j["durations"].empty());
}

// voxrig-dump/2: frames and TIME values past the first two fold into one digest of their stored
// bytes (frames: from frame 2's kind byte to the end of the last frame, trailing bytes excluded).
TEST(RvcDump, FramesAndDurationsPastTwoFoldIntoDigests) {
  const Bytes k = key({1}, {0, 1}, {0xA});
  const Bytes d1 = delta({{0, {0}, {}}});
  const Bytes d2 = delta({{0, {1}, {0xB}}});
  const Bytes d3 = delta({});
  const Bytes f = file({chunk("META", meta({1, 1, 4}, 4)),
                        chunk("FRMS", cat({k, d1, d2, d3, Bytes{0xEE, 0xEE}})),
                        chunk("TIME", u32s({5, 6, 7, 8, 9}))});
  const json j = dump_of(f);
  ASSERT_EQ(j["frames"].size(), 2u);
  EXPECT_EQ(j["frames"][1]["kind"], "delta");
  EXPECT_EQ(j["frames_rest"]["count"], 2);
  EXPECT_EQ(j["frames_rest"]["sha256"], hex_sha(cat({d2, d3})));
  EXPECT_EQ(j["durations"], json::parse("[5, 6]"));
  EXPECT_EQ(j["durations_rest"]["count"], 2);
  EXPECT_EQ(j["durations_rest"]["sha256"], hex_sha(u32s({7, 8})));
  const json two = dump_of(file({chunk("META", meta({1, 1, 4}, 2)), chunk("FRMS", cat({k, d1}))}));
  EXPECT_EQ(two["frames"].size(), 2u);
  EXPECT_EQ(two["frames_rest"]["count"], 0);
  EXPECT_EQ(two["frames_rest"]["sha256"], hex_sha(Bytes{}));
  EXPECT_TRUE(two["durations_rest"].is_null());
}

TEST(RvcDump, DeterministicAndComplete) {
  auto text = [](const Bytes& f) {
    return voxrig::dump_rvc(voxrig::decode_rvc(f, 0, compat()).value());
  };
  EXPECT_EQ(text(small_clip()), text(small_clip()));
  // Different bytes with the same decoded views still dump differently (chunk digests).
  const Bytes a =
      file({chunk("META", deflated(meta({1, 1, 4}, 1), 8), 1), chunk("FRMS", seed_key())});
  const Bytes b =
      file({chunk("META", deflated(meta({1, 1, 4}, 1), 8, {0}), 1), chunk("FRMS", seed_key())});
  EXPECT_NE(text(a), text(b));
  // The embedded form is the same object without schema/format.
  auto r = voxrig::decode_rvc(small_clip(), 0, compat());
  voxrig::JsonOut out;
  voxrig::dump_rvc_into(out, r.value());
  json embedded = json::parse(out.take());
  json whole = json::parse(text(small_clip()));
  whole.erase("schema");
  whole.erase("format");
  EXPECT_EQ(embedded, whole);
}
