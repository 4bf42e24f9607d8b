// voxrig/rvc.h — the RVC animated voxel clip (`.rvc`, docs/spec/rvc.md): model, codec, frame
// decode, playback and dump.
//
// The model is the list of chunks exactly as stored (docs/spec/rvc.md#D3): tag, flags byte, payload
// bytes as on disk (for a deflated chunk: raw_len u32 + raw DEFLATE stream, junk after the final
// block included) plus the inflated payload. META / FRMS / TIME are decoded *views* of the last
// chunk of each tag. encode_rvc writes the chunks as stored, so decode -> encode is byte-identical
// for every valid file (D1). Editing a view goes through rvc_update_*(), which re-encodes that
// chunk per D4 and drops earlier duplicates of it.
//
// Memory: decode_rvc holds the stored bytes, the inflated payloads (<= Limits::
// rvc_inflated_total) and the frame views (RvcFrames: the inflated FRMS size + at most
// RvcFrames::kOverheadBytes = 24 bytes per frame, and a frame takes at least 5 stored bytes, so
// at most ~5.8 x the inflated FRMS size). Nothing is ever sized from META dims at parse time.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "voxrig/decode_options.h"
#include "voxrig/json_out.h"
#include "voxrig/limits.h"
#include "voxrig/result.h"

namespace voxrig {

/// META loop_mode byte (docs/spec/rvc.md#meta); any other value is rvc.bad_loop_mode.
enum class RvcLoopMode : uint8_t { Loop = 0, Once = 1, PingPong = 2 };

/// One chunk as stored. For version 1 files `flags` is always 0 (v1 chunks have no flags byte).
struct RvcChunk {
  std::array<char, 4> tag{};
  uint8_t flags = 0;              ///< the stored flags byte, every bit kept (bit 0 = deflated)
  std::vector<uint8_t> stored;    ///< payload bytes exactly as stored on disk (for deflated:
                                  ///< raw_len u32 + deflate stream, trailing junk included)
  std::vector<uint8_t> inflated;  ///< the decoded payload (== stored when not deflated)
  bool deflated() const { return (flags & 0x01) != 0; }
  /// Bytes-equal semantics (D3): tag, flags and stored bytes (inflated derives from them).
  bool operator==(const RvcChunk& o) const;
};

/// The META view (docs/spec/rvc.md#meta, 37 bytes; bytes after 37 are kept in the chunk, not here).
struct RvcMeta {
  std::array<uint32_t, 3> dims{};  ///< x, y, z; each 1..Limits::rvc_dim after decode_rvc
  std::array<float, 3> pivot{};
  float voxel_world_size = 0;
  RvcLoopMode loop_mode = RvcLoopMode::Loop;
  uint32_t default_frame_ms = 0;  ///< used when TIME is absent
  uint32_t frame_count = 0;
  /// Floats compared by bit pattern (D5).
  bool operator==(const RvcMeta& o) const;
};

/// A full voxel frame in the dense-column layout (docs/spec/rvc.md), also the payload of a Key frame.
/// cols = dims[0]*dims[1]; valid when occupancy.size() == cols*owpc,
/// color_offsets.size() == cols+1, color_offsets is a prefix sum from 0 to colors.size() and each
/// column's popcount equals its colour-run length. Nothing here is checked at parse time.
struct RvcVoxelFrame {
  std::vector<uint32_t> occupancy;      ///< cols*owpc words; bit z&31 of word col*owpc+(z>>5)
  std::vector<uint32_t> color_offsets;  ///< cols+1 prefix sums into colors
  std::vector<uint32_t> colors;         ///< 0x80RRGGBB, ascending z per column, columns in order
  bool operator==(const RvcVoxelFrame& o) const = default;
};

/// A Delta frame (docs/spec/rvc.md#frms), flattened so its memory is bounded by its stored bytes: listed column i
/// is cols[i], its owpc occupancy words are occupancy[i*owpc .. (i+1)*owpc), its colour run is the
/// next color_counts[i] entries of colors. Columns are kept in stored order (duplicates kept).
struct RvcDeltaFrame {
  std::vector<uint32_t> cols;
  std::vector<uint32_t> occupancy;     ///< cols.size()*owpc words (owpc from META dims)
  std::vector<uint32_t> color_counts;  ///< one per listed column
  std::vector<uint32_t> colors;        ///< sum(color_counts) colours, concatenated
  bool operator==(const RvcDeltaFrame& o) const = default;
};

/// A frame as stored in FRMS: index 0 = Key (kind byte 0), index 1 = Delta (kind byte 1).
using RvcEncodedFrame = std::variant<RvcVoxelFrame, RvcDeltaFrame>;

/// Read-only view of a Key frame's three arrays (members as in RvcVoxelFrame). Points into an
/// RvcFrames or an RvcVoxelFrame and is valid while that is alive and not modified.
struct RvcKeyView {
  std::span<const uint32_t> occupancy, color_offsets, colors;
  RvcKeyView() = default;
  RvcKeyView(const RvcVoxelFrame& f)  // NOLINT(google-explicit-constructor): a frame is a view
      : occupancy(f.occupancy), color_offsets(f.color_offsets), colors(f.colors) {}
  /// An owning copy. Allocates.
  RvcVoxelFrame to_frame() const;
};

/// Read-only view of a Delta frame's four arrays (members as in RvcDeltaFrame); validity as for
/// RvcKeyView.
struct RvcDeltaView {
  std::span<const uint32_t> cols, occupancy, color_counts, colors;
  RvcDeltaView() = default;
  RvcDeltaView(const RvcDeltaFrame& d)  // NOLINT(google-explicit-constructor)
      : cols(d.cols), occupancy(d.occupancy), color_counts(d.color_counts), colors(d.colors) {}
  /// An owning copy. Allocates.
  RvcDeltaFrame to_frame() const;
};

/// The frames of a clip as stored in FRMS, held compactly so that memory follows the stored
/// bytes and not the declared frame count (a 7.7 KB file may declare 2^20 empty delta frames):
/// one flat u32 buffer holds every frame's arrays, each frame preceded by its array lengths (3
/// words for a key, 4 for a delta), and an index holds one u64 per frame (its offset in the
/// buffer; the top bit says delta). So the frames cost at most
///   kRvcFrameOverheadBytes (24) per frame + 4 bytes per u32 value stored,
/// i.e. for a parsed clip at most the inflated FRMS size + 24 × frame_count bytes (capacity
/// included: decode_rvc reserves exactly). Frames are appended in order and never reordered, so
/// two lists are equal iff they hold the same frames (kind and arrays) in the same order.
namespace detail {
/// std::allocator whose value-less construct default-initialises: vector::resize then leaves
/// trivial elements unwritten. For a buffer whose every element is written right after it is
/// grown (RvcFrames), where resize's zeroing would be a second pass over the frames.
template <class T>
struct DefaultInitAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  DefaultInitAllocator() = default;
  template <class U>
  DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    if constexpr (sizeof...(Args) == 0)
      ::new (static_cast<void*>(p)) U;
    else
      ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};
}  // namespace detail

