// RVC frame validation and decode (docs/spec/rvc.md#frame-decode), from_frames (D24) and playback (docs/spec/rkc-evaluation.md#rvc-playback).
//
// Dense-column layout (docs/spec/rvc.md): cols = dims[0]*dims[1], col = x + y*dims[0];
// owpc = max(1, ceil(dims[2]/32)); voxel (x,y,z) is solid iff bit z&31 of word col*owpc+(z>>5);
// colors hold 0x80RRGGBB per solid voxel, ascending z per column, columns in order;
// color_offsets (cols+1) is the prefix sum of the per-column run lengths.
//
// Validation order (the seed's): per frame in stream order, a Key is checked with
// occupancy_len, offsets_len, offsets_bounds, then per column offsets_monotonic and
// occupancy_color_mismatch; a Delta gives delta_before_key, then column_out_of_range for the
// first listed column past cols. Only after the whole stream is rebuilt is every frame checked
// again, so a popcount mismatch introduced by a delta is reported after every stream error.
//
// Memory: the seed allocates cols*owpc words + cols Vecs from dims alone before any frame (H6).
// Here that state's size, 4*cols*owpc + 4*(cols+1) bytes, is checked against
// Limits::rvc_working_set first, and nothing is allocated until a key frame (whose occupancy
// array already proves the size is backed by input bytes) arrives. decode_rvc_frames also counts
// every materialized frame against the limit (H7: many cheap deltas stop at the limit);
// validate_rvc_frames keeps one state only, so its cost is linear in the stored bytes.
// Per-voxel directions (`dirs`, docs/spec/rvc.md#frame-decode step 4) are not computed: no dump uses them (D8), so
// neither their cost (H7) nor the stray-bit mismatch (H8) exists here.
#include <algorithm>
#include <bit>
#include <optional>
#include <string>

#include "rkc/rvc_internal.h"
#include "voxrig/byte_reader.h"
#include "voxrig/rvc.h"

