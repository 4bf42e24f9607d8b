// voxrig/file_summary.h: what `voxrig info` counts and which verdicts it shows, per format.
#include "voxrig/file_summary.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>

#include "voxrig/rkc.h"
#include "voxrig/testing/layout.h"
#include "voxrig/testing/perf_inputs.h"
#include "voxrig/vfp.h"

namespace voxrig {
namespace {

std::map<std::string, uint64_t> as_map(const ContentCounts& c) {
  return {c.counts.begin(), c.counts.end()};
}

std::vector<uint8_t> rig_bytes() {
  return perf::must(encode_vfp(perf::rig_file(perf::GridKind::Sphere, 8, 8)), "encode");
}

TEST(FileSummary, CountsARigUnderVfpRig) {
  const VfpFile rig = perf::rig_file(perf::GridKind::Sphere, 8, 8);
  const std::vector<uint8_t> bytes = rig_bytes();
  const ContentCounts c = count_contents(bytes);
  EXPECT_EQ(c.profile, Profile::VfpRig);
  const auto m = as_map(c);
  EXPECT_EQ(m.at("sections"), rig.sections.size());
  EXPECT_EQ(m.at("size_x"), 8u);
  EXPECT_EQ(m.at("palette"), rig.vox0()->palette.size());
  EXPECT_EQ(m.at("voxels"),
            uint64_t(std::count_if(rig.vox0()->voxels.begin(), rig.vox0()->voxels.end(),
                                   [](uint8_t v) { return v != 0; })));
  EXPECT_EQ(m.at("joints"), 8u);
  EXPECT_EQ(m.at("bindings"), rig.vskn()->bindings.size());
  EXPECT_EQ(c.counts.front().first, "sections");  // the documented order
}

TEST(FileSummary, ABrokenRigIsCountedUnderVfpStatic) {
  std::vector<uint8_t> bytes = rig_bytes();
  const auto framing = testing::framing_of(bytes);
  ASSERT_TRUE(framing);
  bool flipped = false;
  for (const testing::Frame& f : framing->frames)
    if (f.is("SKEL") && f.payload_end > f.payload_start) {
      bytes[f.payload_start] ^= 0xFF;  // the skeleton hash no longer matches
      flipped = true;
    }
  ASSERT_TRUE(flipped);
  const ContentCounts c = count_contents(bytes);
  EXPECT_EQ(c.profile, Profile::VfpStatic);
  EXPECT_EQ(as_map(c).at("size_x"), 8u);
  EXPECT_FALSE(as_map(c).count("joints"));  // vfp-static does not read the rig
  const auto v = verdicts_by_profile(bytes);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].profile, Profile::VfpStatic);
  EXPECT_FALSE(v[0].report.error);
  EXPECT_EQ(v[1].profile, Profile::VfpRig);
  EXPECT_TRUE(v[1].report.error);
}

TEST(FileSummary, CountsACharacterUnderRkcStrict) {
  const Character ch = perf::tiny_character();
  const auto bytes = perf::must(encode_rkc(ch), "encode");
  EXPECT_EQ(default_profile(bytes), Profile::RkcStrict);
  const ContentCounts c = count_contents(bytes);
  EXPECT_EQ(c.profile, Profile::RkcStrict);
  const auto m = as_map(c);
  EXPECT_EQ(m.at("meshes"), ch.meshes.size());
  EXPECT_EQ(m.at("bones"), ch.bones.size());
  EXPECT_EQ(m.at("clips"), ch.clips.size());
  const auto v = verdicts_by_profile(bytes);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].profile, Profile::RkcStrict);
  EXPECT_EQ(v[1].profile, Profile::RkcCompat);
  EXPECT_FALSE(v[0].report.error);
}

TEST(FileSummary, AnUnknownFileHasNoCountsAndFourVerdicts) {
  const std::vector<uint8_t> bytes = {'a', 'b'};
  EXPECT_EQ(default_profile(bytes), Profile::VfpRig);
  EXPECT_TRUE(count_contents(bytes).counts.empty());
  const auto v = verdicts_by_profile(bytes);
  ASSERT_EQ(v.size(), 4u);
  for (const ProfileVerdict& p : v) {
    ASSERT_TRUE(p.report.error);
    EXPECT_EQ(p.report.error->code, ErrorCode::FileUnknownFormat);
  }
}

}  // namespace
}  // namespace voxrig
