// What the RVC and KV6 breakers share (rule_breakers_internal.h): a format that is both a file
// of its own and a blob inside an RKCH chunk gets each breaker twice, once per way of reading it.
#include <cctype>

#include "rule_breakers_internal.h"
#include "voxrig/testing/layout.h"

namespace voxrig::testing::detail {
namespace {

bool offered(const NestedBreakerSpec& s, Profile p) {
  return !s.strict_only || p == Profile::RkcStrict;
}

}  // namespace

Bytes break_in_blob(std::span<const uint8_t> rkch, std::string_view tag, BreakAt pos,
                    size_t deep, const std::function<Bytes(std::span<const uint8_t>)>& edit) {
  auto s = split(rkch);
  if (!s || s->container != Container::Rkch) return {};
  for (Part& part : s->parts) {
    if (!part.is(tag)) continue;
    BlobList list = split_blobs(part.payload);
    if (list.blobs.empty()) return {};
    Bytes& blob = list.blobs[break_index(pos, list.blobs.size(), deep)];
    Bytes broken = edit(blob);
    if (broken.empty()) return {};
    blob = std::move(broken);
    part.payload = join_blobs(list);
    return join(*s);
  }
  return {};
}

std::vector<std::string> nested_breakable(std::span<const NestedBreakerSpec> specs, Profile p) {
  std::vector<std::string> ids;
  for (const NestedBreakerSpec& s : specs)
    if (offered(s, p) && std::find(ids.begin(), ids.end(), s.rule) == ids.end())
      ids.push_back(s.rule);
  return ids;
}

std::vector<conform::FuzzMutator> nested_breakers(std::span<const NestedBreakerSpec> specs,
                                                  Profile profile, std::string_view tag,
                                                  size_t deep_blob, const NestedApply& apply) {
  std::string lower(tag);
  for (char& c : lower) c = char(std::tolower(uint8_t(c)));
  std::vector<conform::FuzzMutator> out;
  for (BreakAt pos : kBreakPositions)
    for (size_t i = 0; i < specs.size(); ++i) {
      const NestedBreakerSpec& s = specs[i];
      if ((!s.positional && pos != BreakAt::Deep) || !offered(s, profile)) continue;
      const std::string v = s.variant;
      if (s.where != Where::Nested)
        out.push_back(breaker_mutator(s.rule, v, pos, [apply, i, pos](std::span<const uint8_t> in) {
          return apply(i, pos, in);
        }));
      if (s.where != Where::Standalone)
        out.push_back(breaker_mutator(
            s.rule, v.empty() ? lower : v + "-" + lower, pos,
            [apply, i, pos, t = std::string(tag), deep_blob](std::span<const uint8_t> in) {
              return break_in_blob(in, t, pos, deep_blob, [&](std::span<const uint8_t> blob) {
                return apply(i, pos, blob);
              });
            }));
    }
  return out;
}

}  // namespace voxrig::testing::detail
