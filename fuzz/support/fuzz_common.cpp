// Shared oracles of the fuzz targets (see fuzz_common.h for the contracts).
#include "fuzz_common.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#include "voxrig/dump.h"
#include "voxrig/kfa.h"
#include "voxrig/rkc.h"
#include "voxrig/rvc.h"
#include "voxrig/vfp.h"

namespace voxrig::fuzz {

namespace {

void check_vfp_profile(View bytes, Profile profile, const VfpFile& model, bool deep) {
  const DecodeOptions opts = options(profile);
  const Bytes enc = must(encode_vfp(model), "encode_vfp of a decoded file");
  VOXRIG_FUZZ_CHECK(same_bytes(enc, bytes), "D1: VFP parse -> serialize must be byte-exact");
  const std::string dump = dump_vfp(model);
  VOXRIG_FUZZ_CHECK(dump == dump_vfp(model), "dump_vfp not deterministic");
  check_dump_bound(dump, bytes.size());
  if (profile == Profile::VfpRig) {
    VfpFile rebound = model;  // hashes were checked, so binding again changes nothing
    rebind(rebound);
    VOXRIG_FUZZ_CHECK(rebound == model, "rebind changed a file vfp-rig accepted");
  }
  if (!deep) return;
  auto again = decode_vfp(enc, opts);
  VOXRIG_FUZZ_CHECK(again.ok() && again.value() == model, "re-decoded model differs");
  VOXRIG_FUZZ_CHECK(dump_vfp(again.value()) == dump, "dump of the re-decoded model differs");
  const VfpFile canon = canonicalized(model);
  const Bytes canon_bytes = must(encode_vfp(canon), "encode_vfp of the canonical model");
  auto canon_again = decode_vfp(canon_bytes, opts);
  VOXRIG_FUZZ_CHECK(canon_again.ok(), "canonical output rejected: " +
                                          (canon_again.ok() ? "" : canon_again.error().to_text()));
  VOXRIG_FUZZ_CHECK(canon_again.value() == canon, "canonical bytes decode to another model");
  const Bytes canon2 = must(encode_vfp(canonicalized(canon_again.value())), "re-canonicalize");
  VOXRIG_FUZZ_CHECK(canon2 == canon_bytes, "canonicalize is not stable");
}

void check_kfa_export(const Character& c) {
  static constexpr std::array<uint8_t, 4> kName{'f', 'u', 'z', 'z'};
  const size_t n = c.clips.size() < 3 ? c.clips.size() : 3;
  for (size_t i = 0; i <= n; ++i) {
    std::optional<size_t> clip = i < n ? std::optional<size_t>(i) : std::nullopt;
    const Kfa kfa = must(character_to_kfa(c, clip, kName), "character_to_kfa of a decoded file");
    const Bytes enc = must(encode_kfa(kfa), "encode_kfa of an exported KFA");
    auto back = decode_kfa(enc, options(Profile::RkcStrict));
    VOXRIG_FUZZ_CHECK(back.ok() && back.value() == kfa, "exported KFA does not round-trip");
  }
}

}  // namespace

void check_vfp_file(View bytes, bool deep) {
  auto st = decode_vfp(bytes, options(Profile::VfpStatic));
  auto rig = decode_vfp(bytes, options(Profile::VfpRig));
  const bool st_ok = ok_or_checked(st, 0, bytes.size());
  const bool rig_ok = ok_or_checked(rig, 0, bytes.size());
  VOXRIG_FUZZ_CHECK(st_ok || !rig_ok, "vfp-rig accepts what vfp-static rejects: " +
                                          (st_ok ? "" : st.error().to_text()));
  if (st_ok) check_vfp_profile(bytes, Profile::VfpStatic, st.value(), deep);
  if (rig_ok) {
    check_vfp_profile(bytes, Profile::VfpRig, rig.value(), deep);
    const auto& a = st.value().sections;
    const auto& b = rig.value().sections;
    VOXRIG_FUZZ_CHECK(a.size() == b.size(), "profiles see different section lists");
    for (size_t i = 0; i < a.size(); ++i)
      VOXRIG_FUZZ_CHECK(a[i].header == b[i].header, "profiles see different section headers");
  }
}

void check_rkc_file(View bytes) {
  std::optional<Character> strict_model;
  for (Profile p : {Profile::RkcStrict, Profile::RkcCompat}) {
    const DecodeOptions opts = options(p);
    auto r = decode_rkc(bytes, opts);
    auto v = validate_rkc(bytes, opts);
    VOXRIG_FUZZ_CHECK(r.ok() == v.ok(), "validate_rkc and decode_rkc disagree on the verdict");
    if (!ok_or_checked(r, 0, bytes.size())) {
      VOXRIG_FUZZ_CHECK(v.error().code == r.error().code, "validate_rkc reports another code");
      VOXRIG_FUZZ_CHECK(!strict_model,
                        "rkc-strict accepts what rkc-compat rejects: " + r.error().to_text());
      continue;
    }
    const Character& model = r.value();
    if (strict_model) VOXRIG_FUZZ_CHECK(*strict_model == model, "strict and compat models differ");
    if (p == Profile::RkcStrict) strict_model = model;
    auto enc = encode_rkc(model);
    if (!enc.ok()) {  // only a lossy repair can make a decoded name too long (H1)
      VOXRIG_FUZZ_CHECK(
          p == Profile::RkcCompat && enc.error().code == ErrorCode::RkcWriteNameTooLong,
          enc.error().to_text());
      continue;
    }
    auto again = decode_rkc(enc.value(), opts);
    VOXRIG_FUZZ_CHECK(again.ok(), "canonical RKCH output rejected: " +
                                      (again.ok() ? "" : again.error().to_text()));
    VOXRIG_FUZZ_CHECK(again.value() == model, "RKCH parse -> serialize -> parse changed the model");
    VOXRIG_FUZZ_CHECK(must(encode_rkc(again.value()), "re-encode") == enc.value(),
                      "canonical RKCH output is not stable");
    const std::string dump = dump_rkc(model);
    check_dump_bound(dump, bytes.size());
    VOXRIG_FUZZ_CHECK(dump_rkc(again.value()) == dump, "dump differs after round trip");
    check_kfa_export(model);
  }
}

void check_rvc_file(View bytes) {
  const View in = bytes;
  const size_t size = bytes.size();
  const Limits limits = fuzz_limits();
  auto strict = decode_rvc(in, 0, options(Profile::RkcStrict));
  auto compat = decode_rvc(in, 0, options(Profile::RkcCompat));
  const bool strict_ok = ok_or_checked(strict, 0, size);
  if (!ok_or_checked(compat, 0, size)) {
    VOXRIG_FUZZ_CHECK(!strict_ok && strict.error().code == compat.error().code);
    return;
  }
  const RvcClip& clip = compat.value();
  VOXRIG_FUZZ_CHECK(same_bytes(must(encode_rvc(clip), "encode_rvc"), in), "D1");
  if (clip.frames.size() > 0) {
    // RvcFrames' editing API (get, set, push_key / push_delta from views: what writers and the
    // structure-aware mutators use): replacing the middle frame by a copy of itself is a no-op.
    RvcFrames frames = clip.frames;
    const size_t mid = frames.size() / 2;
    frames.set(mid, frames.get(mid));
    VOXRIG_FUZZ_CHECK(frames == clip.frames, "RvcFrames::set(i, get(i)) changed the frames");
  }
  const Status valid = validate_rvc_frames(clip, limits);
  VOXRIG_FUZZ_CHECK(strict_ok == valid.ok(), "D8: strict verdict != parse + validate");
  if (strict_ok) VOXRIG_FUZZ_CHECK(strict.value() == clip, "strict and compat models differ");
  if (!valid.ok()) check_error(valid.error(), 0, size);
  if (!strict_ok) VOXRIG_FUZZ_CHECK(strict.error().code == valid.error().code);
  auto decoded = decode_rvc_frames(clip, limits);
  if (ok_or_checked(decoded, 0, size)) {
    VOXRIG_FUZZ_CHECK(valid.ok(), "decode_rvc_frames accepts what validate rejects");
    const RvcDecoded& d = decoded.value();
    VOXRIG_FUZZ_CHECK(d.frames.size() == clip.meta.frame_count);
    VOXRIG_FUZZ_CHECK(d.durations == rvc_effective_durations(clip));
    const uint64_t cols = uint64_t{d.dims[0]} * d.dims[1];
    for (const RvcVoxelFrame& f : d.frames)
      VOXRIG_FUZZ_CHECK(f.occupancy.size() == cols * rvc_owpc(d.dims[2]) &&
                        f.color_offsets.size() == cols + 1 &&
                        f.color_offsets.back() == f.colors.size());
    for (uint64_t t : {uint64_t{0}, uint64_t{1}, uint64_t{size}, uint64_t{1} << 40})
      VOXRIG_FUZZ_CHECK(rvc_frame_at(d.durations, clip.meta.loop_mode, t) <
                        std::max<size_t>(d.frames.size(), 1));
    // D24's writer: a clip built from the decoded frames (key frames every 0-3 frames, chosen by
    // the input's size) is strict-valid and decodes to the same frames and durations.
    const RvcClip rebuilt =
        rvc_from_frames(d.dims, clip.meta.pivot, clip.meta.voxel_world_size, clip.meta.loop_mode,
                        d.frames, d.durations, clip.meta.default_frame_ms, uint32_t(size % 4));
    auto again =
        decode_rvc(must(encode_rvc(rebuilt), "encode_rvc"), 0, options(Profile::RkcStrict));
    VOXRIG_FUZZ_CHECK(again.ok(), "rvc_from_frames output rejected: " +
                                      (again.ok() ? "" : again.error().to_text()));
    auto frames_again = decode_rvc_frames(again.value(), limits);
    VOXRIG_FUZZ_CHECK(frames_again.ok() && frames_again.value().frames == d.frames &&
                          frames_again.value().durations == d.durations,
                      "rvc_from_frames output decodes to other frames");
  } else if (category_of(decoded.error().code) != Category::Limit) {
    VOXRIG_FUZZ_CHECK(!valid.ok() && valid.error().code == decoded.error().code);
  }
  RvcClip edited = clip;  // re-encode every view (D3/D4) and read it back
  // D4 may deflate a re-encoded chunk, which a version-1 file cannot hold; rvc_update_* keep the
  // version, so write the edit as version 2 as the seed's writer always does (see fuzz/README.md).
  edited.version = 2;
  VOXRIG_FUZZ_CHECK(rvc_update_meta(edited).ok() && rvc_update_frames(edited).ok() &&
                        rvc_update_time(edited).ok(),
                    "rvc_update_* failed on a parsed clip");
  auto back = decode_rvc(must(encode_rvc(edited), "encode_rvc"), 0, options(Profile::RkcCompat));
  VOXRIG_FUZZ_CHECK(back.ok() && back.value().meta == clip.meta &&
                        back.value().frames == clip.frames &&
                        back.value().durations == clip.durations,
                    "re-encoded views read back different");
  if (!clip.has_time) {
    // rvc_put_chunk's insertion path (D3): TIME added to a clip without one goes after META and
    // FRMS, before any unknown chunk, and reads back. has_time is what asks for it: with
    // frame_count 0 the durations are empty, and rvc_update_time alone would remove TIME
    // (corpus/rvc_structured/06dd6e4b..., fuzz/reports/coverage.md).
    RvcClip timed = clip;
    timed.version = 2;
    timed.durations = rvc_effective_durations(clip);
    timed.has_time = true;
    VOXRIG_FUZZ_CHECK(rvc_update_time(timed).ok(), "rvc_update_time failed on a parsed clip");
    auto t = decode_rvc(must(encode_rvc(timed), "encode_rvc"), 0, options(Profile::RkcCompat));
    VOXRIG_FUZZ_CHECK(t.ok() && t.value().has_time && t.value().durations == timed.durations &&
                          t.value().meta == clip.meta && t.value().frames == clip.frames,
                      "a TIME chunk added to a clip without one does not read back");
  }
  check_dump_bound(dump_rvc(clip), size);
}

const Vox0& fixed_vox0() {
  static const Vox0 v = [] {
    Vox0 x;
    x.size_x = 4, x.size_y = 2, x.size_z = 2;
    x.palette = {{0, 0, 0, 0}, {255, 0, 0, 255}, {0, 255, 0, 128}};
    x.voxels = {1, 0, 2, 1, 0, 1, 1, 0, 2, 2, 0, 1, 1, 0, 0, 2};
    return x;
  }();
  return v;
}

const Skel& fixed_skel() {
  static const Skel s = [] {
    Skel x;
    const std::array<std::pair<uint16_t, int16_t>, 4> ids{{{0, -1}, {1, 0}, {2, 1}, {7, 0}}};
    for (auto [id, parent] : ids) {
      SkelJoint j;
      j.id = id, j.parent = parent, j.name = "j" + std::to_string(id);
      j.bind.t = {float(id), 0.5f, -1.0f};
      x.joints.push_back(j);
    }
    return x;
  }();
  return s;
}

RigContext fixed_rig_context(View in, size_t hashes_at) {
  RigContext ctx{{}, {}, &fixed_skel(), &fixed_vox0()};
  if (in.size() >= hashes_at + 64) {
    std::copy(in.begin() + long(hashes_at), in.begin() + long(hashes_at) + 32,
              ctx.source_hash.begin());
    std::copy(in.begin() + long(hashes_at) + 32, in.begin() + long(hashes_at) + 64,
              ctx.skeleton_hash.begin());
  }
  return ctx;
}

namespace {

Le blob_list(const std::vector<Bytes>& blobs) {
  Le l;
  l.u32(uint32_t(blobs.size()));
  for (const Bytes& b : blobs) l.u32(uint32_t(b.size())).raw(b);
  return l;
}

Le bone(std::string_view name, int32_t parent, bool attachments) {
  Le b;
  b.u16(uint16_t(name.size())).str(name).u32(attachments ? 2 : 0);
  for (uint16_t kind = 0; attachments && kind < 2; ++kind) {
    b.u16(kind).u32(0);  // mesh 0 / voxel clip 0
    b.f32(0).f32(0).f32(0).f32(0).f32(0).f32(0).f32(1).f32(1).f32(1).f32(1);
    b.i32(256).u32(0);
  }
  b.i32(parent).f32(0).f32(0).f32(0).f32(1).f32(0).f32(0);  // p[0], p[1]
  b.f32(1).f32(0).f32(0).f32(1).f32(0).f32(0);              // v[0], v[1]
  b.i16(-100).i16(100).u8(0).zeros(7);
  return b;
}

}  // namespace

Bytes rkc_around(std::string_view tag, View payload) {
  const bool bons = tag == "BONS", clps = tag == "CLPS";
  Le meta;
  meta.u16(4).str("fuzz").f32(0).f32(0).f32(0);
  Le mshs = blob_list(bons ? std::vector<Bytes>{unit_kv6()} : std::vector<Bytes>{});
  Le vclp = blob_list(bons ? std::vector<Bytes>{tiny_rvc()} : std::vector<Bytes>{});
  Le bones;
  bones.u32(clps ? 2 : 0);
  if (clps) bones.raw(bone("root", -1, false).bytes()).raw(bone("arm", 0, false).bytes());
  Le f;
  f.str("RKCH").u16(3);
  f.chunk("META", tag == "META" ? payload : View(meta.bytes()));
  f.chunk("MSHS", tag == "MSHS" ? payload : View(mshs.bytes()));
  f.chunk("BONS", bons ? payload : View(bones.bytes()));
  if (clps) f.chunk("CLPS", payload);
  if (tag != "CLPS" && tag != "BONS") f.chunk("CLPS", Le().u32(0).bytes());
  f.chunk("VCLP", tag == "VCLP" ? payload : View(vclp.bytes()));
  return f.bytes();
}

namespace {

float raw_float(Picker& in) {
  uint32_t u = 0;
  for (int i = 0; i < 4; ++i) u |= uint32_t(in.take()) << (8 * i);
  return std::bit_cast<float>(u);
}

Trs read_trs(Picker& in, bool raw) {
  const bool bits = raw && (in.take() & 1);
  auto t = [&] { return bits ? raw_float(in) : float(int8_t(in.take())) * 7812.5f; };
  auto r = [&] { return bits ? raw_float(in) : float(int8_t(in.take())) / 127.0f; };
  auto s = [&] {
    if (bits) return raw_float(in);
    const uint8_t b = in.take();
    const float mag = std::pow(10.0f, float(b & 0x7F) / 127.0f * 12.0f - 6.0f);
    return std::clamp(mag, 1e-6f, 1e6f) * (b & 0x80 ? -1.0f : 1.0f);
  };
  Trs x;
  x.t = {t(), t(), t()};
  x.r = {r(), r(), r(), r()};
  x.s = {s(), s(), s()};
  return x;
}

}  // namespace

RigInput read_rig(Picker& in) {
  RigInput rig;
  const uint8_t flags = in.take();
  rig.raw = (flags & 0xC0) == 0xC0;
  rig.wild = (flags & 0x30) == 0x30;
  const size_t n = 1 + in.take() % 12;
  std::vector<uint16_t> ids(n);
  for (size_t i = 0, id = in.take() % 2; i < n; ++i, id += 1 + in.take() % 3) ids[i] = uint16_t(id);
  for (size_t i = 0; i < n; ++i) {
    SkelJoint j;
    j.id = ids[i];
    // Normally an earlier joint or a root; wild: any joint (later, itself), a root, or missing.
    const size_t k = in.take() % (rig.wild ? n + 2 : i + 1);
    const bool root = rig.wild ? k == n : k == i;
    j.parent = root ? int16_t(-1) : k <= n - 1 ? int16_t(ids[k]) : int16_t(999);
    j.bind = read_trs(in, rig.raw);
    rig.skel.joints.push_back(std::move(j));
  }
  for (uint16_t c = 0, clips = 1 + in.take() % 3; c < clips; ++c) {
    AnimClip clip;
    clip.id = uint16_t(c * 2 + in.take() % 2);
    clip.duration_ms = uint32_t(in.take()) * in.take();
    for (const SkelJoint& j : rig.skel.joints) {
      if ((in.take() & 1) == 0) continue;
      AnimTrack track;
      track.joint = j.id;
      uint32_t t = (in.take() & 1) ? uint32_t(in.take()) * 16 : 0;  // first key may be late
      for (uint32_t k = 0, keys = 1 + in.take() % 4; k < keys && t <= clip.duration_ms; ++k) {
        track.keys.push_back(AnimKey{t, read_trs(in, rig.raw)});
        t += 1 + uint32_t(in.take()) * 64;
      }
      if (!track.keys.empty()) clip.tracks.push_back(std::move(track));
    }
    rig.anim.clips.push_back(std::move(clip));
  }
  for (int i = 0; i < 4; ++i) {
    const uint8_t kind = in.take() % 6;
    const double d = double(rig.anim.clips[0].duration_ms);
    const uint64_t bits = uint64_t(std::bit_cast<uint32_t>(raw_float(in))) << 32 | in.take();
    rig.times.push_back(kind == 0   ? double(in.take()) * 64
                        : kind == 1 ? d
                        : kind == 2 ? -double(in.take()) * 100.5
                        : kind == 3 ? 1e12 + in.take()
                        : kind == 4 ? d * in.take() / 255.0
                                    : std::bit_cast<double>(bits));
  }
  return rig;
}

std::vector<uint8_t> d20_bounded(const RigRuntime& rt, const RigInput& rig) {
  const size_t n = rt.joint_count();
  std::vector<uint8_t> bounded(n, 0);
  std::vector<double> smax(n, 1), smin(n, 1);
  for (uint32_t j : rt.parent_first_order()) {
    const int32_t p = rt.parents()[j];
    const Vec3& b = rig.skel.joints[j].bind.s;
    double hi = 0, lo = std::min({std::fabs(b.x), std::fabs(b.y), std::fabs(b.z)});
    auto widen = [&](const Vec3& s) {
      hi = std::max({hi, double(std::fabs(s.x)), double(std::fabs(s.y)), double(std::fabs(s.z))});
    };
    widen(b);
    for (const AnimClip& c : rig.anim.clips)
      for (const AnimTrack& t : c.tracks)
        for (const AnimKey& k : t.keys)
          if (t.joint == rt.joint_id(j)) widen(k.trs.s);
    smax[j] = (p < 0 ? 1 : smax[size_t(p)]) * hi;
    smin[j] = (p < 0 ? 1 : smin[size_t(p)]) * lo;
    bounded[j] = !rig.raw && (p < 0 || bounded[size_t(p)]) && smax[j] <= 1e6 && smin[j] >= 1e-6;
  }
  return bounded;
}

void check_d19(const RigRuntime& rt, const RigInput& rig) {
  const size_t n = rt.joint_count();
  for (size_t j = 0; j < n; ++j) {
    const Trs& b = rig.skel.joints[j].bind;
    VOXRIG_FUZZ_CHECK((rt.bind_locals()[j] == Trs{b.t, normalized(b.r), b.s}),
                      "bind local is not the normalised bind TRS");
  }
  std::vector<Trs> out(n);
  for (size_t c = 0; c < rig.anim.clips.size(); ++c) {
    std::vector<uint8_t> animated(n, 0);
    for (const AnimTrack& track : rig.anim.clips[c].tracks) {
      const size_t j = size_t(rt.joint_index(track.joint));
      animated[j] = 1;
      for (const AnimKey& k : track.keys) {
        const SamplingJob job{&rt,     c,  double(k.time_ms), SamplePolicy::Step, TimeMode::Clamp,
                              nullptr, out};
        VOXRIG_FUZZ_CHECK(job.run().ok());
        VOXRIG_FUZZ_CHECK((out[j] == Trs{k.trs.t, normalized(k.trs.r), k.trs.s}),
                          "D19: Step at a key time is not the normalised key");
      }
    }
    for (size_t j = 0; j < n && !rig.anim.clips[c].tracks.empty(); ++j)
      VOXRIG_FUZZ_CHECK(animated[j] || out[j] == rt.bind_locals()[j],
                        "a joint without a track left its bind TRS");
  }
}

RkcInput read_rkc_rig(Picker& in) {
  RkcInput r;
  r.wild = (in.take() & 0x30) == 0x30;
  auto i32 = [&] { return int32_t(std::bit_cast<uint32_t>(raw_float(in))); };
  auto small = [&] { return float(int8_t(in.take())) / 16.0f; };
  const size_t n = 1 + in.take() % 8;
  for (size_t i = 0; i < n; ++i) {
    Hinge h;
    h.parent = r.wild ? i32() % 10 : int32_t(in.take() % (i + 1)) - 1;
    for (auto& v : {&h.p[0], &h.p[1], &h.v[0], &h.v[1]})
      for (float& f : *v) f = small();
    h.htype = in.take() % 4 == 0 ? in.take() : 0;
    r.hinges.push_back(h);
  }
  r.clip.frame_count = in.take() % 5;
  r.clip.numhin = r.wild && in.take() % 4 == 0 ? uint32_t(n + 1) : uint32_t(n);
  for (size_t k = 0; k < size_t{r.clip.frame_count} * r.clip.numhin; ++k) {
    BoneXform x;
    x.t = {small(), small(), small()};
    x.r = {small(), small(), small(), small()};
    x.s = {std::exp2(small() / 2), std::exp2(small() / 2), std::exp2(small() / 2)};
    r.clip.frames.push_back(x);
  }
  const int32_t len = in.take() % 8;
  for (int32_t i = 0, tim = int32_t(in.take()) - 16; i < len; ++i, tim += int32_t(in.take()) - 32) {
    const uint8_t kind = in.take() % 4;  // frame, jump (~target), stop marker (~own index), wild
    const int32_t frm = kind == 0   ? int32_t(in.take() % (r.clip.frame_count + 1))
                        : kind == 1 ? ~int32_t(in.take() % (len + 1))
                        : kind == 2 ? ~i
                                    : i32();
    r.clip.seq.push_back(Seq{in.take() % 8 == 0 ? i32() : tim, frm});
  }
  r.kfatim = in.take() % 4 == 0 ? i32() : int32_t(in.take());
  r.okfatim = in.take() % 4 == 0 ? i32() : int32_t(in.take());
  for (int32_t& a : r.advances) {
    const uint8_t kind = in.take() % 4;
    a = kind == 0   ? int32_t(in.take())
        : kind == 1 ? -int32_t(in.take())
        : kind == 2 ? i32()
                    : INT32_MAX - int32_t(in.take());
  }
  return r;
}

bool finite(const Trs& x) {
  for (float f : {x.t.x, x.t.y, x.t.z, x.r.x, x.r.y, x.r.z, x.r.w, x.s.x, x.s.y, x.s.z})
    if (!std::isfinite(f)) return false;
  return true;
}

bool finite(const Mat4& m) {
  return std::all_of(std::begin(m.m), std::end(m.m), [](float f) { return std::isfinite(f); });
}

bool inside_one_tile(const Quad& q) {
  const std::array<uint32_t, 3> c{q.x, q.y, q.z};
  const uint32_t u = c[size_t((q.axis + 1) % 3)], v = c[size_t((q.axis + 2) % 3)];
  return u / 64 == (u + q.w - 1) / 64 && v / 64 == (v + q.h - 1) / 64;
}

}  // namespace voxrig::fuzz
