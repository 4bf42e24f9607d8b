// RVC frame validation/decode (docs/spec/rvc.md#frame-decode, D8), hazards H6-H9 as clean limit errors,
// from_frames (D24), the update API (D3/D4) and frame_at (docs/spec/rkc-evaluation.md#rvc-playback).
#include <gtest/gtest.h>

#include <ctime>

#include "rvc_test_util.h"
#include "voxrig/rvc.h"
#include "voxrig/testing/alloc_counter.h"

using namespace rvctest;
using voxrig::decode_rvc;
using voxrig::RvcLoopMode;
using voxrig::RvcVoxelFrame;

namespace {

// dims [2,1,4] (2 columns, owpc 1). Decodes under rkc-strict and returns the code; the same
// bytes must always pass rkc-compat (the seed's parse-only verdict), and decode_rvc_frames must
// agree with the strict verdict.
std::string strict_code(const Bytes& frms, uint32_t n, std::array<uint32_t, 3> dims = {2, 1, 4}) {
  const Bytes f = file({chunk("META", meta(dims, n)), chunk("FRMS", frms)});
  EXPECT_TRUE(decode_rvc(f, 0, compat()).ok());
  auto r = decode_rvc(f, 0, strict());
  auto c = decode_rvc(f, 0, compat());
  if (c.ok()) {
    auto d = voxrig::decode_rvc_frames(c.value(), voxrig::Limits{});
    EXPECT_EQ(code_of_any(d), code_of(r)) << "decode_rvc_frames disagrees with the verdict";
  }
  return code_of(r);
}

// A valid 2-column key: column 0 has z=0 (one colour), column 1 has z=1,2 (two colours).
Bytes key2() { return key({0b1, 0b110}, {0, 1, 3}, {0xA, 0xB, 0xC}); }

// The hazard tests must be fast in the optimized build; unoptimized or sanitized builds only
// have to finish.
#if defined(__OPTIMIZE__) && !defined(__SANITIZE_ADDRESS__)
constexpr double kBudgetSeconds = 1.0;
#else
constexpr double kBudgetSeconds = 60.0;
#endif

// CPU time of this process (other helpers share the machine, so wall time is noisy).
double cpu_seconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

}  // namespace

TEST(RvcDecode, KeyValidationCodesInOrder) {
  EXPECT_EQ(strict_code(key2(), 1), "ok");
  EXPECT_EQ(strict_code(key({1}, {0, 1, 3}, {0xA, 0xB, 0xC}), 1), "rvc.frame.occupancy_len");
  // occupancy_len is checked before offsets_len.
  EXPECT_EQ(strict_code(key({1}, {0, 1}, {0xA}), 1), "rvc.frame.occupancy_len");
  EXPECT_EQ(strict_code(key({1, 6}, {0, 1}, {0xA}), 1), "rvc.frame.offsets_len");
  EXPECT_EQ(strict_code(key({1, 6}, {0, 1, 3, 3}, {0xA, 0xB, 0xC}), 1), "rvc.frame.offsets_len");
  EXPECT_EQ(strict_code(key({1, 6}, {1, 1, 3}, {0xA, 0xB, 0xC}), 1), "rvc.frame.offsets_bounds");
  EXPECT_EQ(strict_code(key({1, 6}, {0, 1, 2}, {0xA, 0xB, 0xC}), 1), "rvc.frame.offsets_bounds");
  // Column 0: hi 3 >= lo 0 but popcount 1 != 3 -> mismatch before column 1's decrease.
  EXPECT_EQ(strict_code(key({1, 6}, {0, 3, 2}, {0xA, 0xB}), 1),
            "rvc.frame.occupancy_color_mismatch");
  // Column 0 fine (popcount 3, run 3), column 1 decreases.
  EXPECT_EQ(strict_code(key({7, 0}, {0, 3, 2}, {0xA, 0xB}), 1), "rvc.frame.offsets_monotonic");
  EXPECT_EQ(strict_code(key({1, 7}, {0, 1, 3}, {0xA, 0xB, 0xC}), 1),
            "rvc.frame.occupancy_color_mismatch");
  // Stray bits at z >= dims[2] count (the seed's validator gap, H8): 0x10 is z = 4 with dims z 4.
  EXPECT_EQ(strict_code(key({0x11, 0b110}, {0, 2, 4}, {1, 2, 3, 4}), 1), "ok");
}

