// Core library: error list, Result, reader bounds, UTF-8, float spelling, SHA-256.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>

#include "voxrig/byte_reader.h"
#include "voxrig/byte_writer.h"
#include "voxrig/error.h"
#include "voxrig/float_text.h"
#include "voxrig/profile.h"
#include "voxrig/result.h"
#include "voxrig/sha256.h"
#include "voxrig/utf8.h"

namespace voxrig {
namespace {

TEST(ErrorList, CodesAndValuesAreUnique) {
  std::set<std::string_view> codes;
  std::set<uint16_t> values;
  for_each_error_code([&](ErrorCode c, uint16_t v, std::string_view s, Category) {
    EXPECT_TRUE(codes.insert(s).second) << s;
    EXPECT_TRUE(values.insert(v).second) << v;
    EXPECT_EQ(to_string(c), s);
    EXPECT_EQ(error_code_from_string(s), c);
  });
  EXPECT_GT(codes.size(), 100u);
  EXPECT_EQ(error_code_from_string("no.such.code"), std::nullopt);
}

TEST(ErrorList, PinnedValuesNeverChange) {
  // A golden file may use these; renumbering them is a breaking change.
  EXPECT_EQ(static_cast<int>(ErrorCode::VfpUnknownRequired), 117);
  EXPECT_EQ(to_string(ErrorCode::SkelParentMissing), "skel.parent_missing");
  EXPECT_EQ(to_string(ErrorCode::VsknOffsetOrder), "vskn.offset_order");
  EXPECT_EQ(to_string(ErrorCode::AnimKeyTimeOrder), "anim.key_time_order");
  EXPECT_EQ(category_of(ErrorCode::Vox0LimitVoxels), Category::Limit);
  EXPECT_EQ(category_of(ErrorCode::InternalBug), Category::Internal);
}

TEST(ByteReader, FailedReadMovesNothingAndReportsAbsoluteOffset) {
  const uint8_t data[] = {1, 2, 3};
  ByteReader r({data, 3}, 100, ErrorCode::SkelTruncated);
  auto a = r.u16(Path("SKEL"));
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(*a, 0x0201);
  auto b = r.u32(Path("SKEL").child("joint", 0));
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.error().code, ErrorCode::SkelTruncated);
  EXPECT_EQ(b.error().offset, 102u);
  EXPECT_EQ(b.error().path, "SKEL/joint[0]");
  EXPECT_EQ(r.pos(), 2u);
  auto c = r.u8(Path("SKEL"));
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(r.at_end());
}

TEST(ByteReader, SubReaderIsBoundedAndParentAdvances) {
  const uint8_t data[] = {1, 2, 3, 4, 5};
  ByteReader r({data, 5}, 10, ErrorCode::RkcTruncated);
  auto sub = r.sub(2, Path("X"));
  ASSERT_TRUE(sub.ok());
  EXPECT_EQ(r.offset(), 12u);
  EXPECT_EQ(sub->offset(), 10u);
  EXPECT_FALSE(sub->u32(Path("X")).ok());
  EXPECT_TRUE(sub->u16(Path("X")).ok());
  EXPECT_TRUE(sub->expect_end(ErrorCode::RkcTruncated, Path("X")).ok());
  EXPECT_FALSE(r.expect_end(ErrorCode::VfpTrailingBytes, Path("X")).ok());
  EXPECT_FALSE(r.sub(4, Path("X")).ok());
}

TEST(ByteReader, CheckedCountChecksLimitFirstThenBytesWithoutOverflow) {
  const uint8_t data[8] = {};
  ByteReader r({data, 8}, 0, ErrorCode::AnimTruncated);
  EXPECT_TRUE(r.checked_count(2, 4, 10, ErrorCode::AnimLimitClips, Path("A")).ok());
  EXPECT_EQ(r.checked_count(3, 4, 10, ErrorCode::AnimLimitClips, Path("A")).error().code,
            ErrorCode::AnimTruncated);
  EXPECT_EQ(r.checked_count(11, 0, 10, ErrorCode::AnimLimitClips, Path("A")).error().code,
            ErrorCode::AnimLimitClips);
  // count * size overflows 64 bits: still a clean truncation, not a wrap-around pass.
  EXPECT_EQ(
      r.checked_count(~uint64_t{0}, 1ull << 40, ~uint64_t{0}, ErrorCode::AnimLimitClips, Path("A"))
          .error()
          .code,
      ErrorCode::AnimTruncated);
}

TEST(ByteWriter, BackPatchesLengthsLittleEndian) {
  ByteWriter w;
  w.u8(7);
  size_t at = w.begin_length();
  w.u16(0x1234);
  w.f32(-0.0f);
  w.end_length(at);
  const std::vector<uint8_t> want = {7, 6, 0, 0, 0, 0x34, 0x12, 0, 0, 0, 0x80};
  EXPECT_EQ(w.data(), want);
}

// The writer grows in steps ahead of what was written, appends long spans by itself and trims
// on data() / take(): every mix of writes, with and without reserve(), and writing on after
// data(), gives the bytes a plain push_back per byte gives.
TEST(ByteWriter, MatchesBytewiseAppendAcrossGrowth) {
  for (const size_t reserve : {size_t{0}, size_t{10}, size_t{100000}}) {
    ByteWriter w;
    std::vector<uint8_t> want;
    w.reserve(reserve);
    const auto put = [&want](uint64_t v, int n) {
      for (int i = 0; i < n; ++i) want.push_back(static_cast<uint8_t>(v >> (8 * i)));
    };
    for (uint32_t i = 0; i < 3000; ++i) {
      w.u8(static_cast<uint8_t>(i));
      put(i, 1);
      w.u16(static_cast<uint16_t>(i * 7919));
      put(i * 7919, 2);
      w.i32(-static_cast<int32_t>(i));
      put(static_cast<uint32_t>(-static_cast<int32_t>(i)), 4);
      w.f32(static_cast<float>(i) * 0.5f);
      put(std::bit_cast<uint32_t>(static_cast<float>(i) * 0.5f), 4);
      const std::string name(i % 5, static_cast<char>('a' + i % 26));
      w.bytes(name);
      want.insert(want.end(), name.begin(), name.end());
      w.zeros(i % 3);
      want.insert(want.end(), i % 3, 0);
      if (i % 97 == 0) {  // a long span: appended by the vector itself, not through the slack
        std::vector<uint8_t> span(256 + i % 50);
        for (size_t k = 0; k < span.size(); ++k) span[k] = static_cast<uint8_t>(k * 31 + i);
        w.bytes(span);
        want.insert(want.end(), span.begin(), span.end());
      }
      if (i % 1000 == 999) {
        ASSERT_EQ(w.size(), want.size());
        ASSERT_EQ(w.data(), want);  // trims; writing goes on below
      }
    }
    const size_t at = w.begin_length();
    put(0, 4);
    w.bytes(std::span<const uint8_t>());
    w.u8(9);
    put(9, 1);
    w.end_length(at);
    want[at] = 1;
    EXPECT_EQ(w.size(), want.size());
    EXPECT_EQ(w.take(), want);
    EXPECT_EQ(w.size(), 0u);
    w.u8(5);
    EXPECT_EQ(w.take(), std::vector<uint8_t>{5});
  }
}

TEST(Utf8, WellFormednessPerTable3_7) {
  auto valid = [](std::initializer_list<uint8_t> b) {
    std::vector<uint8_t> v(b);
    return is_valid_utf8(v);
  };
  EXPECT_TRUE(valid({}));
  EXPECT_TRUE(valid({0x00, 'a'}));
  EXPECT_TRUE(valid({0xE2, 0x82, 0xAC}));
  EXPECT_TRUE(valid({0xF4, 0x8F, 0xBF, 0xBF}));
  EXPECT_TRUE(valid({0xEF, 0xBF, 0xBF}));         // noncharacter U+FFFF is allowed
  EXPECT_FALSE(valid({0xC0, 0x80}));              // overlong
  EXPECT_FALSE(valid({0xED, 0xA0, 0x80}));        // surrogate
  EXPECT_FALSE(valid({0xF4, 0x90, 0x80, 0x80}));  // above U+10FFFF
  EXPECT_FALSE(valid({0xF5, 0x80, 0x80, 0x80}));
  EXPECT_FALSE(valid({0xE2, 0x82}));  // cut short
  EXPECT_FALSE(valid({0x80}));
}

// is_ascii reads words of eight and then a byte tail: a high bit at every position of every
// length up to three words must be seen, and a 0x7F byte (no high bit) must not count.
TEST(Utf8, IsAsciiSeesAHighBitAtEveryPosition) {
  EXPECT_TRUE(is_ascii({}));
  for (size_t len = 1; len <= 24; ++len) {
    std::vector<uint8_t> v(len, 0x7F);
    EXPECT_TRUE(is_ascii(v)) << len;
    for (size_t at = 0; at < len; ++at) {
      v[at] = 0x80;
      EXPECT_FALSE(is_ascii(v)) << "length " << len << ", high bit at " << at;
      v[at] = 0x7F;
    }
  }
}

TEST(Utf8, LossyRepairReplacesMaximalSubparts) {
  auto repair = [](std::initializer_list<uint8_t> b) {
    std::vector<uint8_t> v(b);
    return repair_utf8(v);
  };
  EXPECT_EQ(repair({0xE2, 0x82, 0x41}),
            "\xEF\xBF\xBD"
            "A");
  EXPECT_EQ(repair({0xFF, 0xFF, 0xFF}), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ(repair({0xC0, 0x80}), "\xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ(repair({0xED, 0xA0, 0x80}).size(), 9u);  // docs/spec/rkch.md#where-parse-then-serialize-is-not-byte-identical case 5
  EXPECT_EQ(repair({0x80}).size(), 3u);
  EXPECT_EQ(repair({'o', 'k'}), "ok");
}

TEST(FloatText, ShortestRoundTripBinary32) {
  EXPECT_EQ(f32_json(1.0f), "1.0");
  EXPECT_EQ(f32_json(-0.0f), "-0.0");
  EXPECT_EQ(f32_json(0.7071f), "0.7071");
  EXPECT_EQ(f32_json(1e38f), "1e+38");
  EXPECT_EQ(f32_json(std::bit_cast<float>(0x7FC00000u)), "\"f32:0x7FC00000\"");
  EXPECT_EQ(f32_json(-std::numeric_limits<float>::infinity()), "\"f32:0xFF800000\"");
  EXPECT_FALSE(same_bits(0.0f, -0.0f));
  EXPECT_TRUE(same_bits(std::bit_cast<float>(0x7FC00001u), std::bit_cast<float>(0x7FC00001u)));
}

TEST(Sha256, KnownVector) {
  const std::string abc = "abc";
  auto d = sha256({reinterpret_cast<const uint8_t*>(abc.data()), abc.size()});
  EXPECT_EQ(to_hex(d), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  Sha256Stream s;
  s.update({reinterpret_cast<const uint8_t*>(abc.data()), 1});
  s.update({reinterpret_cast<const uint8_t*>(abc.data()) + 1, 2});
  EXPECT_EQ(s.finish(), d);
}

}  // namespace
}  // namespace voxrig

namespace voxrig {
namespace {

// Names are part of the CLI and the reports: pinned here by hand, in both directions.
TEST(EnumNames, ProfilesAndCategoriesReadBackTheirNames) {
  const std::pair<Profile, std::string_view> profiles[] = {{Profile::VfpStatic, "vfp-static"},
                                                           {Profile::VfpRig, "vfp-rig"},
                                                           {Profile::RkcStrict, "rkc-strict"},
                                                           {Profile::RkcCompat, "rkc-compat"}};
  for (const auto& [p, name] : profiles) {
    EXPECT_EQ(to_string(p), name);
    EXPECT_EQ(profile_from_string(name), p);
  }
  EXPECT_EQ(profile_from_string("VFP-RIG"), std::nullopt);  // case-sensitive
  EXPECT_EQ(profile_from_string(""), std::nullopt);
  EXPECT_EQ(to_string(static_cast<Profile>(99)), "vfp-rig");  // outside the enumerators
  EXPECT_EQ(to_string(Category::Unsupported), "unsupported");
  EXPECT_EQ(to_string(static_cast<Category>(99)), "internal");
}

// A value that counts how often it was moved or copied into being.
struct Tracked {
  int n = 0;
  int transfers = 0;
  Tracked() = default;
  explicit Tracked(int v) : n(v) {}
  Tracked(const Tracked& o) : n(o.n), transfers(o.transfers + 1) {}
  Tracked(Tracked&& o) noexcept : n(o.n), transfers(o.transfers + 1) {}
};

// decode_rkc fills its result through a reference and returns it by name: the value must be
// built inside the Result, not built outside and moved in.
TEST(ResultType, InPlaceBuildsTheValueInsideTheResult) {
  Result<Tracked> built{std::in_place, 7};
  ASSERT_TRUE(built.ok());
  EXPECT_EQ(built->n, 7);
  EXPECT_EQ(built->transfers, 0);
  Result<Tracked> empty{std::in_place};
  EXPECT_EQ(empty->n, 0);
  EXPECT_EQ(empty->transfers, 0);
  Result<Tracked> moved_in{Tracked{7}};  // the implicit constructor moves once
  EXPECT_EQ(moved_in->transfers, 1);
}

}  // namespace
}  // namespace voxrig