namespace voxrig {

namespace {

constexpr uint64_t kSat = UINT64_MAX;

uint64_t mul_sat(uint64_t a, uint64_t b) {
  uint64_t r;
  return __builtin_mul_overflow(a, b, &r) ? kSat : r;
}
uint64_t add_sat(uint64_t a, uint64_t b) {
  uint64_t r;
  return __builtin_add_overflow(a, b, &r) ? kSat : r;
}

struct Shape {
  uint64_t cols;  // saturated
  uint32_t owpc;
  uint64_t words;  // cols*owpc, saturated
};

Shape shape_of(const RvcMeta& m) {
  Shape s;
  s.cols = mul_sat(m.dims[0], m.dims[1]);
  s.owpc = rvc_owpc(m.dims[2]);
  s.words = mul_sat(s.cols, s.owpc);
  return s;
}

// Bytes of one rebuilt state: occupancy words + colour offsets (colours come from input).
uint64_t state_bytes(const Shape& s) {
  return add_sat(mul_sat(s.words, 4), mul_sat(add_sat(s.cols, 1), 4));
}

uint64_t popcount_words(const uint32_t* w, uint32_t n) {
  uint64_t bits = 0;
  for (uint32_t i = 0; i < n; ++i) bits += static_cast<uint64_t>(std::popcount(w[i]));
  return bits;
}

// Error for frame i (D12): the offset is the frame's kind byte in the file, or for a deflated
// FRMS the chunk's payload offset with "@inflated+N" in the path.
Error frame_error(const RvcClip& clip, ErrorCode code, size_t i, const Path& p,
                  std::string detail) {
  Error e = error_at(code, clip.source.frms_offset, p, std::move(detail));
  if (i < clip.frames.size()) {
    const uint64_t pos = clip.frames.stored_offset(i);
    if (clip.source.frms_deflated)
      e.path += "@inflated+" + std::to_string(pos);
    else
      e.offset += pos;
  }
  return e;
}

Path frame_path(size_t i) { return Path("FRMS").child("frame", static_cast<int64_t>(i)); }

Status working_set_check(const RvcClip& clip, const Shape& s, const Limits& limits) {
  const uint64_t need = state_bytes(s);
  if (need <= limits.rvc_working_set) return {};
  Error e = error_at(ErrorCode::RvcLimitWorkingSet, clip.source.meta_offset, "META/dims",
                     "one decoded frame needs " +
                         (need == kSat ? std::string("> 2^64") : std::to_string(need)) +
                         " bytes, limit " + std::to_string(limits.rvc_working_set));
  if (clip.source.meta_deflated) e.path += "@inflated+0";
  return e;
}

// VoxelFrame::validate(dims) in the seed's order; nullopt when the frame is valid.
std::optional<Error> check_frame(const RvcClip& clip, const RvcKeyView& f, const Shape& s,
                                 size_t i) {
  const Path p = frame_path(i);
  if (f.occupancy.size() != s.words)
    return frame_error(clip, ErrorCode::RvcOccupancyLen, i, p.child("occupancy"),
                       std::to_string(f.occupancy.size()) + " words, expected cols*owpc");
  if (f.color_offsets.size() != add_sat(s.cols, 1))
    return frame_error(clip, ErrorCode::RvcOffsetsLen, i, p.child("color_offsets"),
                       std::to_string(f.color_offsets.size()) + " offsets, expected cols+1");
  if (f.color_offsets.front() != 0 || f.color_offsets.back() != f.colors.size())
    return frame_error(clip, ErrorCode::RvcOffsetsBounds, i, p.child("color_offsets"),
                       "first offset must be 0 and last must be the colour count");
  for (uint64_t c = 0; c < s.cols; ++c) {
    const uint32_t lo = f.color_offsets[c], hi = f.color_offsets[c + 1];
    if (hi < lo)
      return frame_error(clip, ErrorCode::RvcOffsetsMonotonic, i,
                         p.child("column", static_cast<int64_t>(c)), "offsets decrease");
    if (popcount_words(f.occupancy.data() + c * s.owpc, s.owpc) != hi - lo)
      return frame_error(clip, ErrorCode::RvcOccupancyColorMismatch, i,
                         p.child("column", static_cast<int64_t>(c)),
                         "solid voxel count differs from the colour run length");
  }
  return std::nullopt;
}

// Checks a delta's listed columns against cols and its own arrays (a hand-built view can make
// them disagree; parse cannot). Fills `starts` with each listing's first colour index.
std::optional<Error> check_delta(const RvcClip& clip, const RvcDeltaView& d, const Shape& s,
                                 size_t i, std::vector<uint64_t>& starts) {
  starts.assign(1, 0);
  for (size_t k = 0; k < d.cols.size(); ++k) {
    const uint64_t next = k < d.color_counts.size() ? starts.back() + d.color_counts[k] : kSat;
    if (d.cols[k] >= s.cols || mul_sat(k + 1, s.owpc) > d.occupancy.size() ||
        k >= d.color_counts.size() || next > d.colors.size())
      return frame_error(clip, ErrorCode::RvcColumnOutOfRange, i,
                         frame_path(i).child("column", static_cast<int64_t>(k)),
                         "column " + std::to_string(d.cols[k]) + " is out of range");
    starts.push_back(next);
  }
  return std::nullopt;
}

// Listing indices sorted by column, only the last listing of each column kept.
std::vector<uint32_t> last_listing_by_column(const RvcDeltaView& d) {
  std::vector<uint32_t> order(d.cols.size());
  for (size_t k = 0; k < order.size(); ++k) order[k] = static_cast<uint32_t>(k);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return d.cols[a] < d.cols[b]; });
  std::vector<uint32_t> out;
  out.reserve(order.size());
  for (size_t k = 0; k < order.size(); ++k)
    if (k + 1 == order.size() || d.cols[order[k + 1]] != d.cols[order[k]]) out.push_back(order[k]);
  return out;
}

}  // namespace