TEST(RvcDecode, ErrorPathsAndOffsets) {
  const Bytes frms = cat({key2(), key({1, 7}, {0, 1, 3}, {0xA, 0xB, 0xC})});
  const Bytes f = file({chunk("META", meta({2, 1, 4}, 2)), chunk("FRMS", frms)});
  auto r = decode_rvc(f, 10, strict());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(to_string(r.error().code), "rvc.frame.occupancy_color_mismatch");
  EXPECT_EQ(r.error().path, "FRMS/frame[1]/column[1]");
  EXPECT_EQ(r.error().offset, 10u + 6 + 46 + 9 + key2().size());  // frame 1's kind byte
  const Bytes g = file({chunk("META", meta({2, 1, 4}, 2)), chunk("FRMS", deflated(frms), 1)});
  r = decode_rvc(g, 10, strict());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().path, "FRMS/frame[1]/column[1]@inflated+" + std::to_string(key2().size()));
  EXPECT_EQ(r.error().offset, 10u + 6 + 46 + 9);
}

TEST(RvcDecode, DeltaRules) {
  const Bytes empty_delta = delta({});
  EXPECT_EQ(strict_code(empty_delta, 1), "rvc.delta_before_key");
  EXPECT_EQ(strict_code(cat({key2(), empty_delta, empty_delta}), 3), "ok");
  EXPECT_EQ(strict_code(cat({key2(), delta({{1, {0b1000}, {0xD}}})}), 2), "ok");
  EXPECT_EQ(strict_code(cat({key2(), delta({{2, {0}, {}}})}), 2), "rvc.column_out_of_range");
  EXPECT_EQ(strict_code(cat({key2(), delta({{0xFFFFFFFF, {0}, {}}})}), 2),
            "rvc.column_out_of_range");
  // A delta that breaks popcount is found only by the final re-validation ...
  const Bytes breaks = delta({{0, {0b11}, {0xE}}});
  EXPECT_EQ(strict_code(cat({key2(), breaks}), 2), "rvc.frame.occupancy_color_mismatch");
  // ... so a later stream error wins over it (stream errors first).
  EXPECT_EQ(strict_code(cat({key2(), breaks, empty_delta, delta({{5, {0}, {}}})}), 4),
            "rvc.column_out_of_range");
  EXPECT_EQ(strict_code(cat({key2(), breaks, key({1}, {0}, {})}), 3), "rvc.frame.occupancy_len");
  // ... and a later repair does not hide it (every rebuilt frame is re-validated).
  EXPECT_EQ(strict_code(cat({key2(), breaks, delta({{0, {0b1}, {0xE}}})}), 3),
            "rvc.frame.occupancy_color_mismatch");
  EXPECT_EQ(strict_code(cat({key2(), breaks, key2()}), 3), "rvc.frame.occupancy_color_mismatch");
  // A column listed twice: the last listing wins.
  EXPECT_EQ(strict_code(cat({key2(), delta({{0, {0b11}, {0xE}}, {0, {0b11}, {0xE, 0xF}}})}), 2),
            "ok");
  EXPECT_EQ(strict_code(cat({key2(), delta({{0, {0b11}, {0xE, 0xF}}, {0, {0b11}, {0xE}}})}), 2),
            "rvc.frame.occupancy_color_mismatch");
  // Empty stream.
  EXPECT_EQ(strict_code({}, 0), "ok");
}

TEST(RvcDecode, RevalidationNamesFirstBadFrameAndColumn) {
  const Bytes frms = cat({key2(), delta({}), delta({{1, {0b1}, {}}, {0, {0}, {0xE}}})});
  const Bytes f = file({chunk("META", meta({2, 1, 4}, 3)), chunk("FRMS", frms)});
  auto r = decode_rvc(f, 0, strict());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().path, "FRMS/frame[2]/column[0]");
}

