// Hostile-input bounds inside the library: one RVC budget per file across an RKCH's clips (inflated
// payloads and frame tables), a rejected RKCH that never holds two decodes at once, the JSON
// compile input's value count and trailing NUL, and the output caps of the meshers, the OBJ and
// glTF writers and the compiler (docs/robustness.md "Bounds per command").
#include <gtest/gtest.h>

#include <string>

#include "rkc_test_util.h"
#include "voxrig/export.h"
#include "voxrig/mesh.h"
#include "voxrig/testing/alloc_counter.h"
#include "voxrig/testing/deflate.h"
#include "voxrig/vfp.h"
#include "voxrig/vfp_json.h"

namespace voxrig {
namespace {

using test::Bytes;

// An RVC clip: META (1 x 1 x 1, one frame) and FRMS (one empty key frame) stored raw, then
// `zero_chunks` unknown chunks of `zero_bytes` deflated zeros each.
std::vector<uint8_t> zero_clip(int zero_chunks, size_t zero_bytes) {
  Bytes meta;
  meta.u32(1).u32(1).u32(1).f32(0.5f).f32(0.5f).f32(0.5f).f32(1).u8(0).u32(33).u32(1);
  Bytes frms;
  frms.u8(0).u32(1).u32(0).u32(2).u32(0).u32(0).u32(0);
  Bytes c;
  c.str("RVCL").u16(2);
  c.str("META").u8(0).u32(uint32_t(meta.size())).raw(meta.bytes());
  c.str("FRMS").u8(0).u32(uint32_t(frms.size())).raw(frms.bytes());
  const std::vector<uint8_t> stream =
      testing::raw_deflate(std::vector<uint8_t>(zero_bytes, 0), 9, testing::kDefaultDeflateStrategy);
  for (int i = 0; i < zero_chunks; ++i)
    c.str("ZERO").u8(1).u32(uint32_t(4 + stream.size())).u32(uint32_t(zero_bytes)).raw(stream);
  return c.bytes();
}

// An RKCH holding `clips` in VCLP; `bad_attachment`: one bone attached to voxel clip
// clips.size(), which does not exist (rejected after every payload was decoded).
std::vector<uint8_t> rkc_with(const std::vector<std::vector<uint8_t>>& clips,
                              bool bad_attachment = false) {
  Bytes vclp;
  vclp.u32(uint32_t(clips.size()));
  for (const auto& c : clips) vclp.u32(uint32_t(c.size())).raw(c);
  Bytes bons;
  bons.u32(bad_attachment ? 1 : 0);
  if (bad_attachment) {
    Bytes a = test::static_attachment_bytes(uint32_t(clips.size()));
    a.bytes()[0] = 1;  // mesh_kind Clip
    bons.name("").u32(1).raw(a.bytes()).raw(test::seed_hinge_bytes(-1).bytes());
  }
  Bytes f;
  f.str("RKCH").u16(3);
  f.chunk("META", Bytes().name("").zeros(12)).chunk("MSHS", Bytes().u32(0));
  f.chunk("BONS", bons).chunk("CLPS", Bytes().u32(0)).chunk("VCLP", vclp);
  return f.bytes();
}

DecodeOptions with_budget(uint64_t bytes) {
  DecodeOptions o = test::strict();
  o.limits.rvc_inflated_total = bytes;
  return o;
}

TEST(RvcBudget, IsOnePerFileAcrossTheClipsOfAnRkch) {
  // Three clips of 1 MiB each: a budget of 2.5 MiB stops at the third, in decode and validate
  // alike (it was one budget per clip: every clip fit).
  const auto f = rkc_with({zero_clip(1, 1 << 20), zero_clip(1, 1 << 20), zero_clip(1, 1 << 20)});
  const DecodeOptions tight = with_budget((5 << 20) / 2);
  auto d = decode_rkc(f, tight);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().code, ErrorCode::RvcLimitInflatedTotal);
  EXPECT_EQ(d.error().path, "VCLP/clip[2]/chunk[2]");
  auto v = validate_rkc(f, tight);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.error().path, d.error().path);
  EXPECT_EQ(v.error().offset, d.error().offset);
  EXPECT_TRUE(decode_rkc(f, with_budget((7 << 20) / 2)).ok());
  // A standalone clip is a file of its own: the whole budget.
  EXPECT_TRUE(decode_rvc(zero_clip(2, 1 << 20), 0, tight).ok());
}