class RvcFrames {
 public:
  /// Upper bound on the bytes a frame costs besides its u32 values (index 8 + lengths <= 16).
  static constexpr size_t kOverheadBytes = 24;

  size_t size() const { return index_.size(); }
  bool empty() const { return index_.empty(); }
  /// Kind of frame i (< size()): true for a Key, false for a Delta.
  bool is_key(size_t i) const { return (index_[i] & kDeltaBit) == 0; }
  /// Views of frame i; is_key(i) must hold for key(), !is_key(i) for delta().
  RvcKeyView key(size_t i) const;
  RvcDeltaView delta(size_t i) const;
  /// An owning copy of frame i. Allocates.
  RvcEncodedFrame get(size_t i) const;

  /// Appends a frame (copied). Each array must have fewer than 2^32 entries (what FRMS can hold;
  /// std::length_error otherwise). Allocates (std::bad_alloc).
  void push_back(const RvcEncodedFrame& f);
  void push_key(const RvcKeyView& k);
  void push_delta(const RvcDeltaView& d);
  /// Appends a key / delta with the given array lengths and returns where to write its arrays, in
  /// member order, contiguous (for parsers). The arrays are not initialised: the caller writes
  /// every word. Valid until the next change of the list.
  uint32_t* add_key(uint32_t occupancy, uint32_t color_offsets, uint32_t colors);
  uint32_t* add_delta(uint32_t cols, uint32_t occupancy, uint32_t color_counts, uint32_t colors);
  /// Replaces frame i (< size()): rewrites the frames from i on. Allocates.
  void set(size_t i, const RvcEncodedFrame& f);
  /// Reserves room for `frames` more frames holding `words` more u32 values in all.
  void reserve(size_t frames, size_t words);
  void clear();

  /// Where frame i's kind byte is in the FRMS payload these frames encode to (encode_frms; for a
  /// parsed clip, where it was read). O(i). Used for error offsets (D12).
  uint64_t stored_offset(size_t i) const;
  /// Bytes held (index and buffer capacity), for the memory bound's tests.
  size_t memory_bytes() const { return index_.capacity() * 8 + words_.capacity() * 4; }

