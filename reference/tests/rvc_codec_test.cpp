// RVC framing, inflation, META / FRMS / TIME parse and the as-stored writer (docs/spec/
// docs/spec/rvc.md#file-framing, docs/spec/rkch.md#DIFF-4, D1/D3/D12). Every input is built by hand with
// rvc_test_util.h.
#include <gtest/gtest.h>

#include <memory>

#include "rvc_test_util.h"
#include "voxrig/rvc.h"

using namespace rvctest;
using voxrig::decode_rvc;
using voxrig::encode_rvc;

namespace {

// Parses `bytes` under `opt`; on success also checks the writer gives the input back exactly.
std::string parse(const Bytes& bytes, const voxrig::DecodeOptions& opt = compat()) {
  auto r = decode_rvc(bytes, 0, opt);
  if (r.ok()) {
    auto w = encode_rvc(r.value());
    EXPECT_TRUE(w.ok());
    if (w.ok()) {
      EXPECT_EQ(w.value(), bytes) << "round trip not byte-identical";
    }
  }
  return code_of(r);
}

Bytes frms1() { return seed_key(); }

// A deflated chunk payload of 64 MiB of zeros (made once: deflating it takes a moment).
const Bytes& sixty_four_mib_zeros() {
  static const Bytes b = [] {
    const Bytes zeros(size_t{64} << 20, 0);
    Bytes p = u32s({uint32_t(zeros.size())});
    put_bytes(p, raw_deflate(zeros, 1, Z_RLE));  // RLE: the fastest way to squeeze zeros
    return p;
  }();
  return b;
}
Bytes meta1() { return meta({1, 1, 4}, 1); }

}  // namespace

// ---- header ---------------------------------------------------------------------------------

TEST(RvcParse, Header) {
  EXPECT_EQ(parse(Bytes{}), "rvc.truncated");
  EXPECT_EQ(parse(Bytes{'R', 'V', 'C'}), "rvc.truncated");
  EXPECT_EQ(parse(Bytes{'R', 'V', 'C', 'X', 2, 0}), "rvc.bad_magic");
  EXPECT_EQ(parse(Bytes{'R', 'V', 'C', 'L'}), "rvc.truncated");
  EXPECT_EQ(parse(Bytes{'R', 'V', 'C', 'L', 2}), "rvc.truncated");
  EXPECT_EQ(parse(Bytes{'R', 'V', 'C', 'L', 3, 0}), "rvc.unsupported_version");
  EXPECT_EQ(parse(Bytes{'R', 'V', 'C', 'L', 0, 0}), "rvc.unsupported_version");
  EXPECT_EQ(parse(Bytes{'R', 'V', 'C', 'L', 2, 1}), "rvc.unsupported_version");
  // No chunks at all: META is missing first.
  EXPECT_EQ(parse(Bytes{'R', 'V', 'C', 'L', 2, 0}), "rvc.missing_chunk.meta");
  auto r = decode_rvc(Bytes{'R', 'V', 'C', 'L', 9, 0}, 100, compat());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().offset, 104u);  // absolute: base + 4
}