Status validate_rvc_frames(const RvcClip& clip, const Limits& limits) {
  const Shape s = shape_of(clip.meta);
  VOXRIG_TRY(working_set_check(clip, s, limits));
  std::vector<uint32_t> occ;     // cols*owpc words, allocated at the first key
  std::vector<uint32_t> runlen;  // colour-run length per column
  bool have_key = false;
  uint64_t bad = 0;  // columns whose popcount differs from their run length
  std::optional<Error> revalidation;
  std::vector<uint64_t> starts;
  auto is_bad = [&](uint64_t c) {
    return popcount_words(occ.data() + c * s.owpc, s.owpc) != runlen[c];
  };
  for (size_t i = 0; i < clip.frames.size(); ++i) {
    if (clip.frames.is_key(i)) {
      const RvcKeyView key = clip.frames.key(i);
      if (auto e = check_frame(clip, key, s, i)) return *e;
      occ.assign(key.occupancy.begin(), key.occupancy.end());
      runlen.resize(s.cols);
      for (uint64_t c = 0; c < s.cols; ++c)
        runlen[c] = key.color_offsets[c + 1] - key.color_offsets[c];
      have_key = true;
      bad = 0;
    } else {
      const RvcDeltaView d = clip.frames.delta(i);
      if (!have_key)
        return frame_error(clip, ErrorCode::RvcDeltaBeforeKey, i, frame_path(i),
                           "a delta frame before any key frame");
      if (auto e = check_delta(clip, d, s, i, starts)) return *e;
      for (size_t k = 0; k < d.cols.size(); ++k) {
        const uint64_t c = d.cols[k];
        const bool before = is_bad(c);
        std::copy_n(d.occupancy.begin() + static_cast<std::ptrdiff_t>(k * s.owpc), s.owpc,
                    occ.begin() + static_cast<std::ptrdiff_t>(c * s.owpc));
        runlen[c] = d.color_counts[k];
        const bool after = is_bad(c);
        bad = bad - (before ? 1 : 0) + (after ? 1 : 0);
      }
    }
    if (bad != 0 && !revalidation) {
      uint64_t c = 0;
      while (!is_bad(c)) ++c;
      revalidation = frame_error(clip, ErrorCode::RvcOccupancyColorMismatch, i,
                                 frame_path(i).child("column", static_cast<int64_t>(c)),
                                 "after applying deltas, solid voxel count differs from the "
                                 "colour run length");
    }
  }
  if (revalidation) return *revalidation;
  return {};
}

