// VfpFile accessors and the bit-pattern float equality of Vec3 / Quat (docs/spec/conventions.md#D5).
//
// The accessors match tag AND body: a hand-built model could put a body under a foreign tag,
// and the writer hashes what the file calls VOX0.
#include "voxrig/vfp_model.h"
#include "voxrig/float_text.h"  // same_bits: -0.0 != +0.0, NaN == NaN with the same payload

namespace voxrig {

namespace {

// The first section whose tag is `tag` and whose body holds a decoded T.
template <class T, class Sections>
auto* find_body(Sections& sections, SectionTag tag) {
  using Ptr = decltype(std::get_if<T>(&sections.front().body));
  for (auto& s : sections) {
    if (s.header.tag != tag) continue;
    if (auto* body = std::get_if<T>(&s.body)) return body;
  }
  return Ptr{nullptr};
}

constexpr SectionTag kVox0 = make_tag("VOX0");
constexpr SectionTag kSkel = make_tag("SKEL");
constexpr SectionTag kVskn = make_tag("VSKN");
constexpr SectionTag kAnim = make_tag("ANIM");

}  // namespace

bool Vec3::operator==(const Vec3& o) const {
  return same_bits(x, o.x) && same_bits(y, o.y) && same_bits(z, o.z);
}

bool Quat::operator==(const Quat& o) const {
  return same_bits(x, o.x) && same_bits(y, o.y) && same_bits(z, o.z) && same_bits(w, o.w);
}

const Vox0* VfpFile::vox0() const { return find_body<Vox0>(sections, kVox0); }
Vox0* VfpFile::vox0() { return find_body<Vox0>(sections, kVox0); }
const Skel* VfpFile::skel() const { return find_body<Skel>(sections, kSkel); }
Skel* VfpFile::skel() { return find_body<Skel>(sections, kSkel); }
const Vskn* VfpFile::vskn() const { return find_body<Vskn>(sections, kVskn); }
Vskn* VfpFile::vskn() { return find_body<Vskn>(sections, kVskn); }
const Anim* VfpFile::anim() const { return find_body<Anim>(sections, kAnim); }
Anim* VfpFile::anim() { return find_body<Anim>(sections, kAnim); }

}  // namespace voxrig
