// KFA skeleton + animation codec (docs/spec/kfa.md) and the seed's lossy Character export.
//
// | Field     | Type                    | Notes                                         |
// |-----------|-------------------------|-----------------------------------------------|
// | magic     | u32 0x6B6C774B          | bytes "Kwlk"                                  |
// | name_len  | u32                     |                                               |
// | kv6_name  | name_len bytes          | raw, no NUL, not decoded                      |
// | numhin    | u32                     | limit kfa_hinges                              |
// | hinges    | numhin x 64 B Hinge     | same record as RKCH BONS                      |
// | numfrm    | u32                     | limit kfa_frame_cells on numfrm*max(numhin,1) |
// | frmval    | numfrm x numhin x i16   | frame-major Q15 angles                        |
// | seqnum    | u32                     | limit kfa_seq                                 |
// | seq       | seqnum x {tim i32, frm i32} |                                           |
// Bytes after seq are ignored (kfa.trailing_bytes warning). After the whole file is read:
// each hinge's parent (kfa.parent_range), then cycles (kfa.parent_cycle), as RKCH (D9).
#include <string>

#include "rkc/rkc_detail.h"
#include "voxrig/kfa.h"
#include "voxrig/validate.h"

namespace voxrig {

namespace {

constexpr uint8_t kMagic[4] = {'K', 'w', 'l', 'k'};

// A u32 count rejected with `code` at its own offset when over `limit` ("numhin 9 exceeds
// limit 8"), before anything is sized by it.
Result<uint32_t> read_limited_count(ByteReader& r, const Path& p, const char* label, uint64_t limit,
                                    ErrorCode code) {
  const uint64_t at = r.offset();
  VOXRIG_ASSIGN_OR_RETURN(const uint32_t count, r.u32(p));
  if (count > limit)
    return error_at(code, at, p,
                    std::string(label) + " " + std::to_string(count) + " exceeds limit " +
                        std::to_string(limit));
  return count;
}

Result<Kfa> decode_kfa_impl(std::span<const uint8_t> bytes, const DecodeOptions& options,
                            detail::WarningSink& sink) {
  const Path root;
  const Limits& lim = options.limits;
  ByteReader r(bytes, 0, ErrorCode::KfaTruncated);
  VOXRIG_ASSIGN_OR_RETURN(const uint32_t magic, r.u32(root));
  if (magic != load_u32(kMagic))
    return error_at(ErrorCode::KfaBadMagic, 0, root, "expected \"Kwlk\"");

  Kfa k;
  VOXRIG_ASSIGN_OR_RETURN(const uint32_t name_len, r.u32(root));
  VOXRIG_ASSIGN_OR_RETURN(auto name, r.bytes(name_len, Path().child("name")));
  k.kv6_name.assign(name.begin(), name.end());

  VOXRIG_ASSIGN_OR_RETURN(
      const uint32_t numhin,
      read_limited_count(r, root, "numhin", lim.kfa_hinges, ErrorCode::KfaLimitHinges));
  const uint64_t hinges_at = r.offset();
  VOXRIG_ASSIGN_OR_RETURN(auto hin,
                          detail::read_table(r, numhin, detail::kHingeSize, root, "hinge"));
  k.hinges.resize(numhin);
  for (size_t i = 0; i < numhin; ++i)
    k.hinges[i] = detail::load_hinge(hin.data() + detail::kHingeSize * i);

  const uint64_t numfrm_at = r.offset();
  VOXRIG_ASSIGN_OR_RETURN(k.frame_count, r.u32(root));
  // Hazard H3: a zero-width table (numhin 0) with 4 billion frames reads no bytes at all, so the
  // limit counts each row as at least one cell.
  const uint64_t cells = uint64_t{k.frame_count} * numhin;
  const uint64_t charged = uint64_t{k.frame_count} * (numhin == 0 ? 1 : numhin);
  if (charged > lim.kfa_frame_cells)
    return error_at(ErrorCode::KfaLimitFrameCells, numfrm_at, root,
                    std::to_string(k.frame_count) + " frame(s) x " + std::to_string(numhin) +
                        " hinge(s) exceeds limit " + std::to_string(lim.kfa_frame_cells));
  VOXRIG_ASSIGN_OR_RETURN(auto frm, detail::read_table(r, cells, 2, root, "frmval"));
  k.frames.resize(cells);
  for (size_t i = 0; i < cells; ++i)
    k.frames[i] = static_cast<int16_t>(load_u16(frm.data() + 2 * i));

  VOXRIG_ASSIGN_OR_RETURN(const uint32_t seqnum, read_limited_count(r, root, "seqnum", lim.kfa_seq,
                                                                    ErrorCode::KfaLimitSeq));
  VOXRIG_ASSIGN_OR_RETURN(auto sq, detail::read_table(r, seqnum, detail::kSeqSize, root, "seq"));
  k.seq.resize(seqnum);
  for (size_t i = 0; i < seqnum; ++i) {
    const uint8_t* p = sq.data() + detail::kSeqSize * i;
    k.seq[i] = Seq{static_cast<int32_t>(load_u32(p)), static_cast<int32_t>(load_u32(p + 4))};
  }
  if (!r.at_end())
    sink.add(WarningCode::KfaTrailingBytes, r.offset(), root,
             std::to_string(r.remaining()) + " byte(s) after seq are dropped on write");

  // QE.6b skeleton checks, RKCH's order: every parent's range first, then cycles.
  std::vector<int32_t> parents(numhin);
  for (size_t i = 0; i < numhin; ++i) parents[i] = k.hinges[i].parent;
  if (auto i = first_parent_out_of_range(parents))
    return error_at(
        ErrorCode::KfaParentRange, hinges_at + detail::kHingeSize * *i,
        Path().child("hinge", static_cast<int64_t>(*i)),
        "parent " + std::to_string(parents[*i]) + " of " + std::to_string(numhin) + " hinge(s)");
  if (auto start = first_cycle_start(parents))
    return error_at(ErrorCode::KfaParentCycle, hinges_at + detail::kHingeSize * *start,
                    Path().child("hinge", static_cast<int64_t>(*start)),
                    "the parent chain never reaches a root");
  return k;
}

// decode_kfa_impl's success path, as decode_rkc_fast is decode_rkc_impl's: true with `k` set as
// decode_kfa_impl (null sink) sets it, false whenever decode_kfa_impl fails, and the caller then
// runs decode_kfa_impl for the error. A KFA is a few hundred bytes, so its decode cost is per
// call: no Result or Path per field, one bounds check per table, and no scratch for the cycle
// check when every parent comes before its hinge (the common order: parent_precedes).
bool decode_kfa_fast(std::span<const uint8_t> bytes, const Limits& lim, Kfa& k) {
  const uint8_t* p = bytes.data();
  size_t left = bytes.size();
  // magic, name_len | name | numhin
  if (left < 8 || load_u32(p) != load_u32(kMagic)) return false;
  const uint32_t name_len = load_u32(p + 4);
  p += 8;
  left -= 8;
  if (name_len > left || left - name_len < 4) return false;
  k.kv6_name.assign(p, p + name_len);
  p += name_len;
  left -= name_len;
  const uint32_t numhin = load_u32(p);
  p += 4;
  left -= 4;
  if (numhin > lim.kfa_hinges || numhin > left / detail::kHingeSize) return false;
  k.hinges.reserve(numhin);
  bool parents_first = true;
  for (uint32_t i = 0; i < numhin; ++i, p += detail::kHingeSize) {
    Hinge& h = k.hinges.emplace_back();
    detail::load_hinge_into(h, p);
    if (!parent_in_range(h.parent, numhin)) return false;
    parents_first &= parent_precedes(h.parent, i);
  }
  left -= size_t{numhin} * detail::kHingeSize;
  // numfrm | frmval | seqnum
  if (left < 4) return false;
  k.frame_count = load_u32(p);
  p += 4;
  left -= 4;
  const uint64_t cells = uint64_t{k.frame_count} * numhin;
  const uint64_t charged = uint64_t{k.frame_count} * (numhin == 0 ? 1 : numhin);
  if (charged > lim.kfa_frame_cells || cells > left / 2) return false;
  // resize, then an indexed loop the compiler vectorises (push_back per cell does not).
  k.frames.resize(static_cast<size_t>(cells));
  for (size_t i = 0; i < k.frames.size(); ++i)
    k.frames[i] = static_cast<int16_t>(load_u16(p + 2 * i));
  p += static_cast<size_t>(cells) * 2;
  left -= static_cast<size_t>(cells) * 2;
  if (left < 4) return false;
  const uint32_t seqnum = load_u32(p);
  p += 4;
  left -= 4;
  if (seqnum > lim.kfa_seq || seqnum > left / detail::kSeqSize) return false;
  k.seq.resize(seqnum);
  for (uint32_t i = 0; i < seqnum; ++i, p += detail::kSeqSize)
    k.seq[i] = Seq{static_cast<int32_t>(load_u32(p)), static_cast<int32_t>(load_u32(p + 4))};
  // Trailing bytes: a validate_kfa warning only. Parents are in range; cycles are impossible
  // when each parent precedes its hinge, else first_cycle_start decides.
  if (parents_first) return true;
  std::vector<int32_t> parents(numhin);
  for (size_t i = 0; i < numhin; ++i) parents[i] = k.hinges[i].parent;
  return !first_cycle_start(parents).has_value();
}

}  // namespace

static Result<Kfa> decode_kfa_unguarded(std::span<const uint8_t> bytes,
                                        const DecodeOptions& options) {
  // The success path first; a file it does not accept is decoded again field by field, which
  // reports the error. One named result built in place (as decode_rkc).
  Result<Kfa> out{std::in_place};
  if (!decode_kfa_fast(bytes, options.limits, out.value())) {
    out.value() = Kfa{};
    detail::WarningSink none;
    out = decode_kfa_impl(bytes, options, none);
  }
  return out;
}

// The public entry point: allocation failure becomes internal.out_of_memory (result.h).
Result<Kfa> decode_kfa(std::span<const uint8_t> bytes, const DecodeOptions& options) {
  return guard_out_of_memory([&] { return decode_kfa_unguarded(bytes, options); });
}

Result<std::vector<Warning>> validate_kfa(std::span<const uint8_t> bytes,
                                          const DecodeOptions& options) {
  return detail::collect_warnings(
      [&](detail::WarningSink& sink) { return decode_kfa_impl(bytes, options, sink); });
}

static Result<std::vector<uint8_t>> encode_kfa_unguarded(const Kfa& k) {
  constexpr uint64_t kMax = 0xFFFFFFFFu;
  if (k.kv6_name.size() > kMax || k.hinges.size() > kMax || k.seq.size() > kMax)
    return error_at(ErrorCode::KfaWriteTooLarge, 0, Path(),
                    "a count or the name length does not fit in u32");
  if (k.frames.size() != uint64_t{k.frame_count} * k.hinges.size())
    return error_at(ErrorCode::KfaWriteNotRectangular, 0, Path().child("frmval"),
                    std::to_string(k.frames.size()) + " value(s) for " +
                        std::to_string(k.frame_count) + " frame(s) x " +
                        std::to_string(k.hinges.size()) + " hinge(s)");
  ByteWriter w;
  w.reserve(20 + k.kv6_name.size() + detail::kHingeSize * k.hinges.size() + 2 * k.frames.size() +
            detail::kSeqSize * k.seq.size());
  w.bytes(std::span<const uint8_t>(kMagic));
  w.u32(static_cast<uint32_t>(k.kv6_name.size()));
  w.bytes(k.kv6_name);
  w.u32(static_cast<uint32_t>(k.hinges.size()));
  for (const Hinge& h : k.hinges) detail::write_hinge(w, h);
  w.u32(k.frame_count);
  for (int16_t v : k.frames) w.i16(v);
  w.u32(static_cast<uint32_t>(k.seq.size()));
  for (const Seq& s : k.seq) {
    w.i32(s.tim);
    w.i32(s.frm);
  }
  return w.take();
}

// The public entry point: allocation failure becomes internal.out_of_memory (result.h).
Result<std::vector<uint8_t>> encode_kfa(const Kfa& k) {
  return guard_out_of_memory([&] { return encode_kfa_unguarded(k); });
}

Result<Kfa> character_to_kfa(const Character& c, std::optional<size_t> clip,
                             std::span<const uint8_t> kv6_name) {
  Kfa k;
  k.kv6_name.assign(kv6_name.begin(), kv6_name.end());
  k.hinges.reserve(c.bones.size());
  for (const Bone& b : c.bones) k.hinges.push_back(b.hinge);
  if (!clip || *clip >= c.clips.size()) return k;
  const auto* sk = std::get_if<SkeletalClip>(&c.clips[*clip].data);
  if (!sk) return k;  // an Unknown clip exports no animation (as the seed)
  const Path p = Path("CLPS").child("clip", static_cast<int64_t>(*clip));
  if (sk->numhin != c.bones.size())
    return error_at(ErrorCode::RkcClipBoneCount, 0, p,
                    "numhin " + std::to_string(sk->numhin) +
                        " != " + std::to_string(c.bones.size()) + " bone(s)");
  if (sk->frames.size() != uint64_t{sk->frame_count} * sk->numhin)
    return error_at(ErrorCode::RkcWriteNotRectangular, 0, p,
                    "frames.size() != frame_count * numhin");
  k.frame_count = sk->frame_count;
  k.frames.resize(sk->frames.size());
  for (size_t i = 0; i < sk->frames.size(); ++i) {
    const auto& v0 = c.bones[i % sk->numhin].hinge.v[0];
    k.frames[i] = hinge_angle(sk->frames[i], v0);
  }
  k.seq = sk->seq;
  return k;
}

}  // namespace voxrig