Result<RvcDecoded> decode_rvc_frames(const RvcClip& clip, const Limits& limits) {
  const Shape s = shape_of(clip.meta);
  VOXRIG_TRY(working_set_check(clip, s, limits));
  RvcDecoded out;
  out.dims = clip.meta.dims;
  uint64_t used = 0;
  auto charge = [&](size_t i, uint64_t colors) -> Status {
    const uint64_t bytes =
        add_sat(add_sat(state_bytes(s), mul_sat(colors, 4)), sizeof(RvcVoxelFrame));
    used = add_sat(used, bytes);
    if (used <= limits.rvc_working_set) return {};
    return frame_error(
        clip, ErrorCode::RvcLimitWorkingSet, i, frame_path(i),
        "decoded frames exceed the working-set limit " + std::to_string(limits.rvc_working_set));
  };
  std::vector<uint64_t> starts;
  for (size_t i = 0; i < clip.frames.size(); ++i) {
    if (clip.frames.is_key(i)) {
      const RvcKeyView key = clip.frames.key(i);
      if (auto e = check_frame(clip, key, s, i)) return *e;
      VOXRIG_TRY(charge(i, key.colors.size()));
      out.frames.push_back(key.to_frame());
      continue;
    }
    const RvcDeltaView d = clip.frames.delta(i);
    if (out.frames.empty())
      return frame_error(clip, ErrorCode::RvcDeltaBeforeKey, i, frame_path(i),
                         "a delta frame before any key frame");
    if (auto e = check_delta(clip, d, s, i, starts)) return *e;
    const std::vector<uint32_t> listed = last_listing_by_column(d);
    const RvcVoxelFrame& prev = out.frames.back();
    uint64_t colors = prev.colors.size();
    for (uint32_t k : listed) {
      const uint64_t c = d.cols[k];
      colors = colors - (prev.color_offsets[c + 1] - prev.color_offsets[c]) + d.color_counts[k];
    }
    VOXRIG_TRY(charge(i, colors));
    // next = prev with the listed columns replaced; unchanged runs of columns are copied in
    // blocks (an empty delta is three memcpys), so the cost is the frame size, not per column.
    RvcVoxelFrame next;
    next.occupancy = prev.occupancy;
    next.color_offsets.resize(s.cols + 1);
    next.colors.reserve(colors);
    const uint32_t* poff = prev.color_offsets.data();
    uint32_t* noff = next.color_offsets.data();
    uint64_t c0 = 0;
    auto copy_unchanged = [&](uint64_t c1) {  // columns [c0, c1) as in prev
      const uint32_t lo = poff[c0], hi = poff[c1];
      const auto base = static_cast<uint32_t>(next.colors.size());
      if (base == lo) {
        std::copy(poff + c0, poff + c1, noff + c0);
      } else {
        for (uint64_t c = c0; c < c1; ++c) noff[c] = poff[c] - lo + base;
      }
      next.colors.insert(next.colors.end(), prev.colors.begin() + lo, prev.colors.begin() + hi);
    };
    for (uint32_t k : listed) {
      const uint64_t c = d.cols[k];
      copy_unchanged(c);
      noff[c] = static_cast<uint32_t>(next.colors.size());
      std::copy_n(d.occupancy.begin() + static_cast<std::ptrdiff_t>(k * s.owpc), s.owpc,
                  next.occupancy.begin() + static_cast<std::ptrdiff_t>(c * s.owpc));
      next.colors.insert(next.colors.end(),
                         d.colors.begin() + static_cast<std::ptrdiff_t>(starts[k]),
                         d.colors.begin() + static_cast<std::ptrdiff_t>(starts[k + 1]));
      c0 = c + 1;
    }
    copy_unchanged(s.cols);
    noff[s.cols] = static_cast<uint32_t>(next.colors.size());
    out.frames.push_back(std::move(next));
  }
  for (size_t i = 0; i < out.frames.size(); ++i)
    if (auto e = check_frame(clip, out.frames[i], s, i)) return *e;
  out.durations = rvc_effective_durations(clip);
  return out;
}

std::vector<uint32_t> rvc_effective_durations(const RvcClip& clip) {
  if (clip.has_time) return clip.durations;
  return std::vector<uint32_t>(clip.frames.size(), clip.meta.default_frame_ms);
}

uint32_t rvc_frame_at(std::span<const uint32_t> durations, RvcLoopMode mode, uint64_t elapsed_ms) {
  const size_t n = durations.size();
  if (n <= 1) return 0;
  unsigned __int128 total = 0;
  for (uint32_t d : durations) total += d;
  if (total == 0) return 0;
  unsigned __int128 t;
  const unsigned __int128 e = elapsed_ms;
  switch (mode) {
    case RvcLoopMode::Once:
      t = std::min(e, total - 1);
      break;
    case RvcLoopMode::PingPong: {
      const unsigned __int128 p = e % (2 * total);
      t = p < total ? p : 2 * total - 1 - p;
      break;
    }
    case RvcLoopMode::Loop:
    default:
      t = e % total;
      break;
  }
  unsigned __int128 run = 0;
  for (size_t i = 0; i < n; ++i) {
    run += durations[i];
    if (run > t) return static_cast<uint32_t>(i);
  }
  return static_cast<uint32_t>(n - 1);
}

// ---- from_frames (D24) ------------------------------------------------------------------------

