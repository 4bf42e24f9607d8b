// The testing walker's framing and hash repair (voxrig/testing/layout.h) against the codec: split /
// join round-trips every generated file, rebind_bytes agrees with voxrig::rebind on decodable
// files, and every truncation of a file frames without reading past its end.
#include <gtest/gtest.h>

#include <chrono>
#include <variant>

#include "voxrig/byte_reader.h"
#include "voxrig/testing/gen.h"
#include "voxrig/testing/le_bytes.h"
#include "voxrig/testing/layout.h"
#include "voxrig/vfp.h"

namespace voxrig::testing {
namespace {

Bytes generated(gen::GenFormat f, uint64_t seed) {
  return gen::generate_case(f, seed, gen::GenSize::Small, false).bytes;
}

TEST(LayoutFraming, SplitJoinRoundTripsGeneratedFiles) {
  for (auto f : {gen::GenFormat::Vfp, gen::GenFormat::Rkc, gen::GenFormat::Rvc})
    for (uint64_t seed = 0; seed < 40; ++seed) {
      const Bytes b = generated(f, seed);
      const auto s = split(b);
      ASSERT_TRUE(s) << to_string(f) << " seed " << seed;
      EXPECT_TRUE(s->trailing.empty());
      EXPECT_EQ(join(*s), b) << to_string(f) << " seed " << seed;
    }
}

TEST(LayoutFraming, JoinRecomputesLengthsAndCount) {
  auto s = split(generated(gen::GenFormat::Vfp, 7)).value();
  s.parts.push_back(s.parts.front());
  s.parts.front().payload.push_back(0);
  const Bytes b = join(s);
  const Framing f = framing_of(b).value();
  ASSERT_EQ(f.frames.size(), s.parts.size());
  EXPECT_EQ(load_u32(b.data() + 8), s.parts.size());
  for (size_t i = 0; i < f.frames.size(); ++i)
    EXPECT_EQ(f.frames[i].declared, s.parts[i].payload.size());
  EXPECT_EQ(load_u32(join(s, 99).data() + 8), 99u);
}

TEST(LayoutFraming, EveryTruncationFramesInsideTheBytes) {
  for (auto f : {gen::GenFormat::Vfp, gen::GenFormat::Rkc, gen::GenFormat::Rvc}) {
    const Bytes b = generated(f, 3);
    for (size_t n = 0; n <= b.size(); ++n) {
      const std::span<const uint8_t> cut(b.data(), n);
      if (const auto fr = framing_of(cut)) {
        for (const Frame& x : fr->frames) EXPECT_LE(x.payload_end, n);
        EXPECT_LE(fr->trailing_start, n);
      }
      for (const Field& x : layout_of(cut).fields) EXPECT_LE(x.offset + x.size, n) << x.path;
    }
  }
}

// Zeroes every rig hash through the model, so only rebind_bytes can restore them.
Bytes unbound(const Bytes& valid) {
  VfpFile m = decode_vfp(valid, DecodeOptions{Profile::VfpRig, {}}).value();
  for (Section& s : m.sections)
    std::visit(
        [](auto& b) {
          if constexpr (requires { b.base_source_hash; }) b.base_source_hash = Sha256{};
          if constexpr (requires { b.skeleton_hash; }) b.skeleton_hash = Sha256{};
        },
        s.body);
  return encode_vfp(m).value();
}

TEST(LayoutRebind, AgreesWithTheCodecOnDecodableFiles) {
  int rigged = 0;
  for (uint64_t seed = 0; seed < 60; ++seed) {
    const Bytes valid = generated(gen::GenFormat::Vfp, seed);  // hashes bound by voxrig::rebind
    Bytes b = unbound(valid);
    if (b != valid) ++rigged;
    std::string why;
    ASSERT_TRUE(rebind_bytes(b, true, why)) << why;
    EXPECT_EQ(b, valid) << "seed " << seed;
    auto s = split(unbound(valid)).value();
    rebind_split(s, true);
    EXPECT_EQ(join(s), valid) << "seed " << seed;
  }
  EXPECT_GT(rigged, 10);  // the generator does write rigs
}

TEST(LayoutRebind, NamesWhatItWroteAndRefusesWithoutVox0) {
  Bytes b = generated(gen::GenFormat::Vfp, 1);
  std::string why;
  const auto fields = rebind_bytes(b, false, why).value();
  ASSERT_EQ(fields.size(), 1u);
  EXPECT_EQ(fields[0].path, "header/sourceHash");
  Bytes rkc = generated(gen::GenFormat::Rkc, 1);
  EXPECT_FALSE(rebind_bytes(rkc, true, why));
  EXPECT_EQ(why, "no field named 'header/sourceHash' in this file");
  auto s = split(b).value();
  s.parts.clear();
  Bytes empty = join(s);
  EXPECT_FALSE(rebind_bytes(empty, true, why));
  EXPECT_EQ(why, "no field named 'section[VOX0]/payload' in this file");
}

// Every record table of a valid file is complete and its count field says how many it holds.
TEST(LayoutRecords, ValidPayloadsAreCompleteAndCounted) {
  int tables = 0;
  for (auto f : {gen::GenFormat::Vfp, gen::GenFormat::Rkc})
    for (uint64_t seed = 0; seed < 40; ++seed) {
      const Split s = split(generated(f, seed)).value();
      for (const Part& p : s.parts) {
        const std::string_view tag(reinterpret_cast<const char*>(p.tag.data()), 4);
        if (p.is("MSHS") || p.is("VCLP")) {
          const BlobList l = split_blobs(p.payload);
          EXPECT_EQ(l.blobs.size(), load_u32(p.payload.data()));
          EXPECT_TRUE(l.rest.empty());
          EXPECT_EQ(join_blobs(l), p.payload);
        }
        if (p.is("CLPS")) {
          EXPECT_EQ(split_clips(p.payload).size(), load_u32(p.payload.data()));
          EXPECT_EQ(join_clips(split_clips(p.payload)), p.payload);
        }
        const auto r = complete_records(tag, p.payload);
        if (!r) continue;
        ++tables;
        const uint8_t* count = p.payload.data() + r->count_offset;
        EXPECT_EQ(r->records.size(), r->count_size == 2 ? load_u16(count) : load_u32(count)) << tag;
        EXPECT_EQ(r->end(), p.payload.size()) << tag;
        Bytes copy = p.payload;
        ASSERT_TRUE(recount_records(tag, copy));
        EXPECT_EQ(copy, p.payload) << tag;
      }
    }
  EXPECT_GT(tables, 40);
}

TEST(LayoutRecords, RecountCutsToCompleteRecords) {
  for (uint64_t seed = 0; seed < 40; ++seed) {
    const Split s = split(generated(gen::GenFormat::Vfp, seed)).value();
    for (const Part& p : s.parts) {
      if (!p.is("SKEL") && !p.is("ANIM") && !p.is("VSKN")) continue;
      const std::string_view tag(reinterpret_cast<const char*>(p.tag.data()), 4);
      const auto whole = complete_records(tag, p.payload).value();
      if (whole.records.empty()) continue;
      Bytes cut(p.payload.begin(), p.payload.end() - 1);  // the last record is now incomplete
      const auto r = recount_records(tag, cut).value();
      EXPECT_EQ(r.records.size(), whole.records.size() - 1) << tag;
      EXPECT_EQ(cut.size(), whole.records[whole.records.size() - 1].start) << tag;
    }
  }
}

}  // namespace
}  // namespace voxrig::testing