TEST(RvcDecode, RebuildsFullFrames) {
  const Bytes frms = cat({key2(), delta({{1, {0b1001}, {0xD, 0xE}}}), delta({}),
                          delta({{0, {0}, {}}, {1, {0b1}, {0xF}}})});
  const Bytes f = file({chunk("META", meta({2, 1, 4}, 4, 0, 40)), chunk("FRMS", frms)});
  auto c = decode_rvc(f, 0, strict());
  ASSERT_TRUE(c.ok()) << c.error().to_text();
  auto d = voxrig::decode_rvc_frames(c.value(), voxrig::Limits{});
  ASSERT_TRUE(d.ok()) << d.error().to_text();
  ASSERT_EQ(d->frames.size(), 4u);
  EXPECT_EQ(d->frames[0], (RvcVoxelFrame{{0b1, 0b110}, {0, 1, 3}, {0xA, 0xB, 0xC}}));
  EXPECT_EQ(d->frames[1], (RvcVoxelFrame{{0b1, 0b1001}, {0, 1, 3}, {0xA, 0xD, 0xE}}));
  EXPECT_EQ(d->frames[2], d->frames[1]);
  EXPECT_EQ(d->frames[3], (RvcVoxelFrame{{0, 0b1}, {0, 0, 1}, {0xF}}));
  EXPECT_EQ(d->durations, (std::vector<uint32_t>{40, 40, 40, 40}));
  EXPECT_EQ(d->dims, (std::array<uint32_t, 3>{2, 1, 4}));
}

// ---- hazards: clean limit errors, fast -------------------------------------------------------

TEST(RvcHazards, H6HugeDimsNoFrames) {
  const double t0 = cpu_seconds();
  const Bytes f = file({chunk("META", meta({4096, 4096, 4096}, 0)), chunk("FRMS", {})});
  EXPECT_EQ(code_of(decode_rvc(f, 0, compat())), "ok");  // parse allocates nothing from dims
  auto r = decode_rvc(f, 0, strict());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(to_string(r.error().code), "rvc.limit.working_set");
  EXPECT_EQ(r.error().path, "META/dims");
  auto c = decode_rvc(f, 0, compat());
  EXPECT_EQ(code_of_any(voxrig::decode_rvc_frames(c.value(), voxrig::Limits{})),
            "rvc.limit.working_set");
  // A huge-dims clip built in memory (dims unchecked): saturating arithmetic, same error.
  voxrig::RvcClip h = c.value();
  h.meta.dims = {0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF};
  EXPECT_EQ(code_of_status(voxrig::validate_rvc_frames(h, voxrig::Limits{})),
            "rvc.limit.working_set");
  // The largest state that fits: 4096 x 4096 x 32 (64 MiB words + 64 MiB offsets) with no frames
  // is accepted without allocating.
  EXPECT_EQ(code_of(decode_rvc(file({chunk("META", meta({4096, 4096, 32}, 0)), chunk("FRMS", {})}),
                               0, strict())),
            "ok");
  EXPECT_LT(cpu_seconds() - t0, kBudgetSeconds);
}

TEST(RvcHazards, H7ManyCheapDeltas) {
  // dims 64x64x32: one frame = 4096 words + 4097 offsets (~32 KiB); 10^6 empty deltas after it.
  const uint32_t n = 1000000;
  Bytes frms = key(std::vector<uint32_t>(4096, 0), std::vector<uint32_t>(4097, 0), {});
  frms.reserve(frms.size() + size_t{5} * n);
  const Bytes empty = delta({});  // 01 00 00 00 00
  for (uint32_t i = 1; i < n; ++i) frms.insert(frms.end(), empty.begin(), empty.end());
  const Bytes f = file({chunk("META", meta({64, 64, 32}, n)), chunk("FRMS", deflated(frms), 1)});
  EXPECT_LT(f.size(), 20000u);  // a file of a few KB
  const double t0 = cpu_seconds();
  auto strict_r = decode_rvc(f, 0, strict());  // streaming validation: accepted, linear time
  EXPECT_EQ(code_of(strict_r), "ok");
  ASSERT_TRUE(strict_r.ok());
  // Materializing every frame would need ~32 GB: decode stops at the working-set limit (set to
  // 32 MiB here to keep the test cheap; the default 256 MiB behaves the same, 8x slower).
  voxrig::Limits l;
  l.rvc_working_set = 32 << 20;
  auto d = voxrig::decode_rvc_frames(strict_r.value(), l);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(to_string(d.error().code), "rvc.limit.working_set");
  EXPECT_LT(cpu_seconds() - t0, kBudgetSeconds);
}