namespace {

// Whether f can be diffed column by column: lengths fit dims and offsets are a proper prefix sum.
bool diffable(const RvcVoxelFrame& f, const Shape& s) {
  if (f.occupancy.size() != s.words || f.color_offsets.size() != add_sat(s.cols, 1)) return false;
  if (f.color_offsets.front() != 0 || f.color_offsets.back() != f.colors.size()) return false;
  for (uint64_t c = 0; c < s.cols; ++c)
    if (f.color_offsets[c + 1] < f.color_offsets[c]) return false;
  return true;
}

RvcDeltaFrame diff_frames(const RvcVoxelFrame& prev, const RvcVoxelFrame& cur, const Shape& s) {
  RvcDeltaFrame d;
  for (uint64_t c = 0; c < s.cols; ++c) {
    const auto po = prev.occupancy.begin() + static_cast<std::ptrdiff_t>(c * s.owpc);
    const auto co = cur.occupancy.begin() + static_cast<std::ptrdiff_t>(c * s.owpc);
    const auto pb = prev.colors.begin() + prev.color_offsets[c];
    const auto pe = prev.colors.begin() + prev.color_offsets[c + 1];
    const auto cb = cur.colors.begin() + cur.color_offsets[c];
    const auto ce = cur.colors.begin() + cur.color_offsets[c + 1];
    if (std::equal(po, po + s.owpc, co) && std::equal(pb, pe, cb, ce)) continue;
    d.cols.push_back(static_cast<uint32_t>(c));
    d.occupancy.insert(d.occupancy.end(), co, co + s.owpc);
    d.color_counts.push_back(static_cast<uint32_t>(ce - cb));
    d.colors.insert(d.colors.end(), cb, ce);
  }
  return d;
}

}  // namespace

RvcClip rvc_from_frames(std::array<uint32_t, 3> dims, std::array<float, 3> pivot,
                        float voxel_world_size, RvcLoopMode loop_mode,
                        std::span<const RvcVoxelFrame> frames, std::span<const uint32_t> durations,
                        uint32_t default_frame_ms, uint32_t keyframe_interval) {
  RvcClip clip;
  clip.version = 2;
  clip.meta.dims = dims;
  clip.meta.pivot = pivot;
  clip.meta.voxel_world_size = voxel_world_size;
  clip.meta.loop_mode = loop_mode;
  clip.meta.default_frame_ms = default_frame_ms;
  clip.meta.frame_count = static_cast<uint32_t>(frames.size());
  const Shape s = shape_of(clip.meta);
  for (size_t i = 0; i < frames.size(); ++i) {
    const bool key = i == 0 || (keyframe_interval != 0 && i % keyframe_interval == 0);
    if (!key && diffable(frames[i - 1], s) && diffable(frames[i], s))
      clip.frames.push_delta(diff_frames(frames[i - 1], frames[i], s));
    else
      clip.frames.push_key(frames[i]);
  }
  clip.has_time = !durations.empty();
  clip.durations.assign(durations.begin(), durations.end());

  clip.chunks.push_back(rvc_make_chunk({'M', 'E', 'T', 'A'}, detail::encode_meta(clip.meta)));
  clip.source.meta_deflated = clip.chunks.back().deflated();
  auto frms = detail::encode_frms(clip);
  // Unreachable for frames built above (every delta is consistent; sizes fit u32 in practice).
  std::vector<uint8_t> frms_raw;
  if (frms.ok()) frms_raw = std::move(frms).value();
  clip.chunks.push_back(rvc_make_chunk({'F', 'R', 'M', 'S'}, std::move(frms_raw)));
  clip.source.frms_deflated = clip.chunks.back().deflated();
  if (clip.has_time) {
    std::vector<uint8_t> raw;
    raw.reserve(durations.size() * 4);
    for (uint32_t d : durations)
      for (int b = 0; b < 4; ++b) raw.push_back(static_cast<uint8_t>(d >> (8 * b)));
    clip.chunks.push_back(rvc_make_chunk({'T', 'I', 'M', 'E'}, std::move(raw)));
  }
  return clip;
}

}  // namespace voxrig
