// ANIM v1 payload: skeletal keyframes (seed chapter 6B; layout fixed by docs/spec/rig.md#anim).
//
// Header <BBH32s32s>, 68 B:
// | off | size | type  | field                                | check, in this order          |
// |-----|------|-------|--------------------------------------|-------------------------------|
// | 0   | 1    | u8    | version = 1                          | anim.bad_version (unsupp.)    |
// | 1   | 1    | u8    | reserved = 0                         | anim.reserved                 |
// | 2   | 2    | u16   | clipCount (0 is valid)               | anim.limit.clips              |
// | 4   | 32   | bytes | baseSourceHash = header sourceHash   | anim.base_source_hash         |
// | 36  | 32   | bytes | skeletonHash = SHA-256(SKEL payload) | anim.skeleton_hash            |
// Clip, prefix <HHIB3x> = 12 B, then name, then trackCount tracks:
// | +0  | 2    | u16   | clipId, > previous clipId            | anim.clip_order               |
// | +2  | 2    | u16   | trackCount (0 is valid)              |                               |
// | +4  | 4    | u32   | durationMs (0 is valid)              |                               |
// | +8  | 1    | u8    | nameLen                              |                               |
// | +9  | 3    | pad   | = 0 (one 3-byte field)               | anim.reserved                 |
// | +12 | n    | UTF-8 | name                                 | anim.bad_utf8                 |
// Track, prefix <HHI> = 8 B, then keyCount keys:
// | +0  | 2    | u16   | jointId, > previous in this clip,    | anim.track_order,             |
// |     |      |       |   a SKEL joint                       | anim.joint_missing            |
// | +2  | 2    | u16   | reserved = 0                         | anim.reserved                 |
// | +4  | 4    | u32   | keyCount >= 1,                       | anim.no_keys,                 |
// |     |      |       |   <= per-track limit,                | anim.limit.keys_per_track,    |
// |     |      |       |   running total <= total limit,      | anim.limit.keys_total,        |
// |     |      |       |   keyCount*44 bytes present          | anim.truncated                |
// Key <I3f4f3f> = 44 B (absolute local TRS):
// | +0  | 4    | u32   | timeMs, > previous, <= durationMs    | anim.key_time_order,          |
// |     |      |       |                                      | anim.key_time_range           |
// | +4  | 12   | 3f32  | translation xyz, each finite         | anim.non_finite               |
// | +16 | 16   | 4f32  | rotation xyzw, finite, then unit     | anim.non_finite,              |
// |     |      |       |                                      | anim.non_unit_rotation        |
// | +32 | 12   | 3f32  | scale xyz, each finite               | anim.non_finite               |
// After the last clip: no byte left (anim.trailing_bytes). Other reads that run past the payload
// are anim.truncated, field by field.
#include <algorithm>
#include <cstring>

#include "vfp/vfp_internal.h"
#include "voxrig/byte_writer.h"
#include "voxrig/utf8.h"
#include "voxrig/vfp.h"

