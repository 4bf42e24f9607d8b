// RKCH round trips (docs/spec/writers.md#D1): canonical outputs are byte-exact fixed points under both
// profiles, parse after serialize gives the model back, and every non-canonical spelling of a
// character (chunk order, earlier duplicates, trailing payload bytes, missing empty CLPS/VCLP)
// decodes to the same model and re-serializes to the canonical bytes.
#include <algorithm>
#include <cstring>

#include "prop_gen_common.h"
#include "prop_gen_rkc.h"
#include "prop_support.h"
#include "voxrig/rkc.h"
#include "voxrig/testing/le_bytes.h"
#include "voxrig/utf8.h"

namespace voxrig::props {
namespace {

using Bytes = std::vector<uint8_t>;

constexpr Profile kProfiles[] = {Profile::RkcStrict, Profile::RkcCompat};

Bytes encode_ok(const Character& c) {
  auto e = encode_rkc(c);
  if (!e.ok()) RC_FAIL("encode_rkc failed: " + e.error().to_text());
  return std::move(e).value();
}

// D1 roundtrip (= canonicalize) for RKCH. any_format.h does not dispatch the RKCH family yet, so
// the family's own functions are called.
Result<Bytes> roundtrip(const Bytes& b, Profile p) {
  auto d = decode_rkc(b, DecodeOptions{p, Limits{}});
  if (!d.ok()) return d.error();
  return encode_rkc(d.value());
}

Character decode_ok(const Bytes& b, Profile p) {
  auto d = decode_rkc(b, DecodeOptions{p, Limits{}});
  if (!d.ok()) RC_FAIL("decode_rkc failed: " + d.error().to_text());
  return std::move(d).value();
}

struct Chunk {
  std::string tag;
  Bytes payload;
};

// Splits a file this test wrote itself (trusted) into its chunks.
std::vector<Chunk> chunks_of(const Bytes& b) {
  std::vector<Chunk> out;
  for (size_t pos = 6; pos + 8 <= b.size();) {
    const uint32_t len = testing::le_u32(b, pos + 4);
    out.push_back({std::string(b.begin() + long(pos), b.begin() + long(pos) + 4),
                   Bytes(b.begin() + long(pos) + 8, b.begin() + long(pos + 8 + len))});
    pos += 8 + len;
  }
  return out;
}

Bytes file_of(const std::vector<Chunk>& chunks) {
  testing::LeBytes b;
  b.str("RKCH").u16(3);
  for (const Chunk& c : chunks) b.chunk(c.tag, c.payload);
  return b.bytes();
}

bool is_known(const std::string& tag) {
  return tag == "META" || tag == "MSHS" || tag == "BONS" || tag == "CLPS" || tag == "VCLP";
}

// A non-canonical spelling of `canonical` with the same content (docs/spec/rkch.md#where-parse-then-serialize-is-not-byte-identical cases 1-4).
Bytes scramble(const Bytes& canonical) {
  std::vector<Chunk> known, unknown;
  for (Chunk& c : chunks_of(canonical)) (is_known(c.tag) ? known : unknown).push_back(std::move(c));
  std::vector<Chunk> items;
  for (Chunk& c : known) {
    const bool empty_list = (c.tag == "CLPS" || c.tag == "VCLP") && c.payload == Bytes{0, 0, 0, 0};
    if (empty_list && one_in(2)) continue;                    // case 3: an empty list may be absent
    if (one_in(3)) items.push_back({c.tag, some_bytes(20)});  // case 1: never decoded
    if (one_in(3)) {                                          // case 4: dropped trailing bytes
      const Bytes junk = some_bytes(8);
      c.payload.insert(c.payload.end(), junk.begin(), junk.end());
    }
    items.push_back(std::move(c));
  }
  // Case 2: any order of the known chunks (each kept copy after its duplicate), interleaved
  // with the unknown ones, which keep their relative order.
  const std::vector<size_t> keys = *rc::gen::container<std::vector<size_t>>(
      items.size(), rc::gen::inRange<size_t>(0, items.size() + 1));
  std::vector<size_t> idx(items.size());
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return keys[a] < keys[b]; });
  // Put each tag's copies back in their original relative order (the kept copy last).
  for (size_t i = 0; i < idx.size(); ++i) {
    for (size_t j = i + 1; j < idx.size(); ++j)
      if (items[idx[j]].tag == items[idx[i]].tag && idx[j] < idx[i]) std::swap(idx[i], idx[j]);
  }
  std::vector<Chunk> out;
  size_t u = 0;
  for (size_t i : idx) {
    while (u < unknown.size() && one_in(2)) out.push_back(unknown[u++]);
    out.push_back(items[i]);
  }
  while (u < unknown.size()) out.push_back(unknown[u++]);
  return file_of(out);
}

}  // namespace