TEST(RvcBudget, FrameTablesCountToo) {
  // 2^16 empty delta frames take 5 inflated bytes each but 24 bytes of frame table: the table,
  // not the inflated size, is what a file of many such clips would hold.
  constexpr uint32_t kFrames = 1 << 16;
  Bytes meta;
  meta.u32(1).u32(1).u32(1).f32(0.5f).f32(0.5f).f32(0.5f).f32(1).u8(0).u32(33).u32(kFrames);
  Bytes frms;
  frms.u8(0).u32(1).u32(0).u32(2).u32(0).u32(0).u32(0);
  for (uint32_t i = 1; i < kFrames; ++i) frms.u8(1).u32(0);
  const auto raw = frms.bytes();
  const auto stream = testing::raw_deflate(raw, 9, testing::kDefaultDeflateStrategy);
  Bytes c;
  c.str("RVCL").u16(2);
  c.str("META").u8(0).u32(uint32_t(meta.size())).raw(meta.bytes());
  c.str("FRMS").u8(1).u32(uint32_t(4 + stream.size())).u32(uint32_t(raw.size())).raw(stream);
  // The table: 8 bytes of index per frame, 4 per stored u32 and 12 per frame of lengths.
  const uint64_t table = 8 * uint64_t{kFrames} + 4 * (raw.size() / 4 + 3 * uint64_t{kFrames});
  EXPECT_TRUE(decode_rvc(c.bytes(), 0, with_budget(raw.size() + table)).ok());
  auto r = decode_rvc(c.bytes(), 0, with_budget(raw.size() + table - 1));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::RvcLimitInflatedTotal);
  EXPECT_EQ(r.error().path, "FRMS");
  // Ten such clips in one RKCH share one budget: room for three, and the fourth's inflation.
  const auto f = rkc_with(std::vector<std::vector<uint8_t>>(10, c.bytes()));
  auto d = decode_rkc(f, with_budget(3 * (raw.size() + table) + raw.size() + 100));
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().path, "VCLP/clip[3]/FRMS");
}

TEST(RvcBudget, ARejectedRkchHoldsOneDecodeAtATime) {
  // Everything decodes, then a cross reference fails: the fast path's partial model must be
  // gone before the field-by-field pass decodes it all again (it held 2x the file's clips).
  const auto f = rkc_with({zero_clip(2, 4 << 20)}, true);
  testing::heap_reset_peak();
  auto v = validate_rkc(f, test::strict());
  const size_t one_pass = testing::heap_peak_growth();
  ASSERT_FALSE(v.ok());
  testing::heap_reset_peak();
  auto d = decode_rkc(f, test::strict());
  const size_t decode = testing::heap_peak_growth();
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().code, ErrorCode::RkcAttachmentIndex);
  EXPECT_GE(one_pass, size_t{8} << 20);
  EXPECT_LT(decode, one_pass + one_pass / 4) << "decode " << decode << ", one pass " << one_pass;
}

TEST(JsonCompileInput, ValuesAreCountedWhileParsing) {
  std::string flat = "[";
  for (int i = 0; i < 1000; ++i) flat += i ? ",0" : "0";
  flat += "]";
  Limits l;
  l.json_values = 1000;  // the array itself is value 1001
  auto r = compile_vfp_json(flat, l);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::JsonLimit);
  l.json_values = 1001;
  r = compile_vfp_json(flat, l);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::JsonType);  // parsed; not a compile input
}

