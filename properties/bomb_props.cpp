// Bounded work: "bombs" — small files that declare many cheap items (empty RVC delta
// frames behind a deflated FRMS, TIME values, tiny voxel clips in one RKCH, zero-width KFA and
// RKCH frame tables, empty KV6 columns, empty VFP sections) — must not cost more than their
// size justifies. For every profile of the format:
//   - a dump is at most dump_bound(input size) = 1 MiB + 64 x input bytes (voxrig/dump.h);
//   - roundtrip and canonicalize outputs are too;
//   - the operator new calls of each of validate, dump, roundtrip and canonicalize stay under
//     kAllocBase + kAllocPerByte x the input's inflated size (expanded_size): the work counter
//     (an allocation count, not a clock, so the property cannot flake). An allocation per
//     declared-but-absent item (an empty frame, row or section) breaks it at once.
// Generators build each bomb at up to 2^16 declared items (the golden cases rvc/bomb/*, rkc/bomb/*
// hold the 2^20 edge).
#include <zlib.h>

#include <functional>

#include "prop_gen_vfp.h"
#include "prop_support.h"
#include "voxrig/any_format.h"
#include "voxrig/dump.h"
#include "voxrig/kfa.h"
#include "voxrig/kv6.h"
#include "voxrig/rkc.h"
#include "voxrig/rvc.h"
#include "voxrig/testing/alloc_counter.h"
#include "voxrig/vfp.h"

