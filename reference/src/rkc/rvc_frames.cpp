// RvcFrames: the compact frame list of an RVC clip (rvc.h). Layout of words_ per frame:
//   Key:   n_occupancy, n_color_offsets, n_colors, occupancy..., color_offsets..., colors...
//   Delta: n_cols, n_occupancy, n_color_counts, n_colors, cols..., occupancy..., counts...,
//   colors...
// index_[i] = offset of frame i's first length word in words_, with bit 63 set for a Delta.
// Why not one std::variant of vectors per frame: that record alone is ~100 bytes, so 2^20
// declared empty deltas (a 7.7 KB file) cost ~120 MB; here they cost 24 MB.
#include <algorithm>
#include <array>
#include <initializer_list>
#include <stdexcept>

#include "voxrig/rvc.h"

namespace voxrig {

namespace {

uint32_t length_of(size_t n) {
  if (n > UINT32_MAX) throw std::length_error("RVC frame array over 2^32 entries");
  return static_cast<uint32_t>(n);
}

uint32_t* copy_to(uint32_t* out, std::span<const uint32_t> v) {
  return std::copy(v.begin(), v.end(), out);
}

// Points `spans` at the arrays of one stored frame: a header of their word counts, then the
// arrays back to back.
void point_at_packed(const uint32_t* header,
                     std::initializer_list<std::span<const uint32_t>*> spans) {
  const uint32_t* data = header + spans.size();
  for (std::span<const uint32_t>* s : spans) {
    *s = {data, *header};
    data += *header++;
  }
}

}  // namespace

RvcVoxelFrame RvcKeyView::to_frame() const {
  RvcVoxelFrame f;
  f.occupancy.assign(occupancy.begin(), occupancy.end());
  f.color_offsets.assign(color_offsets.begin(), color_offsets.end());
  f.colors.assign(colors.begin(), colors.end());
  return f;
}

RvcDeltaFrame RvcDeltaView::to_frame() const {
  RvcDeltaFrame d;
  d.cols.assign(cols.begin(), cols.end());
  d.occupancy.assign(occupancy.begin(), occupancy.end());
  d.color_counts.assign(color_counts.begin(), color_counts.end());
  d.colors.assign(colors.begin(), colors.end());
  return d;
}

uint32_t* RvcFrames::add(bool delta, std::span<const uint32_t> lengths) {
  uint64_t total = lengths.size();
  for (uint32_t n : lengths) total += n;
  index_.push_back(words_.size() | (delta ? kDeltaBit : 0));
  const size_t at = words_.size();
  try {
    words_.resize(at + total);
  } catch (...) {
    index_.pop_back();  // keep the list as it was (strong guarantee)
    throw;
  }
  uint32_t* p = copy_to(words_.data() + at, lengths);
  return p;
}

uint32_t* RvcFrames::add_key(uint32_t occupancy, uint32_t color_offsets, uint32_t colors) {
  const std::array<uint32_t, 3> n{occupancy, color_offsets, colors};
  return add(false, n);
}

uint32_t* RvcFrames::add_delta(uint32_t cols, uint32_t occupancy, uint32_t color_counts,
                               uint32_t colors) {
  const std::array<uint32_t, 4> n{cols, occupancy, color_counts, colors};
  return add(true, n);
}

void RvcFrames::push_key(const RvcKeyView& k) {
  uint32_t* p = add_key(length_of(k.occupancy.size()), length_of(k.color_offsets.size()),
                        length_of(k.colors.size()));
  copy_to(copy_to(copy_to(p, k.occupancy), k.color_offsets), k.colors);
}

void RvcFrames::push_delta(const RvcDeltaView& d) {
  uint32_t* p = add_delta(length_of(d.cols.size()), length_of(d.occupancy.size()),
                          length_of(d.color_counts.size()), length_of(d.colors.size()));
  copy_to(copy_to(copy_to(copy_to(p, d.cols), d.occupancy), d.color_counts), d.colors);
}

void RvcFrames::push_back(const RvcEncodedFrame& f) {
  if (const auto* k = std::get_if<RvcVoxelFrame>(&f))
    push_key(*k);
  else
    push_delta(std::get<RvcDeltaFrame>(f));
}

RvcKeyView RvcFrames::key(size_t i) const {
  RvcKeyView v;
  point_at_packed(words_.data() + at(i), {&v.occupancy, &v.color_offsets, &v.colors});
  return v;
}

RvcDeltaView RvcFrames::delta(size_t i) const {
  RvcDeltaView v;
  point_at_packed(words_.data() + at(i), {&v.cols, &v.occupancy, &v.color_counts, &v.colors});
  return v;
}

RvcEncodedFrame RvcFrames::get(size_t i) const {
  if (is_key(i)) return key(i).to_frame();
  return delta(i).to_frame();
}

void RvcFrames::set(size_t i, const RvcEncodedFrame& f) {
  RvcFrames out;
  out.reserve(size(), words_.size());
  for (size_t k = 0; k < size(); ++k) {
    if (k == i)
      out.push_back(f);
    else if (is_key(k))
      out.push_key(key(k));
    else
      out.push_delta(delta(k));
  }
  *this = std::move(out);
}

void RvcFrames::reserve(size_t frames, size_t words) {
  index_.reserve(index_.size() + frames);
  words_.reserve(words_.size() + words);
}

void RvcFrames::clear() {
  index_.clear();
  words_.clear();
}

uint64_t RvcFrames::stored_offset(size_t i) const {
  // FRMS bytes of a key: kind + its words (lengths included); of a delta: kind + changed_count +
  // its arrays, i.e. its words minus 3 of its 4 lengths (encode_frms interleaves the same values).
  const uint64_t words = i < size() ? at(i) : words_.size();
  uint64_t deltas = 0;
  for (size_t k = 0; k < i && k < size(); ++k) deltas += is_key(k) ? 0 : 1;
  return std::min<uint64_t>(i, size()) + 4 * words - 12 * deltas;
}

}  // namespace voxrig
