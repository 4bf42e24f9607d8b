// The KFA breakers (voxrig/testing/rule_breakers.h): one edit per rule of docs/spec/kfa.md (and
// the KFA limits of limits.md) at a chosen hinge of a standalone KFA file.
//
// Parents are model edits (decode_kfa, change, encode_kfa: the writer does not check them); a
// cut and a count past the limit are byte edits, at offsets the fixed layout gives (magic,
// name_len, name, numhin, 64 bytes a hinge).
#include "rule_breakers_internal.h"
#include "voxrig/kfa.h"
#include "voxrig/limits.h"
#include "voxrig/testing/layout.h"

namespace voxrig::testing::detail {
namespace {

constexpr size_t kDeepHinge = 3;

// Where numhin sits, when the name fits.
std::optional<size_t> numhin_at(const Bytes& b) {
  if (b.size() < 12 || b[0] != 'K' || b[1] != 'w' || b[2] != 'l' || b[3] != 'k') return {};
  const size_t n = size_t(b[4]) | size_t(b[5]) << 8 | size_t(b[6]) << 16 | size_t(b[7]) << 24;
  if (n > b.size() || 8 + n + 4 > b.size()) return {};
  return 8 + n;
}

using ModelEdit = bool (*)(Kfa&, BreakAt);
using BytesEdit = bool (*)(Bytes&, size_t numhin_at, BreakAt);

struct KfaBreaker {
  const char* rule;
  ModelEdit edit = nullptr;
  BytesEdit bytes = nullptr;
  bool positional = true;
};

const KfaBreaker kKfaBreakers[] = {
    {"KFA-2", nullptr,
     [](Bytes& b, size_t at, BreakAt p) {  // the file ends inside the chosen hinge
       const size_t n = size_t(b[at]) | size_t(b[at + 1]) << 8;
       return n > 0 && (b.resize(at + 4 + 64 * break_index(p, n, kDeepHinge) + 30), true);
     }},
    {"LIM-12", nullptr,
     [](Bytes& b, size_t at, BreakAt) {  // numhin one past the hinge limit
       const uint32_t v = uint32_t(Limits{}.kfa_hinges + 1);
       for (int i = 0; i < 4; ++i) b[at + i] = uint8_t(v >> (8 * i));
       return true;
     },
     false},
    {"KFA-3",
     [](Kfa& k, BreakAt p) {
       return !k.hinges.empty() &&
              (k.hinges[break_index(p, k.hinges.size(), kDeepHinge)].parent =
                   int32_t(k.hinges.size()),
               true);
     }},
    {"KFA-4",
     [](Kfa& k, BreakAt p) {  // a child of the hinge closes a cycle; none: itself
       if (k.hinges.empty()) return false;
       const size_t h = break_index(p, k.hinges.size(), kDeepHinge);
       int32_t parent = int32_t(h);
       for (size_t i = 0; i < k.hinges.size(); ++i)
         if (k.hinges[i].parent == int32_t(h)) parent = int32_t(i);
       k.hinges[h].parent = parent;
       return true;
     }},
};

}  // namespace

std::vector<std::string> kfa_breakable() {
  std::vector<std::string> ids;
  for (const KfaBreaker& b : kKfaBreakers) ids.push_back(b.rule);
  return ids;
}

std::vector<conform::FuzzMutator> kfa_breakers() {
  std::vector<conform::FuzzMutator> out;
  for (BreakAt pos : kBreakPositions)
    for (const KfaBreaker& b : kKfaBreakers) {
      if (!b.positional && pos != BreakAt::Deep) continue;
      out.push_back(breaker_mutator(b.rule, "", pos, [b, pos](std::span<const uint8_t> in) {
        Bytes out(in.begin(), in.end());
        if (!numhin_at(out)) return Bytes{};
        if (b.edit) {
          auto k = decode_kfa(in, DecodeOptions{Profile::RkcStrict, Limits{}});
          if (!k.ok()) return Bytes{};
          Kfa kfa = std::move(k).value();
          if (!b.edit(kfa, pos)) return Bytes{};
          auto bytes = encode_kfa(kfa);
          if (!bytes.ok()) return Bytes{};
          out = std::move(bytes).value();
        }
        const auto at = numhin_at(out);
        if (b.bytes && !(at && b.bytes(out, *at, pos))) return Bytes{};
        return out;
      }));
    }
  return out;
}

}  // namespace voxrig::testing::detail