namespace voxrig::testing {
namespace {

// Hazard H2 in the walker: a skeletal clip of zero bones and 2^32 - 1 frames has frame rows of
// zero bytes; the walk must not visit them (it did, ~10 s per clip, in `voxrig info`).
TEST(LayoutFields, ZeroWidthFrameRowsAreNotWalked) {
  LeBytes clps;
  clps.u32(8);
  for (int i = 0; i < 8; ++i) {
    clps.name("").u16(0).u32(12);        // kind 0 (skeletal), a body of 12 bytes:
    clps.u32(0xFFFFFFFF).u32(0).u32(0);  // numfrm, numhin 0, seqcount 0
  }
  LeBytes f;
  f.str("RKCH").u16(3);
  f.chunk("META", LeBytes().name("").zeros(12)).chunk("MSHS", LeBytes().u32(0));
  f.chunk("BONS", LeBytes().u32(0)).chunk("CLPS", clps);
  const auto start = std::chrono::steady_clock::now();
  const Layout l = layout_of(f.bytes());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 2.0);
  ASSERT_TRUE(offset_of(l, "CLPS/clip[7]/body/seqcount"));
  EXPECT_FALSE(offset_of(l, "CLPS/clip[0]/body/frame[0]/bone[0]"));
}

}  // namespace
}  // namespace voxrig::testing