TEST(RvcParse, ValidSmallClipViews) {
  auto r = decode_rvc(small_clip(), 0, strict());
  ASSERT_TRUE(r.ok()) << r.error().to_text();
  const voxrig::RvcClip& c = r.value();
  EXPECT_EQ(c.version, 2);
  ASSERT_EQ(c.chunks.size(), 3u);
  EXPECT_EQ(c.meta.dims, (std::array<uint32_t, 3>{1, 1, 4}));
  EXPECT_EQ(std::bit_cast<uint32_t>(c.meta.pivot[2]), 0x40000000u);  // 2.0f
  EXPECT_EQ(c.meta.loop_mode, voxrig::RvcLoopMode::Loop);
  EXPECT_EQ(c.meta.default_frame_ms, 33u);
  EXPECT_EQ(c.meta.frame_count, 2u);
  ASSERT_EQ(c.frames.size(), 2u);
  const auto k = std::get<voxrig::RvcVoxelFrame>(c.frames.get(0));
  EXPECT_EQ(k.occupancy, (std::vector<uint32_t>{1}));
  EXPECT_EQ(k.color_offsets, (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(k.colors, (std::vector<uint32_t>{0x80112233}));
  const auto d = std::get<voxrig::RvcDeltaFrame>(c.frames.get(1));
  EXPECT_EQ(d.cols, (std::vector<uint32_t>{0}));
  EXPECT_EQ(d.occupancy, (std::vector<uint32_t>{3}));
  EXPECT_EQ(d.color_counts, (std::vector<uint32_t>{2}));
  EXPECT_EQ(d.colors, (std::vector<uint32_t>{0x80010203, 0x80040506}));
  EXPECT_TRUE(c.has_time);
  EXPECT_EQ(c.durations, (std::vector<uint32_t>{10, 20}));
  EXPECT_EQ(parse(small_clip(), strict()), "ok");
}

// ---- chunk framing ----------------------------------------------------------------------------

TEST(RvcParse, ChunkTruncation) {
  const Bytes good = file({chunk("META", meta1()), chunk("FRMS", frms1())});
  EXPECT_EQ(parse(good), "ok");
  Bytes partial_tag = good;
  partial_tag.insert(partial_tag.end(), {'T', 'I'});
  EXPECT_EQ(parse(partial_tag), "rvc.truncated");
  Bytes no_flags = good;
  put_tag(no_flags, "TIME");
  EXPECT_EQ(parse(no_flags), "rvc.truncated");
  Bytes short_len = no_flags;
  short_len.insert(short_len.end(), {0, 4, 0});
  EXPECT_EQ(parse(short_len), "rvc.truncated");
  Bytes short_payload = good;
  put_tag(short_payload, "TIME");
  put_bytes(short_payload, LeBytes().u8(0).u32(8).u32(10).bytes());
  auto r = decode_rvc(short_payload, 0, compat());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(to_string(r.error().code), "rvc.truncated");
  EXPECT_EQ(r.error().offset, good.size() + 9);  // the payload read
}

TEST(RvcParse, MissingChunks) {
  EXPECT_EQ(parse(file({chunk("FRMS", frms1())})), "rvc.missing_chunk.meta");
  EXPECT_EQ(parse(file({chunk("META", meta1())})), "rvc.missing_chunk.frms");
  EXPECT_EQ(parse(file({chunk("XTRA", {1, 2})})), "rvc.missing_chunk.meta");
  // Missing chunks are found before any payload is decoded: a bad META does not matter yet.
  EXPECT_EQ(parse(file({chunk("META", Bytes{1})})), "rvc.missing_chunk.frms");
}

// ---- inflation --------------------------------------------------------------------------------

TEST(RvcParse, DeflatedChunksDecode) {
  const Bytes f = file({chunk("META", deflated(meta1()), 1), chunk("FRMS", deflated(frms1()), 1),
                        chunk("TIME", deflated(u32s({7})), 1)});
  auto r = decode_rvc(f, 0, strict());
  ASSERT_TRUE(r.ok()) << r.error().to_text();
  EXPECT_EQ(r->meta.frame_count, 1u);
  EXPECT_EQ(r->durations, (std::vector<uint32_t>{7}));
  EXPECT_EQ(r->chunks[0].inflated, meta1());
  EXPECT_EQ(parse(f), "ok");
}

TEST(RvcParse, BadDeflate) {
  auto with_meta = [](const Bytes& meta_payload) {
    return file({chunk("META", meta_payload, 1), chunk("FRMS", frms1())});
  };
  EXPECT_EQ(parse(with_meta(Bytes{37, 0, 0})), "rvc.bad_deflate");  // < 4 bytes
  EXPECT_EQ(parse(with_meta(Bytes{})), "rvc.bad_deflate");
  Bytes garbage = u32s({37});
  garbage.insert(garbage.end(), {0xFF, 0xFF, 0xFF, 0xFF});  // reserved block type 3
  EXPECT_EQ(parse(with_meta(garbage)), "rvc.bad_deflate");
  Bytes cut = deflated(meta1());
  cut.resize(cut.size() - 2);  // stream ends early
  EXPECT_EQ(parse(with_meta(cut)), "rvc.bad_deflate");
  Bytes longer = deflated(meta1());
  longer[0] = 36;  // stream gives 37 > raw_len
  EXPECT_EQ(parse(with_meta(longer)), "rvc.bad_deflate");
  Bytes shorter = deflated(meta1());
  shorter[0] = 38;  // stream gives 37 < raw_len
  EXPECT_EQ(parse(with_meta(shorter)), "rvc.bad_deflate");
  EXPECT_EQ(parse(with_meta(deflated(meta1()))), "ok");
  // raw_len over the 64 MiB cap: rejected from the declared length, before inflating.
  Bytes huge = deflated(meta1());
  huge[0] = 1;
  huge[1] = 0;
  huge[2] = 0;
  huge[3] = 4;  // 64 MiB + 1
  EXPECT_EQ(parse(with_meta(huge)), "rvc.bad_deflate");
  // Flags other than bit 0 do not mean deflated.
  EXPECT_EQ(parse(file({chunk("META", meta1(), 0xFE), chunk("FRMS", frms1(), 0x80)})), "ok");
}

TEST(RvcParse, BadDeflateOffsetIsThePayload) {
  Bytes f = file({chunk("XTRA", Bytes{1, 0, 0, 0, 0xFF}, 1)});
  auto r = decode_rvc(f, 1000, compat());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(to_string(r.error().code), "rvc.bad_deflate");
  EXPECT_EQ(r.error().offset, 1000u + 6 + 9);
  EXPECT_EQ(r.error().path, "chunk[0]");
}

TEST(RvcParse, PerChunkCapBoundary) {
  voxrig::DecodeOptions o = compat();
  o.limits.rvc_inflated_per_chunk = 37;
  const Bytes ok = file({chunk("META", deflated(meta1()), 1), chunk("FRMS", frms1())});
  EXPECT_EQ(parse(ok, o), "ok");  // exactly the cap is allowed
  o.limits.rvc_inflated_per_chunk = 36;
  EXPECT_EQ(parse(ok, o), "rvc.bad_deflate");  // over it is `bad`, as the seed
}

TEST(RvcParse, ExactlySixtyFourMiBInflates) {
  const Bytes f = file(
      {chunk("XTRA", sixty_four_mib_zeros(), 1), chunk("META", meta1()), chunk("FRMS", frms1())});
  auto r = decode_rvc(f, 0, compat());
  ASSERT_TRUE(r.ok()) << r.error().to_text();
  EXPECT_EQ(r->chunks[0].inflated.size(), size_t{64} << 20);
}

TEST(RvcParse, EveryChunkIsInflatedDuringTheScan) {
  // A broken unknown chunk, or a broken earlier duplicate, fails the parse before MissingChunk.
  const Bytes bad = Bytes{5, 0, 0, 0, 0xFF};
  EXPECT_EQ(parse(file({chunk("XTRA", bad, 1)})), "rvc.bad_deflate");
  EXPECT_EQ(parse(file({chunk("META", bad, 1), chunk("META", meta1()), chunk("FRMS", frms1())})),
            "rvc.bad_deflate");
}

TEST(RvcParse, InflatedTotalLimit) {
  voxrig::DecodeOptions o = compat();
  // The budget holds the inflated payloads and the parsed frame table (RvcFrames' reservation:
  // 8 bytes of index per frame, 4 per FRMS u32 and 12 per frame of lengths; one frame here).
  const uint64_t table = 8 + 4 * (frms1().size() / 4 + 3);
  o.limits.rvc_inflated_total = (4 << 20) + table;
  const Bytes mib = deflated(Bytes(size_t{1} << 20, 0));
  auto build = [&](int n) {
    Bytes f = file({chunk("META", meta1()), chunk("FRMS", frms1())});
    for (int i = 0; i < n; ++i) put_bytes(f, chunk("XTRA", mib, 1));
    return f;
  };
  EXPECT_EQ(parse(build(4), o), "ok");  // exactly the limit
  o.limits.rvc_inflated_total -= 1;     // the chunks fit, the frame table does not
  auto t = decode_rvc(build(4), 0, o);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(to_string(t.error().code), "rvc.limit.inflated_total");
  EXPECT_EQ(t.error().path, "FRMS");
  auto r = decode_rvc(build(5), 0, o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(to_string(r.error().code), "rvc.limit.inflated_total");
  EXPECT_EQ(r.error().path, "chunk[6]");
  // Default per-chunk cap, total 100 MiB: after a real 64 MiB chunk, a second chunk declaring
  // 64 MiB is refused from its declared raw_len, before anything is inflated or allocated.
  o.limits.rvc_inflated_total = 100 << 20;
  Bytes decl = deflated(Bytes(16, 0));
  decl[0] = 0;
  decl[1] = 0;
  decl[2] = 0;
  decl[3] = 4;  // raw_len 64 MiB (the stream gives 16)
  const Bytes f = file({chunk("META", meta1()), chunk("FRMS", frms1()),
                        chunk("XTRA", sixty_four_mib_zeros(), 1), chunk("XTRA", decl, 1)});
  r = decode_rvc(f, 0, o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(to_string(r.error().code), "rvc.limit.inflated_total");
  EXPECT_EQ(r.error().path, "chunk[3]");
}

// ---- META -------------------------------------------------------------------------------------

TEST(RvcParse, Meta) {
  auto with = [](const Bytes& m, const Bytes& frms = frms1()) {
    return file({chunk("META", m), chunk("FRMS", frms)});
  };
  Bytes m36 = meta1();
  m36.pop_back();
  EXPECT_EQ(parse(with(m36)), "rvc.truncated");
  EXPECT_EQ(parse(with(meta({1, 1, 4}, 1, 3))), "rvc.bad_loop_mode");
  EXPECT_EQ(parse(with(meta({1, 1, 4}, 1, 255))), "rvc.bad_loop_mode");
  EXPECT_EQ(parse(with(meta({1, 1, 4}, 1, 2))), "ok");
  EXPECT_EQ(parse(with(meta({0, 1, 4}, 1))), "rvc.zero_dims");
  EXPECT_EQ(parse(with(meta({1, 1, 0}, 1))), "rvc.zero_dims");
  EXPECT_EQ(parse(with(meta({4097, 1, 4}, 1))), "rvc.limit.dims");
  EXPECT_EQ(parse(with(meta({1, 4097, 4}, 1))), "rvc.limit.dims");
  EXPECT_EQ(parse(with(meta({1, 1, 0xFFFFFFFF}, 1))), "rvc.limit.dims");
  EXPECT_EQ(parse(with(meta({4096, 4096, 4096}, 0), Bytes{})), "ok");  // compat: parse only
  // Per axis in byte order: x over the limit is reported before y = 0.
  EXPECT_EQ(parse(with(meta({5000, 0, 4}, 1))), "rvc.limit.dims");
  // Dims are checked as they are read, before a bad loop mode further on.
  EXPECT_EQ(parse(with(meta({0, 1, 4}, 1, 9))), "rvc.zero_dims");
  // Bytes after 37 are ignored (and kept in the chunk).
  Bytes m38 = meta1();
  m38.push_back(0xAB);
  EXPECT_EQ(parse(with(m38)), "ok");
}

TEST(RvcParse, MetaErrorOffsets) {
  const Bytes raw = file({chunk("META", meta({1, 1, 4}, 1, 7)), chunk("FRMS", frms1())});
  auto r = decode_rvc(raw, 0, compat());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().offset, 6u + 9 + 28);  // the loop_mode byte itself
  EXPECT_EQ(r.error().path, "META/loop_mode");
  const Bytes def =
      file({chunk("META", deflated(meta({1, 1, 4}, 1, 7)), 1), chunk("FRMS", frms1())});
  r = decode_rvc(def, 50, compat());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(to_string(r.error().code), "rvc.bad_loop_mode");
  EXPECT_EQ(r.error().offset, 50u + 6 + 9);  // the chunk's payload offset (D12)
  EXPECT_EQ(r.error().path, "META/loop_mode@inflated+28");
}

TEST(RvcParse, FrameCountLimit) {
  voxrig::DecodeOptions o = compat();
  o.limits.rvc_frames = 2;
  const Bytes two = cat({seed_key(), seed_key()});
  EXPECT_EQ(parse(file({chunk("META", meta({1, 1, 4}, 2)), chunk("FRMS", two)}), o), "ok");
  EXPECT_EQ(parse(file({chunk("META", meta({1, 1, 4}, 3)), chunk("FRMS", two)}), o),
            "rvc.limit.frames");
  // Default limit 2^20: a count above it is a limit error, fast, whatever FRMS holds.
  EXPECT_EQ(parse(file({chunk("META", meta({1, 1, 4}, (1u << 20) + 1)), chunk("FRMS", {})})),
            "rvc.limit.frames");
  EXPECT_EQ(parse(file({chunk("META", meta({1, 1, 4}, 0xFFFFFFFF)), chunk("FRMS", {})})),
            "rvc.limit.frames");
}

// ---- FRMS -------------------------------------------------------------------------------------

TEST(RvcParse, Frms) {
  auto with = [](uint32_t n, const Bytes& frms, std::array<uint32_t, 3> dims = {1, 1, 4}) {
    return file({chunk("META", meta(dims, n)), chunk("FRMS", frms)});
  };
  EXPECT_EQ(parse(with(1, Bytes{2})), "rvc.bad_frame_kind");
  EXPECT_EQ(parse(with(1, Bytes{0xFF})), "rvc.bad_frame_kind");
  EXPECT_EQ(parse(with(1, Bytes{})), "rvc.truncated");
  EXPECT_EQ(parse(with(2, seed_key())), "rvc.truncated");  // fewer frames
  EXPECT_EQ(parse(with(0, Bytes{})), "ok");                // empty stream
  EXPECT_EQ(parse(with(0, Bytes{9, 9, 9})), "ok");         // bytes after: ignored
  EXPECT_EQ(parse(with(1, cat({seed_key(), Bytes{2, 2}}))), "ok");
  // Huge array counts: checked against the remaining bytes, never reserved.
  EXPECT_EQ(parse(with(1, cat({Bytes{0}, u32s({0xFFFFFFFF})}))), "rvc.truncated");
  EXPECT_EQ(parse(with(1, cat({Bytes{0}, u32s({0, 0xFFFFFFFF})}))), "rvc.truncated");
  EXPECT_EQ(parse(with(1, cat({Bytes{0}, u32s({0, 0, 0x40000000})}))), "rvc.truncated");
  EXPECT_EQ(parse(with(1, cat({Bytes{1}, u32s({0xFFFFFFFF})}))), "rvc.truncated");
  // Frame shape is not checked at parse: a garbage key and a leading delta parse fine.
  EXPECT_EQ(parse(with(1, key({7, 7, 7}, {5}, {}))), "ok");
  EXPECT_EQ(parse(with(1, delta({{99, {1}, {1, 2, 3}}}))), "ok");
  // Delta occupancy word count = owpc from META dims (dims z 33 -> 2 words, no count prefix).
  const Bytes d2 = delta({{0, {1, 5}, {}}});
  EXPECT_EQ(parse(with(1, d2, {1, 1, 33})), "ok");
  EXPECT_EQ(parse(with(1, d2, {1, 1, 32})), "rvc.truncated");  // 1 word: 5 read as a count
  // A frame error beats nothing in TIME; META errors come first.
  EXPECT_EQ(parse(file({chunk("META", meta({1, 1, 4}, 1, 5)), chunk("FRMS", Bytes{2})})),
            "rvc.bad_loop_mode");
}

TEST(RvcParse, FrmsErrorOffsets) {
  const Bytes frms = cat({seed_key(), Bytes{7}});
  const Bytes raw = file({chunk("META", meta({1, 1, 4}, 2)), chunk("FRMS", frms)});
  auto r = decode_rvc(raw, 0, compat());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(to_string(r.error().code), "rvc.bad_frame_kind");
  const uint64_t frms_payload = 6 + 9 + 37 + 9;
  EXPECT_EQ(r.error().offset, frms_payload + seed_key().size());
  EXPECT_EQ(r.error().path, "FRMS/frame[1]/kind");
  const Bytes def = file({chunk("META", meta({1, 1, 4}, 2)), chunk("FRMS", deflated(frms), 1)});
  r = decode_rvc(def, 0, compat());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().offset, frms_payload);
  EXPECT_EQ(r.error().path, "FRMS/frame[1]/kind@inflated+" + std::to_string(seed_key().size()));
}

// ---- TIME -------------------------------------------------------------------------------------

TEST(RvcParse, Time) {
  auto with = [](const Bytes& time, uint32_t n = 2) {
    return file({chunk("META", meta({1, 1, 4}, n)),
                 chunk("FRMS", n == 2 ? cat({seed_key(), seed_key()}) : Bytes{}),
                 chunk("TIME", time)});
  };
  EXPECT_EQ(parse(with(u32s({1, 2}))), "ok");
  EXPECT_EQ(parse(with(u32s({1}))), "rvc.truncated");
  EXPECT_EQ(parse(with(cat({u32s({1}), Bytes{2, 0, 0}}))), "rvc.truncated");
  EXPECT_EQ(parse(with(u32s({1, 2, 3}))), "ok");       // extra ignored
  EXPECT_EQ(parse(with(u32s({0, 0}))), "ok");          // zero durations allowed
  auto r = decode_rvc(with(Bytes{}, 0), 0, compat());  // TIME with 0 frames
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->has_time);
  EXPECT_TRUE(r->durations.empty());
  EXPECT_EQ(parse(with(Bytes{}, 0)), "ok");
  // FRMS errors come before TIME errors.
  EXPECT_EQ(parse(file({chunk("META", meta({1, 1, 4}, 1)), chunk("FRMS", Bytes{3}),
                        chunk("TIME", Bytes{})})),
            "rvc.bad_frame_kind");
}

TEST(RvcParse, LastKnownChunkWins) {
  const Bytes f = file({chunk("META", meta({1, 1, 4}, 1, 9)),  // bad, but not the last
                        chunk("FRMS", Bytes{0xEE}),            // bad, but not the last
                        chunk("TIME", Bytes{}), chunk("META", meta({1, 1, 4}, 1, 1)),
                        chunk("FRMS", frms1()), chunk("TIME", u32s({44}))});
  auto r = decode_rvc(f, 0, strict());
  ASSERT_TRUE(r.ok()) << r.error().to_text();
  EXPECT_EQ(r->meta.loop_mode, voxrig::RvcLoopMode::Once);
  EXPECT_EQ(r->durations, (std::vector<uint32_t>{44}));
  EXPECT_EQ(r->chunks.size(), 6u);  // every chunk kept (D3)
  EXPECT_EQ(parse(f), "ok");
}

// ---- round trips: the seed's docs/spec/rvc.md#writer-and-round-trip non-byte-exact cases are byte-exact here -------------------

TEST(RvcRoundTrip, SeedNonExactCasesAreExact) {
  const Bytes k = frms1();
  // 1. v1 input.
  EXPECT_EQ(parse(file({chunk_v1("META", meta1()), chunk_v1("FRMS", k)}, 1), strict()), "ok");
  // 2. Extra flag bits, raw and deflated.
  EXPECT_EQ(parse(file({chunk("META", meta1(), 0x80), chunk("FRMS", deflated(k), 0x03)})), "ok");
  // 3. A raw chunk that would shrink; a deflated chunk that does not.
  EXPECT_EQ(
      parse(file({chunk("META", cat({meta1(), Bytes(200, 0)})), chunk("FRMS", deflated(k), 1)})),
      "ok");
  // 4. Foreign deflate streams: stored blocks, level 1, level 9, fixed Huffman.
  for (int level : {0, 1, 9})
    EXPECT_EQ(parse(file({chunk("META", deflated(meta1(), level), 1), chunk("FRMS", k)})), "ok");
  Bytes fixed = u32s({37});
  put_bytes(fixed, raw_deflate(meta1(), 8, Z_FIXED));
  EXPECT_EQ(parse(file({chunk("META", fixed, 1), chunk("FRMS", k)})), "ok");
  // 5. Junk after the final deflate block.
  EXPECT_EQ(parse(file({chunk("META", deflated(meta1(), 8, {1, 2, 3}), 1), chunk("FRMS", k)})),
            "ok");
  // 6 + 7. Duplicates and non-canonical order (unknown first, TIME first).
  EXPECT_EQ(parse(file({chunk("XTRA", {1}), chunk("TIME", u32s({5})), chunk("FRMS", k),
                        chunk("META", meta1()), chunk("META", meta1()), chunk("FRMS", k)})),
            "ok");
  // 8. TIME with frame_count 0.
  EXPECT_EQ(parse(file({chunk("META", meta({1, 1, 4}, 0)), chunk("FRMS", {}), chunk("TIME", {})})),
            "ok");
  // 9. Trailing bytes inside META, FRMS and TIME.
  EXPECT_EQ(parse(file({chunk("META", cat({meta1(), Bytes{1}})), chunk("FRMS", cat({k, Bytes{2}})),
                        chunk("TIME", u32s({1, 2}))})),
            "ok");
  // 10. Unknown chunks compressed by another encoder; tags with any bytes.
  EXPECT_EQ(parse(file({chunk("META", meta1()), chunk("FRMS", k),
                        chunk("\x01\xFF z", deflated(Bytes(100, 7), 9), 1)})),
            "ok");
  // Trailing bytes after the last chunk are not allowed: they are a partial chunk header.
  Bytes extra = file({chunk("META", meta1()), chunk("FRMS", k)});
  extra.push_back(0);
  EXPECT_EQ(parse(extra), "rvc.truncated");
}

TEST(RvcRoundTrip, EveryStrictPrefixFailsCleanly) {
  // FRMS last, so no prefix that ends on a chunk boundary is itself a valid file.
  const Bytes f = file({chunk("XTRA", deflated(Bytes(64, 1)), 1), chunk("TIME", u32s({3, 4})),
                        chunk("META", deflated(meta({1, 1, 4}, 2)), 1),
                        chunk("FRMS", deflated(cat({seed_key(), delta({{0, {0}, {}}})})), 1)});
  ASSERT_EQ(parse(f, strict()), "ok");
  for (size_t n = 0; n < f.size(); ++n) {
    std::unique_ptr<uint8_t[]> copy(new uint8_t[n == 0 ? 1 : n]);
    std::copy(f.begin(), f.begin() + static_cast<std::ptrdiff_t>(n), copy.get());
    auto r = decode_rvc(std::span<const uint8_t>(copy.get(), n), 0, strict());
    ASSERT_FALSE(r.ok()) << "prefix " << n;
    const std::string c(to_string(r.error().code));
    EXPECT_TRUE(c == "rvc.truncated" || c == "rvc.missing_chunk.meta" ||
                c == "rvc.missing_chunk.frms")
        << "prefix " << n << ": " << c;
  }
}

TEST(RvcRoundTrip, EqualityIsBytesEquality) {
  auto a = decode_rvc(small_clip(), 0, compat());
  auto b = decode_rvc(small_clip(), 7, compat());  // other offsets: still equal
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_TRUE(a.value() == b.value());
  const Bytes junk = file({chunk("META", deflated(meta1(), 8, {9}), 1), chunk("FRMS", frms1())});
  const Bytes nojunk = file({chunk("META", deflated(meta1(), 8), 1), chunk("FRMS", frms1())});
  auto c = decode_rvc(junk, 0, compat());
  auto d = decode_rvc(nojunk, 0, compat());
  ASSERT_TRUE(c.ok() && d.ok());
  EXPECT_TRUE(c->meta == d->meta);
  EXPECT_FALSE(c.value() == d.value());  // same content, different bytes
  // Floats compare by bit pattern: -0.0 vs 0.0 differ.
  voxrig::RvcMeta m1 = c->meta, m2 = c->meta;
  m1.pivot[0] = 0.0f;
  m2.pivot[0] = -0.0f;
  EXPECT_FALSE(m1 == m2);
}

TEST(RvcWriter, Errors) {
  auto r = decode_rvc(small_clip(), 0, compat());
  ASSERT_TRUE(r.ok());
  voxrig::RvcClip c = r.value();
  c.version = 3;
  EXPECT_EQ(code_of_any(encode_rvc(c)), "rvc.unsupported_version");
  c.version = 1;
  EXPECT_EQ(code_of_any(encode_rvc(c)), "ok");  // all flags 0: representable as v1
  c.chunks[0].flags = 1;
  EXPECT_EQ(code_of_any(encode_rvc(c)), "rvc.write.unrepresentable");
}

// rvc_put_chunk's insertion path (fuzz/reports/coverage.md, corpus/rvc_structured/06dd6e4b...):
// a TIME chunk added to a clip that had none lands after META / FRMS, before unknown chunks, and
// reads back, also when the clip declares 0 frames (then durations is empty and only has_time
// says that TIME is wanted).
TEST(RvcWriter, InsertedTimeReadsBack) {
  const Bytes xtra = Bytes{1, 2, 3};
  for (uint32_t n : {0u, 1u}) {
    const Bytes f = file({chunk("\x08\x03\x00\x00", xtra), chunk("META", meta({1, 1, 4}, n)),
                          chunk("FRMS", n ? frms1() : Bytes{}), chunk("XTRA", xtra)});
    auto r = decode_rvc(f, 0, strict());
    ASSERT_TRUE(r.ok()) << r.error().to_text();
    ASSERT_FALSE(r->has_time);
    voxrig::RvcClip c = r.value();
    c.durations = voxrig::rvc_effective_durations(c);
    if (n == 0) {  // durations alone ask for nothing here: the contract removes TIME
      voxrig::RvcClip none = c;
      ASSERT_TRUE(voxrig::rvc_update_time(none).ok());
      EXPECT_EQ(none.chunks.size(), 4u);
      EXPECT_FALSE(none.has_time);
    }
    c.has_time = true;
    ASSERT_TRUE(voxrig::rvc_update_time(c).ok());
    std::vector<std::string> tags;
    for (const auto& ch : c.chunks) tags.emplace_back(ch.tag.data(), 4);
    EXPECT_EQ(tags, (std::vector<std::string>{std::string("\x08\x03\x00\x00", 4), "META", "FRMS",
                                              "TIME", "XTRA"}));
    auto back = decode_rvc(encode_rvc(c).value(), 0, strict());
    ASSERT_TRUE(back.ok()) << back.error().to_text();
    EXPECT_TRUE(back->has_time) << n << " frames";
    EXPECT_EQ(back->durations, c.durations);
  }
}