  bool operator==(const RvcFrames& o) const = default;

 private:
  static constexpr uint64_t kDeltaBit = uint64_t{1} << 63;
  uint32_t* add(bool delta, std::span<const uint32_t> lengths);
  uint64_t at(size_t i) const { return index_[i] & ~kDeltaBit; }
  std::vector<uint64_t> index_;  // per frame: offset of its lengths in words_, | kDeltaBit
  // Per frame: lengths, then the arrays in member order. add() grows it without zeroing: its
  // callers write every word of the frame they add.
  std::vector<uint32_t, detail::DefaultInitAllocator<uint32_t>> words_;
};

/// A parsed or built clip: the chunks as stored plus views of the last META / FRMS / TIME.
struct RvcClip {
  uint16_t version = 2;          ///< 1 or 2 as stored (the writer keeps it)
  std::vector<RvcChunk> chunks;  ///< every chunk in file order as stored (D3), duplicates kept
  // ---- views of the last META / FRMS / TIME chunk ----
  RvcMeta meta;
  RvcFrames frames;                 ///< meta.frame_count frames as stored
  bool has_time = false;            ///< a TIME chunk is present
  std::vector<uint32_t> durations;  ///< TIME values (meta.frame_count of them) or empty
  /// Where the views came from, so later frame errors carry file offsets (not part of equality).
  struct Source {
    uint64_t meta_offset = 0;    ///< absolute offset of the last META chunk's stored payload
    bool meta_deflated = false;  ///< that chunk was deflated (errors then add @inflated+N)
    uint64_t frms_offset = 0;    ///< same for the last FRMS chunk
    bool frms_deflated = false;  ///< (a frame's position in FRMS: frames.stored_offset(i))
  } source;
  /// Bytes-equal semantics (D3/D5): equal iff version and chunks (tag, flags, stored) are equal,
  /// i.e. iff encode_rvc would write the same bytes.
  bool operator==(const RvcClip& o) const;
};

/// The decoded animation (seed VoxelClip::decode, docs/spec/rvc.md#frame-decode): one full frame per stored frame, and
/// durations = TIME values or default_frame_ms repeated. Per-voxel dirs are not computed (D8).
struct RvcDecoded {
  std::array<uint32_t, 3> dims{};
  std::vector<RvcVoxelFrame> frames;
  std::vector<uint32_t> durations;
  bool operator==(const RvcDecoded& o) const = default;
};

/// owpc = max(1, ceil(dim_z / 32)): occupancy words per column.
uint32_t rvc_owpc(uint32_t dim_z);

/// Parses an RVC blob whose first byte is at absolute file offset `base_offset` (0 for a
/// standalone file; the blob's position when embedded in RKCH VCLP). Follows the seed's parse
/// (docs/spec/rvc.md#file-framing, every chunk inflated during the scan, last META/FRMS/TIME wins) plus the QE.6b
/// dims checks and Limits. Under Profile::RkcStrict it also runs validate_rvc_frames (D8) and
/// returns its error; every other profile gets the seed's parse-only verdict.
/// Errors: rvc.bad_magic, rvc.unsupported_version, rvc.truncated, rvc.bad_deflate,
/// rvc.limit.inflated_total, rvc.missing_chunk.meta, rvc.missing_chunk.frms, rvc.bad_loop_mode,
/// rvc.zero_dims, rvc.limit.dims, rvc.limit.frames, rvc.bad_frame_kind (+ under rkc-strict the
/// validate_rvc_frames codes). Offsets are absolute; inside inflated data the path ends with
/// "@inflated+N" and the offset is the chunk's stored payload offset (D12).
/// Safe on untrusted input; allocates at most what is described at the top of this file.
Result<RvcClip> decode_rvc(std::span<const uint8_t> bytes, uint64_t base_offset,
                           const DecodeOptions& options);

/// Writes the clip: "RVCL", version, then every chunk as stored (v2: tag, flags, len, stored;
/// v1: tag, len, stored). A parsed clip gives back its input bytes exactly (D1).
/// Errors (hand-built models only): rvc.unsupported_version (version not 1 or 2),
/// rvc.write.unrepresentable (a v1 chunk with flags != 0, or a payload over u32).
/// Allocates the output only.
Result<std::vector<uint8_t>> encode_rvc(const RvcClip& clip);

