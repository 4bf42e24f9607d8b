// Robustness: every strict prefix and every single-byte change of a valid file gives a result or
// a clean error (never category internal), within limits (the heap a call reaches stays under a
// budget derived from tight Limits), and whatever is accepted is written back consistently: VFP
// and RVC byte for byte, RKCH / KV6 / KFA as a fixed point of the canonical writer.
#include <functional>

#include "prop_gen_rkc.h"
#include "prop_gen_vfp.h"
#include "prop_support.h"
#include "voxrig/dump.h"
#include "voxrig/testing/alloc_counter.h"

namespace voxrig::props {
namespace {

using Bytes = std::vector<uint8_t>;
using testing::heap_peak_growth;
using testing::heap_reset_peak;

// Limits far below the defaults, so a count made huge by one changed byte hits a limit quickly
// and the heap budget below means something.
Limits tight() {
  Limits l;
  l.vfp_sections = 256;
  l.vox0_voxels = 1 << 16;
  l.skel_joints = 1024;
  l.anim_clips = 256;
  l.anim_keys_per_track = 1 << 12;
  l.anim_keys_total = 1 << 14;
  l.rkc_meshes = l.rkc_clips = l.rkc_voxel_clips = l.rkc_attachments_per_bone = 64;
  l.rkc_bones = l.kfa_hinges = 256;
  l.rkc_frame_cells = l.kfa_frame_cells = 1 << 14;
  l.rkc_seq = l.kfa_seq = l.rvc_frames = 1 << 12;
  l.kv6_voxels = 1 << 14;
  l.kv6_columns = 1 << 12;
  l.rvc_inflated_per_chunk = 1 << 20;
  l.rvc_inflated_total = 2 << 20;
  l.rvc_working_set = 2 << 20;
  return l;
}

// The most one call may hold under tight(): inflated total + working set, plus the model.
constexpr size_t kHeapBudget = 16u << 20;

// A verdict on one input: empty when fine, otherwise what went wrong.
using Check = std::function<std::string(const Bytes&)>;

void sweep(const Bytes& valid, const Check& check, const char* ext) {
  uint64_t state = *rc::gen::arbitrary<uint64_t>() | 1;  // xorshift: one pick, not one per byte
  auto run = [&](const Bytes& input, const std::string& what) {
    heap_reset_peak();
    std::string msg = check(input);
    const size_t peak = heap_peak_growth();
    if (msg.empty() && peak > kHeapBudget) msg = "heap peak " + std::to_string(peak) + " bytes";
    if (!msg.empty()) {
      record(ext, input);
      RC_FAIL(what + ": " + msg);
    }
  };
  for (size_t n = 0; n < valid.size(); ++n)
    run(Bytes(valid.begin(), valid.begin() + long(n)), "prefix of " + std::to_string(n) + " bytes");
  for (size_t i = 0; i < valid.size(); ++i) {
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    Bytes b = valid;
    b[i] = static_cast<uint8_t>(b[i] ^ (1 + state % 255));
    run(b, "byte " + std::to_string(i) + " changed");
  }
}

// VFP and RVC: under each profile, input accepted -> written back byte for byte, then `more`
// (further calls on the model; a non-empty message fails) and the dump. `name` is the codec's
// suffix in the messages (decode_<name>, encode_<name>).
template <class Decode, class Encode, class More, class Dump>
std::string check_byte_exact(const Bytes& in, std::initializer_list<Profile> profiles,
                             const std::string& name, Decode decode, Encode encode, More more,
                             Dump dump) {
  for (Profile p : profiles) {
    auto d = decode(in, DecodeOptions{p, tight()});
    if (!d.ok()) {
      if (auto m = internal(d, ("decode_" + name).c_str()); !m.empty())
        return std::string(to_string(p)) + ": " + m;
      continue;
    }
    auto e = encode(d.value());
    if (!e.ok())
      return std::string(to_string(p)) + ": accepted, but encode_" + name +
             " failed: " + e.error().to_text();
    if (e.value() != in)
      return std::string(to_string(p)) + ": accepted, but re-encoded: " + diff_bytes(e.value(), in);
    if (auto m = more(d.value()); !m.empty()) return std::string(to_string(p)) + ": " + m;
    (void)dump(d.value());
  }
  return {};
}

std::string check_vfp(const Bytes& in) {
  return check_byte_exact(
      in, {Profile::VfpRig, Profile::VfpStatic}, "vfp",
      [](const Bytes& b, const DecodeOptions& o) { return decode_vfp(b, o); },
      [](const VfpFile& f) { return encode_vfp(f); }, [](const VfpFile&) { return std::string(); },
      [](const VfpFile& f) { return dump_vfp(f); });
}

std::string check_rkc(const Bytes& in) {
  for (Profile p : {Profile::RkcStrict, Profile::RkcCompat}) {
    auto d = decode_rkc(in, DecodeOptions{p, tight()});
    if (!d.ok()) {
      if (auto m = internal(d, "decode_rkc"); !m.empty())
        return std::string(to_string(p)) + ": " + m;
      continue;
    }
    (void)dump_rkc(d.value());
    auto e = encode_rkc(d.value());
    if (!e.ok()) {
      if (e.error().code == ErrorCode::RkcWriteNameTooLong) continue;  // a repaired name grew
      return std::string(to_string(p)) +
             ": accepted, but encode_rkc failed: " + e.error().to_text();
    }
    auto d2 = decode_rkc(e.value(), DecodeOptions{p, tight()});
    if (!d2.ok())
      return std::string(to_string(p)) +
             ": the writer's output is rejected: " + d2.error().to_text();
    if (!(d2.value() == d.value()))
      return std::string(to_string(p)) + ": the writer's output decodes to another model";
  }
  return {};
}

std::string check_rvc(const Bytes& in) {
  return check_byte_exact(
      in, {Profile::RkcStrict, Profile::RkcCompat}, "rvc",
      [](const Bytes& b, const DecodeOptions& o) { return decode_rvc(b, 0, o); },
      [](const RvcClip& c) { return encode_rvc(c); },
      [](const RvcClip& c) { return internal(decode_rvc_frames(c, tight()), "decode_rvc_frames"); },
      [](const RvcClip& c) { return dump_rvc(c); });
}

// KV6 and KFA: accepted input -> canonical bytes that decode to the same model.
template <class Decode, class Encode>
std::string check_fixed_point(const Bytes& in, Decode decode, Encode encode, const char* name) {
  for (Profile p : {Profile::RkcStrict, Profile::RkcCompat}) {
    auto d = decode(in, DecodeOptions{p, tight()});
    if (!d.ok()) {
      if (auto m = internal(d, name); !m.empty()) return std::string(to_string(p)) + ": " + m;
      continue;
    }
    auto e = encode(d.value());
    if (!e.ok())
      return std::string(to_string(p)) +
             ": accepted, but the writer failed: " + e.error().to_text();
    auto d2 = decode(e.value(), DecodeOptions{p, tight()});
    if (!d2.ok() || !(d2.value() == d.value()))
      return std::string(to_string(p)) + ": the writer's output does not read back";
  }
  return {};
}

Result<Kv6> decode_kv6_at_0(std::span<const uint8_t> b, const DecodeOptions& o) {
  return decode_kv6(b, 0, o);
}
std::string check_kv6(const Bytes& b) {
  return check_fixed_point(b, decode_kv6_at_0, encode_kv6, "decode_kv6");
}
std::string check_kfa(const Bytes& b) {
  return check_fixed_point(b, decode_kfa, encode_kfa, "decode_kfa");
}

Bytes ok_bytes(Result<Bytes> r) {
  if (!r.ok()) RC_FAIL("encoding the generated model failed: " + r.error().to_text());
  return std::move(r).value();
}

}  // namespace

VOXRIG_PROP(Robustness, VfpPrefixesAndByteChanges, 60, ()) {
  const Bytes file = ok_bytes(encode_vfp(*gen_vfp_file()));
  sweep(file, check_vfp, "vfp");
  // No strict prefix of a VFP file is a VFP file (sectionCount and lengths pin the size).
  for (size_t n = 0; n < file.size(); ++n)
    RC_ASSERT(
        !decode_vfp(std::span(file).first(n), DecodeOptions{Profile::VfpStatic, tight()}).ok());
}

VOXRIG_PROP(Robustness, RkcPrefixesAndByteChanges, 40, ()) {
  sweep(ok_bytes(encode_rkc(*gen_character())), check_rkc, "rkc");
}

VOXRIG_PROP(Robustness, RvcPrefixesAndByteChanges, 60, ()) {
  sweep(*gen_rvc_stored_variant(*gen_rvc_clip()), check_rvc, "rvc");
}

VOXRIG_PROP(Robustness, Kv6PrefixesAndByteChanges, 100, ()) {
  sweep(ok_bytes(encode_kv6(*gen_kv6())), check_kv6, "kv6");
}

VOXRIG_PROP(Robustness, KfaPrefixesAndByteChanges, 100, ()) {
  sweep(ok_bytes(encode_kfa(*gen_kfa())), check_kfa, "kfa");
}

}  // namespace voxrig::props