TEST(RvcHazards, WorkingSetBoundary) {
  // dims [2,1,4]: one state is 4*2 + 4*3 = 20 bytes.
  voxrig::Limits l;
  l.rvc_working_set = 20;
  const Bytes f = file({chunk("META", meta({2, 1, 4}, 0)), chunk("FRMS", {})});
  auto c = decode_rvc(f, 0, compat());
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(code_of_status(voxrig::validate_rvc_frames(c.value(), l)), "ok");
  l.rvc_working_set = 19;
  EXPECT_EQ(code_of_status(voxrig::validate_rvc_frames(c.value(), l)), "rvc.limit.working_set");
}

// ---- D24: the seed test's clip via from_frames ----------------------------------------------

TEST(RvcFromFrames, SeedClip) {
  const RvcVoxelFrame frame{{1}, {0, 1}, {0x80112233}};
  voxrig::RvcClip clip = voxrig::rvc_from_frames({1, 1, 4}, {0.5f, 0.5f, 2.0f}, 1.0f,
                                                 RvcLoopMode::Loop, {&frame, 1}, {}, 33, 0);
  ASSERT_EQ(clip.chunks.size(), 2u);  // META, FRMS; no TIME
  EXPECT_EQ(std::string(clip.chunks[0].tag.data(), 4), "META");
  EXPECT_EQ(std::string(clip.chunks[1].tag.data(), 4), "FRMS");
  const Bytes meta_raw = meta({1, 1, 4}, 1, 0, 33);
  const Bytes frms_raw = seed_key();
  EXPECT_EQ(clip.chunks[0].inflated, meta_raw);
  EXPECT_EQ(clip.chunks[1].inflated, frms_raw);
  // D4: deflated (zlib level 8, raw) iff that saves more than the 4-byte raw_len.
  for (size_t i = 0; i < 2; ++i) {
    const Bytes& raw = clip.chunks[i].inflated;
    const Bytes z = raw_deflate(raw, 8);
    if (z.size() + 4 < raw.size()) {
      EXPECT_EQ(clip.chunks[i].flags, 1);
      EXPECT_EQ(clip.chunks[i].stored, cat({u32s({uint32_t(raw.size())}), z}));
    } else {
      EXPECT_EQ(clip.chunks[i].flags, 0);
      EXPECT_EQ(clip.chunks[i].stored, raw);
    }
  }
  auto bytes = voxrig::encode_rvc(clip);
  ASSERT_TRUE(bytes.ok());
  auto parsed = decode_rvc(bytes.value(), 0, strict());
  ASSERT_TRUE(parsed.ok()) << parsed.error().to_text();
  EXPECT_TRUE(parsed.value() == clip);
  EXPECT_TRUE(parsed->meta == clip.meta);
  EXPECT_EQ(parsed->frames, clip.frames);
  EXPECT_FALSE(parsed->has_time);
  EXPECT_EQ(voxrig::encode_rvc(parsed.value()).value(), bytes.value());
  auto d = voxrig::decode_rvc_frames(parsed.value(), voxrig::Limits{});
  ASSERT_TRUE(d.ok());
  ASSERT_EQ(d->frames.size(), 1u);
  EXPECT_EQ(d->frames[0], frame);
  EXPECT_EQ(d->durations, (std::vector<uint32_t>{33}));
}