TEST(JsonCompileInput, NothingMayFollowTheDocument) {
  const std::string doc =
      R"({"size": [1, 1, 1], "palette": [[0, 0, 0, 0], [255, 0, 0, 255]], )"
      R"("voxels": [[0, 0, 0, 1]]})";
  ASSERT_TRUE(compile_vfp_json(doc, Limits{}).ok());
  ASSERT_TRUE(compile_vfp_json(doc + " \n", Limits{}).ok());
  auto r = compile_vfp_json(doc + std::string("\0garbage", 8), Limits{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::JsonSyntax);
  EXPECT_EQ(r.error().offset, doc.size());
  EXPECT_EQ(compile_vfp_json(doc + " x", Limits{}).error().code, ErrorCode::JsonSyntax);
}

TEST(JsonCompileInput, AGridOverTheOutputLimitIsRefusedBeforeItIsAllocated) {
  const std::string big =
      R"({"size": [4096, 4096, 16], "palette": [[0, 0, 0, 0]], "voxels": []})";
  testing::heap_reset_peak();
  auto r = compile_vfp_json(big, Limits{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::LimitOutput);
  EXPECT_EQ(r.error().path, "$.size");
  EXPECT_LT(testing::heap_peak_growth(), size_t{1} << 20);
  Limits wide;
  wide.output_bytes = 72 + 4 + 2 * 3 * 4 - 1;  // one byte short of a 2 x 3 x 4 grid's file
  const std::string small = R"({"size": [2, 3, 4], "palette": [[0, 0, 0, 0]], "voxels": []})";
  EXPECT_EQ(compile_vfp_json(small, wide).error().code, ErrorCode::LimitOutput);
  wide.output_bytes += 1;
  EXPECT_TRUE(compile_vfp_json(small, wide).ok());
}

Vox0 checkerboard(uint16_t n) {
  Vox0 v;
  v.size_x = v.size_y = v.size_z = n;
  v.palette = {Rgba{0, 0, 0, 0}, Rgba{200, 100, 50, 255}};
  v.voxels.resize(size_t{n} * n * n);
  for (size_t z = 0; z < n; ++z)
    for (size_t y = 0; y < n; ++y)
      for (size_t x = 0; x < n; ++x) v.voxels[x + n * (y + n * z)] = (x + y + z) % 2 == 0;
  return v;
}

TEST(OutputLimits, MeshersStopAtTheQuadCap) {
  const Vox0 v = checkerboard(64);  // 131,072 solid voxels, every face exposed: 786,432 quads
  std::vector<Quad> quads;
  MeshScratch scratch;
  ASSERT_TRUE(mesh_greedy(v, quads, scratch).ok());
  const size_t all = quads.size();
  EXPECT_EQ(all, size_t{786432});
  scratch.set_quad_limit(all);
  EXPECT_TRUE(mesh_greedy(v, quads, scratch).ok());
  scratch.set_quad_limit(all - 1);
  EXPECT_EQ(mesh_greedy(v, quads, scratch).error().code, ErrorCode::LimitOutput);
  EXPECT_EQ(mesh_naive(v, {}, quads, scratch).error().code, ErrorCode::LimitOutput);
  // Two joints: the bone-aware chains count as well, and the scratch stays usable.
  std::vector<uint16_t> joints(v.voxels.size(), 0);
  for (size_t i = joints.size() / 2; i < joints.size(); ++i) joints[i] = 1;
  EXPECT_EQ(mesh_bone_aware(v, joints, quads, scratch).error().code, ErrorCode::LimitOutput);
  scratch.set_quad_limit(SIZE_MAX);
  ASSERT_TRUE(mesh_bone_aware(v, joints, quads, scratch).ok());
  EXPECT_EQ(quads.size(), all);
}

TEST(OutputLimits, WritersRefuseBeforeTheFirstByte) {
  const Vox0 v = checkerboard(8);
  std::vector<Quad> quads;
  MeshScratch scratch;
  ASSERT_TRUE(mesh_greedy(v, quads, scratch).ok());
  const std::string obj = export_obj(quads, v.palette);
  std::string streamed;
  size_t pieces = 0;
  const OutputSink sink = [&](std::string_view piece) {
    streamed += piece;
    ++pieces;
  };
  ASSERT_TRUE(write_obj(quads, v.palette, nullptr, obj.size(), sink).ok());
  EXPECT_EQ(streamed, obj);
  streamed.clear();
  pieces = 0;
  EXPECT_EQ(write_obj(quads, v.palette, nullptr, obj.size() - 1, sink).error().code,
            ErrorCode::LimitOutput);
  EXPECT_EQ(pieces, 0u);
  // glTF: the buffer is checked from the quad count before it is built.
  GltfOptions o;
  auto glb = export_gltf(v, nullptr, nullptr, nullptr, o);
  ASSERT_TRUE(glb.ok());
  auto parts = export_gltf_parts(v, nullptr, nullptr, nullptr, o);
  ASSERT_TRUE(parts.ok());
  EXPECT_EQ(glb_size(*parts), glb->size());
  o.max_bytes = quads.size() * kGltfQuadBytes - 1;
  EXPECT_EQ(export_gltf_parts(v, nullptr, nullptr, nullptr, o).error().code,
            ErrorCode::LimitOutput);
}

TEST(OutputLimits, WriteVfpStreamsTheBytesEncodeVfpGives) {
  const std::string doc =
      R"({"size": [3, 2, 2], "palette": [[0, 0, 0, 0], [255, 0, 0, 255]], )"
      R"("voxels": [[0, 0, 0, 1], [2, 1, 1, 1]]})";
  auto f = compile_vfp_json(doc, Limits{});
  ASSERT_TRUE(f.ok());
  auto bytes = encode_vfp(*f);
  ASSERT_TRUE(bytes.ok());
  std::string streamed;
  ASSERT_TRUE(write_vfp(*f, [&](std::string_view p) { streamed += p; }).ok());
  EXPECT_EQ(streamed, std::string(bytes->begin(), bytes->end()));
  EXPECT_EQ(vfp_encoded_size(*f), bytes->size());
}

}  // namespace
}  // namespace voxrig
