// The KV6 breakers (voxrig/testing/rule_breakers.h): one byte edit per rule of docs/spec/kv6.md
// (and the KV6 limits of limits.md) at a chosen voxel or column, on a standalone KV6 file and on
// the deep mesh of an RKCH MSHS chunk.
//
// Why bytes: the model keeps what a file says, but the writer refuses run tables that disagree
// with the voxels (kv6.write.table_size), and a cut or a magic is no model value. The header is
// fixed (32 bytes, then 8 bytes a voxel, 4 a slice, 2 a column), so the edits find every field by
// offset; the RKCH variant re-frames the MSHS blob and the chunk around the edited mesh.
#include "rule_breakers_internal.h"
#include "voxrig/limits.h"
#include "voxrig/testing/layout.h"

namespace voxrig::testing::detail {
namespace {

constexpr size_t kDeepVoxel = 40, kDeepColumn = 20, kDeepMesh = 2;

uint32_t get_u32(const Bytes& b, size_t at) {
  return uint32_t(b[at]) | uint32_t(b[at + 1]) << 8 | uint32_t(b[at + 2]) << 16 |
         uint32_t(b[at + 3]) << 24;
}
void put_u32(Bytes& b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = uint8_t(v >> (8 * i));
}

// The header counts and where ylen starts, when the KV6 is whole up to the end of ylen.
struct Kv6Shape {
  uint32_t xsiz, ysiz, zsiz, numvoxs;
  size_t ylen;  // offset of ylen[0]
};
std::optional<Kv6Shape> shape(const Bytes& b) {
  if (b.size() < 32 || b[0] != 'K' || b[1] != 'v' || b[2] != 'x' || b[3] != 'l') return {};
  Kv6Shape s{get_u32(b, 4), get_u32(b, 8), get_u32(b, 12), get_u32(b, 28), 0};
  const uint64_t cols = uint64_t{s.xsiz} * s.ysiz;
  s.ylen = 32 + 8 * size_t{s.numvoxs} + 4 * size_t{s.xsiz};
  if (s.numvoxs == 0 || cols == 0 || cols > (1u << 20) || s.ylen + 2 * cols > b.size()) return {};
  return s;
}

using Edit = bool (*)(Bytes&, const Kv6Shape&, BreakAt);

struct Kv6Breaker {
  const char* rule;
  const char* variant;
  Edit edit;
  bool positional = false;
  bool strict_only = false;  // run tables: a warning under rkc-compat (D9)
  Where where = Where::Both;
};

const Kv6Breaker kKv6Breakers[] = {
    {"KV6-1", "", [](Bytes& b, const Kv6Shape&, BreakAt) { return b.resize(31), true; }},
    // A standalone file with another magic is no KV6 file (file.unknown_format, D7).
    {"KV6-2", "", [](Bytes& b, const Kv6Shape&, BreakAt) { return b[0] = 'k', true; }, false,
     false, Where::Nested},
    {"KV6-3", "",  // the data ends inside the chosen voxel record
     [](Bytes& b, const Kv6Shape& s, BreakAt p) {
       return b.resize(32 + 8 * break_index(p, s.numvoxs, kDeepVoxel) + 5), true;
     },
     true},
    {"LIM-9", "columns",  // xsiz * ysiz one past the column limit
     [](Bytes& b, const Kv6Shape&, BreakAt) {
       put_u32(b, 4, uint32_t(Limits{}.kv6_columns + 1));
       return put_u32(b, 8, 1), true;
     }},
    {"LIM-9", "voxels",
     [](Bytes& b, const Kv6Shape&, BreakAt) {
       return put_u32(b, 28, uint32_t(Limits{}.kv6_voxels + 1)), true;
     }},
    {"D9", "ylen",  // the chosen column claims one voxel more than it has
     [](Bytes& b, const Kv6Shape& s, BreakAt p) {
       const size_t at = s.ylen + 2 * break_index(p, size_t{s.xsiz} * s.ysiz, kDeepColumn);
       return b[at] != 0xFF && (++b[at], true);
     },
     true, true},
    {"D9", "z",  // the chosen voxel below the bottom (z = zsiz)
     [](Bytes& b, const Kv6Shape& s, BreakAt p) {
       const size_t at = 32 + 8 * break_index(p, s.numvoxs, kDeepVoxel) + 4;
       return s.zsiz <= 0xFFFF && (b[at] = uint8_t(s.zsiz), b[at + 1] = uint8_t(s.zsiz >> 8), true);
     },
     true, true},
};

Bytes break_kv6(const Kv6Breaker& k, BreakAt pos, std::span<const uint8_t> in) {
  Bytes out(in.begin(), in.end());
  const auto s = shape(out);
  if (!s || !k.edit(out, *s, pos)) return {};
  return out;
}

std::vector<NestedBreakerSpec> specs() {
  std::vector<NestedBreakerSpec> out;
  for (const Kv6Breaker& b : kKv6Breakers)
    out.push_back({b.rule, b.variant, b.positional, b.strict_only, b.where});
  return out;
}

}  // namespace

std::vector<std::string> kv6_breakable(Profile profile) {
  return nested_breakable(specs(), profile);
}

std::vector<conform::FuzzMutator> kv6_breakers(Profile profile) {
  return nested_breakers(specs(), profile, "MSHS", kDeepMesh,
                         [](size_t i, BreakAt pos, std::span<const uint8_t> in) {
                           return break_kv6(kKv6Breakers[i], pos, in);
                         });
}

}  // namespace voxrig::testing::detail