TEST(RvcFromFrames, DeltasAndKeyInterval) {
  const RvcVoxelFrame f0{{0b1, 0b110}, {0, 1, 3}, {0xA, 0xB, 0xC}};
  const RvcVoxelFrame f1{{0b1, 0b1001}, {0, 1, 3}, {0xA, 0xD, 0xE}};
  const RvcVoxelFrame f2{{0b11, 0b1001}, {0, 2, 4}, {0xA, 0xF, 0xD, 0xE}};
  const RvcVoxelFrame bad{{1}, {0}, {}};  // wrong shape: stored as a key
  const std::vector<RvcVoxelFrame> frames{f0, f1, f2, f2, bad, f0};
  const std::vector<uint32_t> durations{1, 2, 3, 4, 5, 6};
  voxrig::RvcClip clip = voxrig::rvc_from_frames({2, 1, 4}, {0, 0, 0}, 0.25f, RvcLoopMode::PingPong,
                                                 frames, durations, 7, 3);
  ASSERT_EQ(clip.frames.size(), 6u);
  EXPECT_EQ(std::get<RvcVoxelFrame>(clip.frames.get(0)), f0);
  const auto d1 = std::get<voxrig::RvcDeltaFrame>(clip.frames.get(1));
  EXPECT_EQ(d1.cols, (std::vector<uint32_t>{1}));
  EXPECT_EQ(d1.occupancy, (std::vector<uint32_t>{0b1001}));
  EXPECT_EQ(d1.color_counts, (std::vector<uint32_t>{2}));
  EXPECT_EQ(d1.colors, (std::vector<uint32_t>{0xD, 0xE}));
  const auto d2 = std::get<voxrig::RvcDeltaFrame>(clip.frames.get(2));
  EXPECT_EQ(d2.cols, (std::vector<uint32_t>{0}));
  EXPECT_EQ(d2.colors, (std::vector<uint32_t>{0xA, 0xF}));
  EXPECT_EQ(std::get<RvcVoxelFrame>(clip.frames.get(3)), f2);   // 3 % 3 == 0: key
  EXPECT_EQ(std::get<RvcVoxelFrame>(clip.frames.get(4)), bad);  // cannot be diffed
  EXPECT_EQ(std::get<RvcVoxelFrame>(clip.frames.get(5)), f0);   // previous cannot be diffed
  ASSERT_EQ(clip.chunks.size(), 3u);
  EXPECT_EQ(clip.chunks[2].inflated, u32s({1, 2, 3, 4, 5, 6}));
  auto bytes = voxrig::encode_rvc(clip);
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ(code_of(decode_rvc(bytes.value(), 0, compat())), "ok");
  EXPECT_EQ(code_of(decode_rvc(bytes.value(), 0, strict())), "rvc.frame.occupancy_len");
  // Without the bad frame everything decodes back to the input frames.
  const std::vector<RvcVoxelFrame> good{f0, f1, f2, f2, f1};
  clip = voxrig::rvc_from_frames({2, 1, 4}, {0, 0, 0}, 1, RvcLoopMode::Once, good, {}, 7, 0);
  auto parsed = decode_rvc(voxrig::encode_rvc(clip).value(), 0, strict());
  ASSERT_TRUE(parsed.ok()) << parsed.error().to_text();
  auto dec = voxrig::decode_rvc_frames(parsed.value(), voxrig::Limits{});
  ASSERT_TRUE(dec.ok());
  EXPECT_EQ(dec->frames, good);
  EXPECT_TRUE(!clip.frames.is_key(3));
  EXPECT_TRUE(std::get<voxrig::RvcDeltaFrame>(clip.frames.get(3)).cols.empty());  // f2 -> f2
}

