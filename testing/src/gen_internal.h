// Shared helpers of the seeded generators (gen_vfp.cpp, gen_rkc.cpp): byte patching with
// recorded mutations, integer-derived floats and names, and the mutation-table driver.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "voxrig/byte_reader.h"
#include "voxrig/testing/gen.h"

namespace voxrig::gen::detail {

/// The n-byte (1, 2 or 4) little-endian unsigned at `at` (the caller checked that it fits).
inline uint64_t get_le(std::span<const uint8_t> b, uint64_t at, int n) {
  const uint8_t* p = b.data() + at;
  return n == 1 ? p[0] : n == 2 ? load_u16(p) : load_u32(p);
}

/// Overwrites `n` little-endian bytes at `at` and records the step.
inline void set_le(GenCase& c, uint64_t at, int n, int64_t value, std::string field) {
  static constexpr const char* kOps[] = {"", "set_u8", "set_u16", "", "set_u32"};
  for (int i = 0; i < n; ++i)
    c.bytes[at + static_cast<uint64_t>(i)] =
        static_cast<uint8_t>(static_cast<uint64_t>(value) >> (8 * i));
  c.mutations.push_back({kOps[n], at, std::move(field), value, {}});
}
/// set_i32 / set_i16 record signed values (manifest-schema.md).
inline void set_signed(GenCase& c, uint64_t at, int n, int64_t value, std::string field) {
  set_le(c, at, n, value, std::move(field));
  c.mutations.back().op = n == 4 ? "set_i32" : "set_i16";
}
inline void set_bytes(GenCase& c, uint64_t at, std::vector<uint8_t> bytes, std::string field) {
  for (size_t i = 0; i < bytes.size(); ++i) c.bytes[at + i] = bytes[i];
  c.mutations.push_back({"set_bytes", at, std::move(field), 0, std::move(bytes)});
}
inline void truncate_to(GenCase& c, uint64_t length, std::string field) {
  c.bytes.resize(length);
  c.mutations.push_back({"truncate", length, std::move(field), static_cast<int64_t>(length), {}});
}
/// Sets the n-byte version (or encoding) field at `at` to one no reader supports: 0 one time in
/// four, else a value in [first_bad, last].
inline void set_unsupported(GenCase& c, GenRng& rng, uint64_t at, int n, int32_t first_bad,
                            int32_t last, std::string field) {
  set_le(c, at, n, rng.chance(1, 4) ? 0 : rng.range(first_bad, last), std::move(field));
}
inline void append(GenCase& c, std::vector<uint8_t> bytes) {
  const uint64_t at = c.bytes.size();
  c.bytes.insert(c.bytes.end(), bytes.begin(), bytes.end());
  c.mutations.push_back({"append", at, "end", 0, std::move(bytes)});
}

/// k/8 for k in [lo, hi]: exact binary32 values, the same everywhere.
inline float eighths(GenRng& rng, int32_t lo, int32_t hi) {
  return static_cast<float>(rng.range(lo, hi)) / 8.0f;
}

/// A unit quaternion x, y, z, w: either an exact one (identity, axis half-turns, the
/// (±1/2)^4 family) or four small integers normalised with IEEE double sqrt and division
/// (correctly rounded, so platform-independent), then rounded to binary32 (|‖q‖−1| ~ 1e-7).
inline std::array<float, 4> unit_quat(GenRng& rng) {
  switch (rng.below(4)) {
    case 0:
      return {0, 0, 0, 1};
    case 1: {
      std::array<float, 4> q{0, 0, 0, 0};
      q[rng.below(4)] = rng.chance(1, 2) ? 1.0f : -1.0f;
      return q;
    }
    case 2: {
      std::array<float, 4> q{};
      for (float& v : q) v = rng.chance(1, 2) ? 0.5f : -0.5f;
      return q;
    }
    default:
      break;
  }
  int32_t a[4];
  int64_t n2 = 0;
  do {
    n2 = 0;
    for (int32_t& v : a) {
      v = rng.range(-9, 9);
      n2 += int64_t{v} * v;
    }
  } while (n2 == 0);
  const double n = std::sqrt(static_cast<double>(n2));
  return {static_cast<float>(a[0] / n), static_cast<float>(a[1] / n), static_cast<float>(a[2] / n),
          static_cast<float>(a[3] / n)};
}

/// A valid UTF-8 name of at most `max_len` characters (letters, digits, '_', sometimes "é"),
/// at least `min_len` characters.
inline std::string random_name(GenRng& rng, uint32_t min_len, uint32_t max_len) {
  static constexpr char kChars[] =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789";
  const uint32_t len = min_len + rng.below(max_len - min_len + 1);
  std::string s;
  for (uint32_t i = 0; i < len; ++i) {
    if (rng.chance(1, 12))
      s += "\xC3\xA9";  // U+00E9
    else
      s += kChars[rng.below(sizeof kChars - 1)];
  }
  return s;
}

inline std::vector<uint8_t> random_bytes(GenRng& rng, uint32_t max_len) {
  std::vector<uint8_t> b(rng.below(max_len + 1));
  for (auto& x : b) x = static_cast<uint8_t>(rng.below(256));
  return b;
}

/// A parent table for n nodes that is a forest by construction: nodes are attached in a random
/// topological order, each to -1 or to a node placed before it in that order, so children may
/// precede their parents in file order but no cycle exists. Returns node indices (or -1).
inline std::vector<int32_t> random_forest(GenRng& rng, uint32_t n) {
  std::vector<uint32_t> order(n);
  for (uint32_t i = 0; i < n; ++i) order[i] = i;
  for (uint32_t i = n; i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
  std::vector<int32_t> parent(n, -1);
  for (uint32_t k = 1; k < n; ++k)
    if (!rng.chance(1, 3)) parent[order[k]] = static_cast<int32_t>(order[rng.below(k)]);
  return parent;
}

/// One row of a mutation table: name, rule, expected code per profile (nullopt = accept),
/// and the function that applies it (false when the file has nothing it can mutate).
template <class Ctx>
struct Kind {
  std::string_view name;
  std::string_view rule;
  std::optional<ErrorCode> first, second;
  bool (*apply)(GenCase&, GenRng&, const Ctx&);
};

/// Applies one kind of `table`, starting at a seeded index and taking the first that applies.
/// Sets kind, rule, negative and the declared expectations. Returns false if none applies.
template <class Ctx, size_t N>
bool apply_one(GenCase& c, GenRng& rng, const Ctx& ctx, const std::array<Kind<Ctx>, N>& table) {
  const uint32_t start = rng.below(N);
  for (uint32_t i = 0; i < N; ++i) {
    const Kind<Ctx>& k = table[(start + i) % N];
    GenCase trial = c;
    if (!k.apply(trial, rng, ctx)) continue;
    c = std::move(trial);
    c.negative = true;
    c.kind = std::string(k.name);
    c.rule = std::string(k.rule);
    c.expect[0].accept = !k.first;
    if (k.first) c.expect[0].error = *k.first;
    c.expect[1].accept = !k.second;
    if (k.second) c.expect[1].error = *k.second;
    return true;
  }
  return false;
}

template <class Ctx, size_t N>
void list_kinds(GenFormat f, const std::array<Kind<Ctx>, N>& table,
                std::vector<GenMutationKind>& out) {
  for (const auto& k : table) out.push_back({f, k.name, k.rule, k.first, k.second});
}

std::vector<GenMutationKind> vfp_kinds();
std::vector<GenMutationKind> rkc_family_kinds();

}  // namespace voxrig::gen::detail
