// decode_rkc's success path against the field-by-field decoder it falls back to
// (decode_rkc_field_by_field, voxrig/rkc.h): on every input, valid or damaged, under both profiles,
// decode_rkc and decode_rkc_field_by_field give the same Character or the same error (code, offset,
// path). The fast path may only accept what the field-by-field decoder accepts, and must then build
// the same model; a damaged file must never be accepted by one and rejected by the other.
#include <algorithm>
#include <cstring>

#include "prop_gen_common.h"
#include "prop_gen_rkc.h"
#include "prop_support.h"
#include "voxrig/rkc.h"
#include "voxrig/testing/layout.h"

namespace voxrig::props {
namespace {

using Bytes = std::vector<uint8_t>;

void check_same(const Bytes& bytes) {
  for (Profile p : {Profile::RkcStrict, Profile::RkcCompat}) {
    const DecodeOptions o{p, Limits{}};
    const auto fast = decode_rkc(bytes, o);
    const auto slow = decode_rkc_field_by_field(bytes, o);
    RC_ASSERT(fast.ok() == slow.ok());
    if (fast.ok()) {
      RC_ASSERT(fast.value() == slow.value());
    } else {
      RC_ASSERT(fast.error().code == slow.error().code);
      RC_ASSERT(fast.error().offset == slow.error().offset);
      RC_ASSERT(fast.error().path == slow.error().path);
    }
  }
}

Bytes encode_ok(const Character& c) {
  auto e = encode_rkc(c);
  if (!e.ok()) RC_FAIL("encode_rkc failed: " + e.error().to_text());
  return std::move(e).value();
}

}  // namespace

VOXRIG_PROP(RkcFastPath, SameAsFieldByFieldOnValidFiles, 500, ()) {
  const Bytes bytes = encode_ok(*gen_character());
  record("rkc", bytes);
  check_same(bytes);
}

// Damage aimed at one named field of the walk (testing/layout.h: a count, a length, a kind, an
// attachment index, a parent, a name byte...): its value moved by -2..+2, or set to 0, 1, a high
// bit or all ones. Values just past a table's end are what the cross-reference and limit rules
// are about.
VOXRIG_PROP(RkcFastPath, SameAsFieldByFieldAfterAFieldEdit, 1500, ()) {
  Bytes bytes = encode_ok(*gen_character());
  const testing::Layout layout = testing::layout_of(bytes);
  std::vector<testing::Field> fields;
  for (const testing::Field& f : layout.fields)
    if ((f.size == 1 || f.size == 2 || f.size == 4) && f.offset + f.size <= bytes.size())
      fields.push_back(f);
  RC_PRE(!fields.empty());
  const int edits = *rc::gen::inRange(1, 3);
  for (int e = 0; e < edits; ++e) {
    const testing::Field& f = fields[*rc::gen::inRange<size_t>(0, fields.size())];
    uint64_t v = 0;
    for (size_t k = 0; k < f.size; ++k) v |= uint64_t{bytes[f.offset + k]} << (8 * k);
    const int how = *rc::gen::inRange(0, 8);
    const uint64_t top = uint64_t{1} << (8 * f.size - 1);
    v = how < 4    ? v + uint64_t(how - 2 + (how >= 2))
        : how == 4 ? 0
        : how == 5 ? 1
        : how == 6 ? top
                   : ~uint64_t{0};
    for (size_t k = 0; k < f.size; ++k) bytes[f.offset + k] = static_cast<uint8_t>(v >> (8 * k));
  }
  record("rkc", bytes);
  check_same(bytes);
}

// Damage that keeps most of the structure: bytes overwritten (a count, a kind, a parent, a name
// byte with its high bit set...), small values written over u32 fields, truncation.
VOXRIG_PROP(RkcFastPath, SameAsFieldByFieldOnDamagedFiles, 1500, ()) {
  Bytes bytes = encode_ok(*gen_character());
  RC_PRE(bytes.size() > 8);
  const int edits = *rc::gen::inRange(1, 4);
  for (int e = 0; e < edits; ++e) {
    const size_t at = *rc::gen::inRange<size_t>(6, bytes.size());
    switch (*rc::gen::inRange(0, 4)) {
      case 0:
        bytes[at] = *rc::gen::arbitrary<uint8_t>();
        break;
      case 1:
        bytes[at] ^= static_cast<uint8_t>(1u << *rc::gen::inRange(0, 8));
        break;
      case 2: {  // a small or boundary u32 over whatever is there
        const uint32_t v = *rc::gen::element<uint32_t>(0u, 1u, 2u, 3u, 0xFFFFFFFFu, 0x80000000u);
        for (size_t k = 0; k < 4 && at + k < bytes.size(); ++k)
          bytes[at + k] = static_cast<uint8_t>(v >> (8 * k));
        break;
      }
      default:
        bytes.resize(at);
        break;
    }
    if (bytes.size() <= 6) break;
  }
  record("rkc", bytes);
  check_same(bytes);
}

}  // namespace voxrig::props
