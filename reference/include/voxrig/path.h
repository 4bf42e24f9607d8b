// voxrig/path.h — a structural path ("ANIM/clip[2]/track[0]/key[5]") built without allocating.
//
// Decoders carry a Path by value through their loops and render it only when an error is made,
// so the success path never touches the heap. Segment names must be string literals (or
// otherwise outlive the Path).
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace voxrig {

/// Up to kMaxDepth segments, each a name with an optional index; cheap to copy.
class Path {
 public:
  static constexpr int kMaxDepth = 8;

  Path() = default;
  /// A root path of one segment, e.g. Path("SKEL").
  explicit Path(const char* root) {
    segs_[0] = {root, -1};
    depth_ = 1;
  }

  /// This path plus one segment "name" or "name[index]" (index < 0: no brackets).
  /// Deeper than kMaxDepth: the extra segments are dropped (paths are diagnostics).
  Path child(const char* name, int64_t index = -1) const {
    Path p = *this;
    if (p.depth_ < kMaxDepth) p.segs_[p.depth_++] = {name, index};
    return p;
  }
  /// Renders "A/b[1]/c"; allocates.
  std::string str() const {
    std::string out;
    for (int i = 0; i < depth_; ++i) {
      if (i) out += '/';
      out += segs_[i].name;
      if (segs_[i].index >= 0) {
        out += '[';
        out += std::to_string(segs_[i].index);
        out += ']';
      }
    }
    return out;
  }

 private:
  struct Seg {
    const char* name = "";
    int64_t index = -1;
  };
  std::array<Seg, kMaxDepth> segs_{};
  int depth_ = 0;
};

}  // namespace voxrig
