// layout_walker.h — internal helpers of the lenient walk (layout_*.cpp): the forward walker that
// names fields under one or more alias prefixes, tag aliases, and framing as a given container.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "voxrig/byte_reader.h"
#include "voxrig/testing/layout.h"
#include "voxrig/wire/kv6.h"
#include "voxrig/wire/rkch.h"
#include "voxrig/wire/vskn.h"

namespace voxrig::testing::detail {

/// The n-byte (1, 2 or 4) little-endian unsigned at `at`; the caller has checked it fits.
inline uint64_t le(std::span<const uint8_t> b, uint64_t at, int n) {
  const uint8_t* p = b.data() + at;
  return n == 1 ? p[0] : n == 2 ? load_u16(p) : load_u32(p);
}

// Record sizes the walks and complete_records share (docs/spec/rig.md): the fixed fields
// before each table, record prefixes and where a record keeps its length. VSKN, KV6 and RKCH
// take theirs from the codec's voxrig/wire/*.h.
inline constexpr uint64_t kSkelFixed = 36, kJointPrefix = 48, kJointNameLenAt = 44;
inline constexpr uint64_t kVsknFixed = wire::vskn::kHeaderSize;
inline constexpr uint64_t kBindingSize = wire::vskn::kRecordSize;
inline constexpr uint64_t kAnimFixed = 68, kClipPrefix = 12, kClipNameLenAt = 8;
inline constexpr uint64_t kTrackPrefix = 8, kTrackKeyCountAt = 4, kKeySize = 44;
inline constexpr uint64_t kAttachmentSize = wire::rkch::attachment::kSize;
inline constexpr uint64_t kHingeSize = wire::rkch::hinge::kSize;

/// The blobs of an MSHS / VCLP payload at [start, end) of `b`: offset = length_offset = the blob's
/// u32 length, payload = the blob (clamped). At most the count at `start` (none when it does not
/// fit), while a length field fits.
std::vector<Frame> blob_frames(std::span<const uint8_t> b, uint64_t start, uint64_t end);

/// framing_of without the magic check: frames `bytes` as container `c` (the RVC clip inside a
/// VCLP blob is walked whatever its magic). nullopt only when the header is incomplete.
std::optional<Framing> framing_as(std::span<const uint8_t> bytes, Container c);

// Emits fields under one or more alias prefixes while walking forward through [pos, end).
class Walker {
 public:
  Walker(std::span<const uint8_t> b, uint64_t pos, uint64_t end, Layout& out,
         std::vector<std::string> prefixes)
      : b_(b), pos_(pos), end_(end), out_(out), prefixes_(std::move(prefixes)) {}

  uint64_t pos() const { return pos_; }
  uint64_t end() const { return end_; }
  uint64_t remaining() const { return end_ - pos_; }
  bool fits(uint64_t n) const { return n <= remaining(); }

  // Names [pos, pos+n) and advances; false (nothing emitted) if it does not fit.
  bool field(const std::string& name, uint64_t n) {
    if (!fits(n)) return false;
    emit(name, pos_, n);
    pos_ += n;
    return true;
  }
  // Names a range without advancing (a sub-field or a whole record).
  void emit(const std::string& name, uint64_t at, uint64_t n) {
    for (const auto& p : prefixes_)
      out_.fields.push_back({p.empty() ? name : p + "/" + name, at, n});
  }
  // A little-endian unsigned field; returns its value (0 when it does not fit).
  std::optional<uint64_t> uint(const std::string& name, int n) {
    if (!fits(uint64_t(n))) return std::nullopt;
    uint64_t v = le(b_, pos_, n);
    field(name, uint64_t(n));
    return v;
  }
  bool vec3(const std::string& name) {
    if (!fits(12)) return false;
    emit(name, pos_, 12);
    static const char* kAxes[] = {"x", "y", "z"};
    for (int i = 0; i < 3; ++i) field(name + "." + kAxes[i], 4);
    return true;
  }
  bool quat(const std::string& name) {
    if (!fits(16)) return false;
    emit(name, pos_, 16);
    static const char* kAxes[] = {"x", "y", "z", "w"};
    for (int i = 0; i < 4; ++i) field(name + "." + kAxes[i], 4);
    return true;
  }
  // A `width`-byte length field `len_name`, then `name` over that many bytes, clamped to what is
  // left (empty when the length does not fit).
  void counted(const std::string& len_name, int width, const std::string& name) {
    auto n = uint(len_name, width);
    field(name, std::min(n.value_or(0), remaining()));
  }
  void end_marker() { emit("end", end_, 0); }
  // A walker for the sub-record `name` that starts here: same bytes, end and output, prefixes
  // extended by name. This walker does not advance.
  Walker child(const std::string& name) const {
    return Walker(b_, pos_, end_, out_, sub_prefixes(name));
  }
  // A variable-length sub-record: walks it with body(Walker&) on child(name), then names it over
  // what body consumed (after its own fields, since only the walk finds its end) and moves past.
  template <class Body>
  void record(const std::string& name, Body&& body) {
    Walker r = child(name);
    body(r);
    emit(name, pos_, r.pos() - pos_);
    pos_ = r.pos();
  }
  const std::vector<std::string>& prefixes() const { return prefixes_; }
  std::vector<std::string> sub_prefixes(const std::string& name) const {
    std::vector<std::string> r;
    for (const auto& p : prefixes_) r.push_back(p.empty() ? name : p + "/" + name);
    return r;
  }
  std::span<const uint8_t> bytes() const { return b_; }
  Layout& out() { return out_; }
  void set_pos(uint64_t p) { pos_ = p; }

