// KV6 voxel sprite codec (docs/spec/kv6.md): the field-by-field decoder, its success-path twin
// and the writer. The byte layout (magic, header offsets, record sizes, palette trailer) is
// voxrig/wire/kv6.h's. Everything after the tables and the optional palette is ignored
// (kv6.trailing_bytes warning).
#include <array>
#include <compare>
#include <cstddef>
#include <cstring>
#include <iterator>
#include <string>

#include "rkc/rkc_detail.h"
#include "voxrig/float_text.h"
#include "voxrig/kv6.h"
#include "voxrig/wire/kv6.h"

namespace voxrig {

namespace {

namespace wk = wire::kv6;
using wk::kHeaderSize;
using wk::kMagic;
using wk::kVoxelSize;
constexpr size_t kPaletteTrailer = wk::kPaletteTrailerSize;
constexpr const auto& kPalMagic = wk::kPaletteMagic;

// The part of D9 both run tables obey: the entries of `table` (named `name`, at file offset `at`)
// sum to numvoxs; otherwise Kv6RunTables at the table.
template <class T>
std::optional<Error> check_run_sum(const std::vector<T>& table, uint64_t numvoxs, const char* name,
                                   uint64_t at) {
  uint64_t sum = 0;
  for (T v : table) sum += v;
  if (sum == numvoxs) return std::nullopt;
  return error_at(ErrorCode::Kv6RunTables, at, Path().child(name),
                  std::string("sum of ") + name + " " + std::to_string(sum) + " != numvoxs " +
                      std::to_string(numvoxs));
}

// D9's run-table rule, first failure only. Offsets point at the table (or voxel) concerned.
std::optional<Error> check_run_tables(const Kv6& m, uint64_t voxels_at, uint64_t xlen_at,
                                      uint64_t ylen_at) {
  const uint64_t numvoxs = m.voxels.size();
  if (auto e = check_run_sum(m.xlen, numvoxs, "xlen", xlen_at)) return e;
  if (auto e = check_run_sum(m.ylen, numvoxs, "ylen", ylen_at)) return e;
  for (uint64_t x = 0; x < m.xsiz; ++x) {
    uint64_t row = 0;
    for (uint64_t y = 0; y < m.ysiz; ++y) row += m.ylen[x * m.ysiz + y];
    if (row != m.xlen[x])
      return error_at(ErrorCode::Kv6RunTables, ylen_at + 2 * x * m.ysiz,
                      Path().child("xlen", static_cast<int64_t>(x)),
                      "column runs of slice " + std::to_string(x) + " sum to " +
                          std::to_string(row) + ", xlen says " + std::to_string(m.xlen[x]));
  }
  for (size_t i = 0; i < m.voxels.size(); ++i) {
    if (m.voxels[i].z >= m.zsiz)
      return error_at(ErrorCode::Kv6RunTables, voxels_at + kVoxelSize * i + wk::kVoxelZAt,
                      Path().child("voxel", static_cast<int64_t>(i)),
                      "z " + std::to_string(m.voxels[i].z) + " >= zsiz " + std::to_string(m.zsiz));
  }
  return std::nullopt;
}

// The fields of the header that follow its magic: sizes and pivot into m; returns numvoxs. The
// field-by-field and the fast decoder both read the header here.
uint32_t read_header(const uint8_t* h, Kv6& m) {
  m.xsiz = load_u32(h + wk::kXsizAt);
  m.ysiz = load_u32(h + wk::kYsizAt);
  m.zsiz = load_u32(h + wk::kZsizAt);
  const uint8_t* pivot = h + wk::kPivotAt;
  m.pivot = {load_f32(pivot), load_f32(pivot + 4), load_f32(pivot + 8)};
  return load_u32(h + wk::kNumvoxsAt);
}

// One voxel record (both decoders).
Kv6Voxel load_voxel(const uint8_t* p) {
  return Kv6Voxel{load_u32(p + wk::kVoxelColAt), load_u16(p + wk::kVoxelZAt), p[wk::kVoxelVisAt],
                  p[wk::kVoxelDirAt]};
}

// A wire table of fixed-size records at p as a random-access iterator (*it = Load(record)).
// Both decoders fill ylen (U16Table), and the fast one the voxels (VoxelTable), with
// vector::assign(first, last) over it: one allocation and one write per element, in a loop
// without a capacity test (GCC vectorises the u16 one). resize() would zero the elements first (a
// memset call per table, which small meshes feel), and push_back tests the capacity per element,
// which keeps the loop scalar; a rule on the records is checked over the copy afterwards.
template <class T, size_t kSize, T (*Load)(const uint8_t*)>
struct WireTable {
  using iterator_category = std::random_access_iterator_tag;
  using value_type = T;
  using difference_type = std::ptrdiff_t;
  using pointer = void;
  using reference = T;
  static constexpr difference_type kStride = static_cast<difference_type>(kSize);
  const uint8_t* p;
  T operator*() const { return Load(p); }
  T operator[](difference_type k) const { return Load(p + kStride * k); }
  WireTable& operator++() { return *this += 1; }
  WireTable operator++(int) {
    const WireTable old = *this;
    *this += 1;
    return old;
  }
  WireTable& operator--() { return *this -= 1; }
  WireTable& operator+=(difference_type k) {
    p += kStride * k;
    return *this;
  }
  WireTable& operator-=(difference_type k) { return *this += -k; }
  WireTable operator+(difference_type k) const { return WireTable{p + kStride * k}; }
  difference_type operator-(const WireTable& o) const { return (p - o.p) / kStride; }
  bool operator==(const WireTable& o) const { return p == o.p; }
  auto operator<=>(const WireTable& o) const { return p <=> o.p; }
};
using U16Table = WireTable<uint16_t, 2, load_u16>;
using VoxelTable = WireTable<Kv6Voxel, kVoxelSize, load_voxel>;

// ylen from its wire table: the `columns` entries at p (both decoders; U16Table above). The
// fast decoder inlines it; the field-by-field one calls it out of line (noinline: with a second
// inlined copy GCC outlines vector::assign's body for both, and the fast path pays a call).
inline void assign_ylen(std::vector<uint16_t>& ylen, const uint8_t* p, uint64_t columns) {
  ylen.assign(U16Table{p}, U16Table{p + 2 * columns});
}
[[gnu::noinline, gnu::flatten]] void assign_ylen_outlined(std::vector<uint16_t>& ylen,
                                                          const uint8_t* p, uint64_t columns) {
  assign_ylen(ylen, p, columns);
}

}  // namespace

bool Kv6::operator==(const Kv6& o) const {
  return xsiz == o.xsiz && ysiz == o.ysiz && zsiz == o.zsiz && same_bits(pivot[0], o.pivot[0]) &&
         same_bits(pivot[1], o.pivot[1]) && same_bits(pivot[2], o.pivot[2]) && voxels == o.voxels &&
         xlen == o.xlen && ylen == o.ylen && palette == o.palette;
}

namespace detail {

Result<Kv6> decode_kv6_impl(std::span<const uint8_t> bytes, uint64_t base,
                            const DecodeOptions& options, WarningSink& sink) {
  const Path root;
  // docs/spec/kv6.md#parse-rules step 1: the size check comes before the magic, so a short file with a wrong magic
  // reports too_small (as the seed).
  if (bytes.size() < kHeaderSize)
    return error_at(ErrorCode::Kv6TooSmall, base, root,
                    std::to_string(bytes.size()) + " byte(s), need at least 32");
  if (std::memcmp(bytes.data(), kMagic.data(), kMagic.size()) != 0)
    return error_at(ErrorCode::Kv6BadMagic, base, root, "expected \"Kvxl\"");

  Kv6 m;
  const uint8_t* h = bytes.data();
  const uint32_t numvoxs = read_header(h, m);

  const Limits& lim = options.limits;
  const uint64_t columns = uint64_t{m.xsiz} * m.ysiz;  // < 2^64: both factors < 2^32
  if (columns > lim.kv6_columns)
    return error_at(ErrorCode::Kv6LimitColumns, base + 0x04, root,
                    "xsiz*ysiz = " + std::to_string(columns) + " exceeds limit " +
                        std::to_string(lim.kv6_columns));
  if (numvoxs > lim.kv6_voxels)
    return error_at(
        ErrorCode::Kv6LimitVoxels, base + 0x1C, root,
        "numvoxs " + std::to_string(numvoxs) + " exceeds limit " + std::to_string(lim.kv6_voxels));

  ByteReader r(bytes, base, ErrorCode::Kv6Truncated);
  VOXRIG_TRY(r.skip(kHeaderSize, root));

  const uint64_t voxels_at = r.offset();
  VOXRIG_ASSIGN_OR_RETURN(auto vox, detail::read_table(r, numvoxs, kVoxelSize, root, "voxel"));
  m.voxels.resize(numvoxs);
  for (size_t i = 0; i < numvoxs; ++i) {
    const uint8_t* p = vox.data() + kVoxelSize * i;
    m.voxels[i] = load_voxel(p);
  }

  const uint64_t xlen_at = r.offset();
  VOXRIG_ASSIGN_OR_RETURN(auto xl, detail::read_table(r, m.xsiz, wk::kXlenEntrySize, root, "xlen"));
  m.xlen.resize(m.xsiz);
  for (size_t x = 0; x < m.xsiz; ++x) m.xlen[x] = load_u32(xl.data() + wk::kXlenEntrySize * x);

  const uint64_t ylen_at = r.offset();
  VOXRIG_ASSIGN_OR_RETURN(auto yl,
                          detail::read_table(r, columns, wk::kYlenEntrySize, root, "ylen"));
  assign_ylen_outlined(m.ylen, yl.data(), columns);

  // D9: the run tables are the part of KV6 that consumers index with; under rkc-strict a file
  // whose tables disagree is rejected, under rkc-compat it loads as in the seed (warning).
  if (auto bad = check_run_tables(m, voxels_at, xlen_at, ylen_at)) {
    if (detail::is_strict(options)) return *std::move(bad);
    sink.add_rendered(WarningCode::Kv6RunTables, bad->offset, bad->path, bad->detail);
  }

  // docs/spec/kv6.md#parse-rules step 4: a palette only when a whole trailer is there and starts with "SPal".
  if (r.remaining() >= kPaletteTrailer &&
      std::memcmp(r.data().data() + r.pos(), kPalMagic.data(), kPalMagic.size()) == 0) {
    VOXRIG_TRY(r.skip(kPalMagic.size(), root));
    VOXRIG_ASSIGN_OR_RETURN(auto pal, r.bytes(wk::kPaletteBytes, root));
    Kv6Palette palette;
    std::memcpy(palette.data(), pal.data(), wk::kPaletteBytes);
    m.palette = palette;
  }
  // docs/spec/kv6.md#parse-rules step 5: anything else is ignored; the writer drops it.
  if (!r.at_end())
    sink.add(WarningCode::Kv6TrailingBytes, r.offset(), root,
             std::to_string(r.remaining()) + " byte(s) after the tables are dropped on write");
  return m;
}

bool decode_kv6_fast(std::span<const uint8_t> bytes, const DecodeOptions& options, Kv6& m) {
  // Every condition under which decode_kv6_impl fails, or (rkc-compat) warns about the run
  // tables, makes this return false; the caller then runs decode_kv6_impl for the error.
  if (bytes.size() < kHeaderSize || std::memcmp(bytes.data(), kMagic.data(), kMagic.size()) != 0)
    return false;
  const uint8_t* h = bytes.data();
  const uint32_t numvoxs = read_header(h, m);
  const Limits& lim = options.limits;
  const uint64_t columns = uint64_t{m.xsiz} * m.ysiz;
  if (columns > lim.kv6_columns || numvoxs > lim.kv6_voxels) return false;
  // The three tables, each checked against the bytes left before it is sized (no overflow:
  // every product is checked by a division first).
  size_t left = bytes.size() - kHeaderSize;
  if (numvoxs > left / kVoxelSize) return false;
  left -= size_t{numvoxs} * kVoxelSize;
  if (m.xsiz > left / wk::kXlenEntrySize) return false;
  left -= size_t{m.xsiz} * wk::kXlenEntrySize;
  if (columns > left / wk::kYlenEntrySize) return false;
  left -= static_cast<size_t>(columns) * wk::kYlenEntrySize;

  // Each element written once (resize would value-initialise it first); the z rule is checked
  // over the copy (in L1 now), a loop without stores.
  const uint8_t* p = h + kHeaderSize;
  m.voxels.assign(VoxelTable{p}, VoxelTable{p + kVoxelSize * size_t{numvoxs}});
  p += kVoxelSize * size_t{numvoxs};
  bool z_bad = false;
  for (const Kv6Voxel& v : m.voxels) z_bad |= v.z >= m.zsiz;
  // reserve + push_back: each element written once.
  m.xlen.reserve(m.xsiz);
  uint64_t xsum = 0;
  for (uint32_t x = 0; x < m.xsiz; ++x, p += wk::kXlenEntrySize) {
    xsum += m.xlen.emplace_back(load_u32(p));
  }
  assign_ylen(m.ylen, p, columns);
  p += wk::kYlenEntrySize * columns;
  // The slices' sums over the copy (in L1 now): one vectorisable loop per slice.
  uint64_t ysum = 0;
  bool rows_ok = true;
  const uint16_t* yl = m.ylen.data();
  for (size_t x = 0; x < m.xsiz; ++x, yl += m.ysiz) {
    uint64_t row = 0;
    for (size_t y = 0; y < m.ysiz; ++y) row += yl[y];
    ysum += row;
    rows_ok &= row == m.xlen[x];
  }
  // check_run_tables' four rules (the sums, each slice, every voxel's z).
  if (xsum != numvoxs || ysum != numvoxs || !rows_ok || z_bad) return false;
  if (left >= kPaletteTrailer && std::memcmp(p, kPalMagic.data(), kPalMagic.size()) == 0) {
    Kv6Palette palette;
    std::memcpy(palette.data(), p + kPalMagic.size(), wk::kPaletteBytes);
    m.palette = palette;
  }
  return true;
}

}  // namespace detail

static Result<Kv6> decode_kv6_unguarded(std::span<const uint8_t> bytes, uint64_t base_offset,
                                        const DecodeOptions& options) {
  // The success path first (as in an RKCH's MSHS); a file it does not accept is decoded again
  // field by field, which reports the error or, under rkc-compat, loads mismatched run tables.
  // One named result built in place (as decode_rkc).
  Result<Kv6> out{std::in_place};
  if (!detail::decode_kv6_fast(bytes, options, out.value())) {
    out.value() = Kv6{};
    detail::WarningSink none;
    out = detail::decode_kv6_impl(bytes, base_offset, options, none);
  }
  return out;
}

// The public entry point: allocation failure becomes internal.out_of_memory (result.h).
Result<Kv6> decode_kv6(std::span<const uint8_t> bytes, uint64_t base_offset,
                       const DecodeOptions& options) {
  return guard_out_of_memory([&] { return decode_kv6_unguarded(bytes, base_offset, options); });
}

Result<std::vector<Warning>> validate_kv6(std::span<const uint8_t> bytes,
                                          const DecodeOptions& options) {
  return detail::collect_warnings(
      [&](detail::WarningSink& sink) { return detail::decode_kv6_impl(bytes, 0, options, sink); });
}

static Result<std::vector<uint8_t>> encode_kv6_unguarded(const Kv6& m) {
  const uint64_t columns = uint64_t{m.xsiz} * m.ysiz;
  if (m.xlen.size() != m.xsiz || m.ylen.size() != columns || m.voxels.size() > 0xFFFFFFFFu)
    return error_at(ErrorCode::Kv6WriteTableSize, 0, Path(),
                    "xlen/ylen sizes must be xsiz and xsiz*ysiz, voxels <= 2^32-1");
  ByteWriter w;
  w.reserve(kHeaderSize + kVoxelSize * m.voxels.size() + wk::kXlenEntrySize * m.xlen.size() +
            wk::kYlenEntrySize * m.ylen.size() + (m.palette ? kPaletteTrailer : 0));
  w.bytes(std::span<const uint8_t>(kMagic));
  w.u32(m.xsiz);
  w.u32(m.ysiz);
  w.u32(m.zsiz);
  for (float f : m.pivot) w.f32(f);
  w.u32(static_cast<uint32_t>(m.voxels.size()));
  // Through a local pointer (ByteWriter::extend), each voxel's fields read into locals first:
  // a byte store may alias the model, so GCC would reload them after every store otherwise.
  uint8_t* p = w.extend(kVoxelSize * m.voxels.size());
  for (const Kv6Voxel& v : m.voxels) {
    const uint32_t col = v.col;
    const uint16_t z = v.z;
    const uint8_t vis = v.vis, dir = v.dir;
    store_u32(p + wk::kVoxelColAt, col);
    store_u16(p + wk::kVoxelZAt, z);
    p[wk::kVoxelVisAt] = vis;
    p[wk::kVoxelDirAt] = dir;
    p += kVoxelSize;
  }
  p = w.extend(wk::kXlenEntrySize * m.xlen.size());
  for (uint32_t v : m.xlen) {
    store_u32(p, v);
    p += wk::kXlenEntrySize;
  }
  p = w.extend(wk::kYlenEntrySize * m.ylen.size());
  for (uint16_t v : m.ylen) {
    store_u16(p, v);
    p += wk::kYlenEntrySize;
  }
  if (m.palette) {
    w.bytes(std::span<const uint8_t>(kPalMagic));
    w.bytes(std::span<const uint8_t>(*m.palette));
  }
  return w.take();
}

// The public entry point: allocation failure becomes internal.out_of_memory (result.h).
Result<std::vector<uint8_t>> encode_kv6(const Kv6& m) {
  return guard_out_of_memory([&] { return encode_kv6_unguarded(m); });
}

}  // namespace voxrig