VOXRIG_PROP(RkcRoundTrip, CanonicalBytesAreFixedPoints, 1000, ()) {
  const Character c = *gen_character();
  const Bytes bytes = encode_ok(c);
  record("rkc", bytes);
  check_fixed_point(
      bytes, kProfiles, [](const Bytes& b, Profile p) { return encode_ok(decode_ok(b, p)); },
      roundtrip);
}

VOXRIG_PROP(RkcRoundTrip, DecodeAfterEncodeGivesTheModel, 1000, ()) {
  const Character c = *gen_character();
  const Bytes bytes = encode_ok(c);
  record("rkc", bytes);
  for (Profile p : kProfiles) RC_ASSERT(decode_ok(bytes, p) == c);
}

VOXRIG_PROP(RkcCanonical, NonCanonicalSpellingsReachTheCanonicalBytes, 1000, ()) {
  const Character c = *gen_character();
  const Bytes canonical = encode_ok(c);
  const Bytes input = choose("scrambled", [canonical] { return scramble(canonical); });
  record("rkc", input);
  for (Profile p : kProfiles) {
    RC_LOG() << "profile " << to_string(p) << "\n";
    RC_ASSERT(decode_ok(input, p) == c);
    auto once = roundtrip(input, p);
    VOXRIG_RC_OK(once);
    VOXRIG_RC_SAME_BYTES(once.value(), canonical);
    auto twice = roundtrip(once.value(), p);
    VOXRIG_RC_OK(twice);
    VOXRIG_RC_SAME_BYTES(twice.value(), once.value());
  }
}

VOXRIG_PROP(RkcCanonical, RepairedNamesAreIdempotentUnderCompat, 600, ()) {
  const Character c = choose("ill-formed names", [base = *gen_character()] {
    Character x = base;
    x.name = bad_utf8_name(40);
    for (Bone& b : x.bones)
      if (one_in(2)) b.name = bad_utf8_name(20);
    return x;
  });
  const Bytes input = encode_ok(c);  // the writer copies name bytes as they are
  record("rkc", input);
  RC_ASSERT(code_of(decode_rkc(input, DecodeOptions{Profile::RkcStrict, Limits{}})) ==
            std::string("rkc.bad_utf8"));
  const Character repaired = decode_ok(input, Profile::RkcCompat);
  RC_ASSERT(repaired.name ==
            repair_utf8(std::span(reinterpret_cast<const uint8_t*>(c.name.data()), c.name.size())));
  auto once = roundtrip(input, Profile::RkcCompat);
  VOXRIG_RC_OK(once);
  auto twice = roundtrip(once.value(), Profile::RkcCompat);
  VOXRIG_RC_OK(twice);
  VOXRIG_RC_SAME_BYTES(twice.value(), once.value());
  RC_ASSERT(decode_ok(once.value(), Profile::RkcStrict) == repaired);
}

VOXRIG_PROP(RkcPreservation, UnknownChunksKeepPayloadAndRelativeOrder, 1000, ()) {
  const Character c = *gen_character();
  const Bytes canonical = encode_ok(c);
  const Bytes input = choose("scrambled", [canonical] { return scramble(canonical); });
  record("rkc", input);
  std::vector<Chunk> in_unknown;
  for (Chunk& k : chunks_of(input))
    if (!is_known(k.tag)) in_unknown.push_back(std::move(k));
  auto out = roundtrip(input, Profile::RkcStrict);
  VOXRIG_RC_OK(out);
  const std::vector<Chunk> out_chunks = chunks_of(out.value());
  RC_ASSERT(out_chunks.size() == 5 + in_unknown.size());
  const char* order[] = {"META", "MSHS", "BONS", "CLPS", "VCLP"};
  for (size_t i = 0; i < 5; ++i) RC_ASSERT(out_chunks[i].tag == std::string(order[i]));
  for (size_t i = 0; i < in_unknown.size(); ++i) {
    RC_ASSERT(out_chunks[5 + i].tag == in_unknown[i].tag);
    RC_ASSERT(out_chunks[5 + i].payload == in_unknown[i].payload);
  }
}

}  // namespace voxrig::props