namespace voxrig {

namespace {

using detail::num;

constexpr uint64_t kHeaderBytes = 68;
constexpr uint64_t kClipPrefixBytes = 12;
constexpr uint64_t kTrackPrefixBytes = 8;
constexpr uint64_t kKeyBytes = 44;

// The first failing rule of key k (cold: the fast loop saw something wrong). `key` is read by
// the caller; floats are checked in byte order.
[[gnu::cold]] Error key_error(const Path& p, const uint8_t* key_bytes, const AnimKey& key,
                              int64_t previous_time, uint32_t duration, uint64_t key_at) {
  if (static_cast<int64_t>(key.time_ms) <= previous_time)
    return error_at(ErrorCode::AnimKeyTimeOrder, key_at, p,
                    "timeMs " + num(key.time_ms) + " after " + num(previous_time));
  if (key.time_ms > duration)
    return error_at(ErrorCode::AnimKeyTimeRange, key_at, p,
                    "timeMs " + num(key.time_ms) + " > durationMs " + num(duration));
  // Re-read the TRS with SKEL's field-by-field reader: same check order, same offsets.
  ByteReader r(std::span<const uint8_t>(key_bytes + 4, kKeyBytes - 4), key_at + 4,
               ErrorCode::AnimTruncated);
  auto trs = detail::read_trs(r, p, ErrorCode::AnimNonFinite, ErrorCode::AnimNonUnitRotation);
  if (!trs.ok()) return std::move(trs).error();
  return error_at(ErrorCode::InternalBug, key_at, p, "key_error without error");
}

// Decodes and checks a key table whose bytes were checked present as a whole.
Status decode_keys(const uint8_t* p, uint32_t count, uint32_t duration, uint64_t at,
                   const Path& track_path, std::vector<AnimKey>& keys) {
  keys.resize(count);
  int64_t previous = -1;  // below every u32: key 0 needs no special case
  for (uint32_t k = 0; k < count; ++k, p += kKeyBytes) {
    AnimKey& key = keys[k];
    key.time_ms = load_u32(p);
    key.trs.t = {load_f32(p + 4), load_f32(p + 8), load_f32(p + 12)};
    key.trs.r = {load_f32(p + 16), load_f32(p + 20), load_f32(p + 24), load_f32(p + 28)};
    key.trs.s = {load_f32(p + 32), load_f32(p + 36), load_f32(p + 40)};
    // All ten exponents at once: any all-ones exponent (Inf/NaN) shows in the AND below.
    bool finite = true;
    for (int f = 0; f < 10; ++f) finite &= detail::is_finite_bits(load_f32(p + 4 + 4 * f));
    if (static_cast<int64_t>(key.time_ms) <= previous || key.time_ms > duration || !finite ||
        !is_unit_quaternion(key.trs.r))
      return key_error(track_path.child("key", k), p, key, previous, duration,
                       at + kKeyBytes * uint64_t{k});
    previous = key.time_ms;
  }
  return {};
}

}  // namespace

Result<Anim> decode_anim(std::span<const uint8_t> payload, uint64_t base, const RigContext& ctx,
                         const Limits& limits) {
  const Path root("ANIM");
  if (ctx.skel == nullptr)
    return error_at(ErrorCode::InternalBug, base, root, "decode_anim needs SKEL");
  ByteReader r(payload, base, ErrorCode::AnimTruncated);
  const detail::JointSet joints(*ctx.skel);

  VOXRIG_TRY(detail::read_version_1(r, root, ErrorCode::AnimBadVersion));
  VOXRIG_ASSIGN_OR_RETURN(const uint8_t reserved, r.u8(root));
  if (reserved != 0) return error_at(ErrorCode::AnimReserved, base + 1, root, "reserved byte at 1");
  VOXRIG_ASSIGN_OR_RETURN(const uint16_t clip_count, r.u16(root));
  VOXRIG_TRY(detail::check_count(r, clip_count, 0, limits.anim_clips, ErrorCode::AnimLimitClips,
                                 root, base + 2));
  Anim out;
  VOXRIG_ASSIGN_OR_RETURN(const auto source_hash, r.bytes(32, root));
  if (!std::equal(source_hash.begin(), source_hash.end(), ctx.source_hash.begin()))
    return error_at(ErrorCode::AnimBaseSourceHash, base + 4, root,
                    "baseSourceHash differs from the header sourceHash");
  VOXRIG_ASSIGN_OR_RETURN(const auto skeleton_hash, r.bytes(32, root));
  if (!std::equal(skeleton_hash.begin(), skeleton_hash.end(), ctx.skeleton_hash.begin()))
    return error_at(ErrorCode::AnimSkeletonHash, base + 36, root,
                    "skeletonHash differs from SHA-256 of the SKEL payload");
  std::memcpy(out.base_source_hash.data(), source_hash.data(), 32);
  std::memcpy(out.skeleton_hash.data(), skeleton_hash.data(), 32);

  uint64_t total_keys = 0;
  out.clips.reserve(std::min<uint64_t>(clip_count, r.remaining() / kClipPrefixBytes));
  for (uint32_t c = 0; c < clip_count; ++c) {
    const Path cp = root.child("clip", c);
    AnimClip clip;
    VOXRIG_ASSIGN_OR_RETURN(
        clip.id, detail::read_increasing_id(r, cp, c == 0, c == 0 ? 0 : out.clips.back().id,
                                            ErrorCode::AnimClipOrder, "clipId"));
    VOXRIG_ASSIGN_OR_RETURN(const uint16_t track_count, r.u16(cp));
    VOXRIG_ASSIGN_OR_RETURN(clip.duration_ms, r.u32(cp));
    VOXRIG_ASSIGN_OR_RETURN(clip.name, detail::read_padded_name(r, cp, ErrorCode::AnimReserved,
                                                                ErrorCode::AnimBadUtf8));

    clip.tracks.reserve(std::min<uint64_t>(track_count, r.remaining() / kTrackPrefixBytes));
    for (uint32_t t = 0; t < track_count; ++t) {
      const Path tp = cp.child("track", t);
      AnimTrack track;
      const uint64_t joint_at = r.offset();
      VOXRIG_ASSIGN_OR_RETURN(track.joint, detail::read_increasing_id(
                                               r, tp, t == 0, t == 0 ? 0 : clip.tracks.back().joint,
                                               ErrorCode::AnimTrackOrder, "jointId"));
      if (!joints.contains(track.joint))
        return error_at(ErrorCode::AnimJointMissing, joint_at, tp,
                        "jointId " + num(track.joint) + " is not in SKEL");
      VOXRIG_ASSIGN_OR_RETURN(const uint16_t track_reserved, r.u16(tp));
      if (track_reserved != 0)
        return error_at(ErrorCode::AnimReserved, joint_at + 2, tp, "reserved u16 of the track");
      const uint64_t count_at = r.offset();
      VOXRIG_ASSIGN_OR_RETURN(const uint32_t key_count, r.u32(tp));
      if (key_count == 0) return error_at(ErrorCode::AnimNoKeys, count_at, tp, "keyCount 0");
      VOXRIG_TRY(detail::check_count(r, key_count, 0, limits.anim_keys_per_track,
                                     ErrorCode::AnimLimitKeys, tp, count_at));
      total_keys += key_count;
      if (total_keys > limits.anim_keys_total)
        return error_at(ErrorCode::AnimLimitTotalKeys, count_at, tp,
                        num(total_keys) + " keys so far, limit " + num(limits.anim_keys_total));
      // The whole key table at once: the hot loop below reads without bounds checks.
      VOXRIG_TRY(r.checked_count(key_count, kKeyBytes, UINT64_MAX, ErrorCode::AnimLimitKeys, tp));
      const uint64_t keys_at = r.offset();
      VOXRIG_ASSIGN_OR_RETURN(const auto table, r.bytes(kKeyBytes * size_t{key_count}, tp));
      VOXRIG_TRY(decode_keys(table.data(), key_count, clip.duration_ms, keys_at, tp, track.keys));
      clip.tracks.push_back(std::move(track));
    }
    out.clips.push_back(std::move(clip));
  }
  VOXRIG_TRY(r.expect_end(ErrorCode::AnimTrailingBytes, root));
  return out;
}

uint64_t detail::anim_payload_size(const Anim& anim) {
  uint64_t total = kHeaderBytes;
  for (const AnimClip& clip : anim.clips) {
    total += kClipPrefixBytes + clip.name.size();
    for (const AnimTrack& track : clip.tracks)
      total += kTrackPrefixBytes + kKeyBytes * track.keys.size();
  }
  return total;
}

Result<std::vector<uint8_t>> encode_anim(const Anim& anim) {
  const Path root("ANIM");
  if (anim.clips.size() > 0xFFFF)
    return detail::write_too_large(anim.clips.size(), root, "clips do not fit clipCount (u16)");
  for (size_t c = 0; c < anim.clips.size(); ++c) {
    const AnimClip& clip = anim.clips[c];
    const Path cp = root.child("clip", static_cast<int64_t>(c));
    if (clip.name.size() > detail::kMaxNameBytes)
      return detail::write_name_too_long(clip.name.size(), cp);
    if (clip.tracks.size() > 0xFFFF)
      return detail::write_too_large(clip.tracks.size(), cp, "tracks do not fit trackCount (u16)");
    for (size_t t = 0; t < clip.tracks.size(); ++t) {
      const uint64_t keys = clip.tracks[t].keys.size();
      if (keys > 0xFFFFFFFFu)
        return detail::write_too_large(keys, cp.child("track", static_cast<int64_t>(t)),
                                       "keys do not fit keyCount (u32)");
    }
  }
  const uint64_t total = detail::anim_payload_size(anim);
  if (total > 0xFFFFFFFFu)
    return error_at(ErrorCode::VfpWriteTooLarge, 0, root,
                    "payload of " + num(total) + " bytes does not fit a section");
  ByteWriter w;
  w.reserve(static_cast<size_t>(total));
  w.u8(1);
  w.u8(0);
  w.u16(static_cast<uint16_t>(anim.clips.size()));
  w.bytes(anim.base_source_hash);
  w.bytes(anim.skeleton_hash);
  for (const AnimClip& clip : anim.clips) {
    w.u16(clip.id);
    w.u16(static_cast<uint16_t>(clip.tracks.size()));
    w.u32(clip.duration_ms);
    w.u8(static_cast<uint8_t>(clip.name.size()));
    w.zeros(3);
    w.bytes(clip.name);
    for (const AnimTrack& track : clip.tracks) {
      w.u16(track.joint);
      w.u16(0);
      w.u32(static_cast<uint32_t>(track.keys.size()));
      for (const AnimKey& k : track.keys) {
        w.u32(k.time_ms);
        for (float f : {k.trs.t.x, k.trs.t.y, k.trs.t.z, k.trs.r.x, k.trs.r.y, k.trs.r.z, k.trs.r.w,
                        k.trs.s.x, k.trs.s.y, k.trs.s.z})
          w.f32(f);
      }
    }
  }
  return w.take();
}

}  // namespace voxrig