namespace voxrig::props {
namespace {

using Bytes = std::vector<uint8_t>;

// The work budget per operation: a fixed part for the model, the tables and the output, plus a
// little per (inflated) input byte.
constexpr uint64_t kAllocBase = 4096;
constexpr uint64_t kAllocPerByte = 2;

void put_u32(Bytes& b, uint32_t v) {
  for (int i = 0; i < 4; ++i) b.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

Bytes raw_deflate(const Bytes& in) {
  z_stream z{};
  if (deflateInit2(&z, 9, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) RC_FAIL("zlib init");
  Bytes out(deflateBound(&z, in.size()));
  z.next_in = const_cast<Bytef*>(in.data());
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = out.data();
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  if (rc != Z_STREAM_END) RC_FAIL("zlib deflate");
  return out;
}

// One RVC v2 chunk, deflated (docs/spec/rvc.md#file-framing: raw_len u32 then a raw DEFLATE stream).
void put_chunk(Bytes& file, const char* tag, const Bytes& raw) {
  const Bytes z = raw_deflate(raw);
  file.insert(file.end(), tag, tag + 4);
  file.push_back(1);
  put_u32(file, static_cast<uint32_t>(z.size() + 4));
  put_u32(file, static_cast<uint32_t>(raw.size()));
  file.insert(file.end(), z.begin(), z.end());
}

// A valid clip: an empty key frame, then `frames - 1` deltas that each list `cols_per_delta`
// columns with empty occupancy and no colours (the cheapest content a frame can have).
Bytes rvc_bomb(std::array<uint32_t, 3> dims, uint32_t frames, uint32_t cols_per_delta,
               bool with_time) {
  const uint32_t cols = dims[0] * dims[1];
  const uint32_t owpc = std::max<uint32_t>(1, (dims[2] + 31) / 32);
  Bytes meta;
  for (uint32_t d : dims) put_u32(meta, d);
  for (int i = 0; i < 4; ++i) put_u32(meta, 0);  // pivot, voxel_world_size
  meta.push_back(0);                             // Loop
  put_u32(meta, 33);
  put_u32(meta, frames);
  Bytes frms{0};
  put_u32(frms, cols * owpc);
  for (uint32_t i = 0; i < cols * owpc; ++i) put_u32(frms, 0);
  put_u32(frms, cols + 1);
  for (uint32_t i = 0; i <= cols; ++i) put_u32(frms, 0);
  put_u32(frms, 0);
  for (uint32_t f = 1; f < frames; ++f) {
    frms.push_back(1);
    put_u32(frms, cols_per_delta);
    for (uint32_t c = 0; c < cols_per_delta; ++c) {
      put_u32(frms, c % cols);
      for (uint32_t k = 0; k < owpc; ++k) put_u32(frms, 0);
      put_u32(frms, 0);
    }
  }
  Bytes file{'R', 'V', 'C', 'L', 2, 0};
  put_chunk(file, "META", meta);
  put_chunk(file, "FRMS", frms);
  if (with_time) {
    Bytes time;
    for (uint32_t f = 0; f < frames; ++f) put_u32(time, 40);
    put_chunk(file, "TIME", time);
  }
  return file;
}

rc::Gen<Bytes> gen_rvc_bomb(uint32_t max_frames) {
  return rc::gen::exec([max_frames] {
    const std::array<uint32_t, 3> dims{*rc::gen::inRange<uint32_t>(1, 4),
                                       *rc::gen::inRange<uint32_t>(1, 4),
                                       *rc::gen::inRange<uint32_t>(1, 70)};
    return rvc_bomb(dims, *rc::gen::inRange<uint32_t>(1, max_frames + 1),
                    *rc::gen::inRange<uint32_t>(0, 3), *rc::gen::arbitrary<bool>());
  });
}

Bytes must(Result<Bytes> r) {
  if (!r.ok()) RC_FAIL("encoding the bomb failed: " + r.error().to_text());
  return std::move(r).value();
}

// The bytes an input stands for once its RVC chunks are inflated (RVC standalone or inside an
// RKCH): deflate lets 1 stored byte stand for ~1000, and work per inflated byte is what a
// decoder can bound (the inflated total is a limit). Work per *declared* item is not: an empty
// delta frame, a zero-width frame row or an empty section inflates to a few bytes at most.
uint64_t expanded_size(const Bytes& in) {
  uint64_t n = in.size();
  auto add_clip = [&n](const RvcClip& c) {
    for (const RvcChunk& ch : c.chunks) n += ch.inflated.size();
  };
  const DecodeOptions o{Profile::RkcCompat, Limits{}};
  if (auto r = decode_rvc(in, 0, o); r.ok()) add_clip(r.value());
  if (auto c = decode_rkc(in, o); c.ok())
    for (const RvcClip& clip : c.value().voxel_clips) add_clip(clip);
  return n;
}

// Every bound for one input under every profile of its format.
void check_bounded(const Bytes& in, std::initializer_list<Profile> profiles, const char* ext) {
  const uint64_t bound = dump_bound(in.size());
  const Limits limits{};
  const uint64_t expanded = expanded_size(in);
  const testing::AllocationProbe probe;
  for (Profile p : profiles) {
    const ValidationReport rep = validate_any(in, p, limits);
    auto dump = dump_any(in, p, limits);
    if (dump.ok() && dump->size() > bound) {
      record(ext, in);
      RC_FAIL(std::string(to_string(p)) + ": dump of " + std::to_string(dump->size()) +
              " bytes for " + std::to_string(in.size()) + " input bytes (bound " +
              std::to_string(bound) + ")");
    }
    RC_ASSERT(dump.ok() == !rep.error.has_value());
    for (auto out : {roundtrip_any(in, p, limits), canonicalize_any(in, p, limits)}) {
      if (out.ok() && out->size() > bound) {
        record(ext, in);
        RC_FAIL(std::string(to_string(p)) + ": writer output of " + std::to_string(out->size()) +
                " bytes for " + std::to_string(in.size()) + " input bytes");
      }
    }
  }
  // Four operations per profile (validate, dump, roundtrip, canonicalize), each within budget.
  const uint64_t ops = 4 * profiles.size();
  const uint64_t allocs = probe.count();
  if (allocs > ops * (kAllocBase + kAllocPerByte * expanded)) {
    record(ext, in);
    RC_FAIL(std::to_string(allocs) + " allocations in " + std::to_string(ops) + " operations for " +
            std::to_string(in.size()) + " input bytes (" + std::to_string(expanded) +
            " inflated): work grows with a declared count");
  }
  RC_TAG(in.size() < 4096 ? "small" : "large");
}

constexpr std::initializer_list<Profile> kRkcProfiles = {Profile::RkcStrict, Profile::RkcCompat};

}  // namespace

VOXRIG_PROP(Bombs, RvcDeclaredFramesAndTimeValues, 30, ()) {
  const Bytes in = *gen_rvc_bomb(1 << 16);
  // The bomb is valid: the bound is about accepted files, which no verdict check catches.
  RC_ASSERT(decode_rvc(in, 0, DecodeOptions{Profile::RkcStrict, Limits{}}).ok());
  check_bounded(in, kRkcProfiles, "rvc");
}

VOXRIG_PROP(Bombs, RkcManyTinyVoxelClipsBonesClipsAndChunks, 20, ()) {
  Character c;
  const Bytes clip_bytes = *gen_rvc_bomb(3);
  auto clip = decode_rvc(clip_bytes, 0, DecodeOptions{Profile::RkcCompat, Limits{}});
  RC_ASSERT(clip.ok());
  c.voxel_clips.assign(*rc::gen::inRange<size_t>(0, 3000), clip.value());
  c.bones.resize(*rc::gen::inRange<size_t>(0, 300));
  const uint32_t frames = *rc::gen::inRange<uint32_t>(0, 1 << 16);
  Clip skeletal{"", SkeletalClip{c.bones.empty() ? frames : 0, uint32_t(c.bones.size()), {}, {}}};
  c.clips.assign(*rc::gen::inRange<size_t>(0, 300), skeletal);
  c.extra_chunks.assign(*rc::gen::inRange<size_t>(0, 300), ExtraChunk{{'Z', 'Z', 'Z', 'Z'}, {}});
  check_bounded(must(encode_rkc(c)), kRkcProfiles, "rkc");
}

VOXRIG_PROP(Bombs, KfaZeroWidthFramesAndSeq, 30, ()) {
  Kfa k;
  k.frame_count = *rc::gen::inRange<uint32_t>(0, 1 << 20);  // zero hinges: no frame bytes at all
  k.seq.resize(*rc::gen::inRange<size_t>(0, 2000));
  check_bounded(must(encode_kfa(k)), kRkcProfiles, "kfa");
}

VOXRIG_PROP(Bombs, Kv6EmptyColumns, 30, ()) {
  Kv6 k;
  k.xsiz = *rc::gen::inRange<uint32_t>(1, 256);
  k.ysiz = *rc::gen::inRange<uint32_t>(1, 256);
  k.zsiz = *rc::gen::inRange<uint32_t>(1, 256);
  k.xlen.assign(k.xsiz, 0);
  k.ylen.assign(size_t{k.xsiz} * k.ysiz, 0);
  check_bounded(must(encode_kv6(k)), kRkcProfiles, "kv6");
}

VOXRIG_PROP(Bombs, VfpManyEmptySections, 20, ()) {
  VfpFile f = *gen_vfp_file();
  const size_t room = f.sections.size() < 4096 ? 4096 - f.sections.size() : 0;
  Section empty{SectionHeader{make_tag("ZZZZ"), -1, 0, 0}, RawPayload{}};
  f.sections.insert(f.sections.end(), *rc::gen::inRange<size_t>(0, room + 1), empty);
  check_bounded(must(encode_vfp(f)), {Profile::VfpStatic, Profile::VfpRig}, "vfp");
}

}  // namespace voxrig::props