TEST(RvcUpdate, EditingReencodesAndDropsEarlierDuplicates) {
  const Bytes f = file({chunk("META", meta({1, 1, 4}, 1, 9)), chunk("XTRA", {5}),
                        chunk("META", meta({1, 1, 4}, 1)), chunk("FRMS", seed_key())});
  auto r = decode_rvc(f, 0, compat());
  ASSERT_TRUE(r.ok());
  voxrig::RvcClip c = r.value();
  c.meta.default_frame_ms = 99;
  ASSERT_TRUE(voxrig::rvc_update_meta(c).ok());
  ASSERT_EQ(c.chunks.size(), 3u);  // the earlier META is gone; the edited one stays in place
  EXPECT_EQ(std::string(c.chunks[0].tag.data(), 4), "XTRA");
  EXPECT_EQ(std::string(c.chunks[1].tag.data(), 4), "META");
  EXPECT_EQ(c.chunks[1].inflated, meta({1, 1, 4}, 1, 0, 99));
  // Adding TIME puts it after FRMS; removing it drops it again.
  c.durations = {12};
  ASSERT_TRUE(voxrig::rvc_update_time(c).ok());
  ASSERT_EQ(c.chunks.size(), 4u);
  EXPECT_EQ(std::string(c.chunks[3].tag.data(), 4), "TIME");
  auto again = decode_rvc(voxrig::encode_rvc(c).value(), 0, strict());
  ASSERT_TRUE(again.ok()) << again.error().to_text();
  EXPECT_EQ(again->meta.default_frame_ms, 99u);
  EXPECT_EQ(again->durations, (std::vector<uint32_t>{12}));
  // Frames: frame_count follows, META is re-encoded.
  c.frames.push_back(voxrig::RvcDeltaFrame{});
  c.durations = {12, 13};
  ASSERT_TRUE(voxrig::rvc_update_frames(c).ok());
  ASSERT_TRUE(voxrig::rvc_update_time(c).ok());
  EXPECT_EQ(c.meta.frame_count, 2u);
  again = decode_rvc(voxrig::encode_rvc(c).value(), 0, strict());
  ASSERT_TRUE(again.ok()) << again.error().to_text();
  EXPECT_EQ(again->frames.size(), 2u);
  // An inconsistent hand-built delta cannot be written.
  c.frames.push_back(voxrig::RvcDeltaFrame{{0}, {}, {0}, {}});
  EXPECT_EQ(code_of_status(voxrig::rvc_update_frames(c)), "rvc.write.unrepresentable");
  // ... and decode reports it as a column error, never reading out of bounds.
  EXPECT_EQ(code_of_status(voxrig::validate_rvc_frames(c, voxrig::Limits{})),
            "rvc.column_out_of_range");
  c.has_time = false;
  c.durations.clear();
  ASSERT_TRUE(voxrig::rvc_update_time(c).ok());
  for (const auto& ch : c.chunks) EXPECT_NE(std::string(ch.tag.data(), 4), "TIME");
}

// ---- docs/spec/rkc-evaluation.md#rvc-playback frame_at ----------------------------------------------------------------------------

TEST(RvcFrameAt, SeedTable) {
  const std::vector<uint32_t> d{10, 10, 10};
  using voxrig::rvc_frame_at;
  EXPECT_EQ(rvc_frame_at(d, RvcLoopMode::Loop, 0), 0u);
  EXPECT_EQ(rvc_frame_at(d, RvcLoopMode::Loop, 9), 0u);
  EXPECT_EQ(rvc_frame_at(d, RvcLoopMode::Loop, 10), 1u);
  EXPECT_EQ(rvc_frame_at(d, RvcLoopMode::Loop, 25), 2u);
  EXPECT_EQ(rvc_frame_at(d, RvcLoopMode::Loop, 30), 0u);
  EXPECT_EQ(rvc_frame_at(d, RvcLoopMode::Loop, 45), 1u);
  EXPECT_EQ(rvc_frame_at(d, RvcLoopMode::Once, 1000), 2u);
  EXPECT_EQ(rvc_frame_at(d, RvcLoopMode::PingPong, 35), 2u);
  EXPECT_EQ(rvc_frame_at(d, RvcLoopMode::PingPong, 55), 0u);
  EXPECT_EQ(rvc_frame_at(std::vector<uint32_t>{}, RvcLoopMode::Loop, 5), 0u);
  EXPECT_EQ(rvc_frame_at(std::vector<uint32_t>{7}, RvcLoopMode::Loop, 5), 0u);
  EXPECT_EQ(rvc_frame_at(std::vector<uint32_t>{0, 0, 0}, RvcLoopMode::Loop, 5), 0u);
  // Zero-length frames are never shown; no overflow at the extremes.
  EXPECT_EQ(rvc_frame_at(std::vector<uint32_t>{5, 0, 5}, RvcLoopMode::Loop, 5), 2u);
  const std::vector<uint32_t> big{0xFFFFFFFF, 0xFFFFFFFF};
  EXPECT_EQ(rvc_frame_at(big, RvcLoopMode::PingPong, UINT64_MAX), 1u);
  EXPECT_EQ(rvc_frame_at(big, RvcLoopMode::Once, UINT64_MAX), 1u);
}