/// The seed's VoxelClip::decode (docs/spec/rvc.md#frame-decode): rebuilds every frame, validating in the seed's order
/// (key frames: occupancy_len, offsets_len, offsets_bounds, then per column offsets_monotonic and
/// occupancy_color_mismatch; deltas: delta_before_key, column_out_of_range; then every rebuilt
/// frame again). Bounded: the per-frame state (4*cols*owpc + 4*(cols+1) bytes) is checked against
/// Limits::rvc_working_set before anything is allocated, and every materialized frame counts
/// against it too (rvc.limit.working_set), so many cheap deltas hit the limit instead of memory.
/// Errors: rvc.limit.working_set, rvc.frame.*, rvc.delta_before_key, rvc.column_out_of_range.
/// Safe on any clip (also hand-built views with inconsistent delta shapes).
Result<RvcDecoded> decode_rvc_frames(const RvcClip& clip, const Limits& limits);

/// The same verdict as decode_rvc_frames without materializing frames: one rebuilt state
/// (occupancy + per-column run lengths, checked against rvc_working_set first), so its cost is
/// linear in the stored bytes. This is what rkc-strict runs (D8). A clip whose state fits but
/// whose full decode would not still passes here.
Status validate_rvc_frames(const RvcClip& clip, const Limits& limits);

/// The seed's VoxelClip::from_frames (D24): frame i is a Key when i == 0 or
/// (keyframe_interval != 0 && i % keyframe_interval == 0), otherwise a Delta listing, in
/// ascending column order, every column whose occupancy words or colour run differ from frame
/// i-1. A frame whose shape does not fit dims (so it cannot be diffed) is stored as a Key.
/// Chunks: META, FRMS, TIME only if durations is non-empty, each deflated per D4 (zlib raw
/// DEFLATE, level 8, kept only when deflated_len + 4 < raw_len). Version 2. Never fails; inputs
/// are written as given (durations.size() != frames.size() gives a clip that does not re-parse,
/// as in the seed).
RvcClip rvc_from_frames(std::array<uint32_t, 3> dims, std::array<float, 3> pivot,
                        float voxel_world_size, RvcLoopMode loop_mode,
                        std::span<const RvcVoxelFrame> frames, std::span<const uint32_t> durations,
                        uint32_t default_frame_ms, uint32_t keyframe_interval);

/// A chunk built in memory from its raw payload: deflated per D4 when that saves more than the
/// 4-byte raw_len, otherwise stored raw (flags 0).
RvcChunk rvc_make_chunk(std::array<char, 4> tag, std::vector<uint8_t> raw);

/// Puts `chunk` in place of the last chunk with its tag and drops the earlier ones with that tag
/// (D3). When there is none, a META / FRMS / TIME chunk is inserted where the writer's order
/// (docs/spec/rvc.md#writer-and-round-trip: META, FRMS, TIME, then the rest) puts it: after the last chunk of a tag
/// that comes before it in that order (so TIME goes after FRMS, before unknown chunks); any other
/// tag is appended. The decoder accepts known chunks at any position. Views are not touched.
void rvc_put_chunk(RvcClip& clip, RvcChunk chunk);

/// Re-encode one view into its chunk (D3/D4) after editing clip.meta / clip.frames /
/// clip.durations. rvc_update_frames also sets meta.frame_count = frames.size() and re-encodes
/// META when that changed. rvc_update_time writes TIME when has_time or durations is non-empty
/// (and sets has_time), and removes every TIME chunk otherwise: to add TIME to a clip of 0
/// frames (whose durations are empty) set has_time first.
/// Errors: rvc.write.unrepresentable (a delta whose arrays disagree with owpc / its counts).
Status rvc_update_meta(RvcClip& clip);
Status rvc_update_frames(RvcClip& clip);
Status rvc_update_time(RvcClip& clip);

/// docs/spec/rkc-evaluation.md#rvc-playback playback: which frame shows at elapsed_ms. n <= 1 or total 0 -> 0. Never fails.
uint32_t rvc_frame_at(std::span<const uint32_t> durations, RvcLoopMode mode, uint64_t elapsed_ms);

/// TIME values when present, else default_frame_ms repeated frame_count times (docs/spec/rvc.md#frame-decode step 5).
std::vector<uint32_t> rvc_effective_durations(const RvcClip& clip);

/// Writes the clip's canonical dump object (docs/spec/dump.md, "RVC") into `out` as one value
/// (used standalone and embedded by RKCH).
void dump_rvc_into(JsonOut& out, const RvcClip& clip);

/// The whole dump document {"schema": "voxrig-dump/2", "format": "rvc", ...}.
std::string dump_rvc(const RvcClip& clip);

}  // namespace voxrig
