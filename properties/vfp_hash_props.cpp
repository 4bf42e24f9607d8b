// Hash binding (docs/spec/rig.md#rig-sections-in-the-container): the header sourceHash is SHA-256 of the VOX0 payload,
// every baseSourceHash must equal it and every skeletonHash must equal SHA-256 of the SKEL
// payload. Any change to VOX0 breaks every rig section's binding under vfp-rig; any change to
// SKEL breaks VSKN's and ANIM's skeletonHash; rebind() repairs both.
#include <algorithm>

#include "prop_gen_vfp.h"
#include "prop_support.h"
#include "vfp_mutate.h"

namespace voxrig::props {
namespace {

VfpGenOptions rigged() {
  VfpGenOptions o;
  o.rig = VfpGenOptions::Rig::Always;
  return o;
}

Bytes encode_ok(const VfpFile& f) {
  auto e = encode_vfp(f);
  if (!e.ok()) RC_FAIL("encode_vfp failed: " + e.error().to_text());
  return std::move(e).value();
}

Sha256 header_hash(const Bytes& file) {
  Sha256 h{};
  std::copy_n(file.begin() + 12, 32, h.begin());
  return h;
}

std::string rig_code(const Bytes& b) {
  return code_of(decode_vfp(b, DecodeOptions{Profile::VfpRig, {}}));
}

// f with one part changed by mutate, chosen so that shrinking keeps the change; the caller
// discards the case when the change left the part equal.
template <class Mutate>
VfpFile changed(const VfpFile& f, const char* label, Mutate mutate) {
  return choose(label, [f, mutate] {
    VfpFile x = f;
    mutate(x);
    return x;
  });
}

// Decodes each rig section of g on its own, bound to `source` and to the SHA-256 of g's SKEL
// payload: SKEL must give skel_code ("ok" or a code), VSKN and ANIM (when g has one)
// vskn.<binding> and anim.<binding>. Then rebind(g) must make the whole file valid again.
void check_sections_then_rebind(VfpFile& g, const Sha256& source, const std::string& skel_code,
                                const std::string& binding) {
  const Skel& skel = *g.skel();
  const Bytes skel_payload = encode_skel(skel).value();
  const RigContext ctx{source, sha256(skel_payload), &skel, g.vox0()};
  RC_ASSERT(code_of(decode_skel(skel_payload, 0, ctx, {})) == skel_code);
  RC_ASSERT(code_of(decode_vskn(encode_vskn(*g.vskn()), 0, ctx, {})) == "vskn." + binding);
  if (const Anim* anim = g.anim())
    RC_ASSERT(code_of(decode_anim(encode_anim(*anim).value(), 0, ctx, {})) == "anim." + binding);
  rebind(g);
  RC_ASSERT(rig_code(encode_ok(g)) == std::string("ok"));
}

}  // namespace

VOXRIG_PROP(VfpHashBinding, AnyVox0ChangeBreaksEveryRigBinding, 1200, ()) {
  const VfpFile f = *gen_vfp_file(rigged());
  VfpFile g = changed(f, "VOX0 change", [](VfpFile& x) { mutate_vox0(*x.vox0()); });
  RC_PRE(!(*g.vox0() == *f.vox0()));
  const Bytes before = encode_ok(f), after = encode_ok(g);
  record("vfp", after);
  // The writer hashes the new payload; nothing else binds it yet.
  const Sha256 source = sha256(encode_vox0(*g.vox0()));
  RC_ASSERT(header_hash(after) == source);
  RC_ASSERT(header_hash(after) != header_hash(before));
  RC_ASSERT(rig_code(after) == std::string("skel.base_source_hash"));
  VOXRIG_RC_OK(decode_vfp(after, DecodeOptions{Profile::VfpStatic, {}}));
  // Each rig section on its own reports its own binding.
  check_sections_then_rebind(g, source, "skel.base_source_hash", "base_source_hash");
}

VOXRIG_PROP(VfpHashBinding, AnySkelChangeBreaksSkeletonHashes, 1200, ()) {
  const VfpFile f = *gen_vfp_file(rigged());
  VfpFile g = changed(f, "SKEL change", [](VfpFile& x) { mutate_skel(*x.skel()); });
  RC_PRE(!(*g.skel() == *f.skel()));
  const Bytes after = encode_ok(g);
  record("vfp", after);
  RC_ASSERT(rig_code(after) == std::string("vskn.skeleton_hash"));
  // SKEL itself is still bound to VOX0; VSKN and ANIM report the skeleton binding.
  check_sections_then_rebind(g, header_hash(after), "ok", "skeleton_hash");
}

VOXRIG_PROP(VfpHashBinding, StaticModelHashEqualsRiggedTwin, 600, ()) {
  // "No rig sections at all = a static model, and its sourceHash is identical to the rigged
  // version of the same model."
  const VfpFile f = *gen_vfp_file(rigged());
  VfpFile s = f;
  std::erase_if(s.sections, [](const Section& x) {
    return x.header.tag == make_tag("SKEL") || x.header.tag == make_tag("VSKN") ||
           x.header.tag == make_tag("ANIM");
  });
  const Bytes rigged_bytes = encode_ok(f), static_bytes = encode_ok(s);
  record("vfp", rigged_bytes);
  RC_ASSERT(header_hash(rigged_bytes) == header_hash(static_bytes));
  RC_ASSERT(header_hash(static_bytes) == sha256(encode_vox0(*f.vox0())));
  RC_ASSERT(f.skel()->base_source_hash == header_hash(rigged_bytes));
  RC_ASSERT(rig_code(static_bytes) == std::string("ok"));
}

}  // namespace voxrig::props