// ---- memory: RvcFrames (rvc.h "Memory") ------------------------------------------------------

// 2^20 declared frames (one key, then empty deltas: 5 stored bytes each) cost at most the
// inflated FRMS + RvcFrames::kOverheadBytes per frame, not a ~100-byte record per frame.
TEST(RvcMemory, EmptyDeltaBombIsBoundedByStoredBytes) {
  const uint32_t n = uint32_t{1} << 20;
  Bytes frms = seed_key();
  frms.reserve(frms.size() + size_t{5} * n);
  for (uint32_t i = 1; i < n; ++i) put_bytes(frms, Bytes{1, 0, 0, 0, 0});
  const Bytes f = file({chunk("META", meta({1, 1, 4}, n)), chunk("FRMS", deflated(frms, 9), 1)});
  voxrig::testing::heap_reset_peak();
  auto r = voxrig::decode_rvc(f, 0, strict());
  const size_t peak = voxrig::testing::heap_peak_growth();
  ASSERT_TRUE(r.ok()) << r.error().to_text();
  ASSERT_EQ(r->frames.size(), n);
  const uint64_t frames_bound = frms.size() + voxrig::RvcFrames::kOverheadBytes * uint64_t{n};
  EXPECT_LE(r->frames.memory_bytes(), frames_bound);
  // The whole decode: the stored and inflated chunks, the frames and the validator's state.
  EXPECT_LE(peak, f.size() * 2 + frms.size() + frames_bound + (size_t{1} << 20)) << peak;
  // Error offsets still name each frame's kind byte (D12): frame 1 starts after the key.
  EXPECT_EQ(r->frames.stored_offset(0), 0u);
  EXPECT_EQ(r->frames.stored_offset(1), seed_key().size());
  EXPECT_EQ(r->frames.stored_offset(n - 1), seed_key().size() + size_t{5} * (n - 2));
}

// The views and the owning copies agree; set() replaces one frame; equality is per frame.
TEST(RvcMemory, FramesViewsAndEdits) {
  voxrig::RvcFrames a;
  const voxrig::RvcVoxelFrame k{{1, 2}, {0, 1, 2}, {7, 8}};
  const voxrig::RvcDeltaFrame d{{0, 3}, {5, 6}, {1, 0}, {9}};
  a.push_back(k);
  a.push_back(d);
  ASSERT_EQ(a.size(), 2u);
  EXPECT_TRUE(a.is_key(0));
  EXPECT_FALSE(a.is_key(1));
  EXPECT_EQ(std::get<voxrig::RvcVoxelFrame>(a.get(0)), k);
  EXPECT_EQ(std::get<voxrig::RvcDeltaFrame>(a.get(1)), d);
  EXPECT_EQ(a.stored_offset(1), 1 + 4 * (3 + 2 + 3 + 2));
  EXPECT_EQ(a.stored_offset(2), a.stored_offset(1) + 1 + 4 * (1 + 2 * (1 + 1 + 1)) + 4);
  voxrig::RvcFrames b = a;
  EXPECT_TRUE(a == b);
  b.set(0, voxrig::RvcDeltaFrame{});
  EXPECT_FALSE(a == b);
  EXPECT_FALSE(b.is_key(0));
  EXPECT_EQ(std::get<voxrig::RvcDeltaFrame>(b.get(1)), d);
  b.set(0, k);
  EXPECT_TRUE(a == b);
}