 private:
  std::span<const uint8_t> b_;
  uint64_t pos_, end_;
  Layout& out_;
  std::vector<std::string> prefixes_;
};

inline std::string idx(const std::string& name, uint64_t i) {
  return name + "[" + std::to_string(i) + "]";
}

// A table of `count` variable-length records name[0], name[1], ... (none when the count did not
// fit), each walked by w.record(name[i], body) while at least min_size bytes are left.
template <class Body>
void walk_records(Walker& w, const std::string& name, std::optional<uint64_t> count,
                  uint64_t min_size, Body body) {
  for (uint64_t i = 0; count && i < *count && w.fits(min_size); ++i) w.record(idx(name, i), body);
}

// Adds a region whose u32 length sits at `len_off` and counts [start, end).
inline void add_region(Layout& out, const std::string& len_path, uint64_t len_off, uint64_t start,
                       uint64_t end, const std::vector<std::string>& prefixes) {
  Region r{len_path, len_off, start, end, {}};
  for (const auto& p : prefixes) r.end_paths.push_back(p + "/end");
  out.regions.push_back(std::move(r));
}

// Tag aliases of the k-th occurrence: "section[3]", "section[SKEL]" (first only),
// "section[SKEL:1]".
inline std::vector<std::string> alias_prefixes(const std::string& container, uint64_t i,
                                               const std::string& tag, uint64_t k) {
  std::vector<std::string> r{idx(container, i)};
  if (k == 0) r.push_back(container + "[" + tag + "]");
  r.push_back(container + "[" + tag + ":" + std::to_string(k) + "]");
  return r;
}
inline std::vector<std::string> tag_prefixes(const std::string& tag, uint64_t k) {
  std::vector<std::string> r;
  if (k == 0) r.push_back(tag);
  r.push_back(tag + ":" + std::to_string(k));
  return r;
}

inline bool printable_tag(std::span<const uint8_t> b, uint64_t at) {
  for (int i = 0; i < 4; ++i)
    if (b[at + i] < 0x20 || b[at + i] > 0x7E) return false;
  return true;
}
inline std::string tag_text(std::span<const uint8_t> b, uint64_t at) {
  if (!printable_tag(b, at)) return "?";
  return std::string(reinterpret_cast<const char*>(b.data() + at), 4);
}

/// One field of a frame header between tag and length: name, offset from the tag, size.
struct HeadField {
  const char* name;
  uint64_t at, size;
};

/// Names every frame of `framing` (found in b at `base`) under `outer` prefixes: the frame as
/// "<container>[i|TAG|TAG:k]" with /tag, the `head` fields, /<len_name> and /payload; then walks
/// the payload with `payload(tag, frame, walker)` under those aliases plus "TAG[:k]", adds its
/// "/end" marker and its length region.
template <class PayloadFn>
void walk_frames(std::span<const uint8_t> b, uint64_t base, const Framing& framing,
                 const std::vector<std::string>& outer, const std::string& container,
                 std::span<const HeadField> head, const std::string& len_name, Layout& out,
                 PayloadFn payload) {
  auto nest = [&](const std::vector<std::string>& names, std::vector<std::string>& into) {
    for (const auto& p : names)
      for (const auto& q : outer) into.push_back(q.empty() ? p : q + "/" + p);
  };
  std::map<std::string, uint64_t> seen;
  for (uint64_t i = 0; i < framing.frames.size(); ++i) {
    const Frame& fr = framing.frames[i];
    const uint64_t pos = base + fr.offset, len_off = base + fr.length_offset;
    const uint64_t pstart = base + fr.payload_start, pend = base + fr.payload_end;
    const std::string tag = tag_text(b, pos);
    const uint64_t k = seen[tag]++;
    std::vector<std::string> sec;
    nest(alias_prefixes(container, i, tag, k), sec);
    for (const auto& p : sec) {
      out.fields.push_back({p, pos, pend - pos});
      out.fields.push_back({p + "/tag", pos, 4});
      for (const HeadField& h : head) out.fields.push_back({p + "/" + h.name, pos + h.at, h.size});
      out.fields.push_back({p + "/" + len_name, len_off, 4});
      out.fields.push_back({p + "/payload", pstart, pend - pstart});
    }
    std::vector<std::string> pp = sec;
    if (tag != "?") nest(tag_prefixes(tag, k), pp);
    Walker pw(b, pstart, pend, out, pp);
    payload(tag, pos, pw);
    pw.end_marker();
    add_region(out, sec[0] + "/" + len_name, len_off, pstart, pend, pp);
  }
}

// RKCH-family walkers (layout_rkc.cpp).
void walk_rkc(std::span<const uint8_t> b, Layout& out);
void walk_kfa(std::span<const uint8_t> b, Layout& out);
void walk_kv6_at(std::span<const uint8_t> b, uint64_t start, uint64_t end, Layout& out,
                 std::vector<std::string> prefixes);
void walk_rvc_at(std::span<const uint8_t> b, uint64_t start, uint64_t end, Layout& out,
                 const std::vector<std::string>& prefixes);

}  // namespace voxrig::testing::detail
